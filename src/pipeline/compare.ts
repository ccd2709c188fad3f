import type { Settings } from '../core/catalog/settings.js';
import { compareRuns } from '../core/compare/compare.js';
import { compareConfig, evalConfig } from '../core/compare/settings.js';
import type { CompareConfig, Comparison } from '../core/compare/types.js';
import type { EvalConfig } from '../core/scoring/score.js';
import { type RunSummary, summarizeRun } from '../core/scoring/summary.js';
import { readCalibrationRecord } from '../judge/calibration.js';
import type { ReadProgress } from '../sources/lines.js';
import { readOutcomes } from '../sources/outcomes.js';
import { readBothRuns } from '../sources/parallel.js';

/**
 * The one pipeline of both front ends: settings → configuration → read (base and head at once, the base on a
 * reader thread) → score → compare and gate. The CLI and the action differ only in where files come from and
 * where the results go.
 */

/** The scoring configuration of `eval`. */
export function evaluationConfig(settings: Settings): EvalConfig {
  return evalConfig(settings.k, settings['retrieval-ok'], settings.correct);
}

/** The comparison configuration, with the calibration records read from their files. */
export async function comparisonConfig(settings: Settings): Promise<CompareConfig> {
  const calibrations = await Promise.all(settings['judge-calibration'].map(readCalibrationRecord));
  return compareConfig({
    k: settings.k,
    retrievalOk: settings['retrieval-ok'],
    correct: settings.correct,
    alpha: settings.alpha,
    failOn: settings['fail-on'],
    minEffect: settings['min-effect'],
    floors: settings.floors,
    graded: settings.graded,
    permutations: settings.permutations,
    calibrations,
    kappaFloor: settings['kappa-floor'],
  });
}

export interface Evaluation {
  readonly summary: RunSummary;
  /** Unknown fields and the like, one line each. */
  readonly warnings: readonly string[];
}

/** Reads and scores one run (its shards merged). */
export async function evaluateFiles(files: readonly string[], config: EvalConfig, onProgress?: ReadProgress): Promise<Evaluation> {
  const { outcomes, warnings } = await readOutcomes(files, config, onProgress);
  return { summary: summarizeRun(outcomes, config), warnings };
}

export interface ComparisonRun {
  readonly comparison: Comparison;
  readonly head: RunSummary;
  readonly warnings: readonly string[];
}

/**
 * Reads base and head at once (the base on a reader thread started from `readerEntry`, the bundled entry file,
 * when given) and compares them. Input problems of both sides are reported together.
 */
export async function compareFiles(
  files: { readonly base: readonly string[]; readonly head: readonly string[] },
  config: CompareConfig,
  options: { readonly readerEntry?: URL; readonly onProgress?: ReadProgress } = {},
): Promise<ComparisonRun> {
  const [base, head] = await readBothRuns(files.base, files.head, config.eval, options.readerEntry, options.onProgress);
  const headSummary = summarizeRun(head.outcomes, config.eval);
  const comparison = compareRuns(base.outcomes, head.outcomes, headSummary, config, { base: files.base.join(', '), head: files.head.join(', ') });
  return { comparison, head: headSummary, warnings: [...base.warnings, ...head.warnings] };
}
