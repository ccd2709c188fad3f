import { describe, expect, it } from 'vitest';
import { startFakeGitHub } from './fake-github-server.js';
import { githubOpenApi } from './github-openapi.js';

const COMMENTS = '/repos/octo/shop/issues/42/comments';
const NO_OPERATION = "no such operation in GitHub's API description (as extracted: a new route joins scripts/extract-github-openapi.mjs's ROUTES)";

/** What the fake reported of one exchange: read once it has closed, so that every response has been checked. */
async function violationsOf(initial: Parameters<typeof startFakeGitHub>[0], path: string, init: RequestInit = {}): Promise<string[]> {
  const fake = await startFakeGitHub(initial);
  try {
    await (await fetch(`${fake.url}${path}`, init)).arrayBuffer();
  } finally {
    await fake.close();
  }
  return fake.violations;
}

describe("the fake GitHub held to GitHub's API description", () => {
  it('reports a malformed response from the fake', async () => {
    const faults = [{ method: 'GET', path: /\/comments$/, status: 200, times: 1, body: [{ id: 'one', body: 'hi' }] }];
    expect(await violationsOf({ faults }, COMMENTS)).toEqual(
      expect.arrayContaining([`GET ${COMMENTS}: 200 response body/0/id: must be integer {"type":"integer"}`]),
    );
  });

  it('reports a malformed request from the client: a missing field and a misspelt query parameter', async () => {
    const request = { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ text: 'hi' }) };
    expect(await violationsOf({}, `${COMMENTS}?perpage=100`, request)).toEqual(
      expect.arrayContaining([
        `POST ${COMMENTS}: query parameter perpage is not one of issues/create-comment's`,
        `POST ${COMMENTS}: request body: must have required property 'body' {"missingProperty":"body"}`,
      ]),
    );
  });

  it('takes the search syntax for a date query, as the parameter says, and refuses anything else', () => {
    const runs = (created: string) =>
      githubOpenApi().check({
        method: 'GET',
        path: '/repos/octo/shop/actions/workflows/77/runs',
        query: { created },
        requestBody: undefined,
        status: 200,
        responseBody: { total_count: 0, workflow_runs: [] },
      });
    expect(runs('>=2026-11-01T00:00:00Z')).toEqual([]);
    expect(runs('2026-11-01..2026-11-30')).toEqual([]);
    expect(runs('last week')).toEqual(['GET /repos/octo/shop/actions/workflows/77/runs: query parameter created=last week: not a date in the search syntax']);
  });

  it('types a path parameter as its schema says: a run id must be an integer', () => {
    const run = (id: string) =>
      githubOpenApi().check({
        method: 'GET',
        path: `/repos/octo/shop/actions/runs/${id}/artifacts`,
        query: {},
        requestBody: undefined,
        status: 200,
        responseBody: { total_count: 0, artifacts: [] },
      });
    expect(run('4321')).toEqual([]);
    expect(run('latest')).toEqual(['GET /repos/octo/shop/actions/runs/latest/artifacts: path parameter run_id=latest: data must be integer']);
  });

  it('knows no operation the description lacks', () => {
    expect(
      githubOpenApi().check({ method: 'GET', path: '/repos/octo/shop/nonsense', query: {}, requestBody: undefined, status: 200, responseBody: {} }),
    ).toEqual([`GET /repos/octo/shop/nonsense: ${NO_OPERATION}`]);
  });

  it("knows only the operations extracted from GitHub's description: a new route fails until it is extracted too", () => {
    const get = (path: string) => githubOpenApi().check({ method: 'GET', path, query: {}, requestBody: undefined, status: 200, responseBody: [] });
    // Both are GitHub's, and neither is served: list a pull request's files, and a repository's review comments.
    expect(get('/repos/octo/shop/pulls/42/files')).toEqual([`GET /repos/octo/shop/pulls/42/files: ${NO_OPERATION}`]);
    // Here a served route's template takes the path; its parameter's type still refuses it.
    expect(get('/repos/octo/shop/pulls/comments')).toContain('GET /repos/octo/shop/pulls/comments: path parameter pull_number=comments: data must be integer');
    expect(() => githubOpenApi().example('repository')).toThrow(/has no example repository \(as extracted/);
  });
});
