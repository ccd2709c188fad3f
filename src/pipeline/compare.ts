import type { Settings } from '../core/catalog/settings.js';
import { compareRuns, gradedInputs } from '../core/compare/compare.js';
import { compareConfig, evalConfig } from '../core/compare/settings.js';
import type { CompareConfig, Comparison } from '../core/compare/types.js';
import { InputError } from '../core/errors.js';
import { withoutQuestions } from '../core/scoring/outcomes.js';
import type { EvalConfig } from '../core/scoring/score.js';
import { type RunSummary, summarizeRun } from '../core/scoring/summary.js';
import { readCalibrationRecord } from '../judge/calibration.js';
import type { ReadProgress } from '../sources/lines.js';
import { readGoldenIds } from '../sources/golden.js';
import { readHoldoutFile } from '../sources/holdout-file.js';
import { firstReadOf, readEvidence, readOutcomes } from '../sources/outcomes.js';
import { evidenceIds, withEvidence } from '../core/compare/evidence.js';
import { evalJson } from '../render/eval-json.js';
import { renderEvalText } from '../render/eval-text.js';
import { ungatedText, unmeasuredText } from '../render/gate-words.js';
import { Helpers, readBothRuns, threadCount } from '../sources/parallel.js';
import { type GoldApproval, settleGold } from './gold.js';

/**
 * The one pipeline of both front ends: settings → configuration → read (base and head at once, on as many
 * threads as there are cores) → score → compare and gate. The CLI and the action differ only in where files come from and
 * where the results go.
 */

/** The scoring configuration of `eval`. */
export function evaluationConfig(settings: Settings): EvalConfig {
  return evalConfig(settings);
}

/** The comparison configuration, with the calibration records read from their files. */
export async function comparisonConfig(settings: Settings, reported: 'all' | 'asked' = 'all'): Promise<CompareConfig> {
  const calibrations = await Promise.all(settings['judge-calibration'].map(readCalibrationRecord));
  return compareConfig(settings, calibrations, reported);
}

export interface Evaluation {
  readonly summary: RunSummary;
  /** Unknown fields and the like, one line each. */
  readonly warnings: readonly string[];
  /** Holdout questions left out (when a holdout file was given). */
  readonly holdoutLeftOut: readonly string[];
}

/** The holdout questions of a holdout file, or none. */
async function holdoutIds(file: string | undefined): Promise<ReadonlySet<string>> {
  return file === undefined ? new Set() : new Set((await readHoldoutFile(file)).holdout);
}

/** Reads and scores one run (its shards merged), without the holdout's questions when a holdout file is given. */
export async function evaluateFiles(
  files: readonly string[],
  config: EvalConfig,
  options: { readonly onProgress?: ReadProgress; readonly holdout?: string } = {},
): Promise<Evaluation> {
  const [read, holdout] = await Promise.all([readOutcomes(files, config, options.onProgress), holdoutIds(options.holdout)]);
  const { outcomes, leftOut } = withoutQuestions(read.outcomes, holdout);
  return { summary: summarizeRun(outcomes, config), warnings: read.warnings, holdoutLeftOut: leftOut };
}

/** The report of `eval`: the text for the terminal and the JSON, naming the holdout questions left out when a holdout file was given. */
export function evalReport(files: readonly string[], evaluation: Evaluation, config: EvalConfig, holdoutGiven: boolean): { text: string; json: string } {
  const holdout = holdoutGiven ? evaluation.holdoutLeftOut : undefined;
  return {
    text: renderEvalText(files.join(', '), evaluation.summary, config, holdout),
    json: `${JSON.stringify({ ...evalJson(evaluation.summary, config), ...(holdout === undefined ? {} : { holdoutLeftOut: holdout }) }, null, 2)}\n`,
  };
}

/** Changed questions whose answers and documents are read for the reports: more than a comment can show. */
const EVIDENCE_QUESTIONS = 500;

export interface ComparisonRun {
  readonly comparison: Comparison;
  readonly head: RunSummary;
  readonly warnings: readonly string[];
}

/**
 * Reads base and head at once (on `threads` threads, workers started from `readerEntry`, the bundled entry file,
 * when given) and compares them. Input problems of both sides are reported together.
 */
export async function compareFiles(
  files: { readonly base: readonly string[]; readonly head: readonly string[]; readonly golden?: string; readonly holdout?: string },
  config: CompareConfig,
  options: {
    readonly readerEntry?: URL;
    /** Threads that read and score the runs (the `threads` setting); auto: one per core. */
    readonly threads?: number | 'auto';
    readonly onProgress?: ReadProgress;
    readonly allowUngated?: boolean;
    readonly approveGold?: GoldApproval;
  } = {},
): Promise<ComparisonRun> {
  const helpers = new Helpers(options.readerEntry, threadCount(options.threads));
  try {
    return await readAndCompare(files, config, helpers, options);
  } finally {
    await helpers.close();
  }
}

async function readAndCompare(
  files: { readonly base: readonly string[]; readonly head: readonly string[]; readonly golden?: string; readonly holdout?: string },
  config: CompareConfig,
  helpers: Helpers,
  options: { readonly onProgress?: ReadProgress; readonly allowUngated?: boolean; readonly approveGold?: GoldApproval },
): Promise<ComparisonRun> {
  const [[base, head], golden, holdout] = await Promise.all([
    readBothRuns(files.base, files.head, config.eval, helpers, options.onProgress),
    files.golden === undefined ? undefined : readGoldenIds(files.golden),
    holdoutIds(files.holdout),
  ]);
  // A pull request never looks at the holdout: its questions leave both runs before anything is scored.
  const baseDevelopment = withoutQuestions(base.outcomes, holdout);
  const headDevelopment = withoutQuestions(head.outcomes, holdout);
  const holdoutLeftOut = [...new Set([...headDevelopment.leftOut, ...baseDevelopment.leftOut])];
  const gold = await settleGold(files, baseDevelopment.outcomes, headDevelopment.outcomes, config.eval, options.approveGold);
  const names = { base: files.base.join(', '), head: files.head.join(', ') };
  // The graded tests, shared with the threads that read the runs when there were several; this thread summarises
  // the head between its jobs, while waiting for theirs.
  const inputs = gradedInputs(gold.base, gold.head, config, names, golden);
  const tests = helpers.gradedTests(inputs.metrics, inputs.pairs, config);
  const headSummary = summarizeRun(gold.head, config.eval);
  const graded = { inputs, tests: await tests };
  const settled = compareRuns(gold.base, gold.head, headSummary, config, names, {
    golden,
    rescored: gold.rescored,
    notRescorable: gold.notRescorable,
    holdoutLeftOut,
    graded,
  });
  const compared = gold.changes.length === 0 ? settled : { ...settled, goldChanges: gold.changes };
  // A gate fail-on names must have data: allow-ungated lets the default gates go without it, not a named one.
  if (compared.unmeasured.length > 0) throw InputError.single({ file: names.head, message: unmeasuredText(compared.unmeasured, head.unknownFields) });
  if (compared.ungated && options.allowUngated !== true) {
    throw InputError.single({ file: names.head, message: ungatedText(config, head.unknownFields) });
  }
  // A second, targeted read for the changed questions' answers and documents: the first read keeps no answer text.
  const ids = evidenceIds(compared, EVIDENCE_QUESTIONS);
  const [baseEvidence, headEvidence] = await Promise.all([
    readEvidence(files.base, ids, config.eval, firstReadOf(base)),
    readEvidence(files.head, ids, config.eval, firstReadOf(head)),
  ]);
  const comparison = withEvidence(compared, baseEvidence, headEvidence);
  return { comparison, head: headSummary, warnings: [...base.warnings, ...head.warnings] };
}
