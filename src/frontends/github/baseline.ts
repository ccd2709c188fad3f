import { mkdir, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { SettingOrigin, Settings } from '../../core/catalog/settings.js';
import { InputError } from '../../core/errors.js';
import { resultFiles } from '../../pipeline/files.js';
import {
  artifactBaseDescription,
  type BaselineProblem,
  givenBaseDescription,
  heldFilesText,
  noArtifactReason,
  noPushRunReason,
} from '../../pipeline/baseline-words.js';
import { type EventInfo, serverUrl } from './event.js';
import { apiFailure, type GitHubApi, httpStatus, type PullRequestRef, type WorkflowRun } from './github.js';
import type { ActionRuntime } from './runtime.js';
import { inflateEntry, type ZipEntry, zipEntries } from './zip.js';

export interface RunRef {
  readonly id: number;
  readonly url: string;
}

/** Where the base results came from, for the comment and the `baseline-sha` output. */
export interface BaselineFound {
  readonly kind: 'found';
  readonly files: readonly string[];
  /** The base commit the results belong to, when known. */
  readonly sha: string | null;
  /** One line for the comment; `backtick` spans render as code. */
  readonly description: string;
  /** The artifact the files came from (not for `baseline` files), to name it should they fail validation. */
  readonly artifact?: {
    readonly name: string;
    readonly run: RunRef;
    readonly baseRef: string;
    readonly entries: ReadonlyMap<string, string>;
    /** The history file the push run uploaded beside the results, if any. */
    readonly history: ArtifactHistory | null;
  };
}

/** The history file found in an artifact: its bytes, or why they could not be taken out of the zip. */
export type ArtifactHistory = { readonly entry: string; readonly content: Uint8Array } | { readonly entry: string; readonly problem: string };

/** A pull request whose base branch has no results yet: neutral unless on-missing-baseline is fail. */
export interface BaselineAbsent {
  readonly kind: 'absent';
  /** Why not, in a sentence for the comment. */
  readonly reason: string;
}

/** An event without a pull request (a push): there is nothing to compare with, and nothing to gate. */
export interface BaselineNotApplicable {
  readonly kind: 'no-base-branch';
  readonly reason: string;
}

/** Base results that exist but could not be read: the check fails unless on-baseline-error is pass. */
export interface BaselineBroken {
  readonly kind: 'broken';
  readonly problem: BaselineProblem;
}

export type Baseline = BaselineFound | BaselineAbsent | BaselineNotApplicable | BaselineBroken;

export interface ArtifactSearch {
  readonly api: GitHubApi;
  readonly pullRequest: PullRequestRef;
  /** The run whose workflow produces the baseline (this run, or the triggering run for workflow_run). */
  readonly producerRunId: number;
  /** owner/name: runs from any other repository (forks) are never trusted as a baseline. */
  readonly repository: string;
  /** GitHub's web address (GITHUB_SERVER_URL), for the producer run's URL. */
  readonly serverUrl: string;
  readonly artifactName: string;
  readonly maxAgeDays: number;
  /** Base names of the head results files: a same-named file in the artifact is preferred. */
  readonly resultNames: readonly string[];
  /** Base name of the history file, which is never read as results. */
  readonly historyName: string;
  readonly directory: string;
  readonly now: Date;
}

/** How many candidate runs are searched for the artifact before giving up. */
const RUNS_SEARCHED = 10;

const RESULTS_FILE = /\.(jsonl|ndjson|json)$/i;

/** The most an artifact's results files may inflate to: an artifact is untrusted, and a zip bomb must not sink the job. */
const MAX_INFLATED_BYTES = 2 * 1024 ** 3;

/** A history of at most 100 runs is far smaller; past this it is not a history. */
const MAX_HISTORY_BYTES = 64 * 1024 ** 2;

/**
 * The history file in an artifact's entries: the first file entry with base name `name`, inflated, or the problem
 * that kept it in the zip. Null when the artifact has none.
 */
export function historyInArtifact(zip: Uint8Array, entries: readonly ZipEntry[], name: string): ArtifactHistory | null {
  const entry = entries.find((candidate) => !candidate.name.endsWith('/') && basename(candidate.name) === name);
  if (entry === undefined) return null;
  if (entry.originalSize > MAX_HISTORY_BYTES) return { entry: entry.name, problem: `it would inflate to more than ${MAX_HISTORY_BYTES / 1024 ** 2} MiB` };
  try {
    return { entry: entry.name, content: inflateEntry(zip, entry) };
  } catch (error) {
    return { entry: entry.name, problem: errorMessage(error) };
  }
}

/** A step of the lookup failed: the lookup is broken, not merely without a result. */
class LookupBroken extends Error {
  constructor(readonly problem: BaselineProblem) {
    super(problem.detail);
  }
}

/** An artifact that is not a zip rag-gate will unpack. */
class UnpackError extends Error {}

const errorMessage = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * The results files inside an artifact, each with its entry name: those named like the head results if any,
 * otherwise every JSON or JSON Lines file (the shards of one run) but the history file, which is taken apart.
 * Entry paths are never used as paths (zip-slip): files are written flat under `directory` with their base names.
 * Other entries are never inflated; results past 2 GiB, and an entry whose data does not match its declared size or
 * CRC-32, are refused (UnpackError).
 */
async function extractResults(
  zip: Uint8Array,
  names: { readonly results: readonly string[]; readonly history: string },
  directory: string,
): Promise<{ files: Map<string, string>; history: ArtifactHistory | null; held: string[] }> {
  let all: ZipEntry[];
  try {
    all = zipEntries(zip);
  } catch (error) {
    throw new UnpackError(errorMessage(error));
  }
  const resultNames = names.results;
  const results = all.filter((entry) => !entry.name.endsWith('/') && RESULTS_FILE.test(entry.name) && basename(entry.name) !== names.history);
  const declared = results.reduce((sum, entry) => sum + entry.originalSize, 0);
  if (declared > MAX_INFLATED_BYTES) throw new UnpackError(`its results files would inflate to more than ${MAX_INFLATED_BYTES / 1024 ** 3} GiB`);
  const named = results.filter((entry) => resultNames.includes(basename(entry.name)));
  const chosen = (named.length > 0 ? named : results).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  await mkdir(directory, { recursive: true });
  const files = new Map<string, string>();
  for (const [index, entry] of chosen.entries()) {
    let content: Uint8Array;
    try {
      content = inflateEntry(zip, entry);
    } catch (error) {
      throw new UnpackError(errorMessage(error));
    }
    const file = join(directory, `${index}-${basename(entry.name).replace(/[^\w.-]/g, '_')}`);
    await writeFile(file, content);
    files.set(file, entry.name);
  }
  const held = all.filter((entry) => !entry.name.endsWith('/')).map((entry) => entry.name);
  return { files, history: historyInArtifact(zip, all, names.history), held };
}

function orderCandidates(runs: readonly WorkflowRun[], mergeBase: string | null): WorkflowRun[] {
  const newestFirst = [...runs].sort((a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt));
  if (mergeBase === null) return newestFirst;
  return [...newestFirst.filter((run) => run.headSha === mergeBase), ...newestFirst.filter((run) => run.headSha !== mergeBase)];
}

/**
 * Finds the base branch's results: the newest successful `push` run of the same workflow on the base branch, in
 * this repository, no older than `maxAgeDays`, preferring a run at the merge-base commit; downloads its artifact
 * and extracts the results. No such run or artifact is `absent`, with its reason; a lookup that fails (GitHub
 * refuses or fails after the retries, an artifact that will not unpack or holds no results file) is `broken`, with
 * its problem.
 */
export async function findArtifactBaseline(search: ArtifactSearch): Promise<Baseline> {
  try {
    return await lookUp(search);
  } catch (error) {
    if (error instanceof LookupBroken) return { kind: 'broken', problem: error.problem };
    throw error;
  }
}

async function lookUp(search: ArtifactSearch): Promise<BaselineFound | BaselineAbsent> {
  const { api, pullRequest } = search;
  const problemAt = (step: BaselineProblem['step'], run: RunRef) => ({ step, run, artifact: search.artifactName, baseRef: pullRequest.baseRef });
  /** One API call of the lookup; its failure breaks the lookup, named by step and run. */
  const call = async <T>(step: BaselineProblem['step'], run: RunRef, request: () => Promise<T>): Promise<T> => {
    try {
      return await request();
    } catch (error) {
      const failure = apiFailure(error);
      const where = { ...problemAt(step, run), detail: errorMessage(error) };
      throw new LookupBroken(
        failure.kind === 'timeout'
          ? { ...where, kind: 'timeout', timeoutSeconds: failure.timeoutMs / 1000 }
          : { ...where, kind: failure.kind === 'forbidden' ? 'forbidden' : 'api-failed', status: failure.status },
      );
    }
  };

  const producer = { id: search.producerRunId, url: `${search.serverUrl}/${search.repository}/actions/runs/${search.producerRunId}` };
  const since = new Date(search.now.getTime() - search.maxAgeDays * 86_400_000);
  const workflowId = await call('find-workflow', producer, () => api.getWorkflowId(producer.id));
  const runs = (await call('list-runs', producer, () => api.listSuccessfulPushRuns(workflowId, pullRequest.baseRef, since))).filter(
    (run) => run.headRepository === search.repository && Date.parse(run.createdAt) >= since.getTime(),
  );
  if (runs.length === 0) {
    return {
      kind: 'absent',
      reason: noPushRunReason(pullRequest.baseRef, search.maxAgeDays),
    };
  }
  // Only a preference among the runs: without it the newest run serves.
  const mergeBase = await api.mergeBase(pullRequest.baseSha, pullRequest.headSha).catch(() => null);
  for (const run of orderCandidates(runs, mergeBase).slice(0, RUNS_SEARCHED)) {
    const runRef = { id: run.id, url: run.url };
    const artifact = await call('list-artifacts', runRef, () => api.findArtifact(run.id, search.artifactName));
    if (artifact === null) continue;
    const zip = await call('download', runRef, () =>
      api.downloadArtifact(artifact.id).catch((error: unknown) => {
        // Expired or deleted since it was listed: as good as never uploaded.
        if (httpStatus(error) === 404 || httpStatus(error) === 410) return null;
        throw error;
      }),
    );
    if (zip === null) continue;
    const unpacked = await extractResults(zip, { results: search.resultNames, history: search.historyName }, search.directory).catch((error: unknown) => {
      if (error instanceof UnpackError) throw new LookupBroken({ ...problemAt('unpack', runRef), kind: 'corrupt-artifact', detail: error.message });
      throw error;
    });
    const { files: entries, history } = unpacked;
    // The base branch uploads its results under this name: without them, something is wrong with its workflow, and
    // an older run's results would be compared in silence.
    if (entries.size === 0) throw new LookupBroken({ ...problemAt('unpack', runRef), kind: 'no-results-file', detail: heldFilesText(unpacked.held) });
    return {
      kind: 'found',
      files: [...entries.keys()],
      sha: run.headSha,
      description: artifactBaseDescription(pullRequest.baseRef, run, run.headSha === mergeBase, search.now),
      artifact: { name: search.artifactName, run: runRef, baseRef: pullRequest.baseRef, entries, history },
    };
  }
  return {
    kind: 'absent',
    reason: noArtifactReason(pullRequest.baseRef, search.artifactName),
  };
}

/**
 * Base results from an artifact that failed validation, as a broken baseline naming the artifact, its run and
 * each problem by its file's name in the artifact. Null when the error is not about the artifact's files: bad
 * head results, and `baseline` files, are the workflow's own bad input.
 */
export function invalidArtifactResults(baseline: BaselineFound, error: unknown): BaselineBroken | null {
  const { artifact } = baseline;
  if (artifact === undefined || !(error instanceof InputError)) return null;
  const problems = error.problems.flatMap((problem) => {
    const entry = artifact.entries.get(problem.file);
    return entry === undefined ? [] : [{ ...problem, file: `${artifact.name}/${entry}` }];
  });
  if (problems.length === 0) return null;
  return {
    kind: 'broken',
    problem: {
      kind: 'invalid-results',
      step: 'read-results',
      run: artifact.run,
      artifact: artifact.name,
      baseRef: artifact.baseRef,
      detail: new InputError(problems).message,
    },
  };
}

/** The base results: the `baseline` files when given, else the base branch's artifact, else why there are none. */
export async function findBaseline(
  runtime: ActionRuntime,
  settings: Settings,
  baselineOrigin: SettingOrigin,
  context: {
    api: GitHubApi;
    pullRequest: PullRequestRef | null;
    event: EventInfo;
    /** owner/name */
    repository: string;
    headInputs: readonly string[];
    reportDir: string;
  },
): Promise<Baseline> {
  const { api, pullRequest, event, repository } = context;
  if (settings.baseline !== undefined) {
    return {
      kind: 'found',
      files: await resultFiles(settings.baseline, 'baseline', baselineOrigin),
      sha: null,
      description: givenBaseDescription(settings.baseline),
    };
  }
  if (pullRequest === null) return { kind: 'no-base-branch', reason: `a ${event.eventName || 'non-pull-request'} event has no base branch to compare with` };
  return findArtifactBaseline({
    api,
    pullRequest,
    producerRunId: event.producerRunId,
    repository,
    serverUrl: serverUrl(runtime.context),
    artifactName: settings['baseline-artifact'],
    maxAgeDays: settings['baseline-max-age-days'],
    resultNames: context.headInputs.map((file) => basename(file)),
    historyName: basename(settings.history),
    directory: join(context.reportDir, 'baseline'),
    now: runtime.now(),
  });
}
