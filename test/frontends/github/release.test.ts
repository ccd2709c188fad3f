import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { drawSplit, splitSizes } from '../../../src/core/holdout/split.js';
import { runAction } from '../../../src/frontends/github/run.js';
import type { InputName } from '../../../src/frontends/github/inputs.js';
import { writeHoldoutFile } from '../../../src/sources/holdout-file.js';
import { ROOT } from '../../helpers/cli.js';
import { tempDir, writeJsonl } from '../../helpers/files.js';
import { sketchScenario } from '../../helpers/paired-runs.js';
import { BASE_SHA, FakeGitHub, fakeRuntime, HttpError, zipOf } from './fakes.js';

const LEDGER_ARTIFACT = 'rag-gate-holdout-ledger';
const DECLARED_OUTPUTS = Object.keys((parse(readFileSync(join(ROOT, 'action.yml'), 'utf8')) as { outputs: Record<string, unknown> }).outputs).sort();

/** A workspace: results whose development questions are 80% right and holdout questions 70%, and the holdout file. */
async function workspace(): Promise<{ dir: string; results: string; holdout: string; ledger: string; holdoutCount: number }> {
  const dir = tempDir();
  const { base } = sketchScenario();
  const questions = base.map((q) => ({ id: q.id, tags: q.tags ?? [] }));
  const split = drawSplit(questions, { seed: 'rag-gate', rotation: 0, share: 0.3 });
  const held = new Set(split.holdout);
  let dev = 0;
  let hold = 0;
  const results = base.map((q) => {
    const inHoldout = held.has(q.id);
    const index = inHoldout ? hold++ : dev++;
    return { ...q, correct: index % 10 < (inHoldout ? 7 : 8) };
  });
  const holdout = join(dir, 'holdout.json');
  await writeHoldoutFile(holdout, split, splitSizes(questions, held));
  return { dir, results: writeJsonl(dir, 'results.jsonl', results), holdout, ledger: join(dir, 'ledger.jsonl'), holdoutCount: split.holdout.length };
}

async function release(setup: Awaited<ReturnType<typeof workspace>>, api: FakeGitHub, sha: string, inputs: Partial<Record<InputName, string>> = {}) {
  const fake = fakeRuntime({
    api,
    eventName: 'release',
    eventPayload: {},
    inputs: { results: setup.results, holdout: setup.holdout, 'holdout-ledger': setup.ledger, mode: 'release', ...inputs },
    env: { RUNNER_TEMP: setup.dir, GITHUB_SHA: sha, GITHUB_WORKFLOW: 'release', GITHUB_ACTOR: 'octocat' },
  });
  await runAction(fake.runtime);
  return fake;
}

describe('mode: release', () => {
  it('reports the gap, starts the ledger when there is none, and sets the outputs', async () => {
    const setup = await workspace();
    const api = new FakeGitHub();
    const run = await release(setup, api, 'a'.repeat(40));
    expect(run.failures).toEqual([]);
    expect(api.called('findNewestArtifact')).toHaveLength(1);
    // A 10-point drop: more than the reference's 3–8.
    expect(run.warnings.map((w) => w.title)).toEqual(['rag-gate: new holdout ledger', 'rag-gate: fitted to the development set']);
    expect(Number(run.outputs.get('holdout-gap'))).toBeCloseTo(0.1, 1);
    expect(run.outputs.get('holdout-looks')).toBe('1');
    expect(run.outputs.get('holdout-ledger')).toBe(setup.ledger);
    expect(run.outputs.get('verdict')).toBe('neutral');
    expect([...run.outputs.keys()].sort()).toEqual(DECLARED_OUTPUTS);
    expect(run.summaries[0]).toContain('### rag-gate: holdout evaluation');
    expect(run.summaries[0]).toContain('End-to-end correctness is');
    expect(run.summaries[0]).toContain('This is the first look at this holdout');
    const report = JSON.parse(readFileSync(run.outputs.get('report-json')!, 'utf8')) as { holdout: number; ledger: { looks: number } };
    expect(report.holdout).toBe(setup.holdoutCount);
    const entries = readFileSync(setup.ledger, 'utf8').trim().split('\n');
    expect(entries).toHaveLength(1);
    expect(JSON.parse(entries[0]!)).toMatchObject({ commit: 'a'.repeat(40), by: 'release run 5000 (release by octocat)' });
  });

  it('reads the ledger from the newest ledger artifact and flags a second look for another commit', async () => {
    const setup = await workspace();
    const first = await release(setup, new FakeGitHub(), 'a'.repeat(40));
    expect(first.failures).toEqual([]);
    const ledgerText = readFileSync(setup.ledger, 'utf8');
    // The next release job starts without the file; the artifact the first one uploaded has it.
    const fresh = await workspace();
    writeFileSync(fresh.holdout, readFileSync(setup.holdout));
    const api = new FakeGitHub();
    api.zips.set(71, zipOf({ 'rag-gate-holdout-ledger.jsonl': ledgerText }));
    api.zips.set(70, zipOf({ 'rag-gate-holdout-ledger.jsonl': '' }));
    api.repositoryArtifacts = [
      { id: 70, name: LEDGER_ARTIFACT, runId: 1, createdAt: '2026-01-01T00:00:00Z' },
      { id: 71, name: LEDGER_ARTIFACT, runId: 2, createdAt: '2026-02-01T00:00:00Z' },
    ];
    const second = await release(fresh, api, 'b'.repeat(40));
    expect(second.failures).toEqual([]);
    expect(api.called('downloadArtifact').map((call) => call.args[0])).toEqual([71]);
    expect(second.outputs.get('holdout-looks')).toBe('2');
    expect(second.warnings.find((w) => w.title === 'rag-gate: holdout looked at more than once')?.message).toContain('looked at 2 times');
    expect(second.summaries[0]).toContain('> [!WARNING]\n> The holdout has been looked at 2 times');
    expect(second.summaries[0]).toContain('Earlier looks at this holdout');
    expect(readFileSync(fresh.ledger, 'utf8').trim().split('\n')).toHaveLength(2);
  });

  it('fails closed when the ledger artifact cannot be read, writing no ledger', async () => {
    const setup = await workspace();
    const api = new FakeGitHub();
    api.fail.findNewestArtifact = new HttpError(403, 'Resource not accessible by integration');
    const run = await release(setup, api, 'a'.repeat(40));
    expect(run.failures).toHaveLength(1);
    expect(run.failures[0]).toContain('could not read the holdout ledger from the artifact rag-gate-holdout-ledger');
    expect(run.failures[0]).toContain('actions: read');
    expect(existsSync(setup.ledger)).toBe(false);
  });

  it('fails with the fix when no holdout file is given', async () => {
    const setup = await workspace();
    const run = await release(setup, new FakeGitHub(), 'a'.repeat(40), { holdout: '' });
    expect(run.failures[0]).toContain('mode release evaluates the holdout: give the holdout input');
  });
});

describe('a pull request with a holdout file', () => {
  it('gates on the development questions and says how many holdout questions it did not look at', async () => {
    const setup = await workspace();
    const api = new FakeGitHub();
    // The base branch has the same holdout file: the pull request's is held to it.
    api.files.set(`${BASE_SHA}:holdout.json`, readFileSync(setup.holdout, 'utf8'));
    writeFileSync(join(setup.dir, 'rag-gate.yml'), '');
    const fake = fakeRuntime({
      api,
      inputs: { results: setup.results, baseline: setup.results, holdout: setup.holdout, config: join(setup.dir, 'rag-gate.yml') },
      env: { RUNNER_TEMP: setup.dir, GITHUB_WORKSPACE: setup.dir },
    });
    await runAction(fake.runtime);
    expect(fake.failures).toEqual([]);
    const report = JSON.parse(readFileSync(fake.outputs.get('report-json')!, 'utf8')) as { paired: number; holdoutLeftOut: string[] };
    expect(report.holdoutLeftOut).toHaveLength(setup.holdoutCount);
    expect(report.paired).toBe(sketchScenario().base.length - setup.holdoutCount);
    expect(api.called('createComment')[0]?.args[1]).toContain(`${setup.holdoutCount} holdout questions not looked at`);
  });
});
