import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { commentMarker } from '../../../src/frontends/github/comment.js';
import type { InputName } from '../../../src/frontends/github/inputs.js';
import { runAction } from '../../../src/frontends/github/run.js';
import { type History, type HistoryEntry, linearTrend } from '../../../src/core/history/history.js';
import { historyJson } from '../../../src/sources/history.js';
import { ROOT } from '../../helpers/cli.js';
import { tempDir, writeJsonl } from '../../helpers/files.js';
import { type Question } from '../../helpers/paired-runs.js';
import { GitHubTimeoutError } from '../../../src/frontends/github/github.js';
import {
  comment,
  COMMENT_METHODS,
  FakeGitHub,
  type FakeRuntimeOptions,
  fakeRuntime,
  HEAD_SHA,
  HttpError,
  MERGE_BASE_SHA,
  NOW,
  sketchScenario,
  workflowRun,
  workflowRunPayload,
  zipOf,
  jsonlText,
} from './fakes.js';

const DECLARED_OUTPUTS = Object.keys((parse(readFileSync(join(ROOT, 'action.yml'), 'utf8')) as { outputs: Record<string, unknown> }).outputs).sort();

interface Setup {
  dir: string;
  head: string;
  base: string;
}

/** Head and base results files in a fresh directory. */
function files(head: readonly Question[], base: readonly Question[]): Setup {
  const dir = tempDir();
  return { dir, head: writeJsonl(dir, 'results.jsonl', head), base: writeJsonl(dir, 'base.jsonl', base) };
}

function failing(): Setup {
  const { base, head } = sketchScenario();
  return files(head, base);
}

function unchanged(): Setup {
  const { base } = sketchScenario();
  return files(base, base);
}

async function run(setup: Setup, inputs: Partial<Record<InputName, string>>, options: Partial<FakeRuntimeOptions> & { api?: FakeGitHub } = {}) {
  const api = options.api ?? new FakeGitHub();
  // The history file in the test's directory: a push run writes it.
  const fake = fakeRuntime({
    api,
    ...options,
    inputs: { results: setup.head, history: join(setup.dir, 'rag-gate-history.json'), ...inputs },
    env: { RUNNER_TEMP: setup.dir, GITHUB_SHA: HEAD_SHA, ...options.env },
  });
  await runAction(fake.runtime);
  return { ...fake, api };
}

const commentCalls = (api: FakeGitHub) => api.calls.filter((call) => COMMENT_METHODS.includes(call.method));

describe('the log', () => {
  it('never lets user text run a workflow command: one line per cell, and commands stopped around the report', async () => {
    const { base, head } = sketchScenario();
    const hostile = '::error title=injected::gotcha';
    const rename = (records: Question[]) => records.map((r, i) => (i === 0 ? { ...r, id: `q0\n${hostile}`, tags: [`t\n${hostile}`] } : r));
    const setup = files(rename(head), rename(base));
    const { infos } = await run(setup, { baseline: setup.base });
    const report = infos.findIndex((line) => line.startsWith('rag-gate compare:'));
    expect(report).toBeGreaterThan(0);
    const token = /^::stop-commands::(.+)$/.exec(infos[report - 1]!)?.[1];
    expect(token).toMatch(/^[0-9a-f-]{36}$/);
    expect(infos[report + 1]).toBe(`::${token}::`);
    expect(infos[report]!.split('\n').some((line) => line.startsWith('::'))).toBe(false);
    expect(infos[report]).toContain(`q0 ${hostile}`);
  });
});

describe('runAction with a base results file', () => {
  it('fails the gate on a significant retrieval drop, with every output, the summary and the comment', async () => {
    const setup = failing();
    const { outputs, failures, warnings, summaries, api } = await run(setup, { baseline: setup.base });

    expect([...outputs.keys()].sort()).toEqual(DECLARED_OUTPUTS);
    expect(outputs.get('verdict')).toBe('fail');
    expect(Number(outputs.get('p-value'))).toBeCloseTo((2 * 2 * 172) / 262144, 12);
    expect(outputs.get('fixed')).toBe('6');
    expect(outputs.get('broken')).toBe('15');
    expect(outputs.get('regressions')).toBe('15');
    expect(outputs.get('baseline-found')).toBe('true');
    expect(outputs.get('baseline-sha')).toBe('');
    expect(outputs.get('comment-url')).toBe('https://github.com/octo/shop/pull/42#issuecomment-9000');

    const reportJson = outputs.get('report-json')!;
    expect(reportJson.startsWith(join(setup.dir, 'rag-gate', 'default'))).toBe(true);
    const report = JSON.parse(readFileSync(reportJson, 'utf8'));
    expect(report).toMatchObject({ verdict: 'fail', paired: 200, baseline: { found: true, sha: null } });
    expect(report.head.questions).toBe(200);

    const markdown = readFileSync(outputs.get('report-markdown')!, 'utf8');
    expect(markdown.startsWith(`<!-- ${commentMarker('default')} -->`)).toBe(true);
    expect(api.called('createComment').map((call) => call.args)).toEqual([[42, markdown]]);
    expect(summaries).toHaveLength(1);
    expect(summaries[0]).toContain('16 broken');

    expect(failures).toHaveLength(1);
    expect(failures[0]).toMatch(/^rag-gate: retrieval regressed significantly: retrieval ok \(hit@5\) 0\.912 → 0\.829, 16 broken vs 2 fixed/);
    expect(warnings).toEqual([]);
  });

  it('only warns in advisory mode', async () => {
    const setup = failing();
    const { outputs, failures, warnings } = await run(setup, { baseline: setup.base, mode: 'advisory' });
    expect(outputs.get('verdict')).toBe('fail');
    expect(failures).toEqual([]);
    expect(warnings).toEqual([
      { message: expect.stringMatching(/^rag-gate: retrieval regressed significantly.*\(advisory mode: the check passes\)$/s), title: 'rag-gate: regression' },
    ]);
  });

  it('passes when nothing changed', async () => {
    const setup = unchanged();
    const { outputs, failures, warnings } = await run(setup, { baseline: setup.base });
    expect(outputs.get('verdict')).toBe('pass');
    expect(outputs.get('fixed')).toBe('0');
    expect(outputs.get('broken')).toBe('0');
    expect(outputs.get('regressions')).toBe('0');
    expect(Number(outputs.get('p-value'))).toBe(1);
    expect(failures).toEqual([]);
    expect(warnings).toEqual([]);
  });

  it('reports retrieval counts as fixed and broken when the results carry no correctness', async () => {
    const strip = (records: Question[]) => records.map(({ correct: _correct, ...rest }) => rest);
    const { base, head } = sketchScenario();
    const setup = files(strip(head), strip(base));
    const { outputs, failures } = await run(setup, { baseline: setup.base });
    expect(outputs.get('verdict')).toBe('fail');
    expect(outputs.get('fixed')).toBe('2');
    expect(outputs.get('broken')).toBe('16');
    expect(failures).toHaveLength(1);
  });

  it('updates its comment on the next run instead of adding one, and sends nothing when the body is unchanged', async () => {
    const api = new FakeGitHub();
    const first = await run(failing(), {}, { api });
    expect(first.outputs.get('comment-url')).toMatch(/issuecomment-9000$/);
    api.calls.length = 0;

    const setup = failing();
    await run(setup, { baseline: setup.base }, { api });
    expect(api.called('createComment')).toEqual([]);
    expect(api.called('updateComment').map((call) => call.args[0])).toEqual([9000]);
    api.calls.length = 0;

    const again = await run(setup, { baseline: setup.base }, { api });
    expect(api.called('createComment')).toEqual([]);
    expect(api.called('updateComment')).toEqual([]);
    expect(again.outputs.get('comment-url')).toMatch(/issuecomment-9000$/);
    expect(api.comments).toHaveLength(1);
  });

  it("leaves a human's comment with the marker alone", async () => {
    const api = new FakeGitHub();
    const human = comment({ id: 5, body: `I copied this: <!-- ${commentMarker('default')} -->`, authorLogin: 'alice', authorType: 'User' });
    api.comments = [human];
    const setup = failing();
    await run(setup, { baseline: setup.base }, { api });
    expect(api.called('updateComment')).toEqual([]);
    expect(api.called('createComment')).toHaveLength(1);
    expect(api.comments[0]).toEqual(human);
  });

  it.each(['default', 'nightly', 'nightly.v2', 'a_b-c', '-lead', 'x'.repeat(64)])('writes a marker the next run finds again (comment-tag %j)', async (tag) => {
    const api = new FakeGitHub();
    const setup = unchanged();
    await run(setup, { baseline: setup.base, 'comment-tag': tag }, { api });
    const body = api.called('createComment')[0]?.args[1] as string;
    expect(body).toContain(`<!-- ${commentMarker(tag)} -->`);
    await run(setup, { baseline: setup.base, 'comment-tag': tag }, { api });
    expect(api.comments).toHaveLength(1);
  });

  it('keeps separate comments for separate tags', async () => {
    const api = new FakeGitHub();
    const setup = unchanged();
    await run(setup, { baseline: setup.base, 'comment-tag': 'retrieval' }, { api });
    await run(setup, { baseline: setup.base, 'comment-tag': 'answers' }, { api });
    await run(setup, { baseline: setup.base, 'comment-tag': 'retrieval' }, { api });
    expect(api.comments).toHaveLength(2);
  });

  it('on-change: posts nothing when nothing changed and there is no comment yet', async () => {
    const setup = unchanged();
    const { api, outputs } = await run(setup, { baseline: setup.base, comment: 'on-change' });
    expect(api.called('createComment')).toEqual([]);
    expect(outputs.get('comment-url')).toBe('');
  });

  it('on-change: posts when something changed', async () => {
    const setup = failing();
    const { api } = await run(setup, { baseline: setup.base, comment: 'on-change' });
    expect(api.called('createComment')).toHaveLength(1);
  });

  it('never: makes no comment call at all', async () => {
    const setup = failing();
    const { api, outputs, failures, summaries } = await run(setup, { baseline: setup.base, comment: 'never' });
    expect(commentCalls(api)).toEqual([]);
    expect(outputs.get('comment-url')).toBe('');
    expect(summaries).toHaveLength(1);
    expect(failures).toHaveLength(1);
  });
});

describe('runAction: bad input fails naming it, and posts nothing', () => {
  it('a bad results file: file, line and field', async () => {
    const dir = tempDir();
    const head = join(dir, 'results.jsonl');
    writeFileSync(head, '{"id": "q1", "question": "fine"}\n{"id": "q2", "question": "bad", "correct": "yes"}\n');
    const base = writeJsonl(dir, 'base.jsonl', [{ id: 'q1', question: 'fine' }]);
    const { failures, api, outputs } = await run({ dir, head, base }, { baseline: base });
    expect(failures).toHaveLength(1);
    expect(failures[0]).toMatch(/^rag-gate: bad input\n.*results\.jsonl:2: correct: must be true or false$/);
    // Only the base branch's settings were read: nothing was posted.
    expect(api.calls.map((call) => call.method)).toEqual(['getFileAt']);
    expect(outputs.size).toBe(0);
  });

  it('a bad base results file (untrusted input: same validation)', async () => {
    const dir = tempDir();
    const head = writeJsonl(dir, 'results.jsonl', [{ id: 'q1', question: 'fine' }]);
    const base = join(dir, 'base.jsonl');
    writeFileSync(base, '{"id": "q1", "question": "fine", "retrieved_ids": "d1"}\n');
    const { failures, api } = await run({ dir, head, base }, { baseline: base });
    expect(failures).toEqual([expect.stringMatching(/^rag-gate: bad input\n.*base\.jsonl:1: retrieved_ids: /)]);
    expect(commentCalls(api)).toEqual([]);
  });

  it('a duplicate id across two shards of a glob: both files named', async () => {
    const dir = tempDir();
    writeJsonl(dir, 'shard-1.jsonl', [
      { id: 'q1', question: 'a' },
      { id: 'q2', question: 'b' },
    ]);
    writeJsonl(dir, 'shard-2.jsonl', [
      { id: 'q3', question: 'c' },
      { id: 'q2', question: 'b again' },
    ]);
    const { failures, api } = await run({ dir, head: join(dir, 'shard-*.jsonl'), base: '' }, {});
    expect(failures).toHaveLength(1);
    expect(failures[0]).toMatch(/shard-2\.jsonl:2: id: duplicate id "q2" \(first on [^)]*shard-1\.jsonl:2\)/);
    expect(commentCalls(api)).toEqual([]);
  });

  it('merges the shards of a glob when the ids are distinct', async () => {
    const { base, head } = sketchScenario();
    const dir = tempDir();
    writeJsonl(dir, 'shard-1.jsonl', head.slice(0, 100));
    writeJsonl(dir, 'shard-2.jsonl', head.slice(100));
    const baseFile = writeJsonl(dir, 'base.jsonl', base);
    const { outputs } = await run({ dir, head: join(dir, 'shard-*.jsonl'), base: baseFile }, { baseline: baseFile });
    expect(outputs.get('verdict')).toBe('fail');
    expect(outputs.get('broken')).toBe('15');
  });

  it('a results glob that matches nothing', async () => {
    const dir = tempDir();
    const { failures } = await run({ dir, head: join(dir, 'nothing-*.jsonl'), base: '' }, {});
    expect(failures).toEqual([expect.stringMatching(/^rag-gate: bad input\ninput "results": no file matches/)]);
  });

  it('a bad input value', async () => {
    const setup = unchanged();
    const { failures, api } = await run(setup, { alpha: '2' });
    expect(failures).toEqual([expect.stringMatching(/^rag-gate: bad input\ninput "alpha": /)]);
    expect(api.calls).toEqual([]);
  });
});

describe('runAction: GitHub failures never hide the verdict', () => {
  it('a 403 on the comment (a fork): warns with the workflow_run recipe and still applies the gate', async () => {
    const api = new FakeGitHub();
    api.fail.createComment = new HttpError(403, 'Resource not accessible by integration');
    const setup = failing();
    const { failures, warnings, outputs, summaries } = await run(setup, { baseline: setup.base }, { api });
    expect(warnings).toHaveLength(1);
    expect(warnings[0]?.message).toMatch(/could not comment on pull request #42: .*read-only token.*workflow_run/s);
    expect(warnings[0]?.title).toBe('rag-gate: no PR comment');
    expect(summaries).toHaveLength(1);
    expect(outputs.get('verdict')).toBe('fail');
    expect(outputs.get('comment-url')).toBe('');
    expect(failures).toEqual([expect.stringMatching(/^rag-gate: retrieval regressed significantly/)]);
  });

  it('server errors on the comment after the retries: warns and the verdict still stands', async () => {
    const api = new FakeGitHub();
    api.fail.listComments = new HttpError(500, 'Server Error');
    const setup = failing();
    const { failures, warnings, outputs } = await run(setup, { baseline: setup.base }, { api });
    expect(warnings).toEqual([
      { message: expect.stringMatching(/the GitHub API failed \(Server Error\); the verdict below still stands/), title: 'rag-gate: no PR comment' },
    ]);
    expect(warnings[0]?.message).not.toContain('workflow_run');
    expect(outputs.get('verdict')).toBe('fail');
    expect(failures).toHaveLength(1);
  });

  it('a passing gate stays passing when the comment fails', async () => {
    const api = new FakeGitHub();
    api.fail.createComment = new HttpError(502);
    const setup = unchanged();
    const { failures, warnings, outputs } = await run(setup, { baseline: setup.base }, { api });
    expect(outputs.get('verdict')).toBe('pass');
    expect(failures).toEqual([]);
    expect(warnings).toHaveLength(1);
  });

  it('a failed job summary only warns', async () => {
    const setup = failing();
    const { failures, warnings, outputs } = await run(
      setup,
      { baseline: setup.base },
      {
        writeSummary: async () => {
          throw new Error('EACCES');
        },
      },
    );
    expect(warnings).toEqual([{ message: 'could not write the job summary: EACCES', title: undefined }]);
    expect(outputs.get('verdict')).toBe('fail');
    expect(failures).toHaveLength(1);
  });
});

describe('runAction: the baseline from the base branch artifact', () => {
  it('compares with the merge-base run and names it', async () => {
    const { base, head } = sketchScenario();
    const api = new FakeGitHub();
    api.mergeBaseSha = MERGE_BASE_SHA;
    api.runs = [
      workflowRun({ id: 12, runNumber: 112, headSha: 'e'.repeat(40), createdAt: '2026-11-20T11:00:00Z' }),
      workflowRun({ id: 11, runNumber: 111, headSha: MERGE_BASE_SHA, createdAt: '2026-11-19T12:00:00Z' }),
    ];
    api.artifacts.set(11, { id: 110, name: 'rag-gate-results' });
    api.artifacts.set(12, { id: 120, name: 'rag-gate-results' });
    api.zips.set(110, zipOf({ 'results.jsonl': jsonlText(base) }));
    api.zips.set(120, zipOf({ 'results.jsonl': jsonlText(head) }));
    const setup = files(head, []);
    const { outputs, failures, api: used } = await run(setup, {}, { api });
    expect(used.called('getWorkflowId')[0]?.args).toEqual([5000]);
    expect(outputs.get('baseline-found')).toBe('true');
    expect(outputs.get('baseline-sha')).toBe(MERGE_BASE_SHA);
    expect(outputs.get('verdict')).toBe('fail');
    const body = api.called('createComment')[0]?.args[1] as string;
    expect(body).toContain('`aaaaaaa` (the merge-base), results from run 111, 24 hours old');
    expect(failures).toHaveLength(1);
  });

  it('with no baseline: neutral, says why, never fails', async () => {
    const setup = failing();
    const { outputs, failures, warnings, summaries, api } = await run(setup, {});
    expect([...outputs.keys()].sort()).toEqual(DECLARED_OUTPUTS);
    expect(outputs.get('verdict')).toBe('neutral');
    expect(outputs.get('baseline-found')).toBe('false');
    expect(outputs.get('baseline-sha')).toBe('');
    expect(outputs.get('p-value')).toBe('');
    expect(outputs.get('fixed')).toBe('');
    expect(outputs.get('regressions')).toBe('0');
    const body = api.called('createComment')[0]?.args[1] as string;
    expect(body).toContain('No baseline: no successful push run of this workflow on `main` in the last 30 days');
    expect(body.startsWith(`<!-- ${commentMarker('default')} -->`)).toBe(true);
    expect(summaries[0]).toBe(body);
    expect(JSON.parse(readFileSync(outputs.get('report-json')!, 'utf8'))).toMatchObject({ verdict: 'neutral', baseline: { found: false } });
    expect(failures).toEqual([]);
    expect(warnings).toEqual([]);
  });

  it('honours baseline-artifact and baseline-max-age-days', async () => {
    const setup = failing();
    const { api } = await run(setup, { 'baseline-artifact': 'eval-results', 'baseline-max-age-days': '2' });
    const since = api.called('listSuccessfulPushRuns')[0]?.args[2] as Date;
    expect(since.toISOString()).toBe('2026-11-18T12:00:00.000Z');
    api.runs = [workflowRun({ id: 1, headSha: MERGE_BASE_SHA, createdAt: '2026-11-19T12:00:00Z' })];
    api.calls.length = 0;
    await run(setup, { 'baseline-artifact': 'eval-results' }, { api });
    expect(api.called('findArtifact')[0]?.args).toEqual([1, 'eval-results']);
  });
});

describe('runAction: events', () => {
  it('push: summary only, no comment, neutral without a baseline', async () => {
    const setup = failing();
    const { api, summaries, outputs, failures } = await run(setup, {}, { eventName: 'push', eventPayload: { ref: 'refs/heads/main' } });
    expect(commentCalls(api)).toEqual([]);
    expect(summaries).toHaveLength(1);
    expect(summaries[0]).toContain('a push event has no base branch');
    expect(outputs.get('verdict')).toBe('neutral');
    expect(failures).toEqual([]);
  });

  it('push with a baseline file: the gate applies, still no comment', async () => {
    const setup = failing();
    const { api, failures } = await run(setup, { baseline: setup.base }, { eventName: 'push', eventPayload: {} });
    expect(commentCalls(api)).toEqual([]);
    expect(failures).toHaveLength(1);
  });

  it('workflow_run: comments on the pull request of the triggering run, and takes the baseline from its workflow', async () => {
    const api = new FakeGitHub();
    api.pulls.set(7, { number: 7, baseRef: 'release', baseSha: 'f'.repeat(40), headSha: HEAD_SHA });
    const payload = workflowRunPayload({ id: 4321, headBranch: 'feature', headSha: HEAD_SHA, headRepository: 'octo/shop', pullRequests: [7] });
    const setup = failing();
    await run(setup, {}, { api, eventName: 'workflow_run', eventPayload: payload });
    expect(api.called('getPullRequest')[0]?.args).toEqual([7]);
    expect(api.called('getWorkflowId')[0]?.args).toEqual([4321]);
    expect(api.called('listSuccessfulPushRuns')[0]?.args[1]).toBe('release');
    expect(api.called('createComment')[0]?.args[0]).toBe(7);
  });

  it('workflow_run from a fork: finds the pull request by its head', async () => {
    const api = new FakeGitHub();
    api.pulls.set(8, { number: 8, baseRef: 'main', baseSha: 'f'.repeat(40), headSha: HEAD_SHA });
    const payload = workflowRunPayload({ id: 4321, headBranch: 'patch-1', headSha: HEAD_SHA, headRepository: 'mallory/shop', pullRequests: [] });
    const setup = failing();
    await run(setup, { baseline: setup.base }, { api, eventName: 'workflow_run', eventPayload: payload });
    expect(api.called('findPullRequest')[0]?.args).toEqual(['mallory', 'patch-1', HEAD_SHA]);
    expect(api.called('createComment')[0]?.args[0]).toBe(8);
  });

  it('pr-number overrides the event', async () => {
    const api = new FakeGitHub();
    api.pulls.set(9, { number: 9, baseRef: 'main', baseSha: 'f'.repeat(40), headSha: HEAD_SHA });
    const setup = failing();
    await run(
      setup,
      { baseline: setup.base, 'pr-number': '9' },
      { api, eventName: 'workflow_run', eventPayload: { workflow_run: { id: 1, pull_requests: [] } } },
    );
    expect(api.called('createComment')[0]?.args[0]).toBe(9);
  });

  it('a pull request it cannot find: warns, and reports without a comment', async () => {
    const api = new FakeGitHub();
    api.fail.findPullRequest = new HttpError(500, 'Server Error');
    const setup = failing();
    const { warnings, failures, outputs } = await run(
      setup,
      { baseline: setup.base },
      { api, eventName: 'workflow_run', eventPayload: { workflow_run: { id: 1, pull_requests: [] } } },
    );
    expect(warnings.map((w) => w.message)).toEqual([expect.stringContaining('could not find the pull request of this workflow_run event')]);
    expect(api.called('createComment')).toEqual([]);
    expect(outputs.get('verdict')).toBe('fail');
    expect(failures).toHaveLength(1);
  });
});

/** A repository whose base branch has one push run (id 11) with this artifact zip. */
function withBaselineArtifact(zip: Uint8Array): FakeGitHub {
  const api = new FakeGitHub();
  api.runs = [workflowRun({ id: 11, headSha: MERGE_BASE_SHA, createdAt: '2026-11-19T12:00:00Z' })];
  api.artifacts.set(11, { id: 110, name: 'rag-gate-results' });
  api.zips.set(110, zip);
  return api;
}

const report = (outputs: Map<string, string>) => JSON.parse(readFileSync(outputs.get('report-json')!, 'utf8'));

describe('runAction: an absent baseline is neutral, a broken lookup is red', () => {
  it('a 403 on the workflow runs fails the check, naming the run, the artifact and the permission to add', async () => {
    const api = new FakeGitHub();
    api.fail.listSuccessfulPushRuns = new HttpError(403, 'Resource not accessible by integration');
    const { outputs, failures, warnings, summaries } = await run(failing(), {}, { api });
    expect(failures).toHaveLength(1);
    expect(failures[0]).toMatch(/^rag-gate: could not read the base branch's results: GitHub refused \(403\)/);
    expect(failures[0]).toContain('https://github.com/octo/shop/actions/runs/5000');
    expect(failures[0]).toContain('rag-gate-results');
    expect(failures[0]).toContain('Fix: add actions: read under permissions:');
    expect(failures[0]).toContain('Detail: Resource not accessible by integration');
    expect(warnings).toEqual([]);
    expect(outputs.get('verdict')).toBe('fail');
    expect(outputs.get('baseline-found')).toBe('false');
    expect(report(outputs)).toMatchObject({ verdict: 'fail', baseline: { found: false, problem: { kind: 'forbidden', step: 'list-runs', status: 403 } } });
    const body = api.called('createComment')[0]?.args[1] as string;
    expect(body).toContain('### ❌ rag-gate: could not read the baseline');
    expect(body).toContain('add `actions: read` under `permissions:`');
    expect(body).toContain('`Resource not accessible by integration`');
    expect(summaries[0]).toBe(body);
  });

  it('no runs at all: a neutral pass', async () => {
    const { outputs, failures, warnings } = await run(failing(), {});
    expect(outputs.get('verdict')).toBe('neutral');
    expect(failures).toEqual([]);
    expect(warnings).toEqual([]);
  });

  it('an artifact that is not a zip fails the check naming the artifact, its run and the fix', async () => {
    const api = withBaselineArtifact(new TextEncoder().encode('PK\u0003\u0004 truncated'));
    const { outputs, failures } = await run(failing(), {}, { api });
    expect(failures).toEqual([
      expect.stringMatching(/^rag-gate: could not read the base branch's results: artifact rag-gate-results of run 11 is not a zip archive/),
    ]);
    expect(failures[0]).toContain('(run https://github.com/octo/shop/actions/runs/11)');
    expect(failures[0]).toContain("Fix: re-run the base branch's workflow (run 11) so that it uploads the artifact again");
    expect(outputs.get('verdict')).toBe('fail');
    expect(report(outputs).baseline.problem).toMatchObject({ kind: 'corrupt-artifact', run: { id: 11 } });
  });

  it('results in the artifact that do not validate fail the check naming the file inside the artifact', async () => {
    const { head } = sketchScenario();
    const api = withBaselineArtifact(zipOf({ 'out/results.jsonl': '{"id": "q1", "question": "a", "correct": "yes"}\n' }));
    const { outputs, failures, api: used } = await run(files(head, []), {}, { api });
    expect(failures).toEqual([
      expect.stringMatching(/^rag-gate: could not read the base branch's results: the results in artifact rag-gate-results of run 11 do not validate/),
    ]);
    expect(failures[0]).toMatch(/\nProblems: rag-gate-results\/out\/results\.jsonl:1: correct: must be true or false$/);
    expect(outputs.get('verdict')).toBe('fail');
    expect(used.called('createComment')[0]?.args[1]).toContain('`rag-gate-results/out/results.jsonl:1: correct: must be true or false`');
  });

  it('bad head results next to a valid artifact are still bad input', async () => {
    const { base } = sketchScenario();
    const api = withBaselineArtifact(zipOf({ 'results.jsonl': jsonlText(base) }));
    const dir = tempDir();
    const head = join(dir, 'results.jsonl');
    writeFileSync(head, '{"id": "q1", "question": "a", "correct": "yes"}\n');
    const { failures } = await run({ dir, head, base: '' }, {}, { api });
    expect(failures).toEqual([expect.stringMatching(/^rag-gate: bad input\n.*results\.jsonl:1: correct: must be true or false$/)]);
  });

  it('a timeout names the timeout and the setting', async () => {
    const api = new FakeGitHub();
    api.fail.getWorkflowId = new Error('no answer from GitHub within 2.5 s', { cause: new GitHubTimeoutError(2500) });
    const { failures, apiOptions } = await run(failing(), { 'api-timeout-seconds': '2.5' }, { api });
    expect(apiOptions.map((options) => options.timeoutMs)).toEqual([2500]);
    expect(failures).toEqual([expect.stringContaining('GitHub did not answer within 2.5 s (api-timeout-seconds)')]);
  });

  it('api-timeout-seconds is 30 by default', async () => {
    const { apiOptions } = await run(unchanged(), {});
    expect(apiOptions.map((options) => options.timeoutMs)).toEqual([30_000]);
  });

  it('on-baseline-error: pass turns the 403 into a warning and a neutral pass', async () => {
    const api = new FakeGitHub();
    api.fail.listSuccessfulPushRuns = new HttpError(403, 'Resource not accessible by integration');
    const { outputs, failures, warnings } = await run(failing(), { 'on-baseline-error': 'pass' }, { api });
    expect(failures).toEqual([]);
    expect(warnings).toEqual([
      {
        message: expect.stringMatching(
          /^rag-gate: could not read the base branch's results: .*actions: read.*\nThis check passes: on-baseline-error is pass\.$/s,
        ),
        title: 'rag-gate: baseline unreadable',
      },
    ]);
    expect(outputs.get('verdict')).toBe('neutral');
    expect(api.called('createComment')[0]?.args[1]).toContain('### ⚪ rag-gate: could not read the baseline');
  });

  it('on-missing-baseline: fail fails when there are no runs', async () => {
    const { outputs, failures, api } = await run(failing(), { 'on-missing-baseline': 'fail' });
    expect(failures).toEqual([
      'rag-gate: no baseline: no successful push run of this workflow on main in the last 30 days. This check fails: on-missing-baseline is fail.',
    ]);
    expect(outputs.get('verdict')).toBe('fail');
    expect(api.called('createComment')[0]?.args[1]).toContain('### ❌ rag-gate: no baseline to compare with');
  });

  it('on-missing-baseline: fail leaves a push alone: it has no base branch to compare with', async () => {
    const { outputs, failures } = await run(failing(), { 'on-missing-baseline': 'fail' }, { eventName: 'push', eventPayload: {} });
    expect(failures).toEqual([]);
    expect(outputs.get('verdict')).toBe('neutral');
  });

  it('advisory mode only warns about a broken lookup', async () => {
    const api = new FakeGitHub();
    api.fail.getWorkflowId = new HttpError(502, 'Bad Gateway');
    const { outputs, failures, warnings } = await run(failing(), { mode: 'advisory' }, { api });
    expect(failures).toEqual([]);
    expect(warnings).toEqual([
      {
        message: expect.stringMatching(
          /GitHub failed to look up the workflow of run 5000.*\(HTTP 502\).*Fix: re-run this job.*\(advisory mode: the check passes\)$/s,
        ),
        title: 'rag-gate: baseline unreadable',
      },
    ]);
    expect(outputs.get('verdict')).toBe('fail');
  });
});

describe('runAction: a commit status on the pull request head when the job is not on it', () => {
  const RUN_HEAD = 'e'.repeat(40);
  /** A workflow_run event for pull request 42, whose head has moved on since the triggering run. */
  function workflowRunEvent(api: FakeGitHub) {
    api.pulls.set(42, { number: 42, baseRef: 'main', baseSha: 'f'.repeat(40), headSha: HEAD_SHA });
    return {
      eventName: 'workflow_run',
      eventPayload: {
        workflow_run: { id: 4321, head_sha: RUN_HEAD, head_branch: 'feature', pull_requests: [{ number: 42 }], head_repository: { owner: { login: 'octo' } } },
      },
    };
  }

  it('on workflow_run: on the triggering run head, context rag-gate/<tag>, failure for a failing gate, linking this run', async () => {
    const api = new FakeGitHub();
    const setup = failing();
    const { failures } = await run(
      setup,
      { baseline: setup.base, 'comment-tag': 'search' },
      { api, ...workflowRunEvent(api), env: { GITHUB_SERVER_URL: 'https://ghe.example.com' } },
    );
    expect(api.statuses).toEqual([
      {
        sha: RUN_HEAD,
        state: 'failure',
        context: 'rag-gate/search',
        description: 'retrieval regressed significantly: retrieval ok (hit@5) 0.912 → 0.829, 16 broken vs 2 fixed, p = 0.0013, Holm-adjusted 0.0026 < α 0.05',
        targetUrl: 'https://ghe.example.com/octo/shop/actions/runs/5000',
      },
    ]);
    expect(failures).toHaveLength(1);
  });

  it('success when nothing regressed; success saying so when there is no baseline', async () => {
    const api = new FakeGitHub();
    const setup = unchanged();
    await run(setup, { baseline: setup.base }, { api, ...workflowRunEvent(api) });
    await run(setup, {}, { api, ...workflowRunEvent(api) });
    expect(api.statuses.map(({ state, description }) => [state, description])).toEqual([
      ['success', 'no significant regression'],
      ['success', 'no baseline: no successful push run of this workflow on main in the last 30 days'],
    ]);
  });

  it('failure when the baseline lookup is broken, success with on-baseline-error: pass', async () => {
    const api = new FakeGitHub();
    api.fail.listSuccessfulPushRuns = new HttpError(403, 'Resource not accessible by integration');
    await run(failing(), {}, { api, ...workflowRunEvent(api) });
    await run(failing(), { 'on-baseline-error': 'pass' }, { api, ...workflowRunEvent(api) });
    expect(api.statuses.map(({ state, description }) => [state, description])).toEqual([
      ['failure', 'could not read the baseline: the token needs actions: read'],
      ['success', 'could not read the baseline: the token needs actions: read (on-baseline-error: pass)'],
    ]);
  });

  it('success in advisory mode, which passes the check, saying what it found', async () => {
    const api = new FakeGitHub();
    const setup = failing();
    await run(setup, { baseline: setup.base, mode: 'advisory' }, { api, ...workflowRunEvent(api) });
    expect(api.statuses.map(({ state, description }) => [state, description])).toEqual([
      [
        'success',
        expect.stringMatching(/^advisory, passes: retrieval regressed significantly: retrieval ok \(hit@5\) 0\.912 → 0\.829, 16 broken vs 2 fixed.*…$/),
      ],
    ]);
    expect(api.statuses[0]!.description.length).toBeLessThanOrEqual(140);
  });

  it('failure when the run stops on bad input, so that a required status never waits in vain', async () => {
    const api = new FakeGitHub();
    const dir = tempDir();
    const head = join(dir, 'results.jsonl');
    writeFileSync(head, '{"id": "q1", "question": "a", "correct": "yes"}\n');
    const { failures } = await run({ dir, head, base: '' }, {}, { api, ...workflowRunEvent(api) });
    expect(failures).toEqual([expect.stringMatching(/^rag-gate: bad input\n/)]);
    expect(api.statuses.map(({ state, description }) => [state, description])).toEqual([['failure', 'bad input: see the job log']]);
  });

  it('a 403 on the status warns naming statuses: write and changes nothing else', async () => {
    const api = new FakeGitHub();
    api.fail.createCommitStatus = new HttpError(403, 'Resource not accessible by integration');
    const setup = failing();
    const { failures, warnings, outputs } = await run(setup, { baseline: setup.base }, { api, ...workflowRunEvent(api) });
    expect(warnings).toEqual([
      {
        message: expect.stringMatching(
          /^rag-gate could not set the commit status rag-gate\/default on eeeeeee: .*add `statuses: write` under `permissions:`.*The verdict below still stands\.$/,
        ),
        title: 'rag-gate: no commit status',
      },
    ]);
    expect(outputs.get('verdict')).toBe('fail');
    expect(failures).toEqual([expect.stringMatching(/^rag-gate: retrieval regressed significantly/)]);
  });

  it('no status on pull_request, whose job check is on the head already, nor on push', async () => {
    const setup = failing();
    const onPullRequest = await run(setup, { baseline: setup.base });
    const onPush = await run(setup, { baseline: setup.base }, { eventName: 'push', eventPayload: {} });
    expect([...onPullRequest.api.called('createCommitStatus'), ...onPush.api.called('createCommitStatus')]).toEqual([]);
  });

  it('with pr-number on another event: on the pull request head', async () => {
    const api = new FakeGitHub();
    api.pulls.set(9, { number: 9, baseRef: 'main', baseSha: 'f'.repeat(40), headSha: HEAD_SHA });
    const setup = unchanged();
    await run(setup, { baseline: setup.base, 'pr-number': '9' }, { api, eventName: 'workflow_dispatch', eventPayload: {} });
    expect(api.statuses.map(({ sha, state }) => [sha, state])).toEqual([[HEAD_SHA, 'success']]);
  });
});

describe('runAction: the history of the base branch', () => {
  const PUSH = { eventName: 'push', eventPayload: { ref: 'refs/heads/main' } };
  const entry = (i: number, retrievalOk: number): HistoryEntry => ({
    commit: `${i.toString(16).padStart(7, '0')}${'f'.repeat(33)}`,
    date: new Date(Date.UTC(2026, 9, 1 + i)).toISOString(),
    n: 200,
    metrics: { retrieval_ok: { value: retrievalOk, n: 200 } },
  });
  const historyOf = (values: readonly number[]): History => ({ version: 1, runs: values.map((value, i) => entry(i + 1, value)) });
  const readWritten = (outputs: Map<string, string>) => JSON.parse(readFileSync(outputs.get('history')!, 'utf8')) as History;

  it('push, first run: a new history of this run, written to the history file and named in the output', async () => {
    const setup = failing();
    const { api, outputs, infos, warnings, failures } = await run(setup, {}, PUSH);
    expect(failures).toEqual([]);
    expect(warnings).toEqual([]);
    expect(api.called('listSuccessfulPushRuns')[0]?.args.slice(0, 2)).toEqual([77, 'main']);
    expect(infos).toContainEqual(expect.stringMatching(/^history: no successful push run of this workflow on main .* A new history starts with this run\.$/));
    expect(outputs.get('history')).toBe(join(setup.dir, 'rag-gate-history.json'));
    const written = readWritten(outputs);
    expect(written.runs).toHaveLength(1);
    const [only] = written.runs;
    expect(only).toMatchObject({ commit: HEAD_SHA, date: NOW.toISOString(), n: 200 });
    expect(only!.metrics.retrieval_ok!.value).toBeCloseTo(report(outputs).head.metrics.retrieval_ok, 12);
    expect(infos).toContainEqual(expect.stringContaining('upload it with the results as the artifact rag-gate-results'));
  });

  it('push: continues the newest artifact’s history, bounded at 100 runs, the oldest dropped', async () => {
    const hundred = historyOf(Array.from({ length: 100 }, (_, i) => 0.9 - i / 1000));
    const api = withBaselineArtifact(zipOf({ 'results.jsonl': '{}\n', 'rag-gate-history.json': historyJson(hundred) }));
    const { outputs, infos, warnings } = await run(failing(), {}, { ...PUSH, api });
    expect(warnings).toEqual([]);
    expect(infos).toContainEqual(expect.stringMatching(/^history: rag-gate-history\.json in the artifact rag-gate-results of run 11 .*, 100 runs$/));
    const written = readWritten(outputs);
    expect(written.runs).toHaveLength(100);
    expect(written.runs.map((r) => r.commit)).toEqual([...hundred.runs.slice(1).map((r) => r.commit), HEAD_SHA]);
  });

  it('push: an artifact without a history (the first run after upgrading) starts one, with an info line', async () => {
    const api = withBaselineArtifact(zipOf({ 'results.jsonl': '{}\n' }));
    const { outputs, infos, warnings } = await run(failing(), {}, { ...PUSH, api });
    expect(warnings).toEqual([]);
    expect(infos).toContainEqual(expect.stringContaining('holds no rag-gate-history.json'));
    expect(readWritten(outputs).runs.map((r) => r.commit)).toEqual([HEAD_SHA]);
  });

  it('push: an artifact whose history cannot be read warns that the trend is lost, restarts it, and passes', async () => {
    const api = withBaselineArtifact(zipOf({ 'results.jsonl': '{}\n', 'rag-gate-history.json': '{"version": 1, "runs": [{"commit": "HEAD"}]}' }));
    const { outputs, warnings, failures } = await run(failing(), {}, { ...PUSH, api });
    expect(failures).toEqual([]);
    expect(warnings).toEqual([
      {
        title: 'rag-gate: history restarted',
        message: expect.stringMatching(
          /^rag-gate could not read the history rag-gate-history\.json in the artifact rag-gate-results of run 11 .*rag-gate-results\/rag-gate-history\.json: runs\.0\.commit: must be a commit hash.*A new history starts with this run: the trend of the earlier runs is lost\.$/s,
        ),
      },
    ]);
    expect(readWritten(outputs).runs.map((r) => r.commit)).toEqual([HEAD_SHA]);
  });

  it('push: a 403 looking for the artifact warns naming actions: read, and restarts the history', async () => {
    const api = new FakeGitHub();
    api.fail.listSuccessfulPushRuns = new HttpError(403, 'Resource not accessible by integration');
    const { outputs, warnings, failures } = await run(failing(), {}, { ...PUSH, api });
    expect(failures).toEqual([]);
    expect(warnings.map((w) => w.message)).toEqual([expect.stringMatching(/lost unless you add actions: read under permissions: and re-run this job\.$/)]);
    expect(readWritten(outputs).runs).toHaveLength(1);
  });

  it('push: the history file the workflow restored is continued without asking GitHub; a bad one is bad input', async () => {
    const setup = failing();
    const file = join(setup.dir, 'rag-gate-history.json');
    writeFileSync(file, historyJson(historyOf([0.9, 0.8])));
    const { api, outputs } = await run(setup, {}, PUSH);
    expect(api.calls).toEqual([]);
    expect(readWritten(outputs).runs.map((r) => r.commit)).toEqual([entry(1, 0).commit, entry(2, 0).commit, HEAD_SHA]);

    writeFileSync(file, '{"version": 1, "runs": [{"commit": "abcdef0", "date": "yesterday", "n": 1, "metrics": {}}]}');
    const bad = await run(setup, {}, PUSH);
    expect(bad.failures).toEqual([`rag-gate: bad input\n${file}: runs.0.date: must be an ISO 8601 date`]);
    expect(readFileSync(file, 'utf8')).toContain('yesterday');
  });

  it('a pushed tag, and every other event, keeps no history: the output is empty', async () => {
    const setup = failing();
    const tag = await run(setup, {}, { eventName: 'push', eventPayload: { ref: 'refs/tags/v1' } });
    expect(tag.outputs.get('history')).toBe('');
    expect(tag.api.calls).toEqual([]);
    const pull = await run(setup, { baseline: setup.base });
    expect(pull.outputs.get('history')).toBe('');
    expect(existsSync(join(setup.dir, 'rag-gate-history.json'))).toBe(false);
  });

  it('a results file named like the history is refused', async () => {
    const setup = failing();
    const { failures } = await run(setup, { history: 'out/results.jsonl' }, PUSH);
    expect(failures).toEqual([expect.stringMatching(/^rag-gate: bad input\ninput "history": out\/results\.jsonl has the name of a results file/)]);
  });

  it('a pull request charts the artifact’s history with its own value last, in the comment, the summary and report.json', async () => {
    const { base, head } = sketchScenario();
    const values = [0.95, 0.94, 0.93, 0.92];
    const api = withBaselineArtifact(zipOf({ 'results.jsonl': jsonlText(base), 'rag-gate-history.json': historyJson(historyOf(values)) }));
    const setup = files(head, base);
    const { outputs, summaries, infos } = await run(setup, {}, { api });
    expect(infos).toContainEqual(expect.stringMatching(/^history: rag-gate-history\.json in the artifact rag-gate-results of run 11 .*, 4 runs$/));
    const body = api.called('createComment')[0]?.args[1] as string;
    const headValue = report(outputs).head.metrics.retrieval_ok as number;
    const line = [...values, headValue].map((v) => (v * 100).toFixed(1)).join(', ');
    for (const markdown of [body, summaries[0]!]) {
      expect(markdown).toContain('```mermaid\nxychart-beta\n');
      expect(markdown).toContain(`  line [${line}]`);
    }
    const trend = report(outputs).trend;
    expect(trend).toEqual([
      {
        metric: 'retrieval_ok',
        points: [
          ...historyOf(values).runs.map((r) => ({ label: r.commit.slice(0, 7), value: r.metrics.retrieval_ok!.value })),
          { label: 'PR', value: headValue },
        ],
        baseRuns: 4,
        trend: linearTrend([...values, headValue]),
        // The fitted line falls 10.4 points, but 5 runs cannot tell that from noise: no fall is read into it.
        reading: expect.stringMatching(/^Retrieval ok \(hit@5\) shows no significant trend over the last 5 runs \(least-squares slope −2\.61 points a run/),
      },
    ]);
  });

  it('a pull request whose artifact history cannot be read warns and shows no trend; the gate stands', async () => {
    const { base, head } = sketchScenario();
    const api = withBaselineArtifact(zipOf({ 'results.jsonl': jsonlText(base), 'rag-gate-history.json': 'not json' }));
    const { outputs, warnings, failures } = await run(files(head, base), {}, { api });
    expect(warnings).toEqual([{ title: 'rag-gate: no trend', message: expect.stringContaining('The comment shows no trend of the base branch.') }]);
    expect(api.called('createComment')[0]?.args[1]).not.toContain('mermaid');
    expect(report(outputs).trend).toBeUndefined();
    expect(failures).toHaveLength(1);
    expect(outputs.get('verdict')).toBe('fail');
  });
});
