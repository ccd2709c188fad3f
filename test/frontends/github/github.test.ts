import { afterEach, describe, expect, it } from 'vitest';
import { apiFailure, createGitHubApi, GitHubTimeoutError } from '../../../src/frontends/github/github.js';
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
