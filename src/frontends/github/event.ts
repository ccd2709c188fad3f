import type { GitHubApi, PullRequestRef } from './github.js';
import type { ActionContext } from './runtime.js';

/** What the action needs to know about the event that triggered it. */
export interface EventInfo {
  readonly eventName: string;
  /** The pull request to comment on, when there is one (and it is known without the API). */
  readonly pullRequest: { number: number; baseRef: string; baseSha: string; headSha: string } | null;
  /** A workflow_run from a fork carries no pull request: these find it through the API. */
  readonly workflowRunHead: { owner: string; branch: string; sha: string } | null;
  /** The run whose workflow's earlier runs hold the baseline: this run, or the triggering run for workflow_run. */
  readonly producerRunId: number;
  /** The branch a push event pushed to (not a tag's): the branch whose history the run extends. */
  readonly pushedBranch: string | null;
}

type Json = Record<string, unknown>;

const record = (value: unknown): Json => (typeof value === 'object' && value !== null ? (value as Json) : {});

/** Reads the event (its payload, which @actions/github's context read from GITHUB_EVENT_PATH) into what the action uses. */
export function readEvent(context: Pick<ActionContext, 'eventName' | 'payload' | 'runId'>): EventInfo {
  const eventName = context.eventName ?? '';
  const runId = Number.isInteger(context.runId) ? context.runId : 0;
  const body = record(context.payload);
  if (eventName === 'pull_request' || eventName === 'pull_request_target') {
    const pull = record(body.pull_request);
    const base = record(pull.base);
    const head = record(pull.head);
    return {
      eventName,
      pullRequest: { number: Number(pull.number), baseRef: String(base.ref ?? ''), baseSha: String(base.sha ?? ''), headSha: String(head.sha ?? '') },
      workflowRunHead: null,
      producerRunId: runId,
      pushedBranch: null,
    };
  }
  if (eventName === 'workflow_run') {
    const run = record(body.workflow_run);
    const pulls = Array.isArray(run.pull_requests) ? run.pull_requests.map(record) : [];
    const first = pulls[0];
    const headRepository = record(record(run.head_repository).owner);
    return {
      eventName,
      pullRequest:
        first === undefined
          ? null
          : {
              number: Number(first.number),
              baseRef: String(record(first.base).ref ?? ''),
              baseSha: String(record(first.base).sha ?? ''),
              headSha: String(record(first.head).sha ?? run.head_sha ?? ''),
            },
      workflowRunHead: { owner: String(headRepository.login ?? ''), branch: String(run.head_branch ?? ''), sha: String(run.head_sha ?? '') },
      producerRunId: Number(run.id),
      pushedBranch: null,
    };
  }
  const ref = String(body.ref ?? '');
  const pushedBranch = eventName === 'push' && ref.startsWith('refs/heads/') ? ref.slice('refs/heads/'.length) : null;
  return { eventName, pullRequest: null, workflowRunHead: null, producerRunId: runId, pushedBranch };
}

/** The pull request this run reports on: from the event, from a workflow_run's head, or from the `pr-number` input. */
export async function resolvePullRequest(api: GitHubApi, event: EventInfo, prNumber: number | undefined): Promise<PullRequestRef | null> {
  if (prNumber !== undefined) return api.getPullRequest(prNumber);
  if (event.pullRequest !== null) {
    if (event.eventName !== 'workflow_run') return event.pullRequest;
    return api.getPullRequest(event.pullRequest.number);
  }
  if (event.workflowRunHead !== null) {
    const { owner, branch, sha } = event.workflowRunHead;
    return api.findPullRequest(owner, branch, sha);
  }
  return null;
}

/** GitHub's web address: GITHUB_SERVER_URL, a GitHub Enterprise Server's own, or github.com's. */
export function serverUrl(context: Pick<ActionContext, 'serverUrl'>): string {
  return (context.serverUrl || 'https://github.com').replace(/\/+$/, '');
}

/** This workflow run's page on GitHub (GitHub Enterprise Server's, where it runs there). */
export function runUrl(context: ActionContext): string | undefined {
  const { owner, repo } = repository(context);
  if (owner === '' || !Number.isInteger(context.runId) || context.runId <= 0) return undefined;
  return `${serverUrl(context)}/${owner}/${repo}/actions/runs/${context.runId}`;
}

/** The repository the run belongs to (GITHUB_REPOSITORY, else the payload's), or empty names where neither says. */
export function repository(context: Pick<ActionContext, 'repo'>): { owner: string; repo: string } {
  try {
    return context.repo;
  } catch {
    return { owner: '', repo: '' };
  }
}
