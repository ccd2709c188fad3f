import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ROOT } from '../../helpers/cli.js';
import { tempDir } from '../../helpers/files.js';

/**
 * src/main.ts as GitHub's local-action runs it (`npx local-action run . src/main.ts .env`): the tool replaces
 * `@actions/core` with its own stand-in, imports the entry and calls its exported `run()` with no argument. Here
 * vitest stands in the same way, so the contract is held without the tool (not a dev dependency: docs/development.md).
 */

const actionsCore = vi.hoisted(() => {
  const recorded = {
    inputs: new Map<string, string>(),
    outputs: new Map<string, string>(),
    failed: [] as string[],
    warnings: [] as string[],
    infos: [] as string[],
    summary: '',
  };
  const summary = {
    addRaw(text: string) {
      recorded.summary += text;
      return summary;
    },
    write: () => Promise.resolve(summary),
  };
  const stub = {
    getInput: (name: string) => recorded.inputs.get(name) ?? '',
    setOutput: (name: string, value: string) => void recorded.outputs.set(name, value),
    setFailed: (message: string) => void recorded.failed.push(message),
    warning: (message: string) => void recorded.warnings.push(message),
    info: (message: string) => void recorded.infos.push(message),
    summary,
  };
  return { recorded, stub };
});
vi.mock('@actions/core', () => actionsCore.stub);

const { recorded } = actionsCore;

beforeEach(() => {
  // Nothing of a runner the tests may run on reaches the action: no event, no repository, no API.
  for (const name of Object.keys(process.env)) if (/^(GITHUB_|RUNNER_|INPUT_|ACTIONS_)/.test(name)) vi.stubEnv(name, undefined);
  vi.stubEnv('RUNNER_TEMP', tempDir());
  vi.stubEnv('GITHUB_API_URL', 'http://127.0.0.1:9');
  recorded.inputs.clear();
  recorded.outputs.clear();
  recorded.failed.length = 0;
  recorded.warnings.length = 0;
  recorded.infos.length = 0;
  recorded.summary = '';
});
afterEach(() => {
  vi.unstubAllEnvs();
});

describe('src/main.ts, the entry @github/local-action runs', () => {
  it('exports run(), which runs the action through @actions/core: inputs in; outputs, warnings and the summary out', async () => {
    const { run } = await import('../../../src/main.js');
    recorded.inputs.set('results', join(ROOT, 'examples/head.jsonl'));
    recorded.inputs.set('baseline', join(ROOT, 'examples/base.jsonl'));
    recorded.inputs.set('mode', 'advisory');
    await run();
    expect(recorded.failed).toEqual([]);
    expect(recorded.outputs.get('verdict')).toBe('fail');
    expect(recorded.outputs.get('broken')).toBe('9');
    expect(recorded.warnings.join('\n')).toMatch(/end-to-end regressed significantly.*\(advisory mode: the check passes\)/);
    expect(recorded.infos.some((line) => line.startsWith('rag-gate compare:'))).toBe(true);
    expect(recorded.summary).toContain('rag-gate');
    const report = recorded.outputs.get('report-json');
    expect(report, 'the report-json output names the file written').toBeTruthy();
    expect(JSON.parse(readFileSync(report!, 'utf8'))).toHaveProperty('verdict');
  });

  it('reports a failure through @actions/core and resolves, as local-action awaits it', async () => {
    const { run } = await import('../../../src/main.js');
    await expect(run()).resolves.toBeUndefined();
    expect(recorded.failed).toHaveLength(1);
    expect(recorded.failed[0]).toMatch(/^rag-gate: bad input\ninput "results": is required/);
  });
});
