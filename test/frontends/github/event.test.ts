import { describe, expect, it } from 'vitest';
import { readEvent } from '../../../src/frontends/github/event.js';
import type { ActionContext } from '../../../src/frontends/github/runtime.js';
import { BASE_SHA, HEAD_SHA, pullRequestPayload } from './fakes.js';

/** readEvent on a context as @actions/github reads it: the event's name, its payload, the run's id. */
const read = (eventName: string, payload: unknown, runId: number) => readEvent({ eventName, payload: payload as ActionContext['payload'], runId });

describe('readEvent', () => {
  it.each(['pull_request', 'pull_request_target'])('reads the pull request of a %s event', (eventName) => {
    expect(read(eventName, pullRequestPayload(42), 5000)).toEqual({
      eventName,
      pullRequest: { number: 42, baseRef: 'main', baseSha: BASE_SHA, headSha: HEAD_SHA },
      workflowRunHead: null,
      producerRunId: 5000,
      pushedBranch: null,
    });
  });

  const workflowRun = (pullRequests: object[]) => ({
    action: 'completed',
    workflow_run: {
      id: 4321,
      head_branch: 'feature',
      head_sha: HEAD_SHA,
      head_repository: { full_name: 'fork-owner/shop', owner: { login: 'fork-owner' } },
      pull_requests: pullRequests,
    },
  });

  it('reads a workflow_run with pull_requests: the first one, and the triggering run as the producer', () => {
    const event = read('workflow_run', workflowRun([{ number: 7, base: { ref: 'main', sha: BASE_SHA }, head: { ref: 'feature', sha: HEAD_SHA } }]), 5000);
    expect(event).toEqual({
      eventName: 'workflow_run',
      pullRequest: { number: 7, baseRef: 'main', baseSha: BASE_SHA, headSha: HEAD_SHA },
      workflowRunHead: { owner: 'fork-owner', branch: 'feature', sha: HEAD_SHA },
      producerRunId: 4321,
      pushedBranch: null,
    });
  });

  it('reads a workflow_run without pull_requests (a fork): no pull request, but the head to find it by', () => {
    const event = read('workflow_run', workflowRun([]), 5000);
    expect(event).toEqual({
      eventName: 'workflow_run',
      pullRequest: null,
      workflowRunHead: { owner: 'fork-owner', branch: 'feature', sha: HEAD_SHA },
      producerRunId: 4321,
      pushedBranch: null,
    });
  });

  it("reads a push: no pull request, this run is the producer, the pushed branch is the history's", () => {
    const push = { ref: 'refs/heads/release/2.x', before: BASE_SHA, after: HEAD_SHA, repository: { full_name: 'octo/shop' } };
    expect(read('push', push, 5000)).toEqual({
      eventName: 'push',
      pullRequest: null,
      workflowRunHead: null,
      producerRunId: 5000,
      pushedBranch: 'release/2.x',
    });
  });

  it('a pushed tag is no branch: it keeps no history', () => {
    expect(read('push', { ref: 'refs/tags/v1.2.0' }, 5000).pushedBranch).toBeNull();
  });

  it('survives an empty payload', () => {
    expect(read('workflow_dispatch', { ref: 'refs/heads/main' }, 1)).toEqual({
      eventName: 'workflow_dispatch',
      pullRequest: null,
      workflowRunHead: null,
      producerRunId: 1,
      pushedBranch: null,
    });
    expect(read('workflow_run', null, 1).pullRequest).toBeNull();
  });
});
