/**
 * A loopback HTTP server that serves the REST endpoints the action uses, in GitHub's JSON shapes, for the
 * end-to-end test. It keeps the repository's state (runs, artifacts, comments) and records every call.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { githubOpenApi } from './github-openapi.js';

export const OWNER = 'octo';
export const REPO = 'shop';
const WORKFLOW_ID = 77;

export interface RecordedCall {
  /** `api` for the REST API, `blob` for the storage that artifact downloads are redirected to. */
  readonly server: 'api' | 'blob';
  readonly method: string;
  readonly path: string;
  readonly query: Readonly<Record<string, string>>;
  readonly body: unknown;
  readonly authorization: string | undefined;
  /** When it arrived (ms since the epoch). */
  readonly at: number;
  /** The client's port: a proxy's connection, when it came through one (test/helpers/proxy.ts). */
  readonly remotePort: number;
  /** The path as requested, the API's prefix included (`path` is the route, without it). */
  readonly requestPath: string;
}

/**
 * Where the fake says it is: a GitHub Enterprise Server's API under a path prefix (`/api/v3`), at host names that
 * do not resolve (reached through a proxy that maps them to loopback), its web pages at `serverUrl`. The default
 * is github.com's shape at 127.0.0.1.
 */
export interface FakeGitHubAddress {
  readonly apiPrefix?: string;
  readonly apiHost?: string;
  readonly blobHost?: string;
  readonly serverUrl?: string;
  /** Serve https with this key and certificate (both servers), instead of http. */
  readonly tls?: { readonly key: string; readonly cert: string };
}

export interface FakeComment {
  id: number;
  body: string;
  user: { login: string; type: 'Bot' | 'User' };
}

export interface FakeRun {
  readonly id: number;
  readonly runNumber: number;
  readonly headSha: string;
  readonly createdAt: string;
  readonly branch: string;
  readonly event: string;
  readonly conclusion: string;
  /** owner/name of the repository the run's commit came from. */
  readonly headRepository: string;
}

export interface FakePull {
  readonly number: number;
  readonly baseRef: string;
  readonly baseSha: string;
  readonly headRef: string;
  readonly headSha: string;
  /** The owner of the head repository: a fork's, or (by default) this repository's. */
  readonly headOwner?: string;
}

/** A canned failure: `times` responses with `status` to requests matching method and path. */
export interface Fault {
  readonly method: string;
  readonly path: RegExp;
  readonly status: number;
  times: number;
  readonly message?: string;
  readonly headers?: Readonly<Record<string, string>>;
  /** The body to answer with instead of GitHub's error body. */
  readonly body?: unknown;
}

/** Requests matching method and path that are recorded and never answered: a stalled API. */
export interface Stall {
  readonly method: string;
  readonly path: RegExp;
}

/** A commit status as created through POST /repos/{owner}/{repo}/statuses/{sha}. */
export interface FakeStatus {
  readonly id: number;
  readonly sha: string;
  readonly state: string;
  readonly context: string;
  readonly description: string | null;
  readonly targetUrl: string | null;
}

/** An issue, as created through POST /repos/{owner}/{repo}/issues. */
export interface FakeIssue {
  readonly number: number;
  title: string;
  body: string;
  labels: string[];
  state: 'open' | 'closed';
  stateReason: string | null;
  user: { login: string; type: 'Bot' | 'User' };
}

export interface RepositoryState {
  runs: FakeRun[];
  /** Artifacts by run id. */
  artifacts: Map<number, { id: number; name: string; expired: boolean }[]>;
  /** Zip bytes by artifact id. */
  zips: Map<number, Uint8Array>;
  comments: FakeComment[];
  pulls: Map<number, FakePull>;
  mergeBase: string;
  faults: Fault[];
  stalls: Stall[];
  statuses: FakeStatus[];
  issues: FakeIssue[];
  /** Repository files by `ref:path`, served raw by the contents endpoint. */
  files: Map<string, string>;
  /** The pull requests' label events, oldest first. */
  labelEvents: { event: 'labeled' | 'unlabeled'; label: string; actor: string; createdAt: string }[];
  /** Users' permissions on the repository; anyone else has none. */
  permissions: Map<string, 'admin' | 'write' | 'read' | 'none'>;
}

export interface FakeGitHubServer {
  /** The API root, for GITHUB_API_URL. */
  readonly url: string;
  /** Where artifact downloads redirect to: another origin, like GitHub's blob storage. */
  readonly blobUrl: string;
  readonly calls: RecordedCall[];
  /** Where a request to the API or the fake's response to it departs from GitHub's OpenAPI description. */
  readonly violations: string[];
  readonly state: RepositoryState;
  /** Calls with this method whose path matches. */
  callsTo(method: string, path: RegExp): RecordedCall[];
  close(): Promise<void>;
}

const BOT = { login: 'github-actions[bot]', type: 'Bot' as const };

/** Responses that carried a file's raw bytes, which GitHub's description does not model. */
const rawResponses = new WeakSet<ServerResponse>();

/** The JSON body each response was sent with, to check it against GitHub's description once sent. */
const sentBodies = new WeakMap<ServerResponse, unknown>();

function send(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  sentBodies.set(response, body);
  const text = JSON.stringify(body);
  response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': String(Buffer.byteLength(text)), ...headers });
  response.end(text);
}

async function readBody(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  return text === '' ? undefined : JSON.parse(text);
}

const STATUS_FIELDS: Readonly<Record<string, (value: unknown) => boolean>> = {
  state: (value) => ['error', 'failure', 'pending', 'success'].includes(value as string),
  target_url: (value) => value === null || typeof value === 'string',
  description: (value) => value === null || typeof value === 'string',
  context: (value) => typeof value === 'string',
};

/**
 * What GitHub would refuse (422) in a request to create a commit status: the request body of the OpenAPI
 * operation `repos/create-commit-status` (state required, one of four; the rest optional strings), a
 * description over 140 characters as GitHub itself refuses, and, stricter than GitHub, which ignores them,
 * fields it does not define, so that a misspelt field fails the test instead of being dropped.
 */
function commitStatusProblem(sha: string, body: unknown): { field: string; code: string; message?: string } | null {
  if (!/^[0-9a-f]{40}$/.test(sha)) return { field: 'sha', code: 'invalid' };
  if (typeof body !== 'object' || body === null) return { field: 'body', code: 'missing' };
  const fields = body as Record<string, unknown>;
  if (fields.state === undefined) return { field: 'state', code: 'missing_field' };
  for (const [name, value] of Object.entries(fields)) {
    const valid = STATUS_FIELDS[name];
    if (valid === undefined || !valid(value)) return { field: name, code: 'invalid' };
  }
  if (typeof fields.description === 'string' && Array.from(fields.description).length > 140) {
    return { field: 'description', code: 'custom', message: 'description is too long (maximum is 140 characters)' };
  }
  return null;
}

export async function startFakeGitHub(initial: Partial<RepositoryState> = {}, address: FakeGitHubAddress = {}): Promise<FakeGitHubServer> {
  const prefix = address.apiPrefix ?? '';
  const web = address.serverUrl ?? 'https://github.com';
  const state: RepositoryState = {
    runs: [],
    artifacts: new Map(),
    zips: new Map(),
    comments: [],
    pulls: new Map(),
    mergeBase: '0'.repeat(40),
    faults: [],
    stalls: [],
    statuses: [],
    issues: [],
    files: new Map(),
    labelEvents: [],
    permissions: new Map(),
    ...initial,
  };
  const calls: RecordedCall[] = [];
  const violations: string[] = [];
  let nextCommentId = 1000 + state.comments.length;
  let nextStatusId = 1;
  let nextIssueNumber = 100 + state.issues.length;
  let origin = '';
  let blobOrigin = '';
  const repoPath = `/repos/${OWNER}/${REPO}`;

  // Every object is GitHub's own example from its API description, with the fields the fake keeps put in.
  const openApi = githubOpenApi();
  type Json = Record<string, unknown>;
  const userJson = (login: string, type: 'Bot' | 'User') => ({ ...openApi.example('simple-user'), login, id: type === 'Bot' ? 41898282 : 1, type });
  const repositoryJson = (fullName: string) => {
    const [owner = '', name = ''] = fullName.split('/');
    return { ...(openApi.example<Json>('workflow-run').repository as Json), id: 1, name, full_name: fullName, owner: userJson(owner, 'User') };
  };

  const commentJson = (comment: FakeComment) => ({
    ...openApi.example('issue-comment'),
    id: comment.id,
    node_id: `IC_${comment.id}`,
    url: `${origin}${repoPath}/issues/comments/${comment.id}`,
    html_url: `${web}/${OWNER}/${REPO}/pull/42#issuecomment-${comment.id}`,
    issue_url: `${origin}${repoPath}/issues/42`,
    body: comment.body,
    user: userJson(comment.user.login, comment.user.type),
    created_at: '2026-11-20T10:00:00Z',
    updated_at: '2026-11-20T10:00:00Z',
    author_association: comment.user.type === 'Bot' ? 'NONE' : 'MEMBER',
  });

  const runJson = (run: FakeRun) => ({
    ...openApi.example('workflow-run'),
    id: run.id,
    name: 'eval',
    head_branch: run.branch,
    head_sha: run.headSha,
    run_number: run.runNumber,
    event: run.event,
    status: 'completed',
    conclusion: run.conclusion,
    workflow_id: WORKFLOW_ID,
    created_at: run.createdAt,
    updated_at: run.createdAt,
    url: `${origin}${repoPath}/actions/runs/${run.id}`,
    html_url: `${web}/${OWNER}/${REPO}/actions/runs/${run.id}`,
    head_repository: repositoryJson(run.headRepository),
    repository: repositoryJson(`${OWNER}/${REPO}`),
  });

  // The `status` schema of GitHub's OpenAPI description.
  const statusJson = (status: FakeStatus) => ({
    ...openApi.example('status'),
    url: `${origin}${repoPath}/statuses/${status.sha}`,
    avatar_url: 'https://avatars.githubusercontent.com/in/15368?v=4',
    id: status.id,
    node_id: `SC_${status.id}`,
    state: status.state,
    description: status.description,
    target_url: status.targetUrl,
    context: status.context,
    created_at: '2026-11-20T10:00:00Z',
    updated_at: '2026-11-20T10:00:00Z',
    creator: userJson(BOT.login, BOT.type),
  });

  // The `issue` schema of GitHub's OpenAPI description, with the fields the fake keeps.
  const issueJson = (issue: FakeIssue) => {
    const example = openApi.example<Json>('issue');
    delete example.pull_request;
    delete example.state_reason;
    return {
      ...example,
      id: issue.number,
      node_id: `I_${issue.number}`,
      number: issue.number,
      url: `${origin}${repoPath}/issues/${issue.number}`,
      html_url: `${web}/${OWNER}/${REPO}/issues/${issue.number}`,
      title: issue.title,
      body: issue.body,
      state: issue.state,
      // Ajv reads the description's nullable enum as the enum alone: GitHub's null is left out instead.
      ...(issue.stateReason === null ? {} : { state_reason: issue.stateReason }),
      closed_at: issue.state === 'closed' ? '2026-11-21T10:00:00Z' : null,
      labels: issue.labels.map((name, i) => ({ ...((example.labels as Json[])[0] as Json), id: i + 1, name })),
      user: userJson(issue.user.login, issue.user.type),
      assignee: null,
      assignees: [],
      milestone: null,
      author_association: issue.user.type === 'Bot' ? 'NONE' : 'MEMBER',
    };
  };

  const pullJson = (pull: FakePull, example: Json) => {
    const side = (name: 'base' | 'head', ref: string, sha: string, owner: string) => ({
      ...(example[name] as Json),
      ref,
      sha,
      label: `${owner}:${ref}`,
      user: userJson(owner, 'User'),
      repo: { ...((example[name] as Json).repo as Json), full_name: `${owner}/${REPO}`, owner: userJson(owner, 'User') },
    });
    return {
      ...example,
      // GitHub's example teams lack a field its own schema requires; no reviewers are requested here anyway.
      requested_teams: [],
      number: pull.number,
      state: 'open',
      html_url: `${web}/${OWNER}/${REPO}/pull/${pull.number}`,
      base: side('base', pull.baseRef, pull.baseSha, OWNER),
      head: side('head', pull.headRef, pull.headSha, pull.headOwner ?? OWNER),
    };
  };

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', origin);
    const method = request.method ?? 'GET';
    // Every route lives under the API's prefix; outside it there is nothing (recorded with the prefix kept).
    const full = decodeURIComponent(url.pathname);
    const path = full.startsWith(`${prefix}/`) ? full.slice(prefix.length) : full;
    const query = Object.fromEntries(url.searchParams);
    const record = (body: unknown) =>
      calls.push({
        server: 'api',
        method,
        path,
        query,
        body,
        authorization: request.headers.authorization,
        at: Date.now(),
        remotePort: request.socket.remotePort ?? 0,
        requestPath: full,
      });
    if (path === full && prefix !== '') {
      record(await readBody(request));
      return send(response, 404, { message: 'Not Found' });
    }
    // Recorded as it arrives, without waiting for a body: the client gives up on it, however slow this process is.
    if (state.stalls.some((stall) => stall.method === method && stall.path.test(path))) return void record(undefined);
    const body = await readBody(request);
    record(body);
    response.once('finish', () =>
      violations.push(
        ...githubOpenApi().check({
          method,
          path,
          query,
          requestBody: body,
          status: response.statusCode,
          responseBody: sentBodies.get(response),
          raw: rawResponses.has(response),
        }),
      ),
    );

    const fault = state.faults.find((f) => f.method === method && f.path.test(path) && f.times > 0);
    if (fault !== undefined) {
      fault.times--;
      send(
        response,
        fault.status,
        fault.body ?? { message: fault.message ?? `fake ${fault.status}`, documentation_url: 'https://docs.github.com/rest' },
        fault.headers,
      );
      return;
    }

    let match: RegExpMatchArray | null;
    if (method === 'GET' && path === '/user') {
      // GITHUB_TOKEN is an installation token: it cannot read /user.
      send(response, 403, {
        message: 'Resource not accessible by integration',
        documentation_url: 'https://docs.github.com/rest/users/users#get-the-authenticated-user',
      });
    } else if (method === 'GET' && (match = path.match(new RegExp(`^${repoPath}/actions/runs/(\\d+)$`)))) {
      const id = Number(match[1]);
      send(response, 200, {
        ...runJson({
          id,
          runNumber: id,
          headSha: 'f'.repeat(40),
          createdAt: '2026-11-20T10:00:00Z',
          branch: 'feature',
          event: 'pull_request',
          conclusion: '',
          headRepository: `${OWNER}/${REPO}`,
        }),
        status: 'in_progress',
        conclusion: null,
      });
    } else if (method === 'GET' && (match = path.match(new RegExp(`^${repoPath}/actions/workflows/(\\d+)/runs$`)))) {
      const since = query.created?.startsWith('>=') ? Date.parse(query.created.slice(2)) : -Infinity;
      const workflowRuns = Number(match[1]) === WORKFLOW_ID ? state.runs : [];
      const runs = workflowRuns
        .filter((run) => query.branch === undefined || run.branch === query.branch)
        .filter((run) => query.event === undefined || run.event === query.event)
        .filter((run) => query.status === undefined || run.conclusion === query.status)
        .filter((run) => Date.parse(run.createdAt) >= since)
        .sort((a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt));
      send(response, 200, { total_count: runs.length, workflow_runs: runs.map(runJson) });
    } else if (method === 'GET' && (match = path.match(new RegExp(`^${repoPath}/compare/([0-9a-f]+)\\.\\.\\.([0-9a-f]+)$`)))) {
      const comparison = openApi.example('commit-comparison');
      const commit = (sha: string | undefined) => ({ ...(comparison.base_commit as Json), sha });
      send(response, 200, {
        ...comparison,
        status: 'diverged',
        ahead_by: 1,
        behind_by: 1,
        merge_base_commit: commit(state.mergeBase),
        base_commit: commit(match[1]),
        commits: [],
        files: [],
      });
    } else if (method === 'GET' && (match = path.match(new RegExp(`^${repoPath}/actions/runs/(\\d+)/artifacts$`)))) {
      const artifacts = (state.artifacts.get(Number(match[1])) ?? []).filter((a) => query.name === undefined || a.name === query.name);
      send(response, 200, {
        total_count: artifacts.length,
        artifacts: artifacts.map((a) => ({
          ...openApi.example<{ artifacts: Json[] }>('artifact-paginated').artifacts[0],
          id: a.id,
          name: a.name,
          expired: a.expired,
          size_in_bytes: state.zips.get(a.id)?.length ?? 0,
          url: `${origin}${repoPath}/actions/artifacts/${a.id}`,
          archive_download_url: `${origin}${repoPath}/actions/artifacts/${a.id}/zip`,
        })),
      });
    } else if (method === 'GET' && path === `${repoPath}/actions/artifacts`) {
      const createdAt = (runId: number) => state.runs.find((run) => run.id === runId)?.createdAt ?? '2026-01-01T00:00:00Z';
      const artifacts = [...state.artifacts]
        .flatMap(([runId, list]) => list.map((a) => ({ ...a, runId })))
        .filter((a) => query.name === undefined || a.name === query.name);
      const example = openApi.example<{ artifacts: Json[] }>('artifact-paginated').artifacts[0] as Record<string, Json>;
      send(response, 200, {
        total_count: artifacts.length,
        artifacts: artifacts.map((a) => ({
          ...example,
          id: a.id,
          name: a.name,
          expired: a.expired,
          size_in_bytes: state.zips.get(a.id)?.length ?? 0,
          url: `${origin}${repoPath}/actions/artifacts/${a.id}`,
          archive_download_url: `${origin}${repoPath}/actions/artifacts/${a.id}/zip`,
          created_at: createdAt(a.runId),
          updated_at: createdAt(a.runId),
          workflow_run: { ...(example.workflow_run as Record<string, Json>), id: a.runId },
        })),
      });
    } else if (method === 'GET' && (match = path.match(new RegExp(`^${repoPath}/actions/artifacts/(\\d+)/zip$`)))) {
      // GitHub answers with a redirect to a short-lived, signed blob storage URL on another host.
      response.writeHead(302, { location: `${blobOrigin}/blob/artifact-${match[1]}.zip?sig=abc`, 'content-length': '0' });
      response.end();
    } else if (method === 'GET' && (match = path.match(new RegExp(`^${repoPath}/issues/(\\d+)/comments$`)))) {
      const perPage = Number(query.per_page ?? 30);
      const page = Number(query.page ?? 1);
      const last = Math.max(1, Math.ceil(state.comments.length / perPage));
      const link = (p: number, rel: string) => {
        const target = new URL(url);
        target.searchParams.set('page', String(p));
        return `<${target}>; rel="${rel}"`;
      };
      const links = [...(page < last ? [link(page + 1, 'next'), link(last, 'last')] : []), ...(page > 1 ? [link(1, 'first'), link(page - 1, 'prev')] : [])];
      send(response, 200, state.comments.slice((page - 1) * perPage, page * perPage).map(commentJson), links.length > 0 ? { link: links.join(', ') } : {});
    } else if (method === 'POST' && (match = path.match(new RegExp(`^${repoPath}/issues/(\\d+)/comments$`)))) {
      const comment: FakeComment = { id: nextCommentId++, body: (body as { body: string }).body, user: BOT };
      state.comments.push(comment);
      send(response, 201, commentJson(comment), { location: `${origin}${repoPath}/issues/comments/${comment.id}` });
    } else if (method === 'PATCH' && (match = path.match(new RegExp(`^${repoPath}/issues/comments/(\\d+)$`)))) {
      const comment = state.comments.find((c) => c.id === Number(match![1]));
      if (comment === undefined) return send(response, 404, { message: 'Not Found' });
      comment.body = (body as { body: string }).body;
      send(response, 200, commentJson(comment));
    } else if (method === 'POST' && (match = path.match(new RegExp(`^${repoPath}/statuses/([^/]+)$`)))) {
      const invalid = commitStatusProblem(match[1]!, body);
      if (invalid !== null)
        return send(response, 422, {
          message: 'Validation Failed',
          errors: [{ resource: 'Status', ...invalid }],
          documentation_url: 'https://docs.github.com/rest/commits/statuses#create-a-commit-status',
        });
      const fields = body as { state: string; context?: string; description?: string | null; target_url?: string | null };
      const status: FakeStatus = {
        id: nextStatusId++,
        sha: match[1]!,
        state: fields.state,
        context: fields.context ?? 'default',
        description: fields.description ?? null,
        targetUrl: fields.target_url ?? null,
      };
      state.statuses.push(status);
      send(response, 201, statusJson(status), { location: `${origin}${repoPath}/statuses/${status.sha}` });
    } else if (method === 'GET' && path === `${repoPath}/issues`) {
      const labels = (query.labels ?? '').split(',').filter(Boolean);
      const issues = state.issues
        .filter((issue) => (query.state ?? 'open') === 'all' || issue.state === (query.state ?? 'open'))
        .filter((issue) => labels.every((label) => issue.labels.includes(label)));
      send(response, 200, issues.map(issueJson));
    } else if (method === 'POST' && path === `${repoPath}/issues`) {
      const fields = body as { title: string; body?: string; labels?: string[] };
      const issue: FakeIssue = {
        number: nextIssueNumber++,
        title: fields.title,
        body: fields.body ?? '',
        labels: fields.labels ?? [],
        state: 'open',
        stateReason: null,
        user: BOT,
      };
      state.issues.push(issue);
      send(response, 201, issueJson(issue), { location: `${origin}${repoPath}/issues/${issue.number}` });
    } else if (method === 'PATCH' && (match = path.match(new RegExp(`^${repoPath}/issues/(\\d+)$`)))) {
      const issue = state.issues.find((i) => i.number === Number(match![1]));
      if (issue === undefined) return send(response, 404, { message: 'Not Found' });
      const fields = body as { title?: string; body?: string; state?: 'open' | 'closed'; state_reason?: string };
      if (fields.title !== undefined) issue.title = fields.title;
      if (fields.body !== undefined) issue.body = fields.body;
      if (fields.state !== undefined) issue.state = fields.state;
      if (fields.state_reason !== undefined) issue.stateReason = fields.state_reason;
      send(response, 200, issueJson(issue));
    } else if (method === 'GET' && (match = path.match(new RegExp(`^${repoPath}/contents/(.+)$`)))) {
      const file = state.files.get(`${query.ref}:${match[1]}`);
      if (file === undefined)
        return send(response, 404, { message: 'Not Found', documentation_url: 'https://docs.github.com/rest/repos/contents#get-repository-content' });
      // The raw media type: the file's bytes, not JSON.
      if (!/application\/vnd\.github(\.v3)?\.raw/.test(request.headers.accept ?? ''))
        return send(response, 415, { message: 'the fake serves contents raw only' });
      rawResponses.add(response);
      response.writeHead(200, { 'content-type': 'application/vnd.github.raw; charset=utf-8', 'content-length': String(Buffer.byteLength(file)) });
      response.end(file);
    } else if (method === 'GET' && (match = path.match(new RegExp(`^${repoPath}/issues/(\\d+)/events$`)))) {
      // The `labeled-issue-event` and `unlabeled-issue-event` schemas of GitHub's description.
      send(
        response,
        200,
        state.labelEvents.map((event, i) => ({
          id: i + 1,
          node_id: `LE_${i + 1}`,
          url: `${origin}${repoPath}/issues/events/${i + 1}`,
          actor: userJson(event.actor, 'User'),
          event: event.event,
          commit_id: null,
          commit_url: null,
          created_at: event.createdAt,
          performed_via_github_app: null,
          label: { name: event.label, color: 'ededed' },
        })),
      );
    } else if (method === 'GET' && (match = path.match(new RegExp(`^${repoPath}/collaborators/([^/]+)/permission$`)))) {
      const permission = state.permissions.get(match[1]!) ?? 'none';
      send(response, 200, {
        ...openApi.example<Json>('repository-collaborator-permission-response-if-user-has-admin-permissions'),
        permission,
        role_name: permission,
        user: null,
      });
    } else if (method === 'GET' && path === `${repoPath}/pulls`) {
      // Every fake pull request is open; `head` filters by owner:branch, as for a fork's pull request.
      const pulls = [...state.pulls.values()].filter((pull) => query.head === undefined || `${pull.headOwner ?? OWNER}:${pull.headRef}` === query.head);
      send(
        response,
        200,
        pulls.map((pull) => pullJson(pull, openApi.example<Json[]>('pull-request-simple-items')[0]!)),
      );
    } else if (method === 'GET' && (match = path.match(new RegExp(`^${repoPath}/pulls/(\\d+)$`)))) {
      const pull = state.pulls.get(Number(match[1]));
      if (pull === undefined) return send(response, 404, { message: 'Not Found' });
      send(response, 200, pullJson(pull, openApi.example('pull-request')));
    } else {
      send(response, 404, { message: 'Not Found', documentation_url: 'https://docs.github.com/rest' });
    }
  }

  /** The blob storage: the signed URL is the only credential, and like Azure it refuses a request that also sends one. */
  async function handleBlob(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', blobOrigin);
    const method = request.method ?? 'GET';
    calls.push({
      server: 'blob',
      method,
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      body: await readBody(request),
      authorization: request.headers.authorization,
      at: Date.now(),
      remotePort: request.socket.remotePort ?? 0,
      requestPath: url.pathname,
    });
    const match = url.pathname.match(/^\/blob\/artifact-(\d+)\.zip$/);
    const zip = match === null ? undefined : state.zips.get(Number(match[1]));
    if (request.headers.authorization !== undefined) {
      response.writeHead(400, { 'content-type': 'application/xml' });
      response.end('<?xml version="1.0" encoding="utf-8"?><Error><Code>InvalidAuthenticationInfo</Code></Error>');
    } else if (method !== 'GET' || zip === undefined || url.searchParams.get('sig') !== 'abc') {
      response.writeHead(404, { 'content-type': 'application/xml' });
      response.end('<?xml version="1.0" encoding="utf-8"?><Error><Code>BlobNotFound</Code></Error>');
    } else {
      response.writeHead(200, { 'content-type': 'application/zip', 'content-length': String(zip.length) });
      response.end(Buffer.from(zip));
    }
  }

  const listen = async (handler: (request: IncomingMessage, response: ServerResponse) => Promise<void>) => {
    const answer = (request: IncomingMessage, response: ServerResponse) => {
      handler(request, response).catch((error: unknown) => {
        if (!response.headersSent) send(response, 500, { message: String(error) });
      });
    };
    const server = address.tls === undefined ? createServer(answer) : createTlsServer(address.tls, answer);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
  };
  const api = await listen(handle);
  const blob = await listen(handleBlob);
  const port = (origin: string) => new URL(origin).port;
  const scheme = address.tls === undefined ? 'http' : 'https';
  origin = `${scheme}://${address.apiHost ?? '127.0.0.1'}:${port(api.origin)}${prefix}`;
  blobOrigin = `${scheme}://${address.blobHost ?? '127.0.0.1'}:${port(blob.origin)}`;
  const close = (server: typeof api.server) =>
    new Promise<void>((resolve, reject) => {
      server.closeAllConnections();
      server.close((error) => (error ? reject(error) : resolve()));
    });

  return {
    url: origin,
    blobUrl: blobOrigin,
    calls,
    violations,
    state,
    callsTo: (method, path) => calls.filter((call) => call.method === method && path.test(call.path)),
    close: async () => {
      await Promise.all([close(api.server), close(blob.server)]);
    },
  };
}
