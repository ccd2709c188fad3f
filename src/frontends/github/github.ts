import { getOctokit } from '@actions/github';
import { retry } from '@octokit/plugin-retry';
import { throttling } from '@octokit/plugin-throttling';
import type { RestEndpointMethodTypes } from '@octokit/rest';
import { proxyFetch } from '../../net/fetch.js';

/** The slice of the GitHub REST API the action uses; tests pass a fake or point the real one at a loopback server. */
export interface GitHubApi {
  /** The workflow a run belongs to. */
  getWorkflowId(runId: number): Promise<number>;
  /** Successful push runs of a workflow on a branch, newest first, created after `since`. */
  listSuccessfulPushRuns(workflowId: number, branch: string, since: Date): Promise<WorkflowRun[]>;
  /** The merge-base of two commits, or null when GitHub cannot tell. */
  mergeBase(base: string, head: string): Promise<string | null>;
  /** Unexpired artifacts of a run with this name. */
  findArtifact(runId: number, name: string): Promise<{ id: number; name: string } | null>;
  /** The artifact's zip archive. */
  downloadArtifact(artifactId: number): Promise<Uint8Array>;
  /** The newest unexpired artifact of the repository with this name, from any run (the holdout ledger's). */
  findNewestArtifact(name: string): Promise<{ id: number; name: string; runId: number | null; createdAt: string } | null>;
  /** Every comment on an issue or pull request, all pages. */
  listComments(issueNumber: number): Promise<IssueComment[]>;
  createComment(issueNumber: number, body: string): Promise<{ id: number; url: string }>;
  updateComment(commentId: number, body: string): Promise<{ id: number; url: string }>;
  /** The login the token acts as, or null when the token cannot say (GITHUB_TOKEN cannot read /user). */
  authenticatedLogin(): Promise<string | null>;
  /** An open pull request whose head is `owner:branch` at `sha`, for workflow_run events from forks. */
  findPullRequest(headOwner: string, headBranch: string, headSha: string): Promise<PullRequestRef | null>;
  getPullRequest(issueNumber: number): Promise<PullRequestRef>;
  /** Sets a commit status: the check a workflow_run gate leaves on the pull request's head. */
  createCommitStatus(sha: string, status: CommitStatus): Promise<void>;
  /** A file's bytes at a commit, or null where the commit has no such file. */
  getFileAt(path: string, ref: string): Promise<Buffer | null>;
  /** Who added or removed this label on an issue or pull request, and when, oldest first. */
  listLabelEvents(issueNumber: number, label: string): Promise<LabelEvent[]>;
  /** A user's permission on the repository: admin, write, read or none (maintain counts as write, triage as read). */
  getPermission(login: string): Promise<string>;
  /** Open issues (not pull requests) with this label, all pages. */
  listOpenIssues(label: string): Promise<Issue[]>;
  createIssue(title: string, body: string, labels: readonly string[]): Promise<{ number: number; url: string }>;
  /** Changes an issue's title and body, and closes it (as completed) with `close`. */
  updateIssue(issueNumber: number, change: { title?: string; body?: string; close?: boolean }): Promise<{ number: number; url: string }>;
}

export interface LabelEvent {
  readonly action: 'labeled' | 'unlabeled';
  readonly actor: string;
  /** ISO 8601, as GitHub gives it. */
  readonly at: string;
}

export interface Issue {
  readonly number: number;
  readonly title: string;
  readonly body: string;
  readonly authorLogin: string;
  readonly authorType: string;
  readonly appSlug: string | null;
  readonly url: string;
}

export interface CommitStatus {
  readonly state: 'success' | 'failure' | 'pending';
  readonly context: string;
  /** At most 140 characters: GitHub refuses longer ones. */
  readonly description: string;
  readonly targetUrl: string;
}

export interface WorkflowRun {
  readonly id: number;
  readonly runNumber: number;
  readonly headSha: string;
  readonly createdAt: string;
  /** owner/name of the repository the run's commit came from. */
  readonly headRepository: string;
  readonly url: string;
}

export interface IssueComment {
  readonly id: number;
  readonly body: string;
  readonly authorLogin: string;
  readonly authorType: string;
  /** The GitHub App the comment was written through, if any. */
  readonly appSlug: string | null;
  readonly url: string;
  /** When its body last changed (ISO 8601). */
  readonly updatedAt: string;
}

export interface PullRequestRef {
  readonly number: number;
  readonly baseRef: string;
  readonly baseSha: string;
  readonly headSha: string;
}

/** An HTTP failure from the API, with its status, so callers can tell a read-only token (403) from others. */
export function httpStatus(error: unknown): number | undefined {
  const status = (error as { status?: unknown } | null)?.status;
  return typeof status === 'number' ? status : undefined;
}

/** A request that got no complete answer (headers and body) within the timeout. */
export class GitHubTimeoutError extends Error {
  override name = 'GitHubTimeoutError';
  constructor(readonly timeoutMs: number) {
    super(`no answer from GitHub within ${timeoutMs / 1000} s`);
  }
}

/**
 * Why an API call failed, for the advice that goes with it: a permission the token lacks (a 403 that is not a
 * rate limit), no answer in time, or anything else (a 5xx after the retries, a rate limit, a network error).
 * `status` is GitHub's answer, absent when there was none.
 */
export type ApiFailure = { readonly kind: 'forbidden' | 'failed'; readonly status?: number } | { readonly kind: 'timeout'; readonly timeoutMs: number };

export function apiFailure(error: unknown): ApiFailure {
  // Octokit wraps what fetch throws into its RequestError: the timeout is a cause.
  for (let cause: unknown = error; cause instanceof Error; cause = cause.cause) {
    if (cause instanceof GitHubTimeoutError) return { kind: 'timeout', timeoutMs: cause.timeoutMs };
  }
  const response = (error as { response?: { status?: unknown; headers?: Record<string, string | undefined> } } | null)?.response;
  const status = typeof response?.status === 'number' ? response.status : undefined;
  const headers = response?.headers ?? {};
  const rateLimited = headers['x-ratelimit-remaining'] === '0' || headers['retry-after'] !== undefined;
  return { kind: status === 403 && !rateLimited ? 'forbidden' : 'failed', status };
}

/** Statuses whose response has no body: a Response cannot be built with one. */
const NULL_BODY_STATUSES = new Set([101, 204, 205, 304]);

/**
 * fetch with a deadline per request, the body included, so that a stalled API or artifact download cannot hang
 * the job. Octokit's request options take one AbortSignal for the client's whole life, hence a fetch of our own.
 * Through the proxy the environment names (src/net/fetch.ts), the artifact's redirect to blob storage included.
 */
function fetchWithTimeout(timeoutMs: number): typeof fetch {
  return async (input, init) => {
    const deadline = AbortSignal.timeout(timeoutMs);
    try {
      const response = await proxyFetch(input, { ...init, signal: deadline });
      const body = NULL_BODY_STATUSES.has(response.status) ? null : await response.arrayBuffer();
      const read = new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
      // The URL after redirects, which Octokit reports; a constructed Response has none.
      Object.defineProperty(read, 'url', { value: response.url });
      return read;
    } catch (error) {
      if (deadline.aborted) throw new GitHubTimeoutError(timeoutMs);
      throw error;
    }
  };
}

/**
 * An id GitHub returned, as a number. Octokit reads an integer beyond 2^53 as a bigint, which no GitHub id is yet;
 * one would not survive being used as a number, so it is refused rather than rounded.
 */
function idNumber(id: number | bigint): number {
  if (typeof id === 'number') return id;
  throw new Error(`GitHub returned the id ${id}, beyond the 2^53 that rag-gate reads exactly`);
}

export interface ClientOptions {
  readonly token: string;
  /** The API's root, under a path prefix on GitHub Enterprise Server (https://ghe.example.com/api/v3). */
  readonly baseUrl: string;
  readonly owner: string;
  readonly repo: string;
  /** Retries of transient failures (5xx, rate limits). */
  readonly retries?: number;
  /** Base of the retry back-off in milliseconds (grows with the square of the attempt). */
  readonly retryBaseMs?: number;
  /** How long one request may take; each retry gets the time anew. */
  readonly timeoutMs: number;
  readonly log?: (message: string) => void;
}

/** Who wrote a comment or an issue, as isOwnComment reads it. */
function authorship(item: { user?: { login: string; type: string } | null; performed_via_github_app?: { slug?: string } | null }): {
  authorLogin: string;
  authorType: string;
  appSlug: string | null;
} {
  return { authorLogin: item.user?.login ?? '', authorType: item.user?.type ?? '', appSlug: item.performed_via_github_app?.slug ?? null };
}

const NO_TOKEN = "the github-token input is empty: leave it out (its default is the job's GITHUB_TOKEN) or pass a token";

/** A workflow run as the API lists it. */
type RunData = RestEndpointMethodTypes['actions']['listWorkflowRuns']['response']['data']['workflow_runs'][number];

/**
 * The GitHub API through @actions/github's getOctokit (its REST endpoint methods and pagination, with the retry
 * and throttling plugins), retrying transient failures and rate limits a bounded number of times, every request
 * through the proxy the environment names and with a timeout.
 */
export function createGitHubApi(options: ClientOptions): GitHubApi {
  const retries = options.retries ?? 3;
  const log = options.log ?? (() => {});
  // getOctokit's own fetch (its proxy decided once, for the API's host) gives way to ours: a deadline per request,
  // and the proxy decided per request, so that the artifact's redirect to another host follows no_proxy too.
  // Made on the first request: a run that sends none (a push with a baseline file) needs no token.
  const create = () => {
    if (options.token.trim() === '') throw new Error(NO_TOKEN);
    return getOctokit(
      options.token,
      {
        // Octokit logs every failed request; the expected ones (GET /user with GITHUB_TOKEN) would read as errors.
        log: { debug: () => {}, info: () => {}, warn: log, error: () => {} },
        baseUrl: options.baseUrl,
        userAgent: 'rag-gate',
        request: { fetch: fetchWithTimeout(options.timeoutMs) },
        retry: { retries, retryAfterBaseValue: options.retryBaseMs ?? 1000, doNotRetry: [400, 401, 403, 404, 410, 422, 451] },
        throttle: {
          onRateLimit: (retryAfter: number, request: { method: string; url: string }, _client: unknown, retryCount: number) => {
            log(`GitHub rate limit on ${request.method} ${request.url}; retrying in ${retryAfter}s`);
            return retryCount < retries;
          },
          onSecondaryRateLimit: (retryAfter: number, request: { method: string; url: string }, _client: unknown, retryCount: number) => {
            log(`GitHub secondary rate limit on ${request.method} ${request.url}; retrying in ${retryAfter}s`);
            return retryCount < retries;
          },
        },
      },
      retry,
      throttling,
    );
  };
  let client: ReturnType<typeof create> | undefined;
  const octokit = () => (client ??= create());
  const rest = () => octokit().rest;
  const { owner, repo } = options;

  const runOf = (run: RunData): WorkflowRun => ({
    id: idNumber(run.id),
    runNumber: run.run_number,
    headSha: run.head_sha,
    createdAt: run.created_at,
    headRepository: run.head_repository?.full_name ?? '',
    url: run.html_url,
  });

  return {
    async getWorkflowId(runId) {
      const { data } = await rest().actions.getWorkflowRun({ owner, repo, run_id: runId });
      return data.workflow_id;
    },
    async listSuccessfulPushRuns(workflowId, branch, since) {
      // One page, the 100 newest: the searches read no further back.
      const { data } = await rest().actions.listWorkflowRuns({
        owner,
        repo,
        workflow_id: workflowId,
        branch,
        event: 'push',
        status: 'success',
        // GitHub's search date syntax is YYYY-MM-DDTHH:MM:SSZ, without fractional seconds.
        created: `>=${since.toISOString().replace(/\.\d+Z$/, 'Z')}`,
        per_page: 100,
      });
      return data.workflow_runs.map(runOf);
    },
    async mergeBase(base, head) {
      const { data } = await rest().repos.compareCommitsWithBasehead({ owner, repo, basehead: `${base}...${head}`, per_page: 1 });
      return data.merge_base_commit?.sha ?? null;
    },
    async findArtifact(runId, name) {
      const { data } = await rest().actions.listWorkflowRunArtifacts({ owner, repo, run_id: runId, name, per_page: 100 });
      const artifact = data.artifacts.find((a) => a.name === name && !a.expired);
      return artifact ? { id: artifact.id, name: artifact.name } : null;
    },
    async findNewestArtifact(name) {
      const { data } = await rest().actions.listArtifactsForRepo({ owner, repo, name, per_page: 100 });
      const newest = data.artifacts
        .filter((a) => a.name === name && !a.expired)
        .sort((a, b) => Date.parse(b.created_at ?? '') - Date.parse(a.created_at ?? '') || b.id - a.id)[0];
      return newest === undefined ? null : { id: newest.id, name: newest.name, runId: newest.workflow_run?.id ?? null, createdAt: newest.created_at ?? '' };
    },
    async downloadArtifact(artifactId) {
      // GitHub answers with a redirect to the storage's signed URL, on another host: fetch follows it.
      const { data } = await rest().actions.downloadArtifact({ owner, repo, artifact_id: artifactId, archive_format: 'zip' });
      return new Uint8Array(data as ArrayBuffer);
    },
    async listComments(issueNumber) {
      const comments = await octokit().paginate(rest().issues.listComments, { owner, repo, issue_number: issueNumber, per_page: 100 });
      return comments.map((c) => ({ id: c.id, body: c.body ?? '', ...authorship(c), url: c.html_url, updatedAt: c.updated_at }));
    },
    async createComment(issueNumber, body) {
      const { data } = await rest().issues.createComment({ owner, repo, issue_number: issueNumber, body });
      return { id: idNumber(data.id), url: data.html_url };
    },
    async updateComment(commentId, body) {
      const { data } = await rest().issues.updateComment({ owner, repo, comment_id: commentId, body });
      return { id: idNumber(data.id), url: data.html_url };
    },
    async authenticatedLogin() {
      try {
        const { data } = await rest().users.getAuthenticated();
        return data.login;
      } catch (error) {
        const status = httpStatus(error);
        if (status === 401 || status === 403 || status === 404) return null;
        throw error;
      }
    },
    async findPullRequest(headOwner, headBranch, headSha) {
      const { data } = await rest().pulls.list({ owner, repo, state: 'open', head: `${headOwner}:${headBranch}`, per_page: 100 });
      const pull = data.find((p) => p.head.sha === headSha) ?? data[0];
      return pull ? { number: pull.number, baseRef: pull.base.ref, baseSha: pull.base.sha, headSha: pull.head.sha } : null;
    },
    async getPullRequest(issueNumber) {
      const { data } = await rest().pulls.get({ owner, repo, pull_number: issueNumber });
      return { number: data.number, baseRef: data.base.ref, baseSha: data.base.sha, headSha: data.head.sha };
    },
    async createCommitStatus(sha, status) {
      await rest().repos.createCommitStatus({
        owner,
        repo,
        sha,
        state: status.state,
        context: status.context,
        description: status.description,
        target_url: status.targetUrl,
      });
    },
    async getFileAt(path, ref) {
      try {
        const { data } = await rest().repos.getContent({ owner, repo, path, ref, mediaType: { format: 'raw' } });
        return typeof data === 'string' ? Buffer.from(data, 'utf8') : Buffer.from(data as unknown as ArrayBuffer);
      } catch (error) {
        if (httpStatus(error) === 404) return null;
        throw error;
      }
    },
    async listLabelEvents(issueNumber, label) {
      const events = await octokit().paginate(rest().issues.listEvents, { owner, repo, issue_number: issueNumber, per_page: 100 });
      // The label events' own shape: the description's union of every event kind has no common `label`.
      return (events as { event: string; label?: { name?: string }; actor?: { login: string } | null; created_at: string }[]).flatMap((event) =>
        (event.event === 'labeled' || event.event === 'unlabeled') && event.label?.name === label
          ? [{ action: event.event, actor: event.actor?.login ?? '', at: event.created_at }]
          : [],
      );
    },
    async getPermission(login) {
      const { data } = await rest().repos.getCollaboratorPermissionLevel({ owner, repo, username: login });
      return data.permission;
    },
    async listOpenIssues(label) {
      const issues = await octokit().paginate(rest().issues.listForRepo, { owner, repo, labels: label, state: 'open', per_page: 100 });
      return issues
        .filter((issue) => issue.pull_request === undefined)
        .map((issue) => ({ number: issue.number, title: issue.title, body: issue.body ?? '', ...authorship(issue), url: issue.html_url }));
    },
    async createIssue(title, body, labels) {
      const { data } = await rest().issues.create({ owner, repo, title, body, labels: [...labels] });
      return { number: data.number, url: data.html_url };
    },
    async updateIssue(issueNumber, change) {
      const { data } = await rest().issues.update({
        owner,
        repo,
        issue_number: issueNumber,
        ...(change.title === undefined ? {} : { title: change.title }),
        ...(change.body === undefined ? {} : { body: change.body }),
        ...(change.close === true ? { state: 'closed' as const, state_reason: 'completed' as const } : {}),
      });
      return { number: data.number, url: data.html_url };
    },
  };
}
