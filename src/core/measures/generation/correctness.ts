import { SettingError } from '../../errors.js';
import { answerNumbers, answerTokens, normalizeAnswer } from './text.js';

/** Normalised exact match: 1 when the answer equals the expected answer after SQuAD normalisation. */
export function exactMatch(answer: string, expected: string): number {
  return normalizeAnswer(answer) === normalizeAnswer(expected) ? 1 : 0;
}

/**
 * SQuAD token F1 between answer and expected answer, over normalised tokens counted with multiplicity.
 * When either side has no tokens, 1 if both have none, else 0.
 */
export function tokenF1(answer: string, expected: string): number {
  const predicted = answerTokens(answer);
  const gold = answerTokens(expected);
  // Two empty sides agree; one empty side shares no token with the other, so scores 0 below.
  if (predicted.length === 0 && gold.length === 0) return 1;
  const goldCounts = new Map<string, number>();
  for (const token of gold) goldCounts.set(token, (goldCounts.get(token) ?? 0) + 1);
  let common = 0;
  for (const token of predicted) {
    const left = goldCounts.get(token) ?? 0;
    if (left > 0) {
      common++;
      goldCounts.set(token, left - 1);
    }
  }
  if (common === 0) return 0;
  const precision = common / predicted.length;
  const recall = common / gold.length;
  return (2 * precision * recall) / (precision + recall);
}

/**
 * Normalised containment: 1 when the expected answer's normalised tokens appear, in order and adjacent, among the
 * answer's (so "Paris" is in "The capital is Paris.", and "4" is not in "1430"). An expected answer with no tokens
 * left after normalisation is contained only in an answer with none either.
 */
export function containsAnswer(answer: string, expected: string): number {
  // Padded with a space each side, an empty expected answer is two spaces: found only in an empty answer.
  return ` ${normalizeAnswer(answer)} `.includes(` ${normalizeAnswer(expected)} `) ? 1 : 0;
}

/**
 * 1 when every number of the expected answer is among the answer's, counted with multiplicity ({@link answerNumbers}):
 * "every 2 hours" lacks the 24 of "every 24 hours", and "5 members and 50 guests" has one 5 where "5 members and 5
 * guests" has two. An answer may add numbers ("every 24 hours, so daily at 09:00"): a number more is not a wrong
 * number, and an answer that hedges with several is left to the lexical rule.
 */
export function numbersAgree(answer: string, expected: string): number {
  const left = new Map<string, number>();
  for (const number of answerNumbers(answer)) left.set(number, (left.get(number) ?? 0) + 1);
  for (const number of answerNumbers(expected)) {
    const count = left.get(number) ?? 0;
    if (count === 0) return 0;
    left.set(number, count - 1);
  }
  return 1;
}

/** How `correct` is computed when a record has an answer and an expected answer but no `correct` field. */
export type CorrectnessRule = { kind: 'contains' } | { kind: 'exact' } | { kind: 'f1'; threshold: number };

class CorrectnessRuleError extends SettingError {}

/** Parses `contains`, `exact` or `f1:0.5` (token F1 at or above the threshold counts as correct). */
export function parseCorrectnessRule(text: string): CorrectnessRule {
  const rule = text.trim();
  if (rule === 'contains') return { kind: 'contains' };
  if (rule === 'exact') return { kind: 'exact' };
  const f1 = /^f1:(\d*\.?\d+)$/.exec(rule);
  const threshold = f1 ? Number(f1[1]) : NaN;
  if (f1 && threshold > 0 && threshold <= 1) return { kind: 'f1', threshold };
  throw new CorrectnessRuleError(`invalid correctness rule "${rule}"; use "contains", "exact" or "f1:T" with 0 < T ≤ 1, e.g. "f1:0.5"`);
}

/** The rule as `parseCorrectnessRule` reads it: `contains`, `exact` or `f1:T`. */
export function formatCorrectnessRule(rule: CorrectnessRule): string {
  return rule.kind === 'f1' ? `f1:${rule.threshold}` : rule.kind;
}

/**
 * Applies the rule: 1 correct, 0 not. Under every rule an answer that lacks or changes a number of the expected answer
 * is wrong ({@link numbersAgree}): the lexical rules weigh "2" against "24" as one token among many, and
 * normalisation makes "2.5" and "25" the same token.
 */
export function judgeCorrect(rule: CorrectnessRule, answer: string, expected: string): number {
  if (numbersAgree(answer, expected) === 0) return 0;
  switch (rule.kind) {
    case 'contains':
      return containsAnswer(answer, expected);
    case 'exact':
      return exactMatch(answer, expected);
    case 'f1':
      return tokenF1(answer, expected) >= rule.threshold ? 1 : 0;
  }
}
