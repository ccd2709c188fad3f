import { afterEach, describe, expect, it } from 'vitest';
import { apiFailure, createGitHubApi, type GitHubApi, GitHubTimeoutError } from '../../../src/frontends/github/github.js';
import { type FakeGitHubServer, OWNER, REPO, startFakeGitHub } from './fake-github-server.js';
import { HttpError } from './fakes.js';

let server: FakeGitHubServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const client = (url: string, timeoutMs: number) =>
  createGitHubApi({ token: 'ghs_test', baseUrl: url, owner: OWNER, repo: REPO, retries: 1, retryBaseMs: 1, timeoutMs });

describe('the GitHub API client', () => {
  // How many attempts reached the server is left to the end-to-end test: here client and server share one event
  // loop, and a busy machine can fire the deadline before the server has read the request.
  it('gives up on a request that gets no answer within the timeout, after the retries, and says it timed out', async () => {
    server = await startFakeGitHub({ stalls: [{ method: 'GET', path: /\/actions\/runs\/\d+$/ }] });
    const error = await client(server.url, 200)
      .getWorkflowId(5000)
      .catch((caught: unknown) => caught);
    expect(apiFailure(error)).toEqual({ kind: 'timeout', timeoutMs: 200 });
    expect((error as Error).message).toBe('no answer from GitHub within 0.2 s');
  });

  it('reads answers whole within the timeout: JSON, and an artifact through its redirect', async () => {
    const zip = new Uint8Array([0x50, 0x4b, 5, 6, ...new Array(18).fill(0)]);
    server = await startFakeGitHub({ zips: new Map([[9, zip]]) });
    const api = client(server.url, 5_000);
    expect(await api.getWorkflowId(5000)).toBe(77);
    expect(await api.downloadArtifact(9)).toEqual(zip);
  });

  it('refuses an id beyond 2^53 (Octokit reads it as a bigint) instead of rounding it', async () => {
    server = await startFakeGitHub({ comments: [{ id: 2 ** 60, body: 'old', user: { login: 'github-actions[bot]', type: 'Bot' } }] });
    await expect(client(server.url, 5_000).updateComment(2 ** 60, 'new')).rejects.toThrow(
      'GitHub returned the id 1152921504606847000, beyond the 2^53 that rag-gate reads exactly',
    );
  });

  it('posts a commit status as GitHub takes it', async () => {
    server = await startFakeGitHub();
    const sha = 'e'.repeat(40);
    await client(server.url, 5_000).createCommitStatus(sha, {
      state: 'success',
      context: 'rag-gate/default',
      description: 'no significant regression',
      targetUrl: 'https://github.com/octo/shop/actions/runs/1',
    });
    expect(server.state.statuses).toEqual([
      {
        id: 1,
        sha,
        state: 'success',
        context: 'rag-gate/default',
        description: 'no significant regression',
        targetUrl: 'https://github.com/octo/shop/actions/runs/1',
      },
    ]);
  });

  it('is refused (422) by the fake, as by GitHub, for a description over 140 characters', async () => {
    server = await startFakeGitHub();
    const error = await client(server.url, 5_000)
      .createCommitStatus('e'.repeat(40), {
        state: 'failure',
        context: 'rag-gate/default',
        description: 'x'.repeat(141),
        targetUrl: 'https://github.com/octo/shop/actions/runs/1',
      })
      .catch((caught: unknown) => caught);
    expect(apiFailure(error)).toEqual({ kind: 'failed', status: 422 });
    expect(server.state.statuses).toEqual([]);
  });
});

describe('the GitHub API client without a token', () => {
  it('is made (a run that sends no request needs none), and a request says the input is empty', async () => {
    server = await startFakeGitHub();
    const api = createGitHubApi({ token: ' ', baseUrl: server.url, owner: OWNER, repo: REPO, timeoutMs: 5_000 });
    await expect(api.getWorkflowId(5000)).rejects.toThrow(
      "the github-token input is empty: leave it out (its default is the job's GITHUB_TOKEN) or pass a token",
    );
    expect(server.calls).toEqual([]);
  });
});

describe('the GitHub API client on GitHub Enterprise Server', () => {
  it('sends every route of the port under the API prefix (/api/v3), as GitHub describes each', async () => {
    const sha = 'e'.repeat(40);
    server = await startFakeGitHub(
      {
        runs: [
          {
            id: 1011,
            runNumber: 11,
            headSha: sha,
            createdAt: '2026-11-20T10:00:00Z',
            branch: 'main',
            event: 'push',
            conclusion: 'success',
            headRepository: 'octo/shop',
          },
        ],
        artifacts: new Map([[1011, [{ id: 511, name: 'rag-gate-results', expired: false }]]]),
        zips: new Map([[511, new Uint8Array([0x50, 0x4b, 5, 6, ...new Array(18).fill(0)])]]),
        pulls: new Map([[42, { number: 42, baseRef: 'main', baseSha: sha, headRef: 'feature', headSha: sha }]]),
        files: new Map([[`${sha}:rag-gate.yml`, 'alpha: 0.05\n']]),
        comments: [{ id: 7, body: 'old', user: { login: 'github-actions[bot]', type: 'Bot' } }],
      },
      { apiPrefix: '/api/v3', serverUrl: 'https://ghe.example.com' },
    );
    expect(server.url).toMatch(/\/api\/v3$/);
    const api = client(server.url, 5_000);
    // One call of each method: the compiler asks for a new one here.
    const calls: { [Method in keyof GitHubApi]: () => Promise<unknown> } = {
      getWorkflowId: () => api.getWorkflowId(1011),
      listSuccessfulPushRuns: () => api.listSuccessfulPushRuns(77, 'main', new Date('2026-11-01T00:00:00Z')),
      mergeBase: () => api.mergeBase(sha, sha),
      findArtifact: () => api.findArtifact(1011, 'rag-gate-results'),
      downloadArtifact: () => api.downloadArtifact(511),
      findNewestArtifact: () => api.findNewestArtifact('rag-gate-results'),
      listComments: () => api.listComments(42),
      createComment: () => api.createComment(42, 'new'),
      updateComment: () => api.updateComment(7, 'changed'),
      authenticatedLogin: () => api.authenticatedLogin(),
      findPullRequest: () => api.findPullRequest('octo', 'feature', sha),
      getPullRequest: () => api.getPullRequest(42),
      createCommitStatus: () =>
        api.createCommitStatus(sha, {
          state: 'success',
          context: 'rag-gate/default',
          description: 'ok',
          targetUrl: 'https://ghe.example.com/octo/shop/actions/runs/1',
        }),
      getFileAt: () => api.getFileAt('rag-gate.yml', sha),
      listLabelEvents: () => api.listLabelEvents(42, 'rag-gate: approve'),
      getPermission: () => api.getPermission('maintainer'),
      listOpenIssues: () => api.listOpenIssues('rag-gate-monitor'),
      createIssue: () => api.createIssue('alert', 'body', ['rag-gate-monitor']),
      updateIssue: () => api.updateIssue(100, { title: 'alert again', close: true }),
    };
    const answers: Record<string, unknown> = {};
    for (const [method, call] of Object.entries(calls)) answers[method] = await call();
    expect(answers).toMatchObject({ getWorkflowId: 77, mergeBase: '0'.repeat(40), findArtifact: { id: 511 }, getPullRequest: { number: 42 } });
    expect(answers.listComments).toMatchObject([{ id: 7, url: 'https://ghe.example.com/octo/shop/pull/42#issuecomment-7' }]);
    const apiCalls = server.calls.filter((call) => call.server === 'api');
    expect(apiCalls.length).toBeGreaterThanOrEqual(Object.keys(calls).length);
    expect(apiCalls.filter((call) => !call.requestPath.startsWith('/api/v3/'))).toEqual([]);
    expect(server.calls.filter((call) => call.server === 'blob').map((call) => call.path)).toEqual(['/blob/artifact-511.zip']);
    // Read once closed: by then every response has been checked against GitHub's description.
    const closing = server;
    server = undefined;
    await closing.close();
    expect(closing.violations).toEqual([]);
  });
});

describe('apiFailure', () => {
  it('tells a missing permission from a rate limit and from other failures', () => {
    expect(apiFailure(new HttpError(403, 'Resource not accessible by integration'))).toEqual({ kind: 'forbidden', status: 403 });
    expect(apiFailure(new HttpError(403, 'API rate limit exceeded', { 'x-ratelimit-remaining': '0' }))).toEqual({ kind: 'failed', status: 403 });
    expect(apiFailure(new HttpError(403, 'secondary rate limit', { 'retry-after': '60' }))).toEqual({ kind: 'failed', status: 403 });
    expect(apiFailure(new HttpError(502, 'Bad Gateway'))).toEqual({ kind: 'failed', status: 502 });
    expect(apiFailure(new Error('fetch failed'))).toEqual({ kind: 'failed', status: undefined });
    expect(apiFailure(new Error('wrapped', { cause: new GitHubTimeoutError(1000) }))).toEqual({ kind: 'timeout', timeoutMs: 1000 });
  });
});
