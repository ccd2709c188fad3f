import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { everyOutput, OUTPUT_NAMES } from '../../../src/core/catalog/outputs.js';
import { drawSplit, splitSizes } from '../../../src/core/holdout/split.js';
import type { InputName } from '../../../src/frontends/github/inputs.js';
import { runAction } from '../../../src/frontends/github/run.js';
import { writeHoldoutFile } from '../../../src/sources/holdout-file.js';
import { ROOT } from '../../helpers/cli.js';
import { tempDir, writeJsonl } from '../../helpers/files.js';
import { sketchScenario } from '../../helpers/paired-runs.js';
import { FakeGitHub, type FakeRuntimeOptions, fakeRuntime, HEAD_SHA } from './fakes.js';

/** The outputs action.yml declares, in its order: what a later step of the workflow may read. */
const DECLARED = Object.keys((parse(readFileSync(join(ROOT, 'action.yml'), 'utf8')) as { outputs: Record<string, unknown> }).outputs);

/** Runs the action and returns the name of every output it set, once per call, in call order. */
async function outputsSet(inputs: Partial<Record<InputName, string>>, options: Partial<FakeRuntimeOptions> = {}) {
  const dir = tempDir();
  const fake = fakeRuntime({
    api: new FakeGitHub(),
    ...options,
    inputs: { history: join(dir, 'rag-gate-history.json'), ...inputs },
    env: { RUNNER_TEMP: dir, GITHUB_SHA: HEAD_SHA, ...options.env },
  });
  const set: string[] = [];
  const record = fake.runtime.setOutput;
  fake.runtime.setOutput = (name, value) => {
    set.push(name);
    record(name, value);
  };
  await runAction(fake.runtime);
  return { set, outputs: fake.outputs, failures: fake.failures };
}

/** Head results that regress from the base's, with or without the base results file as the baseline. */
function results(withBaseline: boolean): Partial<Record<InputName, string>> {
  const dir = tempDir();
  const { base, head } = sketchScenario();
  const results = writeJsonl(dir, 'results.jsonl', head);
  return withBaseline ? { results, baseline: writeJsonl(dir, 'base.jsonl', base) } : { results };
}

/** Results and the holdout file rag-gate split would write for them, for mode release. */
async function releaseInputs(): Promise<Partial<Record<InputName, string>>> {
  const dir = tempDir();
  const { base } = sketchScenario();
  const questions = base.map((q) => ({ id: q.id, tags: q.tags ?? [] }));
  const split = drawSplit(questions, { seed: 'rag-gate', rotation: 0, share: 0.3 });
  const holdout = join(dir, 'holdout.json');
  await writeHoldoutFile(holdout, split, splitSizes(questions, new Set(split.holdout)));
  return { mode: 'release', results: writeJsonl(dir, 'results.jsonl', base), holdout, 'holdout-ledger': join(dir, 'ledger.jsonl') };
}

const LOGS = join(ROOT, 'examples', 'monitor', 'logs.jsonl');
const SCHEDULE = { eventName: 'schedule', eventPayload: { schedule: '0 6 * * *' } };

describe('the outputs', () => {
  it('are the catalog, in its order', () => {
    expect(DECLARED).toEqual(OUTPUT_NAMES);
  });

  // Each case names an output only its kind of run fills in, to show the run got that far.
  it.each([
    ['a pull request with a baseline', 'comment-url', async () => outputsSet(results(true))],
    ['a pull request without a baseline', 'comment-url', async () => outputsSet(results(false))],
    ['a push to a branch', 'history', async () => outputsSet(results(false), { eventName: 'push', eventPayload: { ref: 'refs/heads/main' } })],
    [
      'a push to a branch with a baseline file',
      'history',
      async () => outputsSet(results(true), { eventName: 'push', eventPayload: { ref: 'refs/heads/main' } }),
    ],
    ['mode advisory', 'p-value', async () => outputsSet({ ...results(true), mode: 'advisory' })],
    ['mode release', 'holdout-looks', async () => outputsSet(await releaseInputs(), { eventName: 'release', eventPayload: {} })],
    ['mode monitor', 'monitor-alert', async () => outputsSet({ mode: 'monitor', logs: LOGS, deploys: '2026-03-08T00:00:00Z' }, SCHEDULE)],
  ])('are each set exactly once, in declared order, on %s', async (_, own, run) => {
    const { set, outputs, failures } = await run();
    expect(failures.filter((failure) => failure.includes('bad input'))).toEqual([]);
    expect(outputs.get(own)).not.toBe('');
    expect(set).toEqual(DECLARED);
  });

  it('are none set when bad input stops the run before it reports', async () => {
    const { set, failures } = await outputsSet({ mode: 'monitor' }, SCHEDULE);
    expect(failures).toEqual([expect.stringContaining('rag-gate: bad input')]);
    expect(set).toEqual([]);
  });

  it("that a run does not own are empty, or the catalog's plain answer", () => {
    const outputs = new Map(
      everyOutput('release', {
        verdict: 'neutral',
        'report-json': 'r.json',
        'report-markdown': 'r.md',
        'holdout-gap': '0.1',
        'holdout-looks': '1',
        'holdout-ledger': 'ledger.jsonl',
      }),
    );
    expect(Object.fromEntries(outputs)).toEqual({
      verdict: 'neutral',
      'p-value': '',
      fixed: '',
      broken: '',
      regressions: '0',
      'report-json': 'r.json',
      'report-markdown': 'r.md',
      'baseline-found': 'false',
      'baseline-sha': '',
      'comment-url': '',
      history: '',
      'holdout-gap': '0.1',
      'holdout-looks': '1',
      'holdout-ledger': 'ledger.jsonl',
      'monitor-alert': '',
      'monitor-issue': '',
    });
  });

  it('are typed so that a run gives every output it owns and none it does not', () => {
    const monitor = { verdict: 'neutral', 'report-json': '', 'report-markdown': '', 'monitor-alert': 'false', 'monitor-issue': '' } as const;
    expect(everyOutput('monitor', monitor)).toHaveLength(DECLARED.length);
    // @ts-expect-error: a monitor run that forgets monitor-issue does not compile.
    everyOutput('monitor', { verdict: 'neutral', 'report-json': '', 'report-markdown': '', 'monitor-alert': 'false' });
    // @ts-expect-error: nor one that sets a comparison's output.
    everyOutput('monitor', { ...monitor, 'p-value': '0.01' });
  });
});
