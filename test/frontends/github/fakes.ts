/** Fakes for the action's unit tests: a GitHubApi held in memory, a runtime that records, and scenario data. */
import { createRequire } from 'node:module';
import { strToU8, zipSync } from 'fflate';
import type { ActionRuntime } from '../../../src/frontends/github/run.js';
import type { ActionContext } from '../../../src/frontends/github/runtime.js';
import type { CommitStatus, GitHubApi, Issue, IssueComment, LabelEvent, PullRequestRef, WorkflowRun } from '../../../src/frontends/github/github.js';
import type { InputName } from '../../../src/frontends/github/inputs.js';
import { writeFileAtomic } from '../../../src/sources/write.js';
export { sketchScenario } from '../../helpers/paired-runs.js';

/** An error like Octokit's RequestError for an answer from GitHub: what the action reads is the status and the headers. */
export class HttpError extends Error {
  readonly response: { status: number; headers: Record<string, string> };
  constructor(
    readonly status: number,
    message = `HTTP ${status}`,
    headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'HttpError';
    this.response = { status, headers };
  }
}

export interface ApiCall {
  readonly method: keyof GitHubApi;
  readonly args: readonly unknown[];
}

/** A repository in memory. Each method records its call; `fail` makes a method throw instead. */
export class FakeGitHub implements GitHubApi {
  readonly calls: ApiCall[] = [];
  workflowId = 77;
  /** What listSuccessfulPushRuns returns, whatever it is asked (the real API filters by branch and date). */
  runs: WorkflowRun[] = [];
  mergeBaseSha: string | null = null;
  /** Artifacts by run id. */
  artifacts = new Map<number, { id: number; name: string }>();
  /** Zip bytes by artifact id. */
  zips = new Map<number, Uint8Array>();
  comments: IssueComment[] = [];
  login: string | null = null;
  pulls = new Map<number, PullRequestRef>();
  statuses: (CommitStatus & { sha: string })[] = [];
  fail: Partial<Record<keyof GitHubApi, Error>> = {};
  /** Files by `ref:path`, as getFileAt reads them. */
  files = new Map<string, string>();
  /** Label events of the pull request, oldest first, whatever label is asked for. */
  labelEvents: LabelEvent[] = [];
  /** Permissions by login; anyone else has none. */
  permissions = new Map<string, string>();
  /** The time GitHub stamps on a comment it writes. */
  clock = () => '2026-11-20T10:00:00Z';
  private nextCommentId = 9000;

  private record(method: keyof GitHubApi, ...args: unknown[]): void {
    this.calls.push({ method, args });
    const error = this.fail[method];
    if (error !== undefined) throw error;
  }

  /** The calls of one method. */
  called(method: keyof GitHubApi): ApiCall[] {
    return this.calls.filter((call) => call.method === method);
  }

  async getWorkflowId(runId: number): Promise<number> {
    this.record('getWorkflowId', runId);
    return this.workflowId;
  }

  async listSuccessfulPushRuns(workflowId: number, branch: string, since: Date): Promise<WorkflowRun[]> {
    this.record('listSuccessfulPushRuns', workflowId, branch, since);
    return this.runs;
  }

  async mergeBase(base: string, head: string): Promise<string | null> {
    this.record('mergeBase', base, head);
    return this.mergeBaseSha;
  }

  async findArtifact(runId: number, name: string): Promise<{ id: number; name: string } | null> {
    this.record('findArtifact', runId, name);
    const artifact = this.artifacts.get(runId);
    return artifact !== undefined && artifact.name === name ? artifact : null;
  }

  /** Repository artifacts for findNewestArtifact, any order. */
  repositoryArtifacts: { id: number; name: string; runId: number; createdAt: string; expired?: boolean }[] = [];

  async findNewestArtifact(name: string): Promise<{ id: number; name: string; runId: number | null; createdAt: string } | null> {
    this.record('findNewestArtifact', name);
    const newest = this.repositoryArtifacts
      .filter((a) => a.name === name && a.expired !== true)
      .sort((a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt))[0];
    return newest === undefined ? null : { id: newest.id, name: newest.name, runId: newest.runId, createdAt: newest.createdAt };
  }

  async downloadArtifact(artifactId: number): Promise<Uint8Array> {
    this.record('downloadArtifact', artifactId);
    const zip = this.zips.get(artifactId);
    if (zip === undefined) throw new HttpError(404, 'artifact not found');
    return zip;
  }

  async listComments(issueNumber: number): Promise<IssueComment[]> {
    this.record('listComments', issueNumber);
    return this.comments.map((comment) => ({ ...comment }));
  }

  async createComment(issueNumber: number, body: string): Promise<{ id: number; url: string }> {
    this.record('createComment', issueNumber, body);
    const id = this.nextCommentId++;
    const url = `https://github.com/octo/shop/pull/${issueNumber}#issuecomment-${id}`;
    this.comments.push({ id, body, authorLogin: this.login ?? 'github-actions[bot]', authorType: 'Bot', appSlug: null, url, updatedAt: this.clock() });
    return { id, url };
  }

  async updateComment(commentId: number, body: string): Promise<{ id: number; url: string }> {
    this.record('updateComment', commentId, body);
    const comment = this.comments.find((c) => c.id === commentId);
    if (comment === undefined) throw new HttpError(404, 'comment not found');
    this.comments = this.comments.map((c) => (c.id === commentId ? { ...c, body, updatedAt: this.clock() } : c));
    return { id: commentId, url: comment.url };
  }

  async authenticatedLogin(): Promise<string | null> {
    this.record('authenticatedLogin');
    return this.login;
  }

  async findPullRequest(headOwner: string, headBranch: string, headSha: string): Promise<PullRequestRef | null> {
    this.record('findPullRequest', headOwner, headBranch, headSha);
    return [...this.pulls.values()].find((pull) => pull.headSha === headSha) ?? null;
  }

  async getPullRequest(issueNumber: number): Promise<PullRequestRef> {
    this.record('getPullRequest', issueNumber);
    const pull = this.pulls.get(issueNumber);
    if (pull === undefined) throw new HttpError(404, 'pull request not found');
    return pull;
  }

  async getFileAt(path: string, ref: string): Promise<Buffer | null> {
    this.record('getFileAt', path, ref);
    const text = this.files.get(`${ref}:${path}`);
    return text === undefined ? null : Buffer.from(text);
  }

  async listLabelEvents(issueNumber: number, label: string): Promise<LabelEvent[]> {
    this.record('listLabelEvents', issueNumber, label);
    return this.labelEvents;
  }

  async getPermission(login: string): Promise<string> {
    this.record('getPermission', login);
    return this.permissions.get(login) ?? 'none';
  }

  async createCommitStatus(sha: string, status: CommitStatus): Promise<void> {
    this.record('createCommitStatus', sha, status);
    this.statuses.push({ sha, ...status });
  }

  /** Issues with their labels and state. */
  issues: (Issue & { labels: string[]; open: boolean })[] = [];
  private nextIssueNumber = 100;

  async listOpenIssues(label: string): Promise<Issue[]> {
    this.record('listOpenIssues', label);
    return this.issues.filter((issue) => issue.open && issue.labels.includes(label)).map(({ labels: _labels, open: _open, ...issue }) => issue);
  }

  async createIssue(title: string, body: string, labels: readonly string[]): Promise<{ number: number; url: string }> {
    this.record('createIssue', title, body, labels);
    const number = this.nextIssueNumber++;
    const url = `https://github.com/octo/shop/issues/${number}`;
    this.issues.push({ number, title, body, labels: [...labels], open: true, authorLogin: 'github-actions[bot]', authorType: 'Bot', appSlug: null, url });
    return { number, url };
  }

  async updateIssue(issueNumber: number, change: { title?: string; body?: string; close?: boolean }): Promise<{ number: number; url: string }> {
    this.record('updateIssue', issueNumber, change);
    const issue = this.issues.find((i) => i.number === issueNumber);
    if (issue === undefined) throw new HttpError(404, 'issue not found');
    this.issues = this.issues.map((i) =>
      i.number === issueNumber ? { ...i, title: change.title ?? i.title, body: change.body ?? i.body, open: change.close === true ? false : i.open } : i,
    );
    return { number: issueNumber, url: issue.url };
  }
}

/** The comment methods: none of them may be called when no comment is wanted. */
export const COMMENT_METHODS: readonly (keyof GitHubApi)[] = ['authenticatedLogin', 'listComments', 'createComment', 'updateComment'];

export function workflowRun(fields: Partial<WorkflowRun> & Pick<WorkflowRun, 'id' | 'headSha' | 'createdAt'>): WorkflowRun {
  return { runNumber: fields.id, headRepository: 'octo/shop', url: `https://github.com/octo/shop/actions/runs/${fields.id}`, ...fields };
}

export function comment(fields: Partial<IssueComment> & Pick<IssueComment, 'id' | 'body'>): IssueComment {
  return {
    authorLogin: 'someone',
    authorType: 'User',
    appSlug: null,
    url: `https://github.com/octo/shop/pull/42#issuecomment-${fields.id}`,
    updatedAt: '2026-11-20T10:00:00Z',
    ...fields,
  };
}

/** JSON Lines text for records. */
export function jsonlText(records: readonly object[]): string {
  return records.map((record) => JSON.stringify(record)).join('\n') + '\n';
}

/** A zip archive of named text files, as GitHub serves an artifact. */
export function zipOf(files: Readonly<Record<string, string>>, options: { stored?: boolean } = {}): Uint8Array {
  return zipSync(Object.fromEntries(Object.entries(files).map(([name, text]) => [name, strToU8(text)])), { level: options.stored ? 0 : 6 });
}

/**
 * A copy of a zip with one entry tampered with, as a broken upload or a hostile artifact would be: a byte of its
 * stored data flipped, and/or its uncompressed size rewritten in both its local and central headers.
 */
export function tamperedZip(zip: Uint8Array, entry: string, tamper: { flipDataByte?: number; originalSize?: number }): Uint8Array {
  const copy = zip.slice();
  const view = new DataView(copy.buffer);
  const nameAt = (at: number, lengthAt: number, nameStart: number) =>
    new TextDecoder().decode(copy.subarray(at + nameStart, at + nameStart + view.getUint16(at + lengthAt, true)));
  let found = false;
  for (let at = 0; at + 30 < copy.length; at++) {
    const signature = view.getUint32(at, true);
    if (signature === 0x04034b50 && nameAt(at, 26, 30) === entry) {
      found = true;
      if (tamper.originalSize !== undefined) view.setUint32(at + 22, tamper.originalSize, true);
      const dataAt = at + 30 + view.getUint16(at + 26, true) + view.getUint16(at + 28, true);
      if (tamper.flipDataByte !== undefined) copy[dataAt + tamper.flipDataByte]! ^= 0xff;
    }
    if (signature === 0x02014b50 && nameAt(at, 28, 46) === entry && tamper.originalSize !== undefined) view.setUint32(at + 24, tamper.originalSize, true);
  }
  if (!found) throw new Error(`no entry ${entry} in the zip`);
  return copy;
}

export interface FakeRun {
  readonly runtime: ActionRuntime;
  readonly outputs: Map<string, string>;
  readonly failures: string[];
  readonly warnings: { message: string; title: string | undefined }[];
  readonly infos: string[];
  readonly summaries: string[];
  /** What the action asked of each API client it created (the token, the timeout). */
  readonly apiOptions: Parameters<ActionRuntime['createApi']>[0][];
}

export interface FakeRuntimeOptions {
  readonly inputs: Partial<Record<InputName, string>>;
  readonly api: GitHubApi;
  readonly env?: Record<string, string | undefined>;
  readonly eventName?: string;
  readonly eventPayload?: unknown;
  readonly now?: Date;
  readonly writeSummary?: (markdown: string) => Promise<void>;
}

export const NOW = new Date('2026-11-20T12:00:00Z');

/** @actions/github's context as it reads these variables and this payload (its getter `repo` as a value). */
export function fakeContext(env: Readonly<Record<string, string | undefined>>, payload: unknown): ActionContext {
  const [owner = '', repo = ''] = (env.GITHUB_REPOSITORY ?? '').split('/');
  return {
    eventName: env.GITHUB_EVENT_NAME ?? '',
    payload: payload as ActionContext['payload'],
    runId: Number.parseInt(env.GITHUB_RUN_ID ?? '', 10),
    workflow: env.GITHUB_WORKFLOW ?? '',
    actor: env.GITHUB_ACTOR ?? '',
    sha: env.GITHUB_SHA ?? '',
    repo: { owner, repo },
    serverUrl: env.GITHUB_SERVER_URL ?? 'https://github.com',
  };
}

/** A runtime that records what the action reports; the API is the one given, whatever the token. */
export function fakeRuntime(options: FakeRuntimeOptions): FakeRun {
  const run: Omit<FakeRun, 'runtime'> = { outputs: new Map(), failures: [], warnings: [], infos: [], summaries: [], apiOptions: [] };
  const env = { GITHUB_REPOSITORY: 'octo/shop', GITHUB_EVENT_NAME: options.eventName ?? 'pull_request', GITHUB_RUN_ID: '5000', ...options.env };
  const runtime: ActionRuntime = {
    getInput: (name) => options.inputs[name] ?? (name === 'github-token' ? 'fake-token' : ''),
    env,
    context: fakeContext(env, options.eventPayload ?? pullRequestPayload()),
    createApi: (apiOptions) => {
      run.apiOptions.push(apiOptions);
      return options.api;
    },
    info: (message) => void run.infos.push(message),
    warning: (message, title) => void run.warnings.push({ message, title }),
    setOutput: (name, value) => void run.outputs.set(name, value),
    setFailed: (message) => void run.failures.push(message),
    writeSummary:
      options.writeSummary ??
      (async (markdown) => {
        run.summaries.push(markdown);
      }),
    writeReport: (file, text) => writeFileAtomic(file, text),
    now: () => options.now ?? NOW,
  };
  return { runtime, ...run };
}

export const BASE_SHA = 'b'.repeat(40);
export const HEAD_SHA = 'c'.repeat(40);
export const MERGE_BASE_SHA = 'a'.repeat(40);

type Json = Record<string, unknown>;
const json = (value: unknown) => value as Json;

/** octokit's recorded webhook payloads, by event (a JSON module that ESM cannot import by name). */
const webhookExamples = createRequire(import.meta.url)('@octokit/webhooks-examples') as typeof import('@octokit/webhooks-examples').default;

/** A copy of the first of octokit's recorded webhook payloads of this event (and action). */
function webhookExample(event: string, action?: string): Json {
  const examples = webhookExamples.find((definition) => definition.name === event)?.examples as Json[] | undefined;
  const example = examples?.find((candidate) => action === undefined || candidate.action === action);
  if (example === undefined) throw new Error(`@octokit/webhooks-examples has no ${event} ${action ?? ''} payload`);
  return structuredClone(example);
}

/** A repository object of a payload, renamed to owner/name. */
function renamed(repository: Json, fullName: string): Json {
  const [owner = '', name = ''] = fullName.split('/');
  return { ...repository, full_name: fullName, name, owner: { ...json(repository.owner), login: owner } };
}

/** A pull_request event payload as GitHub writes it to GITHUB_EVENT_PATH: a recorded one, on this repository's pull request. */
export function pullRequestPayload(number = 42, action: 'opened' | 'synchronize' | 'labeled' = 'synchronize'): object {
  const payload = webhookExample('pull_request', action);
  const repository = renamed(json(payload.repository), 'octo/shop');
  const pull = json(payload.pull_request);
  return {
    ...payload,
    number,
    repository,
    pull_request: {
      ...pull,
      number,
      base: { ...json(pull.base), ref: 'main', sha: BASE_SHA, repo: repository },
      head: { ...json(pull.head), ref: 'feature', sha: HEAD_SHA, repo: repository },
    },
  };
}

/** A completed workflow_run event payload (a recorded one) of run `id` of a pull_request workflow. */
export function workflowRunPayload(run: { id: number; headBranch: string; headSha: string; headRepository: string; pullRequests: readonly number[] }): object {
  const payload = webhookExample('workflow_run', 'completed');
  const repository = renamed(json(payload.repository), 'octo/shop');
  const workflowRun = json(payload.workflow_run);
  const head = renamed(json(workflowRun.head_repository), run.headRepository);
  // As GitHub lists them: only pull requests whose head is in this repository, never a fork's.
  const pullRequests = run.pullRequests.map((number) => ({
    url: `https://api.github.com/repos/octo/shop/pulls/${number}`,
    id: 1000 + number,
    number,
    head: { ref: run.headBranch, sha: run.headSha, repo: { id: repository.id, url: repository.url, name: repository.name } },
    base: { ref: 'main', sha: BASE_SHA, repo: { id: repository.id, url: repository.url, name: repository.name } },
  }));
  return {
    ...payload,
    repository,
    workflow_run: {
      ...workflowRun,
      id: run.id,
      event: 'pull_request',
      head_branch: run.headBranch,
      head_sha: run.headSha,
      head_repository: head,
      repository,
      pull_requests: pullRequests,
    },
  };
}

/** A push event payload (a recorded one) of a branch of this repository. */
export function pushPayload(branch: string, before: string, after: string): object {
  const payload = webhookExample('push');
  return { ...payload, ref: `refs/heads/${branch}`, base_ref: null, before, after, repository: renamed(json(payload.repository), 'octo/shop') };
}
