import { describe, expect, it } from 'vitest';
import { containsAnswer, parseCorrectnessRule, tokenF1 } from '../../../src/core/measures/generation/correctness.js';
import { answerTokens, textCounts } from '../../../src/core/measures/generation/text.js';

describe('answers or expected answers with no tokens', () => {
  it('token F1 is 1 when neither side has a token (articles and punctuation only count as none), else 0', () => {
    expect(tokenF1('', '')).toBe(1);
    expect(tokenF1('The.', 'a')).toBe(1);
    expect(tokenF1('Paris', '')).toBe(0);
    expect(tokenF1('Paris', 'the')).toBe(0);
    expect(tokenF1('', 'Paris')).toBe(0);
  });

  it('an empty expected answer is contained only in an answer with no tokens either', () => {
    expect(containsAnswer('', '')).toBe(1);
    expect(containsAnswer('The!', '')).toBe(1);
    expect(containsAnswer('Paris', '')).toBe(0);
    expect(containsAnswer('Paris', 'an')).toBe(0);
    expect(containsAnswer('', 'Paris')).toBe(0);
  });
});

describe('f1 rules are read whole', () => {
  it.each(['f1:0.5x', 'xf1:0.5', 'f1:0.5 f1:0.6'])('rejects %j', (text) => {
    expect(() => parseCorrectnessRule(text)).toThrow(`invalid correctness rule "${text}"; use "contains", "exact" or "f1:T" with 0 < T ≤ 1, e.g. "f1:0.5"`);
  });

  it('reads a threshold written with or without a leading zero', () => {
    expect(parseCorrectnessRule(' f1:.75 ')).toEqual({ kind: 'f1', threshold: 0.75 });
    expect(parseCorrectnessRule('f1:1')).toEqual({ kind: 'f1', threshold: 1 });
  });
});

describe('counting answer tokens without building them', () => {
  it('drops only the articles, not words a letter away from one', () => {
    // Each word differs from "a", "an" or "the" in one letter or in length: all count.
    const nearArticles = 'she tie thy thee th he b an. in ab A. An. THE';
    expect(answerTokens(nearArticles)).toEqual(['she', 'tie', 'thy', 'thee', 'th', 'he', 'b', 'in', 'ab']);
    expect(textCounts(nearArticles).tokens).toBe(9);
  });
});
