import { answerTokenCount } from './text.js';

/**
 * length_ratio: answer tokens / expected-answer tokens, both after SQuAD normalisation.
 * Undefined when the expected answer has no tokens.
 */
export function lengthRatio(answer: string, expected: string): number | undefined {
  const goldLength = answerTokenCount(expected);
  return goldLength === 0 ? undefined : answerTokenCount(answer) / goldLength;
}
