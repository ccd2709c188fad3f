import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import type { Settings } from '../../core/catalog/settings.js';
import type { Note, Report, ReportPlace } from '../../pipeline/report.js';
import { commentMarker, type CommentResult, upsertComment } from './comment.js';
import { type EventInfo, runUrl } from './event.js';
import { type GitHubApi, httpStatus, type PullRequestRef } from './github.js';
import { setOutputs } from './outputs.js';
import type { ActionRuntime } from './runtime.js';

const FORK_HINT =
  'the token cannot write to this pull request (a pull request from a fork gets a read-only token). The summary, outputs and gate still apply; to get the comment, use the workflow_run recipe ("Pull requests from forks") in the rag-gate README.';

const errorMessage = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * Prints a report made of users' text to the log with workflow commands switched off around it, so that no line
 * of it (an id such as `::set-output …`) is ever run by the runner.
 */
export function logUntrusted(runtime: ActionRuntime, text: string): void {
  const token = randomUUID();
  runtime.info(`::stop-commands::${token}`);
  runtime.info(text);
  runtime.info(`::${token}::`);
}

/** A note in the job log: a warning, our own line, or users' text with workflow commands off. */
export function logNote(runtime: ActionRuntime, note: Note): void {
  if (note.kind === 'warning') runtime.warning(note.text, note.title);
  else if (note.kind === 'info') runtime.info(note.text);
  else logUntrusted(runtime, note.text);
}

/** The report's notes, then the report itself, in the job log. */
export function logReport(runtime: ActionRuntime, report: Report): void {
  for (const note of report.notes) logNote(runtime, note);
  logUntrusted(runtime, report.text);
}

/** GitHub's job summary takes at most 1 MiB. */
const SUMMARY_MAX_BYTES = 1024 * 1024;

/** Where the report goes: its files, the pull request's sticky comment (when one is written), and the run's kind. */
export interface Publication {
  readonly reportDir: string;
  /** The render options that say where the report is: the comment's markers, the report-json output, the run. */
  readonly place: ReportPlace & { readonly marker: string };
  /** The pull request to comment on; null: no comment (a push, comment: never, or no pull request). */
  readonly commentOn: PullRequestRef | null;
  readonly onlyIfChanged: boolean;
  /** On a push, the run history written, which the push's outputs name. */
  readonly history: string | null;
}

/** Where this run publishes: under RUNNER_TEMP, on the pull request unless comments are off or this is a push. */
export function publication(
  runtime: ActionRuntime,
  settings: Settings,
  run: { reportDir: string; event: EventInfo; pullRequest: PullRequestRef | null; stateMarkers?: readonly string[]; pushed: boolean },
): Publication {
  return {
    reportDir: run.reportDir,
    place: {
      marker: commentMarker(settings['comment-tag']),
      stateMarkers: run.stateMarkers,
      reportLink: 'the `report-json` output',
      runUrl: runUrl(runtime.context),
      summaryMaxBytes: SUMMARY_MAX_BYTES,
    },
    commentOn: settings.comment !== 'never' && run.event.eventName !== 'push' ? run.pullRequest : null,
    onlyIfChanged: settings.comment === 'on-change',
    history: run.pushed ? settings.history : null,
  };
}

/** Writes the report's files and the job summary, upserts the sticky comment, and sets every output. */
export async function publishReport(runtime: ActionRuntime, api: GitHubApi, report: Report, where: Publication): Promise<void> {
  const jsonFile = join(where.reportDir, 'report.json');
  const markdownFile = join(where.reportDir, 'comment.md');
  await runtime.writeReport(jsonFile, report.json);
  await runtime.writeReport(markdownFile, report.comment);
  await runtime.writeSummary(report.summary).catch((error: unknown) => runtime.warning(`could not write the job summary: ${errorMessage(error)}`));

  let posted: CommentResult = { action: 'skipped', url: null };
  const pullRequest = where.commentOn;
  if (pullRequest !== null) {
    try {
      posted = await upsertComment(api, pullRequest.number, where.place.marker, report.comment, {
        onlyIfChanged: where.onlyIfChanged,
        hasNews: report.hasNews,
      });
      if (posted.url !== null) runtime.info(`PR comment ${posted.action}: ${posted.url}`);
    } catch (error) {
      const why = httpStatus(error) === 403 ? FORK_HINT : `the GitHub API failed (${errorMessage(error)}); the verdict below still stands.`;
      runtime.warning(`rag-gate could not comment on pull request #${pullRequest.number}: ${why}`, 'rag-gate: no PR comment');
    }
  }
  const outputs = { ...report.outputs, 'report-json': jsonFile, 'report-markdown': markdownFile };
  if (where.history === null) setOutputs(runtime, 'gate', { ...outputs, 'comment-url': posted.url ?? '' });
  else setOutputs(runtime, 'push', { ...outputs, history: where.history });
}
