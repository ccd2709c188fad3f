import type { TextCounts } from './text.js';

/**
 * length_ratio: answer tokens / expected-answer tokens, both after SQuAD normalisation.
 * Undefined when the expected answer has no tokens.
 */
export function lengthRatio(answer: TextCounts, expected: TextCounts): number | undefined {
  return expected.tokens === 0 ? undefined : answer.tokens / expected.tokens;
}
