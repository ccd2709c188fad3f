import type { Comparison } from '../core/compare/types.js';
import { reasonText, warningText } from './gate-words.js';

/**
 * The comparison as `compare --json` prints it and the action writes it (`report-json`): the comparison with each
 * gate reason and warning carrying, beside its structured fields, a `message` in words.
 */
export function comparisonJson(comparison: Comparison, retrievalOk: string) {
  const context = { retrievalOk, judges: comparison.judges };
  return {
    ...comparison,
    reasons: comparison.reasons.map((reason) => ({ ...reason, message: reasonText(reason, context) })),
    warnings: comparison.warnings.map((warning) => ({ ...warning, message: warningText(warning, context) })),
  };
}
