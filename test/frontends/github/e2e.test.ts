/**
 * End to end: the bundled dist/index.js as a child process, exactly as the runner starts it (inputs as INPUT_*
 * variables with action.yml's defaults applied, the GITHUB_* files), against a loopback server that plays the
 * GitHub REST API and records every call.
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, onTestFinished } from 'vitest';
import { parse } from 'yaml';
import { BUNDLED_ACTION } from '../../helpers/bundles.js';
import { ROOT } from '../../helpers/cli.js';
import { tempDir, writeJsonl } from '../../helpers/files.js';
import type { Question } from '../../helpers/paired-runs.js';
import { drawSplit, splitSizes } from '../../../src/core/holdout/split.js';
import { writeHoldoutFile } from '../../../src/sources/holdout-file.js';
import { type History as HistoryFile, linearTrend } from '../../../src/core/history/history.js';
import { trendReading } from '../../../src/render/history.js';
import {
  type FakeComment,
  type FakeGitHubAddress,
  type FakeGitHubServer,
  type FakeRun,
  type Fault,
  startFakeGitHub,
  type RepositoryState,
} from './fake-github-server.js';
import { startProxy, type TestProxy } from '../../helpers/proxy.js';
import {
  BASE_SHA,
  HEAD_SHA,
  jsonlText,
  MERGE_BASE_SHA,
  pullRequestPayload,
  pushPayload,
  sketchScenario,
  tamperedZip,
  workflowRunPayload,
  zipOf,
} from './fakes.js';

const DIST_INDEX = BUNDLED_ACTION;
const ACTION = parse(readFileSync(join(ROOT, 'action.yml'), 'utf8')) as { inputs: Record<string, { default?: string }>; outputs: Record<string, unknown> };
const ACTION_OUTPUTS = ACTION.outputs;
const MARKER = '<!-- rag-gate:default -->';

interface ActionRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly outputs: Record<string, string>;
  readonly summary: string;
  /** RUNNER_TEMP of the run, where the action writes its report files. */
  readonly runnerTemp: string;
}

/** Parses GITHUB_OUTPUT as the runner does: `name<<DELIMITER`, the value's lines, `DELIMITER`. */
function parseOutputFile(text: string): Record<string, string> {
  const outputs: Record<string, string> = {};
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line === '') continue;
    const heredoc = line.match(/^([^=<]+)<<(.+)$/);
    if (heredoc === null) {
      const [name, ...value] = line.split('=');
      outputs[name!] = value.join('=');
      continue;
    }
    const [, name, delimiter] = heredoc;
    const value: string[] = [];
    for (i++; i < lines.length && lines[i] !== delimiter; i++) value.push(lines[i]!);
    if (i >= lines.length) throw new Error(`output ${name}: no closing delimiter ${delimiter}`);
    outputs[name!] = value.join('\n');
  }
  return outputs;
}

interface RunOptions {
  readonly inputs?: Record<string, string>;
  readonly env?: Record<string, string>;
  readonly eventName?: string;
  readonly payload?: object;
}

/** The results files of one job's workspace. */
interface Workspace {
  readonly dir: string;
}

function workspace(head: readonly Question[], base?: readonly Question[]): Workspace {
  const dir = tempDir();
  writeJsonl(dir, 'results.jsonl', head);
  if (base !== undefined) writeJsonl(dir, 'base.jsonl', base);
  return { dir };
}

const failing = () => {
  const { base, head } = sketchScenario();
  return workspace(head, base);
};
const unchanged = () => {
  const { base } = sketchScenario();
  return workspace(base, base);
};

let runs = 0;

/** `node dist/index.js` in the workspace, with the environment the runner gives a JavaScript action. */
async function runDist(server: FakeGitHubServer, work: Workspace, options: RunOptions = {}): Promise<ActionRun> {
  runs++;
  const files = join(work.dir, `_runner-${runs}`);
  mkdirSync(join(files, 'temp'), { recursive: true });
  const outputFile = join(files, 'output');
  const summaryFile = join(files, 'step_summary');
  const eventFile = join(files, 'event.json');
  writeFileSync(outputFile, '');
  writeFileSync(summaryFile, '');
  writeFileSync(eventFile, JSON.stringify(options.payload ?? pullRequestPayload(42)));

  const given: Record<string, string> = { results: 'results.jsonl', ...options.inputs };
  const inputs: Record<string, string> = {};
  for (const [name, input] of Object.entries(ACTION.inputs)) {
    const value = given[name] ?? (input.default === '${{ github.token }}' ? 'ghs_faketoken' : input.default);
    if (value !== undefined) inputs[`INPUT_${name.toUpperCase()}`] = String(value);
  }
  for (const name of Object.keys(given)) if (!(name in ACTION.inputs)) throw new Error(`action.yml has no input ${name}`);

  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    ...inputs,
    CI: 'true',
    GITHUB_ACTIONS: 'true',
    GITHUB_EVENT_NAME: options.eventName ?? 'pull_request',
    GITHUB_EVENT_PATH: eventFile,
    GITHUB_REPOSITORY: 'octo/shop',
    GITHUB_REPOSITORY_OWNER: 'octo',
    GITHUB_RUN_ID: '5000',
    GITHUB_SHA: HEAD_SHA,
    GITHUB_WORKSPACE: work.dir,
    GITHUB_OUTPUT: outputFile,
    GITHUB_STEP_SUMMARY: summaryFile,
    GITHUB_API_URL: server.url,
    GITHUB_SERVER_URL: 'https://github.com',
    RUNNER_TEMP: join(files, 'temp'),
    RAG_GATE_RETRY_BASE_MS: '10',
    ...options.env,
  };

  const child = spawn(process.execPath, [DIST_INDEX], { cwd: work.dir, env, stdio: ['ignore', 'pipe', 'pipe'] });
  // No deadline of its own: the test's timeout bounds the run, and a child still running when the test ends is killed.
  onTestFinished(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const code = await new Promise<number | null>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (exitCode) => resolve(exitCode));
  });
  return {
    code,
    stdout,
    stderr,
    outputs: parseOutputFile(readFileSync(outputFile, 'utf8')),
    summary: readFileSync(summaryFile, 'utf8'),
    runnerTemp: join(files, 'temp'),
  };
}

const COMMENTS = /^\/repos\/octo\/shop\/issues\/42\/comments$/;
const COMMENT_ID = /^\/repos\/octo\/shop\/issues\/comments\/\d+$/;
const ANY_COMMENT_CALL = /^\/(user$|repos\/octo\/shop\/issues\/)/;

let server: FakeGitHubServer | undefined;

async function start(initial: Partial<RepositoryState> = {}, address?: FakeGitHubAddress): Promise<FakeGitHubServer> {
  server = await startFakeGitHub(initial, address);
  return server;
}

afterEach(async () => {
  // Read once closed: by then every response has been sent and checked.
  const closing = server;
  server = undefined;
  await closing?.close();
  expect(closing?.violations ?? [], "requests and responses outside GitHub's API description").toEqual([]);
});

/** The ::warning workflow commands the action printed. */
const warnings = (run: ActionRun) => run.stdout.split('\n').filter((line) => line.startsWith('::warning'));

/**
 * Nothing on stderr but Octokit's own log line for the expected 403 on GET /user (GITHUB_TOKEN cannot read it;
 * the action then identifies its comments by the Bot type).
 */
function expectQuietStderr(run: ActionRun): void {
  expect(run.stderr.split('\n').filter((line) => line !== '' && !/^GET \/user - 403 with id \S+ in \d+ms$/.test(line))).toEqual([]);
}

describe('dist/index.js as the runner runs it', () => {
  it('fails on a significant retrieval drop: exit 1, outputs, summary, comment', async () => {
    const api = await start();
    const run = await runDist(api, failing(), { inputs: { baseline: 'base.jsonl' }, payload: pullRequestPayload(42, 'opened') });
    expectQuietStderr(run);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/^::error::rag-gate: retrieval regressed significantly: retrieval ok \(hit@5\) 0\.912 → 0\.829, 16 broken vs 2 fixed/m);

    const { outputs } = run;
    expect(Object.keys(outputs).sort()).toEqual([
      'baseline-found',
      'baseline-sha',
      'broken',
      'comment-url',
      'fixed',
      'history',
      'holdout-gap',
      'holdout-ledger',
      'holdout-looks',
      'monitor-alert',
      'monitor-issue',
      'p-value',
      'regressions',
      'report-json',
      'report-markdown',
      'verdict',
    ]);
    expect(outputs.verdict).toBe('fail');
    expect(Number(outputs['p-value'])).toBeCloseTo((2 * 2 * 172) / 262144, 12);
    expect(outputs.fixed).toBe('6');
    expect(outputs.broken).toBe('15');
    expect(outputs.regressions).toBe('15');
    expect(outputs['baseline-found']).toBe('true');
    expect(outputs['baseline-sha']).toBe('');
    expect(outputs['comment-url']).toBe('https://github.com/octo/shop/pull/42#issuecomment-1000');
    expect(existsSync(outputs['report-json']!)).toBe(true);
    expect(JSON.parse(readFileSync(outputs['report-json']!, 'utf8'))).toMatchObject({ verdict: 'fail', paired: 200, regressions: expect.any(Array) });
    const markdown = readFileSync(outputs['report-markdown']!, 'utf8');

    expect(run.summary).toContain('16 broken');
    expect(run.summary).toContain(MARKER);
    const [post] = api.callsTo('POST', COMMENTS);
    expect(post?.body).toEqual({ body: markdown });
    expect(markdown.startsWith(MARKER)).toBe(true);
  });

  it('passes when nothing changed: exit 0', async () => {
    const api = await start();
    const run = await runDist(api, unchanged(), { inputs: { baseline: 'base.jsonl' } });
    expect(run.code).toBe(0);
    expect(run.outputs).toMatchObject({ verdict: 'pass', fixed: '0', broken: '0', regressions: '0', 'baseline-found': 'true' });
    expect(warnings(run)).toEqual([]);
    expect(run.stdout).not.toContain('::error');
  });

  it('creates the comment on the first run and updates it, not duplicated, on the second', async () => {
    const api = await start();
    const first = await runDist(api, failing(), { inputs: { baseline: 'base.jsonl' } });
    expect(first.code).toBe(1);
    expect(api.callsTo('POST', COMMENTS)).toHaveLength(1);
    expect(api.callsTo('GET', /^\/user$/)).toHaveLength(1);
    const id = api.state.comments[0]!.id;

    const second = await runDist(api, unchanged(), { inputs: { baseline: 'base.jsonl' } });
    expect(second.code).toBe(0);
    expect(api.callsTo('POST', COMMENTS)).toHaveLength(1);
    const patches = api.callsTo('PATCH', COMMENT_ID);
    expect(patches.map((call) => call.path)).toEqual([`/repos/octo/shop/issues/comments/${id}`]);
    expect(api.state.comments).toHaveLength(1);
    expect(api.state.comments[0]!.body).toBe(readFileSync(second.outputs['report-markdown']!, 'utf8'));
    expect(api.state.comments[0]!.body).toContain('✅');
    expect(second.outputs['comment-url']).toBe(first.outputs['comment-url']);
  });

  it("leaves a human's comment with the marker alone", async () => {
    const human: FakeComment = { id: 1, body: `Our bot writes ${MARKER} — see?\n${MARKER}`, user: { login: 'alice', type: 'User' } };
    const api = await start({ comments: [{ ...human, user: { ...human.user } }] });
    const first = await runDist(api, failing(), { inputs: { baseline: 'base.jsonl' } });
    const second = await runDist(api, unchanged(), { inputs: { baseline: 'base.jsonl' } });
    expect([first.code, second.code]).toEqual([1, 0]);
    expect(api.callsTo('PATCH', /\/issues\/comments\/1$/)).toEqual([]);
    expect(api.callsTo('POST', COMMENTS)).toHaveLength(1);
    expect(api.callsTo('PATCH', COMMENT_ID)).toHaveLength(1);
    expect(api.state.comments.map((c) => [c.id, c.user.login])).toEqual([
      [1, 'alice'],
      [1001, 'github-actions[bot]'],
    ]);
    expect(api.state.comments[0]!.body).toBe(human.body);
  });

  it("leaves another app's comment with the marker alone (GITHUB_TOKEN cannot say who it is)", async () => {
    const otherApp: FakeComment = { id: 1, body: `${MARKER}\nsome other app's report`, user: { login: 'some-other-app[bot]', type: 'Bot' } };
    const api = await start({ comments: [{ ...otherApp, user: { ...otherApp.user } }] });
    const run = await runDist(api, failing(), { inputs: { baseline: 'base.jsonl' } });
    expect(run.code).toBe(1);
    expect(api.callsTo('PATCH', COMMENT_ID)).toEqual([]);
    expect(api.callsTo('POST', COMMENTS)).toHaveLength(1);
    expect(api.state.comments.map((c) => [c.id, c.user.login, c.body === otherApp.body])).toEqual([
      [1, 'some-other-app[bot]', true],
      [1001, 'github-actions[bot]', false],
    ]);
  });

  it('reads every page of comments to find its own (more than 100)', async () => {
    const comments: FakeComment[] = Array.from({ length: 150 }, (_, i) => ({ id: i + 1, body: `comment ${i + 1}`, user: { login: 'alice', type: 'User' } }));
    comments[119] = { id: 120, body: `${MARKER}\nold report`, user: { login: 'github-actions[bot]', type: 'Bot' } };
    const api = await start({ comments });
    const run = await runDist(api, unchanged(), { inputs: { baseline: 'base.jsonl' } });
    expect(run.code).toBe(0);
    const pages = api.callsTo('GET', COMMENTS);
    expect(pages.map((call) => [call.query.per_page, call.query.page])).toEqual([
      ['100', undefined],
      ['100', '2'],
    ]);
    expect(api.callsTo('POST', COMMENTS)).toEqual([]);
    expect(api.callsTo('PATCH', COMMENT_ID).map((call) => call.path)).toEqual(['/repos/octo/shop/issues/comments/120']);
    expect(run.outputs['comment-url']).toMatch(/#issuecomment-120$/);
  });

  it('a read-only token (a fork): 403 on the comment, warning with the workflow_run recipe, summary, and the gate', async () => {
    const api = await start({ faults: [{ method: 'POST', path: COMMENTS, status: 403, times: Infinity, message: 'Resource not accessible by integration' }] });
    const run = await runDist(api, failing(), { inputs: { baseline: 'base.jsonl' } });
    expect(run.code).toBe(1);
    expect(api.callsTo('POST', COMMENTS)).toHaveLength(1);
    const [warning, ...more] = warnings(run);
    expect(more).toEqual([]);
    expect(warning).toMatch(/^::warning title=rag-gate%3A no PR comment::rag-gate could not comment on pull request #42: .*workflow_run/);
    expect(run.summary).toContain('16 broken');
    expect(run.outputs).toMatchObject({ verdict: 'fail', 'comment-url': '' });
    expect(run.stdout).toMatch(/^::error::rag-gate: retrieval regressed significantly/m);
  });

  it('finds the baseline artifact of the merge-base run, ignoring a newer run and a fork', async () => {
    const { base, head } = sketchScenario();
    const hoursAgo = (hours: number) => new Date(Date.now() - hours * 3_600_000).toISOString().replace(/\.\d{3}Z$/, 'Z');
    const pushRun = (fields: Partial<FakeRun> & Pick<FakeRun, 'id' | 'headSha' | 'createdAt'>): FakeRun => ({
      runNumber: fields.id - 1000,
      branch: 'main',
      event: 'push',
      conclusion: 'success',
      headRepository: 'octo/shop',
      ...fields,
    });
    const api = await start({
      mergeBase: MERGE_BASE_SHA,
      runs: [
        pushRun({ id: 1011, headSha: MERGE_BASE_SHA, createdAt: hoursAgo(50) }),
        pushRun({ id: 1012, headSha: 'e'.repeat(40), createdAt: hoursAgo(3) }),
        pushRun({ id: 1013, headSha: MERGE_BASE_SHA, createdAt: hoursAgo(1), headRepository: 'mallory/shop' }),
        pushRun({ id: 1014, headSha: MERGE_BASE_SHA, createdAt: hoursAgo(24 * 40) }),
      ],
      artifacts: new Map([
        [1011, [{ id: 511, name: 'rag-gate-results', expired: false }]],
        [1012, [{ id: 512, name: 'rag-gate-results', expired: false }]],
        [1013, [{ id: 513, name: 'rag-gate-results', expired: false }]],
        [1014, [{ id: 514, name: 'rag-gate-results', expired: false }]],
      ]),
      zips: new Map([
        [511, zipOf({ 'results.jsonl': jsonlText(base), 'logs/run.txt': 'ok\n' })],
        [512, zipOf({ 'results.jsonl': jsonlText(head) })],
        [513, zipOf({ 'results.jsonl': jsonlText(head) })],
        [514, zipOf({ 'results.jsonl': jsonlText(head) })],
      ]),
    });
    const before = Date.now();
    const run = await runDist(api, workspace(head));
    expectQuietStderr(run);

    expect(api.callsTo('GET', /^\/repos\/octo\/shop\/actions\/runs\/5000$/)).toHaveLength(1);
    const [list] = api.callsTo('GET', /^\/repos\/octo\/shop\/actions\/workflows\/77\/runs$/);
    expect(list?.query).toMatchObject({ branch: 'main', event: 'push', status: 'success' });
    expect(list?.query.created).toMatch(/^>=\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    // 30 days before the action's clock, which read between `before` and the request (the query drops milliseconds).
    const since = Date.parse(list!.query.created!.replace(/^>=/, ''));
    expect(since).toBeGreaterThan(before - 30 * 86_400_000 - 1000);
    expect(since).toBeLessThanOrEqual(list!.at - 30 * 86_400_000);
    expect(api.callsTo('GET', /\/compare\//).map((call) => call.path)).toEqual([`/repos/octo/shop/compare/${BASE_SHA}...${HEAD_SHA}`]);
    expect(api.callsTo('GET', /\/artifacts$/).map((call) => [call.path, call.query.name])).toEqual([
      ['/repos/octo/shop/actions/runs/1011/artifacts', 'rag-gate-results'],
    ]);
    // Octokit follows GitHub's redirect to the blob storage, on another origin, without the token.
    const download = api.callsTo('GET', /^\/repos\/octo\/shop\/actions\/artifacts\/511\/zip$/);
    expect(download.map((call) => call.authorization)).toEqual(['token ghs_faketoken']);
    const blob = api.calls.filter((call) => call.server === 'blob');
    expect(blob.map((call) => [call.method, call.path, call.query.sig, call.authorization])).toEqual([['GET', '/blob/artifact-511.zip', 'abc', undefined]]);
    expect(api.calls.filter((call) => call.server === 'api').every((call) => call.authorization === 'token ghs_faketoken')).toBe(true);

    expect(run.code).toBe(1);
    expect(run.outputs).toMatchObject({ verdict: 'fail', 'baseline-found': 'true', 'baseline-sha': MERGE_BASE_SHA, broken: '15' });
    const body = api.state.comments[0]!.body;
    expect(body).toContain('`main` at `aaaaaaa` (the merge-base), results from run 11, 2 days old');
    expect(run.summary).toContain('`aaaaaaa`');
  });

  it('with no baseline (no runs yet): a neutral pass that says why', async () => {
    const api = await start();
    const { head } = sketchScenario();
    const run = await runDist(api, workspace(head));
    expect(run.code).toBe(0);
    expect(run.outputs).toMatchObject({ verdict: 'neutral', 'baseline-found': 'false', 'baseline-sha': '', 'p-value': '', regressions: '0' });
    expect(JSON.parse(readFileSync(run.outputs['report-json']!, 'utf8'))).toMatchObject({ verdict: 'neutral', baseline: { found: false } });
    const body = api.state.comments[0]!.body;
    expect(body.startsWith(MARKER)).toBe(true);
    expect(body).toContain('no successful push run of this workflow on `main` in the last 30 days');
    expect(run.summary).toContain('no successful push run');
    expect(run.stdout).not.toContain('::error');
    expect(warnings(run)).toEqual([]);
  });

  it('retries a transient 502 on the comments list', async () => {
    const api = await start({ faults: [{ method: 'GET', path: COMMENTS, status: 502, times: 1, message: 'Bad Gateway' }] });
    const run = await runDist(api, failing(), { inputs: { baseline: 'base.jsonl' } });
    expect(run.code).toBe(1);
    expect(api.callsTo('GET', COMMENTS)).toHaveLength(2);
    expect(api.callsTo('POST', COMMENTS)).toHaveLength(1);
    expect(warnings(run)).toEqual([]);
    expect(run.outputs['comment-url']).toMatch(/#issuecomment-1000$/);
  });

  it('waits out a secondary rate limit for its retry-after, then carries on', async () => {
    // On a GET: a retried write would also wait for Octokit's own 3 s spacing of notifying writes.
    const limited = 'You have exceeded a secondary rate limit. Please wait a few minutes before you try again.';
    const api = await start({ faults: [{ method: 'GET', path: COMMENTS, status: 403, times: 1, message: limited, headers: { 'retry-after': '1' } }] });
    const run = await runDist(api, failing(), { inputs: { baseline: 'base.jsonl' } });
    expect(run.code).toBe(1);
    const [first, second] = api.callsTo('GET', COMMENTS);
    // A lower bound (load only lengthens the wait), a little under 1 s because the child's timers and this clock round apart.
    expect(second!.at - first!.at).toBeGreaterThanOrEqual(990);
    expect(run.stdout).toMatch(/^GitHub secondary rate limit on GET \S*\/issues\/(42|\{issue_number\})\/comments\S*; retrying in 1s$/m);
    expect(api.callsTo('POST', COMMENTS)).toHaveLength(1);
    expect(warnings(run)).toEqual([]);
    expect(run.outputs['comment-url']).toMatch(/#issuecomment-1000$/);
  });

  it('gives up after bounded retries of a 5xx, warns, and keeps the verdict', async () => {
    const api = await start({ faults: [{ method: 'GET', path: COMMENTS, status: 500, times: Infinity }] });
    const run = await runDist(api, failing(), { inputs: { baseline: 'base.jsonl' } });
    expect(run.code).toBe(1);
    expect(api.callsTo('GET', COMMENTS)).toHaveLength(4);
    expect(warnings(run)).toEqual([
      expect.stringMatching(/^::warning title=rag-gate%3A no PR comment::.*the GitHub API failed.*the verdict below still stands/),
    ]);
    expect(run.outputs.verdict).toBe('fail');
  });

  it('comment: never makes no comment call', async () => {
    const api = await start();
    const run = await runDist(api, failing(), { inputs: { baseline: 'base.jsonl', comment: 'never' } });
    expect(run.code).toBe(1);
    expect(api.calls.filter((call) => ANY_COMMENT_CALL.test(call.path))).toEqual([]);
    expect(run.outputs['comment-url']).toBe('');
    expect(run.summary).toContain('16 broken');
  });

  it('advisory mode: exit 0 with a warning on a failing gate', async () => {
    const api = await start();
    const run = await runDist(api, failing(), { inputs: { baseline: 'base.jsonl', mode: 'advisory' } });
    expect(run.code).toBe(0);
    expect(run.outputs.verdict).toBe('fail');
    expect(warnings(run)).toEqual([expect.stringMatching(/^::warning title=rag-gate%3A regression::rag-gate: retrieval regressed significantly/)]);
  });

  it('a workflow_run event: comments on the pull request of the triggering run, with its workflow as the producer', async () => {
    const api = await start({ pulls: new Map([[42, { number: 42, baseRef: 'main', baseSha: BASE_SHA, headRef: 'feature', headSha: HEAD_SHA }]]) });
    const { head } = sketchScenario();
    const payload = workflowRunPayload({ id: 4321, headBranch: 'feature', headSha: HEAD_SHA, headRepository: 'octo/shop', pullRequests: [42] });
    const run = await runDist(api, workspace(head), { eventName: 'workflow_run', payload });
    expect(run.code).toBe(0);
    expect(api.callsTo('GET', /^\/repos\/octo\/shop\/pulls\/42$/)).toHaveLength(1);
    expect(api.callsTo('GET', /^\/repos\/octo\/shop\/actions\/runs\/\d+$/).map((call) => call.path)).toEqual(['/repos/octo/shop/actions/runs/4321']);
    expect(api.callsTo('GET', /\/workflows\/77\/runs$/)[0]?.query.branch).toBe('main');
    expect(api.callsTo('POST', COMMENTS)).toHaveLength(1);
    expect(run.outputs).toMatchObject({ verdict: 'neutral', 'baseline-found': 'false' });
  });

  it('a push event: summary only, no comment', async () => {
    const api = await start();
    const run = await runDist(api, failing(), {
      eventName: 'push',
      payload: pushPayload('main', BASE_SHA, HEAD_SHA),
    });
    expect(run.code).toBe(0);
    expect(api.calls.filter((call) => ANY_COMMENT_CALL.test(call.path))).toEqual([]);
    expect(run.summary).toContain('a push event has no base branch to compare with');
    expect(run.outputs).toMatchObject({ verdict: 'neutral', 'comment-url': '' });
  });

  it('bad results: fails naming file, line and field, and posts nothing', async () => {
    const api = await start();
    const work = failing();
    writeFileSync(join(work.dir, 'results.jsonl'), '{"id": "q1", "question": "a"}\n{"id": "q2", "question": "b", "correct": "yes"}\n');
    const run = await runDist(api, work, { inputs: { baseline: 'base.jsonl' } });
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/^::error::rag-gate: bad input%0Aresults\.jsonl:2: correct: must be true or false$/m);
    // Only the base branch's settings were read: nothing was posted.
    expect(api.calls.map((call) => `${call.method} ${call.path}`)).toEqual(['GET /repos/octo/shop/contents/rag-gate.yml']);
  });
});

const WORKFLOW_RUNS = /^\/repos\/octo\/shop\/actions\/workflows\/77\/runs$/;
const STATUSES = /^\/repos\/octo\/shop\/statuses\//;
const hoursAgo = (hours: number) => new Date(Date.now() - hours * 3_600_000).toISOString().replace(/\.\d{3}Z$/, 'Z');

/** One successful push run on main (id 1011, run number 11) with this artifact zip. */
function baseRunWith(zip: Uint8Array): Partial<RepositoryState> {
  return {
    runs: [
      {
        id: 1011,
        runNumber: 11,
        headSha: MERGE_BASE_SHA,
        createdAt: hoursAgo(5),
        branch: 'main',
        event: 'push',
        conclusion: 'success',
        headRepository: 'octo/shop',
      },
    ],
    artifacts: new Map([[1011, [{ id: 511, name: 'rag-gate-results', expired: false }]]]),
    zips: new Map([[511, zip]]),
  };
}

/** The ::error workflow command the action printed, decoded as the runner shows it. */
const errorLine = (run: ActionRun) =>
  run.stdout
    .split('\n')
    .find((line) => line.startsWith('::error::'))
    ?.replace(/%0A/g, '\n');

describe('dist/index.js: an absent baseline is neutral, a broken one red', () => {
  it('a 403 on the workflow runs (no actions: read) fails the check naming the permission, the run and the artifact', async () => {
    const api = await start({
      faults: [{ method: 'GET', path: WORKFLOW_RUNS, status: 403, times: Infinity, message: 'Resource not accessible by integration' }],
    });
    const run = await runDist(api, failing());
    expectQuietStderr(run);
    expect(run.code).toBe(1);
    expect(api.callsTo('GET', WORKFLOW_RUNS)).toHaveLength(1);
    const error = errorLine(run);
    expect(error).toMatch(
      /^::error::rag-gate: could not read the base branch's results: GitHub refused \(403\) to list the successful push runs on main of the workflow of run 5000, which hold artifact rag-gate-results/,
    );
    expect(error).toContain('(run https://github.com/octo/shop/actions/runs/5000)');
    expect(error).toContain('Fix: add actions: read under permissions:');
    expect(run.outputs).toMatchObject({ verdict: 'fail', 'baseline-found': 'false' });
    expect(api.state.comments[0]!.body).toContain('### ❌ rag-gate: could not read the baseline');
  });

  it('on-baseline-error: pass turns the 403 into a warning and a neutral pass', async () => {
    const api = await start({
      faults: [{ method: 'GET', path: WORKFLOW_RUNS, status: 403, times: Infinity, message: 'Resource not accessible by integration' }],
    });
    const run = await runDist(api, failing(), { inputs: { 'on-baseline-error': 'pass' } });
    expect(run.code).toBe(0);
    expect(run.stdout).not.toContain('::error');
    expect(warnings(run)).toEqual([
      expect.stringMatching(
        /^::warning title=rag-gate%3A baseline unreadable::rag-gate: could not read the base branch's results: GitHub refused \(403\).*actions: read.*This check passes: on-baseline-error is pass\.$/,
      ),
    ]);
    expect(run.outputs).toMatchObject({ verdict: 'neutral', 'baseline-found': 'false' });
  });

  it('on-missing-baseline: fail fails when there are no runs', async () => {
    const api = await start();
    const run = await runDist(api, failing(), { inputs: { 'on-missing-baseline': 'fail' } });
    expect(run.code).toBe(1);
    expect(errorLine(run)).toBe(
      '::error::rag-gate: no baseline: no successful push run of this workflow on main in the last 30 days. This check fails: on-missing-baseline is fail.',
    );
    expect(run.outputs.verdict).toBe('fail');
  });

  it('a corrupt artifact fails the check naming the artifact and its run', async () => {
    const api = await start(baseRunWith(new TextEncoder().encode('<Error><Code>BlobNotFound</Code></Error>')));
    const run = await runDist(api, failing());
    expect(run.code).toBe(1);
    expect(errorLine(run)).toMatch(
      /^::error::rag-gate: could not read the base branch's results: artifact rag-gate-results of run 1011 is not a zip archive rag-gate will unpack \(run https:\/\/github\.com\/octo\/shop\/actions\/runs\/1011\)\. Fix: re-run the base branch's workflow/,
    );
    expect(run.outputs.verdict).toBe('fail');
  });

  it('an artifact without a results file fails the check, listing what it holds and how to upload the results', async () => {
    const api = await start(baseRunWith(zipOf({ 'eval/run.log': 'ran\n', 'eval/@mallory.txt': 'x\n' })));
    const run = await runDist(api, failing());
    expect(run.code).toBe(1);
    expect(errorLine(run)).toBe(
      "::error::rag-gate: could not read the base branch's results: artifact rag-gate-results of run 1011 holds no results file (no .jsonl, .ndjson or .json file but the run history) (run https://github.com/octo/shop/actions/runs/1011). Fix: in the base branch's workflow, upload the results file under the artifact name rag-gate-results (actions/upload-artifact with name: rag-gate-results and path: the results file), then re-run it (run 1011).\nIt holds: eval/run.log\neval/@mallory.txt",
    );
    expect(run.outputs).toMatchObject({ verdict: 'fail', 'baseline-found': 'false' });
    expect(JSON.parse(readFileSync(run.outputs['report-json']!, 'utf8')).baseline.problem).toMatchObject({ kind: 'no-results-file', run: { id: 1011 } });
    const body = api.state.comments[0]!.body;
    expect(body).toContain('It holds: `eval/run.log`\\\n`eval/@mallory.txt`');
    // A name that would mention someone is only ever in a code span.
    expect(body.replace(/`[^`\n]*`/g, '')).not.toContain('@mallory');
  });

  it('an artifact whose results entry fails its CRC-32 fails the check naming the artifact and the entry', async () => {
    const zip = tamperedZip(zipOf({ 'results.jsonl': jsonlText(sketchScenario().base) }, { stored: true }), 'results.jsonl', { flipDataByte: 0 });
    const run = await runDist(await start(baseRunWith(zip)), failing());
    expect(run.code).toBe(1);
    expect(errorLine(run)).toMatch(
      /^::error::rag-gate: could not read the base branch's results: artifact rag-gate-results of run 1011 is not a zip archive rag-gate will unpack .*\nDetail: entry "results\.jsonl": its CRC-32 is 0x[0-9a-f]{8}, but 0x[0-9a-f]{8} is declared/s,
    );
    expect(run.outputs.verdict).toBe('fail');
  });

  it('a stalled API times out after the retries and fails the check naming the timeout', async () => {
    const api = await start({ stalls: [{ method: 'GET', path: WORKFLOW_RUNS }] });
    const run = await runDist(api, failing(), { inputs: { 'api-timeout-seconds': '0.5' } });
    expectQuietStderr(run);
    expect(run.code).toBe(1);
    expect(api.callsTo('GET', WORKFLOW_RUNS)).toHaveLength(4);
    expect(errorLine(run)).toMatch(
      /^::error::rag-gate: could not read the base branch's results: GitHub did not answer within 0\.5 s \(api-timeout-seconds\) when asked to list the successful push runs/,
    );
    expect(errorLine(run)).toContain('Detail: no answer from GitHub within 0.5 s');
    expect(run.outputs.verdict).toBe('fail');
    expect(api.state.comments[0]!.body).toContain('GitHub did not answer within 0.5 s');
  });

  it('reads the shards of a merged artifact (upload-artifact/merge), named like the results glob', async () => {
    const { base, head } = sketchScenario();
    const api = await start(
      baseRunWith(
        zipOf({
          'rag-gate-results-1/shard-1.jsonl': jsonlText(base.slice(0, 120)),
          'rag-gate-results-2/shard-2.jsonl': jsonlText(base.slice(120)),
          'rag-gate-results-2/run.log': 'not results\n',
        }),
      ),
    );
    const work = workspace([]);
    mkdirSync(join(work.dir, 'results'));
    writeFileSync(join(work.dir, 'results', 'shard-1.jsonl'), jsonlText(head.slice(0, 80)));
    writeFileSync(join(work.dir, 'results', 'shard-2.jsonl'), jsonlText(head.slice(80)));
    const run = await runDist(api, work, { inputs: { results: 'results/shard-*.jsonl' } });
    expect(run.code).toBe(1);
    expect(run.outputs).toMatchObject({ verdict: 'fail', 'baseline-found': 'true', 'baseline-sha': MERGE_BASE_SHA, broken: '15' });
    expect(JSON.parse(readFileSync(run.outputs['report-json']!, 'utf8'))).toMatchObject({ paired: 200 });
  });
});

describe('dist/index.js: the commit status of a workflow_run gate', () => {
  const RUN_HEAD = 'e'.repeat(40);
  const payload = workflowRunPayload({ id: 4321, headBranch: 'feature', headSha: RUN_HEAD, headRepository: 'mallory/shop', pullRequests: [] });
  const forkPull = { pulls: new Map([[42, { number: 42, baseRef: 'main', baseSha: BASE_SHA, headRef: 'feature', headSha: RUN_HEAD, headOwner: 'mallory' }]]) };

  it("is posted on the head of the triggering run, as GitHub's API takes it", async () => {
    const api = await start(forkPull);
    const run = await runDist(api, failing(), { eventName: 'workflow_run', payload, inputs: { baseline: 'base.jsonl' } });
    expect(run.code).toBe(1);
    expect(api.callsTo('GET', /^\/repos\/octo\/shop\/pulls$/).map((call) => call.query.head)).toEqual(['mallory:feature']);
    const posted = api.callsTo('POST', STATUSES);
    expect(posted.map((call) => [call.path, call.authorization])).toEqual([[`/repos/octo/shop/statuses/${RUN_HEAD}`, 'token ghs_faketoken']]);
    expect(posted[0]!.body).toEqual({
      state: 'failure',
      context: 'rag-gate/default',
      description: 'retrieval regressed significantly: retrieval ok (hit@5) 0.912 → 0.829, 16 broken vs 2 fixed, p = 0.0013, Holm-adjusted 0.0026 < α 0.05',
      target_url: 'https://github.com/octo/shop/actions/runs/5000',
    });
    expect(api.state.statuses).toHaveLength(1);
    expect(warnings(run)).toEqual([]);
  });

  it('says success and why when there is no baseline', async () => {
    const api = await start(forkPull);
    const run = await runDist(api, failing(), { eventName: 'workflow_run', payload });
    expect(run.code).toBe(0);
    expect(api.state.statuses.map(({ sha, state, description }) => [sha, state, description])).toEqual([
      [RUN_HEAD, 'success', 'no baseline: no successful push run of this workflow on main in the last 30 days'],
    ]);
  });

  it('a 403 on the status warns naming statuses: write, and the verdict stands', async () => {
    const api = await start({
      ...forkPull,
      faults: [{ method: 'POST', path: STATUSES, status: 403, times: Infinity, message: 'Resource not accessible by integration' }],
    });
    const run = await runDist(api, failing(), { eventName: 'workflow_run', payload, inputs: { baseline: 'base.jsonl' } });
    expect(run.code).toBe(1);
    expect(api.callsTo('POST', STATUSES)).toHaveLength(1);
    expect(warnings(run)).toEqual([
      expect.stringMatching(
        /^::warning title=rag-gate%3A no commit status::rag-gate could not set the commit status rag-gate\/default on eeeeeee: .*add `statuses: write` under `permissions:`/,
      ),
    ]);
    expect(run.outputs.verdict).toBe('fail');
    expect(errorLine(run)).toMatch(/^::error::rag-gate: retrieval regressed significantly/);
  });
});

describe('dist/index.js: mode release and the holdout ledger artifact', () => {
  /** A workspace with the results and the holdout file (30% of the sketch's questions). */
  async function releaseWorkspace(): Promise<Workspace> {
    const { base } = sketchScenario();
    const work = workspace(base);
    const questions = base.map((q) => ({ id: q.id, tags: q.tags ?? [] }));
    const split = drawSplit(questions, { seed: 'rag-gate', rotation: 0, share: 0.3 });
    await writeHoldoutFile(join(work.dir, 'holdout.json'), split, splitSizes(questions, new Set(split.holdout)));
    return work;
  }

  it('reads the newest ledger artifact of the repository, flags the second look, and writes the ledger to upload', async () => {
    const first = await releaseWorkspace();
    const api = await start();
    const inputs = { mode: 'release', holdout: 'holdout.json' };
    const one = await runDist(api, first, { inputs, eventName: 'release', payload: {}, env: { GITHUB_SHA: 'a'.repeat(40) } });
    expect(one.code).toBe(0);
    expect(one.outputs['holdout-looks']).toBe('1');
    expect(warnings(one).some((line) => line.includes('no holdout ledger yet'))).toBe(true);
    const ledger = readFileSync(join(first.dir, one.outputs['holdout-ledger']!), 'utf8');

    // The first job uploaded its ledger; the next release finds it through the repository's artifacts.
    api.state.runs.push({
      id: 880,
      runNumber: 3,
      headSha: 'a'.repeat(40),
      createdAt: '2026-11-19T00:00:00Z',
      branch: 'main',
      event: 'release',
      conclusion: 'success',
      headRepository: 'octo/shop',
    });
    api.state.artifacts.set(880, [{ id: 4242, name: 'rag-gate-holdout-ledger', expired: false }]);
    api.state.zips.set(4242, zipOf({ 'rag-gate-holdout-ledger.jsonl': ledger }));
    const second = await releaseWorkspace();
    const two = await runDist(api, second, { inputs, eventName: 'release', payload: {}, env: { GITHUB_SHA: 'b'.repeat(40) } });
    expect(two.code).toBe(0);
    expect(api.callsTo('GET', /^\/repos\/octo\/shop\/actions\/artifacts$/).map((call) => call.query.name)).toEqual([
      'rag-gate-holdout-ledger',
      'rag-gate-holdout-ledger',
    ]);
    expect(two.outputs['holdout-looks']).toBe('2');
    expect(two.summary).toContain('The holdout has been looked at 2 times');
    expect(readFileSync(join(second.dir, 'rag-gate-holdout-ledger.jsonl'), 'utf8').trim().split('\n')).toHaveLength(2);
  });
});

describe('dist/index.js: the base branch history across push runs and the pull request', () => {
  /** 100 questions of which the first `ok` retrieved their gold document (the field given, so the rate is exact). */
  const resultsText = (ok: number) =>
    jsonlText(Array.from({ length: 100 }, (_, i) => ({ id: `q-${String(i).padStart(3, '0')}`, question: `Question ${i}?`, retrieval_ok: i < ok })));
  const commitOf = (i: number) => String(i).repeat(40);

  /**
   * A push run on main at `commit`, then the README's upload step: the results file and the written history
   * zipped into the run's `rag-gate-results` artifact.
   */
  async function pushAndUpload(api: FakeGitHubServer, id: number, commit: string, ok: number, hoursOld: number): Promise<HistoryFile> {
    const work = { dir: tempDir() };
    writeFileSync(join(work.dir, 'results.jsonl'), resultsText(ok));
    const run = await runDist(api, work, { eventName: 'push', payload: pushPayload('main', BASE_SHA, commit), env: { GITHUB_SHA: commit } });
    expect(run.code, run.stdout).toBe(0);
    expect(warnings(run)).toEqual([]);
    expect(run.outputs.history).toBe('rag-gate-history.json');
    const historyText = readFileSync(join(work.dir, run.outputs.history!), 'utf8');
    api.state.runs.push({
      id,
      runNumber: id - 1000,
      headSha: commit,
      createdAt: hoursAgo(hoursOld),
      branch: 'main',
      event: 'push',
      conclusion: 'success',
      headRepository: 'octo/shop',
    });
    api.state.artifacts.set(id, [{ id: id + 1000, name: 'rag-gate-results', expired: false }]);
    api.state.zips.set(id + 1000, zipOf({ 'results.jsonl': resultsText(ok), 'rag-gate-history.json': historyText }));
    return JSON.parse(historyText) as HistoryFile;
  }

  it('grows 1 → 2 → 3 runs over three pushes; the pull request charts them with its own value last and reads the trend', async () => {
    // Retrieval ok falls 90% → 87% → 86% on main and the pull request has 83%: the least-squares slope through the four
    // points is −0.022 a run (Sxy = −0.11 over Sxx = 5), residuals 0.002, −0.006, 0.006, −0.002, so s² = 80e−6 / 2 and the
    // slope's standard error is √(40e−6 / 5); with t(0.975, 2) = 4.3027 its 95% interval is −0.0342 to −0.0098.
    const api = await start({ mergeBase: commitOf(3) });
    const histories = [
      await pushAndUpload(api, 2001, commitOf(1), 90, 3),
      await pushAndUpload(api, 2002, commitOf(2), 87, 2),
      await pushAndUpload(api, 2003, commitOf(3), 86, 1),
    ];
    expect(histories.map((h) => h.runs.map((r) => r.commit))).toEqual([[commitOf(1)], [commitOf(1), commitOf(2)], [commitOf(1), commitOf(2), commitOf(3)]]);
    expect(histories[2]!.runs.map((r) => r.metrics.retrieval_ok!.value)).toEqual([0.9, 0.87, 0.86]);

    const work = { dir: tempDir() };
    writeFileSync(join(work.dir, 'results.jsonl'), resultsText(83));
    const pull = await runDist(api, work);
    expectQuietStderr(pull);
    expect(pull.code).toBe(0);
    expect(pull.outputs).toMatchObject({ verdict: 'pass', 'baseline-sha': commitOf(3), history: '' });
    const body = api.state.comments[0]!.body;
    expect(body).toBe(readFileSync(pull.outputs['report-markdown']!, 'utf8'));

    const chart = /```mermaid\n(xychart-beta\n[\s\S]*?)```/.exec(body)?.[1];
    expect(chart).toBeDefined();
    const line = /^ {2}line \[([^\]]*)\]$/m.exec(chart!)![1]!.split(', ').map(Number);
    expect(line).toEqual([...histories[2]!.runs.map((r) => r.metrics.retrieval_ok!.value * 100), 83]);
    expect(/^ {2}x-axis \[(.*)\]$/m.exec(chart!)![1]).toBe('1111111, 2222222, 3333333, PR');

    const reading =
      'Retrieval ok (hit\\@5) has fallen 6.6 points over the last 4 runs (least-squares slope −2.20 points a run, 95% CI −3.42 to −0.98): a significant decline.';
    expect(body).toContain(reading);
    const trend = linearTrend([0.9, 0.87, 0.86, 0.83])!;
    expect(trend.slope).toBeCloseTo(-0.022, 12);
    expect(trend.ci[0]).toBeCloseTo(-0.022 - 4.302652729749464 * Math.sqrt(40e-6 / 5), 9);
    expect(body).toContain(trendReading('retrieval_ok', trend, 'hit@5').replace('@', '\\@'));
    expect(pull.summary).toContain(chart!);

    const report = JSON.parse(readFileSync(pull.outputs['report-json']!, 'utf8'));
    expect(report.trend).toMatchObject([{ metric: 'retrieval_ok', baseRuns: 3, trend: { points: 4, significant: true } }]);
  });

  it('keeps the newest 100 runs: a full history drops its oldest run for the new one', async () => {
    const api = await start();
    const full: HistoryFile = {
      version: 1,
      runs: Array.from({ length: 100 }, (_, i) => ({
        commit: `${i.toString(16).padStart(7, '0')}${'e'.repeat(33)}`,
        date: new Date(Date.UTC(2026, 0, 1) + i * 86_400_000).toISOString(),
        n: 100,
        metrics: { retrieval_ok: { value: 0.9, n: 100 } },
      })),
    };
    api.state.runs.push({
      id: 1999,
      runNumber: 999,
      headSha: full.runs[99]!.commit,
      createdAt: hoursAgo(5),
      branch: 'main',
      event: 'push',
      conclusion: 'success',
      headRepository: 'octo/shop',
    });
    api.state.artifacts.set(1999, [{ id: 2999, name: 'rag-gate-results', expired: false }]);
    api.state.zips.set(2999, zipOf({ 'results.jsonl': resultsText(90), 'rag-gate-history.json': JSON.stringify(full) }));
    const next = await pushAndUpload(api, 2001, commitOf(1), 88, 1);
    expect(next.runs).toHaveLength(100);
    expect(next.runs.map((r) => r.commit)).toEqual([...full.runs.slice(1).map((r) => r.commit), commitOf(1)]);
  });
});

describe('dist/index.js: mode monitor on a schedule', () => {
  const ISSUES = /^\/repos\/octo\/shop\/issues$/;
  const ISSUE = /^\/repos\/octo\/shop\/issues\/\d+$/;
  const ISSUE_COMMENTS = /^\/repos\/octo\/shop\/issues\/\d+\/comments$/;

  /** A workspace with the shipped synthetic log, and the same log cut before its deploy (rates back to normal). */
  function logsWorkspace(): Workspace {
    const dir = tempDir();
    const log = readFileSync(join(ROOT, 'examples', 'monitor', 'logs.jsonl'), 'utf8');
    writeFileSync(join(dir, 'logs.jsonl'), log);
    const before = log
      .split('\n')
      .filter((line) => line !== '' && Date.parse((JSON.parse(line) as { timestamp: string }).timestamp) < Date.parse('2026-03-08T00:00:00Z'));
    writeFileSync(join(dir, 'recovered.jsonl'), `${before.join('\n')}\n`);
    return { dir };
  }

  const schedule = { eventName: 'schedule', payload: { schedule: '0 6 * * *' } };
  const alerting = { mode: 'monitor', logs: 'logs.jsonl', deploys: '2026-03-08T00:00:00Z' };

  it('opens one issue on an alert, updates the same issue on the next alert, and closes it when the rates recover', async () => {
    const api = await start();
    const work = logsWorkspace();

    const first = await runDist(api, work, { ...schedule, inputs: alerting });
    expectQuietStderr(first);
    expect(first.code).toBe(0);
    expect(first.outputs['monitor-alert']).toBe('true');
    expect(first.outputs['monitor-issue']).toBe('https://github.com/octo/shop/issues/100');
    expect(first.outputs.verdict).toBe('neutral');
    expect(Object.keys(first.outputs).sort()).toEqual(Object.keys(ACTION_OUTPUTS).sort());
    expect(warnings(first)).toEqual([
      '::warning title=rag-gate%3A monitoring alert::rag-gate monitor: rephrase rate rose in production: see the job summary and https://github.com/octo/shop/issues/100',
    ]);
    expect(first.summary).toContain('### rag-gate: production monitoring');
    expect(first.summary).toContain('```mermaid\nxychart-beta\n  title "rephrase rate (%) per window"\n  x-axis [before, "from 03-08 00:00"]');
    expect(first.summary).toContain('Alert: the rephrase rate rose significantly in the current window (from 2026-03-08T00:00Z), above the ceiling.');
    expect(api.callsTo('POST', ISSUES)).toHaveLength(1);
    expect(api.state.issues).toHaveLength(1);
    const [issue] = api.state.issues;
    expect(issue).toMatchObject({ number: 100, state: 'open', labels: ['rag-gate-monitor'], title: 'rag-gate monitor: rephrase rate rose in production' });
    expect(issue!.body.slice(0, 70)).toBe('<!-- rag-gate-monitor:default -->\n\n### rag-gate: production monitoring');
    const report = JSON.parse(readFileSync(first.outputs['report-json']!, 'utf8')) as { alerts: { rate: string }[] };
    expect(report.alerts.map((alert) => alert.rate)).toEqual(['rephraseRate']);

    const second = await runDist(api, work, { ...schedule, inputs: alerting });
    expect(second.code).toBe(0);
    expect(second.outputs['monitor-issue']).toBe('https://github.com/octo/shop/issues/100');
    expect(api.callsTo('POST', ISSUES)).toHaveLength(1);
    expect(api.callsTo('PATCH', ISSUE)).toHaveLength(1);
    expect(api.callsTo('POST', ISSUE_COMMENTS)).toHaveLength(1);
    expect(api.state.issues).toHaveLength(1);
    expect(api.state.issues[0]!.state).toBe('open');

    const recovered = await runDist(api, work, { ...schedule, inputs: { mode: 'monitor', logs: 'recovered.jsonl' } });
    expectQuietStderr(recovered);
    expect(recovered.code).toBe(0);
    expect(recovered.outputs['monitor-alert']).toBe('false');
    expect(recovered.summary).toContain('No alert in the current window (2026-03-07).');
    expect(api.callsTo('POST', ISSUES)).toHaveLength(1);
    expect(api.state.issues[0]).toMatchObject({ state: 'closed', stateReason: 'completed' });
    expect(api.state.comments.at(-1)!.body).toContain('Both rates are back at or below their ceilings');

    // Nothing open and nothing alerting: no issue call but the lookup.
    const quiet = await runDist(api, work, { ...schedule, inputs: { mode: 'monitor', logs: 'recovered.jsonl' } });
    expect(quiet.code).toBe(0);
    expect(api.callsTo('POST', ISSUES)).toHaveLength(1);
    expect(api.callsTo('PATCH', ISSUE)).toHaveLength(2);
  });

  it('fails the step when an alert fires and the token may not write issues, naming issues: write', async () => {
    const api = await start({
      faults: [{ method: 'POST', path: /^\/repos\/octo\/shop\/issues$/, status: 403, times: 1, message: 'Resource not accessible by integration' }],
    });
    const run = await runDist(api, logsWorkspace(), { ...schedule, inputs: alerting });
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(
      '::error::rag-gate: an alert fired but the monitoring issue could not be written: the token may not write issues: add `issues: write`',
    );
    expect(run.outputs['monitor-alert']).toBe('true');
  });

  it('is bad input without logs', async () => {
    const api = await start();
    const run = await runDist(api, logsWorkspace(), { ...schedule, inputs: { mode: 'monitor' } });
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('::error::rag-gate: bad input%0Ano logs to monitor');
  });
});

describe('dist/index.js: no secret leaves the action', () => {
  const TOKEN = `ghs_${'Q7wErT9yUi'.repeat(3)}Op1As2`;
  /** A personal access token nobody gave the action, in GitHub's shape. */
  const STRANGER = `ghp_${'Zx8Cv7Bn6M'.repeat(3)}Lk5Jh4`;
  /** The judge's key, from the environment; not GitHub-shaped, so only its being a secret redacts it. */
  const JUDGE_KEY = 'sk-proj-Xy12Ab34Cd56Ef78';
  const SECRETS = [TOKEN, STRANGER, JUDGE_KEY];
  /** What a careless API echoes: the credentials, and one in a URL and in JSON-escaped text. */
  const ECHO = `Bad credentials: token ${TOKEN}; see https://x-access-token:${TOKEN}@github.com/octo/shop and {"note":"\\n${STRANGER}"}; key ${JUDGE_KEY}`;
  const echoing = (method: string, path: RegExp): Fault => ({ method, path, status: 401, times: Infinity, message: ECHO });

  function filesUnder(dir: string): string[] {
    return readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => readFileSync(join(entry.parentPath, entry.name), 'utf8'));
  }

  /** Every place the run wrote to, and every body the API received: none may hold a secret. */
  function expectNoSecret(run: ActionRun, api: FakeGitHubServer): void {
    const written = {
      stdout: run.stdout,
      stderr: run.stderr,
      summary: run.summary,
      outputs: JSON.stringify(run.outputs),
      'RUNNER_TEMP files': filesUnder(run.runnerTemp).join('\n'),
      'request bodies': JSON.stringify(api.calls.map((call) => call.body)),
    };
    for (const [where, text] of Object.entries(written)) for (const secret of SECRETS) expect(text, `${where} holds ${secret}`).not.toContain(secret);
    // The echo got as far as the log: else this test would pass with no redaction at all.
    expect(run.stdout).toContain(`Bad credentials: token ***; see https://***@github.com/octo/shop`);
  }

  /** The base branch's files: without its settings the action stops before it reports, and these tests are of the report. */
  const BASE_FILES = /^\/repos\/octo\/shop\/contents\//;

  it('every API route answers an error that echoes the token: not in the log, summary, outputs or report files', async () => {
    const api = await start({
      faults: [echoing('GET', new RegExp(`^(?!${BASE_FILES.source.slice(1)})`)), echoing('POST', /.*/), echoing('PATCH', /.*/)],
    });
    const run = await runDist(api, failing(), { inputs: { 'github-token': TOKEN }, env: { OPENAI_API_KEY: JUDGE_KEY } });
    expect(run.code).toBe(1);
    expect(run.outputs.verdict).toBe('fail');
    expect(filesUnder(run.runnerTemp)).not.toEqual([]);
    expectNoSecret(run, api);
  });

  it('the echo reaches the comment and the commit status it sends: neither body holds the token', async () => {
    // Only the pull request and its comments answer (and the base branch's files), so that the broken baseline's detail is posted.
    const answered = /^\/repos\/octo\/shop\/(pulls\/42$|issues\/42\/comments$|contents\/)/;
    const api = await start({
      pulls: new Map([[42, { number: 42, baseRef: 'main', baseSha: BASE_SHA, headRef: 'feature', headSha: HEAD_SHA }]]),
      faults: [echoing('GET', new RegExp(`^(?!${answered.source.slice(1)})`)), echoing('POST', /.*/), echoing('PATCH', /.*/)],
    });
    const payload = workflowRunPayload({ id: 4321, headBranch: 'feature', headSha: HEAD_SHA, headRepository: 'octo/shop', pullRequests: [42] });
    const run = await runDist(api, failing(), { eventName: 'workflow_run', payload, inputs: { 'github-token': TOKEN }, env: { OPENAI_API_KEY: JUDGE_KEY } });
    expect(run.code).toBe(1);
    const [comment] = api.callsTo('POST', COMMENTS);
    expect((comment?.body as { body: string }).body).toContain('Bad credentials: token ***');
    expect(api.callsTo('POST', /\/statuses\//)).toHaveLength(1);
    expectNoSecret(run, api);
  });
});

describe("dist/index.js: the base branch's gate, and a maintainer's approval", () => {
  it('a loosened config fails; a label from a reader does not approve; one from a writer after the comment does', async () => {
    const api = await start({ files: new Map([[`${BASE_SHA}:rag-gate.yml`, 'alpha: 0.05\n']]) });
    const work = failing();
    writeFileSync(join(work.dir, 'rag-gate.yml'), 'alpha: 1e-12\n');
    const inputs = { baseline: 'base.jsonl' };

    const shown = await runDist(api, work, { inputs });
    expect(shown.code).toBe(1);
    expect(shown.stdout).toMatch(/^::error::rag-gate: this pull request changes its own gate without a maintainer's approval \(alpha 0\.05 → 1e-12, looser\)/m);
    expect(api.callsTo('GET', /^\/repos\/octo\/shop\/contents\/rag-gate\.yml$/).map((call) => call.query)).toEqual([{ ref: BASE_SHA }]);
    expect(api.state.comments[0]!.body).toMatch(/<!-- rag-gate-policy:[0-9a-f]{32}@pending -->/);

    api.state.labelEvents.push({ event: 'labeled', label: 'rag-gate: approve', actor: 'reader', createdAt: '2026-11-20T11:00:00Z' });
    api.state.permissions.set('reader', 'read');
    const byReader = await runDist(api, work, { inputs, payload: pullRequestPayload(42, 'labeled') });
    expect(byReader.code).toBe(1);
    expect(api.state.comments[0]!.body).toContain('an approval takes write access or more');

    api.state.labelEvents.push(
      { event: 'unlabeled', label: 'rag-gate: approve', actor: 'reader', createdAt: '2026-11-20T11:01:00Z' },
      { event: 'labeled', label: 'rag-gate: approve', actor: 'maintainer', createdAt: '2026-11-20T11:02:00Z' },
    );
    api.state.permissions.set('maintainer', 'admin');
    const approved = await runDist(api, work, { inputs, payload: pullRequestPayload(42, 'labeled') });
    expect(approved.code).toBe(0);
    expect(api.state.comments).toHaveLength(1);
    expect(api.state.comments[0]!.body).toContain('Approved by maintainer (admin) at 2026-11-20T11:02:00Z');
    expect(api.callsTo('GET', /^\/repos\/octo\/shop\/collaborators\/maintainer\/permission$/)).toHaveLength(1);
  });
});

describe('dist/index.js on a self-hosted runner behind a proxy, against GitHub Enterprise Server', () => {
  const GHE = 'https://ghe.example.com';
  /** The API under GHES's prefix, it and the artifact storage at names that do not resolve: only the proxy reaches them. */
  const ADDRESS = { apiPrefix: '/api/v3', apiHost: 'ghe.invalid', blobHost: 'storage.ghe.invalid', serverUrl: GHE };
  const RUN_HEAD = 'e'.repeat(40);
  // A fork's workflow_run: it finds its pull request, reads the baseline artifact, comments and sets a status.
  const payload = workflowRunPayload({ id: 4321, headBranch: 'feature', headSha: RUN_HEAD, headRepository: 'mallory/shop', pullRequests: [] });
  const repositoryState = (): Partial<RepositoryState> => {
    const { base } = sketchScenario();
    return {
      pulls: new Map([[42, { number: 42, baseRef: 'main', baseSha: BASE_SHA, headRef: 'feature', headSha: RUN_HEAD, headOwner: 'mallory' }]]),
      mergeBase: MERGE_BASE_SHA,
      runs: [
        {
          id: 1011,
          runNumber: 11,
          headSha: MERGE_BASE_SHA,
          createdAt: new Date(Date.now() - 5 * 3_600_000).toISOString().replace(/\.\d{3}Z$/, 'Z'),
          branch: 'main',
          event: 'push',
          conclusion: 'success',
          headRepository: 'octo/shop',
        },
      ],
      artifacts: new Map([[1011, [{ id: 511, name: 'rag-gate-results', expired: false }]]]),
      zips: new Map([[511, zipOf({ 'results.jsonl': jsonlText(base) })]]),
    };
  };
  const failingHead = () => workspace(sketchScenario().head);

  let proxy: TestProxy | undefined;
  afterEach(async () => {
    await proxy?.close();
    proxy = undefined;
  });

  /** The proxy's credentials in every form they could leak in. */
  const credentials = (p: TestProxy) => [p.password, encodeURIComponent(p.password), Buffer.from(`${p.user}:${p.password}`).toString('base64')];

  it('reaches the API under /api/v3 and the artifact storage through the proxy, with the verdict of a direct run', async () => {
    // The same run straight to a loopback API at github.com's paths: the verdict to match.
    const direct = await startFakeGitHub(repositoryState());
    const reference = await runDist(direct, failingHead(), { eventName: 'workflow_run', payload });
    await direct.close();
    expect(direct.violations).toEqual([]);
    expect(reference.code).toBe(1);

    proxy = await startProxy();
    const api = await start(repositoryState(), ADDRESS);
    expect(api.url).toMatch(/^http:\/\/ghe\.invalid:\d+\/api\/v3$/);
    const run = await runDist(api, failingHead(), {
      eventName: 'workflow_run',
      payload,
      env: { http_proxy: proxy.url, https_proxy: proxy.url, GITHUB_SERVER_URL: GHE, no_proxy: 'localhost,.internal.example' },
    });
    expectQuietStderr(run);
    expect(run.code).toBe(reference.code);
    const verdict = ['verdict', 'baseline-found', 'baseline-sha', 'broken', 'fixed'] as const;
    for (const name of verdict) expect(run.outputs[name], name).toBe(reference.outputs[name]);
    expect(run.outputs['baseline-found']).toBe('true');

    // Every route under the prefix, every one of them called, the artifact's redirect followed to the other host.
    const apiCalls = api.calls.filter((call) => call.server === 'api');
    expect(apiCalls.filter((call) => !call.requestPath.startsWith('/api/v3/'))).toEqual([]);
    const routes = new Set(apiCalls.map((call) => `${call.method} ${call.path.replace(/\d+|[0-9a-f]{40}/g, '#')}`));
    expect([...routes].sort()).toEqual(
      [
        'GET /repos/octo/shop/actions/artifacts/#/zip',
        'GET /repos/octo/shop/actions/runs/#',
        'GET /repos/octo/shop/actions/runs/#/artifacts',
        'GET /repos/octo/shop/actions/workflows/#/runs',
        'GET /repos/octo/shop/compare/#...#',
        'GET /repos/octo/shop/contents/rag-gate.yml',
        'GET /repos/octo/shop/issues/#/comments',
        'GET /repos/octo/shop/pulls',
        'GET /user',
        'POST /repos/octo/shop/issues/#/comments',
        'POST /repos/octo/shop/statuses/#',
      ].sort(),
    );
    const blob = api.calls.filter((call) => call.server === 'blob');
    expect(blob.map((call) => [call.path, call.authorization])).toEqual([['/blob/artifact-511.zip', undefined]]);

    // The proxy forwarded every request, with its credentials, and nothing reached the servers any other way.
    expect(proxy.log.every((entry) => entry.authorized && entry.refused === undefined)).toBe(true);
    const apiPort = new URL(api.url).port;
    const blobPort = new URL(api.blobUrl).port;
    expect(proxy.log.filter((entry) => entry.request.includes(`//ghe.invalid:${apiPort}/api/v3/`))).toHaveLength(apiCalls.length);
    expect(proxy.log.filter((entry) => entry.request.startsWith(`GET http://storage.ghe.invalid:${blobPort}/blob/artifact-511.zip?sig=abc`))).toHaveLength(1);
    expect(proxy.log).toHaveLength(api.calls.length);
    expect(api.calls.filter((call) => !proxy!.upstreamPorts.has(call.remotePort))).toEqual([]);

    // The comment is posted; it, the status and the run links point at the server's own pages.
    expect(api.state.comments).toHaveLength(1);
    const body = api.state.comments[0]!.body;
    expect(body).toContain(`${GHE}/octo/shop/actions/runs/5000`);
    expect(body).not.toContain('https://github.com/');
    expect(api.callsTo('POST', /\/statuses\//).map((call) => (call.body as { target_url: string }).target_url)).toEqual([`${GHE}/octo/shop/actions/runs/5000`]);

    // The proxy's credentials are nowhere the run wrote to, nor in what GitHub received.
    const written = [run.stdout, run.stderr, run.summary, JSON.stringify(run.outputs), body, JSON.stringify(api.calls), ...filesUnder(run.runnerTemp)].join(
      '\n',
    );
    for (const secret of credentials(proxy)) expect(written).not.toContain(secret);
  });

  it('over https: tunnels through the proxy (CONNECT) to a server whose certificate NODE_EXTRA_CA_CERTS trusts', async () => {
    const dir = tempDir();
    const [key, cert] = [join(dir, 'key.pem'), join(dir, 'cert.pem')];
    // A self-signed certificate for both host names, as a GHES with its own CA would have.
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-keyout',
        key,
        '-out',
        cert,
        '-days',
        '2',
        '-subj',
        '/CN=ghe.invalid',
        '-addext',
        'subjectAltName=DNS:ghe.invalid,DNS:storage.ghe.invalid',
      ],
      { stdio: 'ignore' },
    );
    proxy = await startProxy();
    const api = await start(repositoryState(), { ...ADDRESS, tls: { key: readFileSync(key, 'utf8'), cert: readFileSync(cert, 'utf8') } });
    expect(api.url).toMatch(/^https:\/\/ghe\.invalid:\d+\/api\/v3$/);
    const run = await runDist(api, failingHead(), {
      eventName: 'workflow_run',
      payload,
      env: { HTTPS_PROXY: proxy.url, GITHUB_SERVER_URL: GHE, NODE_EXTRA_CA_CERTS: cert },
    });
    expectQuietStderr(run);
    expect(run.code).toBe(1);
    expect(run.outputs).toMatchObject({ verdict: 'fail', 'baseline-found': 'true', 'baseline-sha': MERGE_BASE_SHA });
    expect(api.state.comments).toHaveLength(1);
    // The proxy saw tunnels, with its credentials, to both hosts; every request came through one of them.
    const tunnels = new Set(proxy.log.map((entry) => entry.request.replace(/:\d+$/, '')));
    expect([...tunnels].sort()).toEqual(['CONNECT ghe.invalid', 'CONNECT storage.ghe.invalid']);
    expect(proxy.log.every((entry) => entry.authorized && entry.refused === undefined)).toBe(true);
    expect(api.calls.filter((call) => call.server === 'blob').map((call) => call.path)).toEqual(['/blob/artifact-511.zip']);
    expect(api.calls.filter((call) => !proxy!.upstreamPorts.has(call.remotePort))).toEqual([]);
    expect(api.calls.filter((call) => call.server === 'api' && !call.requestPath.startsWith('/api/v3/'))).toEqual([]);
  });

  it('with no_proxy covering the API host, fails to connect, naming the host and the proxy variables', async () => {
    proxy = await startProxy();
    const api = await start(repositoryState(), ADDRESS);
    // A pull request's run: its baseline is the base branch's artifact, which it cannot reach.
    const run = await runDist(api, failingHead(), { env: { HTTP_PROXY: proxy.url, HTTPS_PROXY: proxy.url, NO_PROXY: 'example.com, ghe.invalid' } });
    expect(api.calls).toEqual([]);
    expect(proxy.log).toEqual([]);
    expect(run.code).toBe(1);
    const port = new URL(api.url).port;
    expect(run.stdout).toContain(
      `cannot reach ghe.invalid:${port} directly: no_proxy (or NO_PROXY) exempts ghe.invalid from the proxy of HTTP_PROXY: getaddrinfo`,
    );
    const written = [run.stdout, run.stderr, run.summary, JSON.stringify(run.outputs), ...filesUnder(run.runnerTemp)].join('\n');
    for (const secret of credentials(proxy)) expect(written).not.toContain(secret);
  });
});

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => readFileSync(join(entry.parentPath, entry.name), 'utf8'));
}
