import type { CompareConfig, Comparison } from '../core/compare/types.js';
import type { RunSummary } from '../core/scoring/summary.js';
import type { History } from '../core/history/history.js';
import { evalJson } from './eval-json.js';
import { trendJson } from './history.js';
import { judgeNote, lostOutcomeText, reasonText, warningText } from './gate-words.js';
import { sentenceText } from './untrusted.js';
import { decompositionJson } from './decomposition-words.js';

/** Where the base results came from: files given, an artifact found, or why there are none. */
export type BaselineJson =
  | { readonly found: true; readonly files?: readonly string[]; readonly sha?: string | null; readonly description?: string }
  | { readonly found: false; readonly reason: string };

/**
 * The report `compare --json` prints and the action writes (`report-json`): the comparison, with each gate reason,
 * warning and lost outcome carrying beside its structured fields a `message` in words; where the base came from; and the head
 * run's own metrics; with the base branch's history (the action on a pull request), the trend of each gated rate.
 */
export function comparisonReport(
  run: { readonly comparison: Comparison; readonly head: RunSummary },
  config: CompareConfig,
  baseline: BaselineJson,
  trend?: { readonly history: History; readonly head: Readonly<Record<string, number | undefined>> },
) {
  const { comparison } = run;
  const context = { retrievalOk: config.eval.retrievalOk.name, judges: comparison.judges };
  return {
    ...comparison,
    decomposition: { base: decompositionJson(comparison.decomposition.base), head: decompositionJson(comparison.decomposition.head) },
    lostOutcomes: comparison.lostOutcomes.map((lost) => ({ ...lost, message: lostOutcomeText(lost) })),
    reasons: comparison.reasons.map((reason) => ({ ...reason, message: reasonText(reason, context) })),
    warnings: comparison.warnings.map((warning) => ({ ...warning, message: warningText(warning, context) })),
    judges: comparison.judges.map((status) => ({
      ...status,
      judges: status.judges.map((check) => ({ ...check, message: sentenceText(judgeNote(status.field, check)) })),
    })),
    baseline,
    head: evalJson(run.head, config.eval),
    ...(trend === undefined ? {} : { trend: trendJson(trend.history, trend.head, config.eval.retrievalOk.name) }),
  };
}
