import { access } from 'node:fs/promises';
import { basename } from 'node:path';
import { InputError, SettingError } from '../../core/errors.js';
import { appendRun, EMPTY_HISTORY, type History, historyEntry } from '../../core/history/history.js';
import type { RunSummary } from '../../core/scoring/summary.js';
import type { Settings } from '../../core/catalog/settings.js';
import { type HistorySource, historySourceNote, historyWrittenText } from '../../pipeline/history.js';
import { historyJson, parseHistory, readHistory } from '../../sources/history.js';
import { writeFileAtomic } from '../../sources/write.js';
import { type ArtifactHistory, type BaselineFound, historyInArtifact } from './baseline.js';
import type { EventInfo } from './event.js';
import { apiFailure, type GitHubApi, httpStatus } from './github.js';
import { logNote } from './publish.js';
import type { ActionRuntime } from './runtime.js';
import { zipEntries } from './zip.js';

/**
 * The base branch's history in the action. On push: the history of the newest baseline artifact on the pushed
 * branch (or the `history` file, when the workflow restored it) with this run appended, written to the `history`
 * file for the workflow's one upload step to put beside the results. On a pull request: the history the baseline
 * artifact carries (or the `history` file), for the comment's trend. The history informs and never gates: a lost
 * one warns and restarts; only a bad `history` file the workflow gave is bad input.
 */

/** GitHub keeps an artifact at most 400 days, so no older run can hold a history. */
const LOOKBACK_DAYS = 400;

/** Candidate runs searched for the artifact, as for the baseline. */
const RUNS_SEARCHED = 10;

const errorMessage = (error: unknown) => (error instanceof Error ? error.message : String(error));

async function exists(file: string): Promise<boolean> {
  return access(file).then(
    () => true,
    () => false,
  );
}

function note(runtime: ActionRuntime, source: HistorySource, on: 'push' | 'pull-request'): void {
  logNote(runtime, historySourceNote(source, on));
}

/** The history of an artifact's entry, or why it cannot be read (not UTF-8, not JSON, not a history). */
function readArtifactHistory(found: ArtifactHistory, artifact: string): { history: History } | { problem: string } {
  if ('problem' in found) return { problem: found.problem };
  try {
    const text = new TextDecoder('utf-8', { fatal: true }).decode(found.content);
    return { history: parseHistory(text, `${artifact}/${found.entry}`) };
  } catch (error) {
    return { problem: error instanceof InputError ? error.message : `not UTF-8 text (${errorMessage(error)})` };
  }
}

export interface PushSearch {
  readonly api: GitHubApi;
  readonly branch: string;
  /** This run: its workflow's earlier push runs hold the artifact. */
  readonly producerRunId: number;
  /** owner/name: only runs of this repository count. */
  readonly repository: string;
  readonly artifactName: string;
  readonly now: Date;
}

/** The history a push run continues, and where it came from. */
async function lookUpPrevious(file: string, search: PushSearch): Promise<{ history: History; source: HistorySource }> {
  const { api, artifactName: artifact, branch } = search;
  const restart = (source: HistorySource) => ({ history: EMPTY_HISTORY, source });
  try {
    const workflowId = await api.getWorkflowId(search.producerRunId);
    const since = new Date(search.now.getTime() - LOOKBACK_DAYS * 86_400_000);
    const runs = (await api.listSuccessfulPushRuns(workflowId, branch, since))
      .filter((run) => run.headRepository === search.repository)
      .sort((a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt))
      .slice(0, RUNS_SEARCHED);
    for (const run of runs) {
      const found = await api.findArtifact(run.id, artifact);
      if (found === null) continue;
      const zip = await api.downloadArtifact(found.id).catch((error: unknown) => {
        // Expired or deleted since it was listed: as good as never uploaded.
        if (httpStatus(error) === 404 || httpStatus(error) === 410) return null;
        throw error;
      });
      if (zip === null) continue;
      const runLink = { id: run.id, url: run.url };
      let entry: ArtifactHistory | null;
      try {
        entry = historyInArtifact(zip, zipEntries(zip), basename(file));
      } catch (error) {
        return restart({
          kind: 'unreadable',
          artifact,
          run: runLink,
          entry: basename(file),
          detail: `the artifact is not a zip rag-gate will unpack (${errorMessage(error)})`,
        });
      }
      if (entry === null) return restart({ kind: 'no-history', artifact, run: runLink, file: basename(file) });
      const read = readArtifactHistory(entry, artifact);
      if ('problem' in read) return restart({ kind: 'unreadable', artifact, run: runLink, entry: entry.entry, detail: read.problem });
      return { history: read.history, source: { kind: 'artifact', artifact, run: runLink, entry: entry.entry, runs: read.history.runs.length } };
    }
    return restart({ kind: 'no-artifact', artifact, branch, days: LOOKBACK_DAYS });
  } catch (error) {
    return restart({ kind: 'lookup-failed', artifact, branch, forbidden: apiFailure(error).kind === 'forbidden', detail: errorMessage(error) });
  }
}

/**
 * The previous history of a push run: the `history` file when it exists (a bad one is bad input), else the newest
 * baseline artifact's. Read before anything is evaluated, so that bad input stops the run first.
 */
export async function previousHistory(runtime: ActionRuntime, file: string, search: PushSearch): Promise<History> {
  if (await exists(file)) {
    const history = await readHistory(file);
    note(runtime, { kind: 'file', file, runs: history.runs.length }, 'push');
    return history;
  }
  const { history, source } = await lookUpPrevious(file, search);
  note(runtime, source, 'push');
  return history;
}

/** Appends this run to the history, bounded, and writes it whole to `file`; returns the history written. */
export async function recordRun(file: string, previous: History, summary: RunSummary, commit: string, now: Date): Promise<History> {
  const history = appendRun(previous, historyEntry(summary, commit, now.toISOString()));
  await writeFileAtomic(file, historyJson(history));
  return history;
}

/**
 * The history a pull request's comment charts: the `history` file when it exists (a bad one is bad input), else
 * the one in the baseline artifact; null when there is none or it cannot be read (a warning: the comment goes
 * without the trend).
 */
export async function pullRequestHistory(runtime: ActionRuntime, file: string, baseline: BaselineFound | null): Promise<History | null> {
  if (await exists(file)) {
    const history = await readHistory(file);
    note(runtime, { kind: 'file', file, runs: history.runs.length }, 'pull-request');
    return history;
  }
  const artifact = baseline?.artifact;
  if (artifact === undefined) return null;
  if (artifact.history === null) {
    note(runtime, { kind: 'no-history', artifact: artifact.name, run: artifact.run, file: basename(file) }, 'pull-request');
    return null;
  }
  const read = readArtifactHistory(artifact.history, artifact.name);
  if ('problem' in read) {
    note(runtime, { kind: 'unreadable', artifact: artifact.name, run: artifact.run, entry: artifact.history.entry, detail: read.problem }, 'pull-request');
    return null;
  }
  note(
    runtime,
    { kind: 'artifact', artifact: artifact.name, run: artifact.run, entry: artifact.history.entry, runs: read.history.runs.length },
    'pull-request',
  );
  return read.history;
}

/** The pushed commit, which the runner names in GITHUB_SHA: the history's entries are keyed by it. */
function pushedCommit(context: ActionRuntime['context']): string {
  const sha = context.sha ?? '';
  if (!/^[0-9a-f]{40}([0-9a-f]{24})?$/.test(sha))
    throw new Error(
      `GITHUB_SHA is ${sha === '' ? 'not set' : `"${sha}", not a commit`}: a push run keys its history entry by the pushed commit, which the runner sets there`,
    );
  return sha;
}

/** The history travels in the baseline artifact beside the results, so it cannot share a results file's name. */
export function checkHistoryName(history: string, results: readonly string[]): void {
  if (results.some((file) => basename(file) === basename(history)))
    throw new SettingError(`input "history": ${history} has the name of a results file; the baseline artifact holds both, so give the history another name`);
}

/** A push run's place in the history: the pushed commit, and the history it extends. */
export interface Push {
  readonly commit: string;
  readonly previous: History;
}

/**
 * On a push to a branch, the history this run extends: read before anything is judged or evaluated, so that a bad
 * history file stops the run first. Null on any other event.
 */
export async function pushHistory(runtime: ActionRuntime, api: GitHubApi, settings: Settings, event: EventInfo, repository: string): Promise<Push | null> {
  if (event.pushedBranch === null) return null;
  return {
    commit: pushedCommit(runtime.context),
    previous: await previousHistory(runtime, settings.history, {
      api,
      branch: event.pushedBranch,
      producerRunId: event.producerRunId,
      repository,
      artifactName: settings['baseline-artifact'],
      now: runtime.now(),
    }),
  };
}

/** Adds this push run to the history and says where it was written. */
export async function recordPush(runtime: ActionRuntime, push: Push, settings: Settings, head: RunSummary): Promise<void> {
  const history = await recordRun(settings.history, push.previous, head, push.commit, runtime.now());
  runtime.info(historyWrittenText(settings.history, history.runs.length, settings['baseline-artifact']));
}
