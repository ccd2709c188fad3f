import { describe, expect, it } from 'vitest';
import { LONG_ANSWER_RATIO, LOW_UTILISATION } from '../../../src/core/catalog/metrics.js';
import { contextUtilisation } from '../../../src/core/measures/generation/context-utilisation.js';
import { exactMatch, formatCorrectnessRule, judgeCorrect, parseCorrectnessRule, tokenF1 } from '../../../src/core/measures/generation/correctness.js';
import { type ClaimVerdict, faithfulness } from '../../../src/core/measures/generation/faithfulness.js';
import { lengthRatio } from '../../../src/core/measures/generation/length-ratio.js';
import { textCounts } from '../../../src/core/measures/generation/text.js';
import { answerTokens, normalizeAnswer } from '../../../src/core/measures/generation/text.js';

describe('SQuAD answer normalisation', () => {
  it('lower-cases, drops punctuation and the articles a/an/the, collapses whitespace', () => {
    expect(normalizeAnswer('  The   Eiffel Tower! ')).toBe('eiffel tower');
    expect(normalizeAnswer('An apple, a pear and THE plum.')).toBe('apple pear and plum');
    expect(answerTokens('The cat sat on a mat.')).toEqual(['cat', 'sat', 'on', 'mat']);
    expect(answerTokens('  ...  ')).toEqual([]);
  });

  it('keeps words that merely contain an article (theory, another, again)', () => {
    expect(normalizeAnswer('Theory of another again')).toBe('theory of another again');
  });

  it('deletes punctuation inside words as SQuAD does ("U.S.A." = "USA", "don\'t" = "dont")', () => {
    // SQuAD v1.1 evaluate.py: remove_punc joins the characters that are not punctuation.
    expect(normalizeAnswer('U.S.A.')).toBe('usa');
    expect(normalizeAnswer("Don't")).toBe('dont');
    expect(exactMatch('U.S.A.', 'USA')).toBe(1);
  });

  it('removes articles only as whole words, also next to non-ASCII letters', () => {
    // Python's \b (SQuAD) is Unicode-aware: "ça" and "España" keep their final "a".
    expect(normalizeAnswer('Ça va, España!')).toBe('ça va españa');
    expect(answerTokens('ñaño')).toEqual(['ñaño']);
  });
});

describe('exact match and token F1', () => {
  it('exact match ignores case, punctuation and articles', () => {
    expect(exactMatch('The Eiffel Tower!', 'eiffel tower')).toBe(1);
    expect(exactMatch('Eiffel Towers', 'eiffel tower')).toBe(0);
  });

  it('token F1 counts shared tokens with multiplicity (SQuAD)', () => {
    // [in, paris, france] vs [paris]: P = 1/3, R = 1, F1 = 2·(1/3)·1 / (4/3) = 0.5
    expect(tokenF1('in Paris, France', 'Paris')).toBe(0.5);
    // [paris, paris] vs [paris]: one shared token (multiplicity), P = 1/2, R = 1, F1 = 2/3
    expect(tokenF1('Paris Paris', 'Paris')).toBeCloseTo(2 / 3, 15);
    // [it, is, in, city, of, paris] vs [paris]: P = 1/6, R = 1, F1 = 2/7
    expect(tokenF1('It is in the city of Paris.', 'Paris')).toBeCloseTo(2 / 7, 15);
    expect(tokenF1('London', 'Paris')).toBe(0);
    expect(tokenF1('The Paris', 'paris!')).toBe(1);
  });

  it('token F1 with several expected tokens: precision over the answer, recall over the expected answer', () => {
    // [paris] vs [paris, france]: P = 1, R = 1/2, F1 = 2·(1/2) / (3/2) = 2/3
    expect(tokenF1('Paris', 'Paris, France')).toBeCloseTo(2 / 3, 15);
    // [paris, france, city] vs [paris, france, europe, union]: P = 2/3, R = 2/4, F1 = 2·(1/3) / (7/6) = 4/7
    expect(tokenF1('Paris France city', 'Paris France Europe union')).toBeCloseTo(4 / 7, 15);
    // Swapping the sides swaps P and R and leaves F1: [paris, france, europe, union] vs [paris, france, city].
    expect(tokenF1('Paris France Europe union', 'Paris France city')).toBeCloseTo(4 / 7, 15);
    // Multiplicity on the expected side: [new, new, new] vs [new, york, new, york] shares two "new", P = 2/3, R = 1/2.
    expect(tokenF1('new new new', 'New York, New York')).toBeCloseTo(4 / 7, 15);
    // [red, green, blue, black] vs [red, green, blue, white]: P = R = 3/4, F1 = 0.75 exactly.
    expect(tokenF1('red green blue black', 'red green blue white')).toBe(0.75);
  });

  it('f1:0.75 is read, written back, and F1 of exactly 0.75 counts as correct', () => {
    const rule = parseCorrectnessRule('f1:0.75');
    expect(rule).toEqual({ kind: 'f1', threshold: 0.75 });
    expect(formatCorrectnessRule(rule)).toBe('f1:0.75');
    expect(parseCorrectnessRule('f1:.75')).toEqual(rule);
    expect(judgeCorrect(rule, 'red green blue black', 'red green blue white')).toBe(1); // F1 0.75
    expect(judgeCorrect(rule, 'Paris France city', 'Paris France Europe union')).toBe(0); // F1 4/7
    expect(judgeCorrect(rule, 'Paris France', 'Paris France Europe')).toBe(1); // F1 0.8
    expect(judgeCorrect(parseCorrectnessRule('contains'), 'Paris France', 'Paris France Europe')).toBe(0);
    expect(judgeCorrect(parseCorrectnessRule('exact'), 'paris, france.', 'Paris France')).toBe(1);
  });

  it('token F1 with no tokens on a side: 1 when both are empty, else 0', () => {
    expect(tokenF1('the', 'a')).toBe(1);
    expect(tokenF1('', 'Paris')).toBe(0);
    expect(tokenF1('Paris', '...')).toBe(0);
  });

  it('correctness rules: exact, and f1:T counting F1 ≥ T as correct', () => {
    expect(parseCorrectnessRule('exact')).toEqual({ kind: 'exact' });
    expect(parseCorrectnessRule(' f1:0.5 ')).toEqual({ kind: 'f1', threshold: 0.5 });
    expect(parseCorrectnessRule('f1:1')).toEqual({ kind: 'f1', threshold: 1 });
    const f1 = parseCorrectnessRule('f1:0.5');
    expect(judgeCorrect(f1, 'in Paris, France', 'Paris')).toBe(1); // F1 = 0.5 exactly: at the threshold counts
    expect(judgeCorrect(f1, 'It is in the city of Paris.', 'Paris')).toBe(0); // 0.2857
    expect(judgeCorrect({ kind: 'exact' }, 'in Paris, France', 'Paris')).toBe(0);
  });

  it('contains: the normalised expected answer appears as whole words in the normalised answer', () => {
    const contains = (answer: string, expected: string) => judgeCorrect(parseCorrectnessRule('contains'), answer, expected);
    expect(contains('The capital of France is Paris.', 'paris')).toBe(1);
    expect(contains('It opened in 1430.', '4')).toBe(0);
    expect(contains('Refunds take 30 days, by card.', '30 days')).toBe(1);
    expect(contains('Refunds take 30 business days.', '30 days')).toBe(0);
    expect(contains('The U.S.A. signed it.', 'USA')).toBe(1);
    // An expected answer that normalises to nothing is contained only in an answer that does too.
    expect(contains('The.', 'the')).toBe(1);
    expect(contains('Paris', 'the')).toBe(0);
    expect(formatCorrectnessRule(parseCorrectnessRule('contains'))).toBe('contains');
  });

  it('three free-text answers: exact takes one, contains and f1:0.5 two (F1 0.714 and 0.444 for the others)', () => {
    const expected = 'The refund window is 30 days';
    const answers = ['The refund window is 30 days.', 'Good news: the refund window is 30 days from delivery.', 'Refunds within 30 days.'];
    expect(tokenF1(answers[1]!, expected)).toBeCloseTo(10 / 14, 12);
    expect(tokenF1(answers[2]!, expected)).toBeCloseTo(4 / 9, 12);
    const count = (rule: string) => answers.filter((answer) => judgeCorrect(parseCorrectnessRule(rule), answer, expected) === 1).length;
    expect(count('exact')).toBe(1);
    expect(count('contains')).toBe(2);
    expect(count('f1:0.5')).toBe(2);
  });

  it.each(['f1:0', 'f1:1.5', 'f1:', 'f1:abc', 'f1', 'exactly', 'F1:0.5', ''])('rejects correctness rule %j', (rule) => {
    expect(() => parseCorrectnessRule(rule)).toThrow(/use "contains", "exact" or "f1:T" with 0 < T ≤ 1/);
  });
});

describe('faithfulness', () => {
  it('the third article: 3 of 5 claims supported = 0.60', () => {
    const claims: { text: string; verdict: ClaimVerdict }[] = [
      { text: 'Enterprise annual contracts have a refund window.', verdict: 'SUPPORTED' },
      { text: 'The window is 14 days.', verdict: 'SUPPORTED' },
      { text: 'It runs from the invoice date.', verdict: 'SUPPORTED' },
      { text: 'Refunds require approval from two signatories.', verdict: 'NOT_STATED' },
      { text: 'The policy was last updated in March 2024.', verdict: 'NOT_STATED' },
    ];
    expect(faithfulness(claims)).toBe(0.6);
  });

  it('CONTRADICTED and NOT_STATED both count against it', () => {
    expect(faithfulness([{ verdict: 'SUPPORTED' }, { verdict: 'CONTRADICTED' }, { verdict: 'NOT_STATED' }, { verdict: 'SUPPORTED' }])).toBe(0.5);
  });

  it('an answer with no claims has no score (not 0, not 1)', () => {
    expect(faithfulness([])).toBeUndefined();
  });
});

describe('length ratio and context utilisation', () => {
  it('length_ratio is answer tokens / expected tokens after normalisation; the long threshold is 2.5', () => {
    expect(LONG_ANSWER_RATIO).toBe(2.5);
    const ratio = (answer: string, expected: string) => lengthRatio(textCounts(answer), textCounts(expected));
    expect(ratio('The Eiffel Tower!', 'eiffel tower')).toBe(1);
    expect(ratio('one two three four five', 'one two')).toBe(2.5);
    expect(ratio('It is in the city of Paris.', 'Paris')).toBe(6);
    expect(ratio('anything', 'the')).toBeUndefined();
  });

  it('context_utilisation is retrieved ids cited / retrieved ids; the low threshold is 0.4', () => {
    expect(LOW_UTILISATION).toBe(0.4);
    // The article: send 5 chunks, cite 1.
    expect(contextUtilisation(['a', 'b', 'c', 'd', 'e'], ['a'])).toBe(0.2);
    // A cited id that was not retrieved does not count.
    expect(contextUtilisation(['a', 'b'], ['a', 'b', 'z'])).toBe(1);
    expect(contextUtilisation(['a', 'b', 'c', 'd', 'e'], ['b', 'a'])).toBe(0.4);
    expect(contextUtilisation(['a'], [])).toBe(0);
    expect(contextUtilisation([], ['a'])).toBeUndefined();
  });
});
