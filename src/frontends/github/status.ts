import type { EventInfo } from './event.js';
import { apiFailure, type CommitStatus, type GitHubApi, type PullRequestRef } from './github.js';
import type { ActionRuntime } from './runtime.js';

const STATUS_PERMISSION_HINT =
  'the token may not write commit statuses: add `statuses: write` under `permissions:` in the workflow (or job) that runs rag-gate';

const errorMessage = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** Where this run's commit status goes, when it sets one. */
export interface StatusTarget {
  readonly sha: string;
  readonly context: string;
  readonly targetUrl: string;
}

/**
 * The commit to set a status on: only when this job's own check is not on the pull request's head (workflow_run
 * and other events that are not pull_request), and then on the commit whose results these are: a workflow_run's
 * head, not the pull request's newest commit, which may not have been measured yet.
 */
export function statusTarget(event: EventInfo, pullRequest: PullRequestRef | null, tag: string, runUrl: string | undefined): StatusTarget | null {
  if (event.eventName === 'pull_request' || pullRequest === null || runUrl === undefined) return null;
  return {
    sha: event.workflowRunHead?.sha || pullRequest.headSha,
    context: `rag-gate/${tag}`,
    targetUrl: runUrl,
  };
}

/** Sets the commit status; a failure only warns, since the job's own check still carries the verdict. */
export async function setCommitStatus(
  runtime: ActionRuntime,
  api: GitHubApi,
  target: StatusTarget | null,
  state: CommitStatus['state'],
  description: string,
): Promise<void> {
  if (target === null) return;
  try {
    await api.createCommitStatus(target.sha, { state, context: target.context, description, targetUrl: target.targetUrl });
    runtime.info(`commit status ${target.context}: ${state} on ${target.sha}`);
  } catch (error) {
    const why = apiFailure(error).kind === 'forbidden' ? STATUS_PERMISSION_HINT : `the GitHub API failed (${errorMessage(error)})`;
    runtime.warning(
      `rag-gate could not set the commit status ${target.context} on ${target.sha.slice(0, 7)}: ${why}. The verdict below still stands.`,
      'rag-gate: no commit status',
    );
  }
}
