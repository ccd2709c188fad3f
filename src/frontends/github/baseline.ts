import { mkdir, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { unzipSync } from 'fflate';
import type { GitHubApi, PullRequestRef, WorkflowRun } from './github.js';

/** Where the base results came from, for the comment and the `baseline-sha` output. */
export interface BaselineFound {
  readonly found: true;
  readonly files: readonly string[];
  /** The base commit the results belong to, when known. */
  readonly sha: string | null;
  /** One line for the comment; `backtick` spans render as code. */
  readonly description: string;
}

export interface BaselineMissing {
  readonly found: false;
  /** Why not, in a sentence for the comment. */
  readonly reason: string;
}

export type Baseline = BaselineFound | BaselineMissing;

export interface ArtifactSearch {
  readonly api: GitHubApi;
  readonly pullRequest: PullRequestRef;
  /** The run whose workflow produces the baseline (this run, or the triggering run for workflow_run). */
  readonly producerRunId: number;
  /** owner/name: runs from any other repository (forks) are never trusted as a baseline. */
  readonly repository: string;
  readonly artifactName: string;
  readonly maxAgeDays: number;
  /** Base names of the head results files: a same-named file in the artifact is preferred. */
  readonly resultNames: readonly string[];
  readonly directory: string;
  readonly now: Date;
}

/** How many candidate runs are searched for the artifact before giving up. */
const RUNS_SEARCHED = 10;

const RESULTS_FILE = /\.(jsonl|ndjson|json)$/i;

/** The most an artifact's results files may inflate to: an artifact is untrusted, and a zip bomb must not sink the job. */
const MAX_INFLATED_BYTES = 2 * 1024 ** 3;

function age(createdAt: string, now: Date): string {
  const hours = Math.max(0, (now.getTime() - Date.parse(createdAt)) / 3_600_000);
  if (hours < 1) return 'less than an hour old';
  if (hours < 48) return `${Math.round(hours)} hour${Math.round(hours) === 1 ? '' : 's'} old`;
  return `${Math.round(hours / 24)} days old`;
}

/**
 * The results files inside an artifact: those named like the head results if any, otherwise every JSON or JSON
 * Lines file (the shards of one run). Entry paths are never used as paths (zip-slip): files are written flat
 * under `directory` with their base names. Other entries are never inflated, and results past 2 GiB are refused.
 */
async function extractResults(zip: Uint8Array, resultNames: readonly string[], directory: string): Promise<string[]> {
  let declared = 0;
  const filter = (file: { name: string; originalSize: number }) => {
    if (file.name.endsWith('/') || !RESULTS_FILE.test(file.name)) return false;
    declared += file.originalSize;
    if (declared > MAX_INFLATED_BYTES) throw new Error(`its results files would inflate to more than ${MAX_INFLATED_BYTES / 1024 ** 3} GiB`);
    return true;
  };
  const entries = Object.entries(unzipSync(zip, { filter }));
  const named = entries.filter(([name]) => resultNames.includes(basename(name)));
  const chosen = (named.length > 0 ? named : entries).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  await mkdir(directory, { recursive: true });
  const files: string[] = [];
  for (const [index, [name, content]] of chosen.entries()) {
    const file = join(directory, `${index}-${basename(name).replace(/[^\w.-]/g, '_')}`);
    await writeFile(file, content);
    files.push(file);
  }
  return files;
}

function orderCandidates(runs: readonly WorkflowRun[], mergeBase: string | null): WorkflowRun[] {
  const newestFirst = [...runs].sort((a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt));
  if (mergeBase === null) return newestFirst;
  return [...newestFirst.filter((run) => run.headSha === mergeBase), ...newestFirst.filter((run) => run.headSha !== mergeBase)];
}

/**
 * Finds the base branch's results: the newest successful `push` run of the same workflow on the base branch, in
 * this repository, no older than `maxAgeDays`, preferring a run at the merge-base commit; downloads its artifact
 * and extracts the results. A missing baseline is an answer (with its reason), never an error.
 */
export async function findArtifactBaseline(search: ArtifactSearch): Promise<Baseline> {
  const { api, pullRequest } = search;
  const since = new Date(search.now.getTime() - search.maxAgeDays * 86_400_000);
  const workflowId = await api.getWorkflowId(search.producerRunId);
  const runs = (await api.listSuccessfulPushRuns(workflowId, pullRequest.baseRef, since)).filter(
    (run) => run.headRepository === search.repository && Date.parse(run.createdAt) >= since.getTime(),
  );
  if (runs.length === 0) {
    return { found: false, reason: `no successful push run of this workflow on \`${pullRequest.baseRef}\` in the last ${search.maxAgeDays} days` };
  }
  const mergeBase = await api.mergeBase(pullRequest.baseSha, pullRequest.headSha).catch(() => null);
  for (const run of orderCandidates(runs, mergeBase).slice(0, RUNS_SEARCHED)) {
    const artifact = await api.findArtifact(run.id, search.artifactName);
    if (artifact === null) continue;
    const files = await extractResults(await api.downloadArtifact(artifact.id), search.resultNames, search.directory);
    if (files.length === 0) continue;
    const where = run.headSha === mergeBase ? ' (the merge-base)' : '';
    return {
      found: true,
      files,
      sha: run.headSha,
      description: `\`${pullRequest.baseRef}\` at \`${run.headSha.slice(0, 7)}\`${where}, results from run ${run.runNumber}, ${age(run.createdAt, search.now)}`,
    };
  }
  return {
    found: false,
    reason: `no recent push run on \`${pullRequest.baseRef}\` has an unexpired artifact \`${search.artifactName}\` holding results (first run, or the artifact expired)`,
  };
}
