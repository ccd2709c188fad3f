import type { context } from '@actions/github';
import type { GitHubApi } from './github.js';
import type { InputName } from './inputs.js';

/** Everything the action touches outside the pure core, so tests can run it without a runner or GitHub. */
export interface ActionRuntime {
  getInput(name: InputName): string;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** The run's context as @actions/github reads it from the runner's variables and GITHUB_EVENT_PATH. */
  readonly context: ActionContext;
  createApi(options: { token: string; owner: string; repo: string; timeoutMs: number }): GitHubApi;
  info(message: string): void;
  warning(message: string, title?: string): void;
  setOutput(name: string, value: string): void;
  setFailed(message: string): void;
  writeSummary(markdown: string): Promise<void>;
  /** Writes a report file (report.json, comment.md under RUNNER_TEMP) whole or not at all. */
  writeReport(file: string, text: string): Promise<void>;
  now(): Date;
  /** The bundled entry file, to start reader threads from; without it both runs are read on this thread. */
  readonly readerEntry?: URL;
}

/**
 * What the action reads of @actions/github's `context`: the event and its payload, the run (its id, workflow,
 * actor and commit), the repository, and GitHub's web address (GITHUB_SERVER_URL, a GitHub Enterprise Server's
 * own) for the links it writes.
 */
export type ActionContext = Pick<typeof context, 'eventName' | 'payload' | 'runId' | 'workflow' | 'actor' | 'sha' | 'repo' | 'serverUrl'>;
