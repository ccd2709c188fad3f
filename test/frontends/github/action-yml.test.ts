import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { INPUT_DEFAULTS } from '../../../src/frontends/github/inputs.js';
import { ROOT } from '../../helpers/cli.js';

interface ActionYml {
  runs: { using: string; main: string };
  inputs: Record<string, { description: string; required?: boolean; default?: string }>;
  outputs: Record<string, { description: string }>;
}

const actionYml = parse(readFileSync(join(ROOT, 'action.yml'), 'utf8')) as ActionYml;

describe('action.yml', () => {
  it('runs dist/index.js on a current node runtime', () => {
    expect(actionYml.runs).toEqual({ using: 'node24', main: 'dist/index.js' });
  });

  it('declares the same inputs as INPUT_DEFAULTS, with the same defaults', () => {
    expect(Object.keys(actionYml.inputs).sort()).toEqual(Object.keys(INPUT_DEFAULTS).sort());
    for (const [name, input] of Object.entries(actionYml.inputs)) {
      expect(input.description, name).toBeTruthy();
      // The runner fills `${{ github.token }}`; the code's own default for it is empty.
      if (name === 'github-token') {
        expect(input.default).toBe('${{ github.token }}');
        continue;
      }
      const expected = INPUT_DEFAULTS[name as keyof typeof INPUT_DEFAULTS];
      if (input.required === true) {
        expect(input.default, `${name} is required and has no default`).toBeUndefined();
        expect(expected, name).toBe('');
      } else {
        // YAML may read an unquoted default as a number; the runner passes the text.
        expect(String(input.default), name).toBe(expected);
      }
    }
  });

  it('declares every output that run.ts sets, and sets every output it declares', () => {
    const source = readFileSync(join(ROOT, 'src', 'frontends', 'github', 'run.ts'), 'utf8');
    const set = [...source.matchAll(/setOutput\('([^']+)'/g)].map((match) => match[1]);
    expect(set.length).toBeGreaterThan(0);
    expect([...new Set(set)].sort()).toEqual(Object.keys(actionYml.outputs).sort());
    for (const [name, output] of Object.entries(actionYml.outputs)) expect(output.description, name).toBeTruthy();
  });

  /** The rows of the table under a README heading: first cell's code spans, and the second cell. */
  function readmeTable(heading: string): { names: string[]; second: string }[] {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const start = readme.indexOf(`\n${heading}\n`);
    expect(start, `README has a "${heading}" section`).toBeGreaterThan(-1);
    const rows: { names: string[]; second: string }[] = [];
    for (const line of readme.slice(start + heading.length + 2).split('\n')) {
      if (line.startsWith('#')) break;
      if (!line.startsWith('| `')) continue;
      const [first = '', second = ''] = line.split(/(?<!\\)\|/).slice(1).map((cell) => cell.trim());
      rows.push({ names: [...first.matchAll(/`([^`]+)`/g)].map((match) => match[1]!), second });
    }
    return rows;
  }

  it('is documented in the README: every input with its default, every output', () => {
    const inputs = readmeTable('### Inputs');
    expect(inputs.flatMap((row) => row.names).sort()).toEqual(Object.keys(actionYml.inputs).sort());
    for (const row of inputs) {
      const name = row.names[0]!;
      const input = actionYml.inputs[name]!;
      const documented = row.second === '(required)' ? undefined : row.second.replace(/^`(.*)`$/, '$1');
      expect(documented, name).toBe(input.required === true ? undefined : String(input.default));
    }
    expect(readmeTable('### Outputs').flatMap((row) => row.names).sort()).toEqual(Object.keys(actionYml.outputs).sort());
  });
});
