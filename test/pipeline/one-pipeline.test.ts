import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runAction } from '../../src/frontends/github/run.js';
import { runCli, tempDir, writeJsonl } from '../helpers/files.js';
import { sketchScenario } from '../helpers/paired-runs.js';
import { FakeGitHub, fakeRuntime } from '../frontends/github/fakes.js';

/** The sketch scenario split into shards, written as `base-N.jsonl` and `head-N.jsonl`. */
function shards(count: number): string {
  const dir = tempDir();
  const { base, head } = sketchScenario();
  const size = Math.ceil(base.length / count);
  for (let i = 0; i < count; i++) {
    writeJsonl(dir, `base-${i}.jsonl`, base.slice(i * size, (i + 1) * size));
    writeJsonl(dir, `head-${i}.jsonl`, head.slice(i * size, (i + 1) * size));
  }
  return dir;
}

describe('one pipeline for the CLI and the action', () => {
  it('compare with shard globs reports exactly what the action reports on the same files and settings', async () => {
    const dir = shards(3);
    const settings = { 'retrieval-ok': 'recall@5>=1', 'fail-on': 'retrieval,end-to-end,generation', floors: 'correct>=0.5', permutations: '2000' };
    const base = join(dir, 'base-*.jsonl');
    const head = join(dir, 'head-*.jsonl');

    const cli = await runCli([
      'compare',
      '--base',
      base,
      '--head',
      head,
      ...Object.entries(settings).flatMap(([name, value]) => [name === 'floors' ? '--floor' : `--${name}`, value]),
      '--json',
    ]);
    expect(cli.code, cli.stderr).toBe(1);
    const fromCli = JSON.parse(cli.stdout);

    const action = fakeRuntime({ api: new FakeGitHub(), inputs: { results: head, baseline: base, ...settings }, env: { RUNNER_TEMP: dir } });
    await runAction(action.runtime);
    expect(action.outputs.get('verdict')).toBe('fail');
    const fromAction = JSON.parse(readFileSync(action.outputs.get('report-json')!, 'utf8'));

    // Where the base came from is each front end's own business; everything measured is the same.
    const { baseline: cliBaseline, ...cliReport } = fromCli;
    const { baseline: actionBaseline, ...actionReport } = fromAction;
    expect(actionReport).toEqual(cliReport);
    expect(cliReport.paired).toBe(sketchScenario().base.length);
    expect(cliBaseline).toEqual({ found: true, files: [0, 1, 2].map((i) => join(dir, `base-${i}.jsonl`)) });
    expect(actionBaseline).toMatchObject({ found: true });
  });
});
