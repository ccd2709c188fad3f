import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { INPUT_NAMES } from '../../../src/frontends/github/inputs.js';
import { OUTPUT_NAMES } from '../../../src/core/catalog/outputs.js';
import { actionYmlWithInputs, actionYmlWithOutputs, README_TABLES, withCatalogTables } from '../../../src/render/catalog-docs.js';
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

  it("agrees with the README on Node: the CLI's engines floor, and the runtime the action runs on", () => {
    const { engines } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { engines: { node: string } };
    const floor = /^>=(\d+)$/.exec(engines.node)?.[1];
    const runtime = /^node(\d+)$/.exec(actionYml.runs.using)?.[1];
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8').replaceAll('\n', ' ');
    expect(readme).toContain(`requires Node.js ${floor} or newer (the action runs on the runner's Node ${runtime})`);
  });

  it("declares the catalog's settings as inputs, none with a default but the token, so a config file can speak", () => {
    expect(Object.keys(actionYml.inputs)).toEqual([...INPUT_NAMES]);
    for (const [name, input] of Object.entries(actionYml.inputs)) {
      expect(input.description, name).toBeTruthy();
      expect(input.required, name).toBe(false);
      expect(input.default, name).toBe(name === 'github-token' ? '${{ github.token }}' : undefined);
    }
  });

  it('is what npm run docs makes from the catalogs: action.yml inputs and outputs and the README tables', () => {
    const text = readFileSync(join(ROOT, 'action.yml'), 'utf8');
    expect(text, 'action.yml is out of date: run npm run docs').toBe(actionYmlWithOutputs(actionYmlWithInputs(text)));
    const pages = ['README.md', ...readdirSync(join(ROOT, 'docs')).map((name) => `docs/${name}`)].filter((page) => page.endsWith('.md'));
    const texts = pages.map((page) => [page, readFileSync(join(ROOT, page), 'utf8')] as const);
    for (const name of Object.keys(README_TABLES)) {
      const holding = texts.filter(([, text]) => text.includes(`<!-- ${name}:start -->`));
      expect(
        holding.map(([page]) => page),
        `one page holds the ${name} table`,
      ).toHaveLength(1);
    }
    for (const [page, text] of texts) expect(text, `${page} is out of date with the catalogs: run npm run docs`).toBe(withCatalogTables(text));
  });

  it("declares the outputs catalog's outputs, each described", () => {
    expect(Object.keys(actionYml.outputs)).toEqual(OUTPUT_NAMES);
    for (const [name, output] of Object.entries(actionYml.outputs)) expect(output.description, name).toBeTruthy();
  });

  /** The rows of the table under a heading of the action's page: first cell's code spans, and the second cell. */
  function readmeTable(heading: string): { names: string[]; second: string }[] {
    const readme = readFileSync(join(ROOT, 'docs', 'github-actions.md'), 'utf8');
    const start = readme.indexOf(`\n${heading}\n`);
    expect(start, `docs/github-actions.md has a "${heading}" section`).toBeGreaterThan(-1);
    const rows: { names: string[]; second: string }[] = [];
    for (const line of readme.slice(start + heading.length + 2).split('\n')) {
      if (line.startsWith('#')) break;
      if (!line.startsWith('| `')) continue;
      const [first = '', second = ''] = line
        .split(/(?<!\\)\|/)
        .slice(1)
        .map((cell) => cell.trim());
      rows.push({ names: [...first.matchAll(/`([^`]+)`/g)].map((match) => match[1]!), second });
    }
    return rows;
  }

  it('is documented in docs/github-actions.md: every output', () => {
    expect(
      readmeTable('### Outputs')
        .flatMap((row) => row.names)
        .sort(),
    ).toEqual(Object.keys(actionYml.outputs).sort());
  });
});
