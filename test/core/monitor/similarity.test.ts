import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LEXICAL_THRESHOLD } from '../../../src/core/catalog/thresholds.js';
import { contentWords, lexicalSimilarity } from '../../../src/core/monitor/similarity.js';
import { ROOT } from '../../helpers/cli.js';

interface LabelledPair {
  readonly a: string;
  readonly b: string;
  readonly paraphrase: boolean;
  readonly kind: 'rephrase' | 'follow-up' | 'near-miss' | 'unrelated';
}

const PAIRS: LabelledPair[] = readFileSync(join(ROOT, 'examples', 'monitor', 'paraphrase-pairs.jsonl'), 'utf8')
  .trim()
  .split('\n')
  .map((line) => JSON.parse(line) as LabelledPair);

function confusion(threshold: number) {
  const scored = PAIRS.map((pair) => ({ pair, similar: lexicalSimilarity(pair.a, pair.b) >= threshold }));
  const tp = scored.filter(({ pair, similar }) => similar && pair.paraphrase).length;
  const fp = scored.filter(({ pair, similar }) => similar && !pair.paraphrase).length;
  const fn = scored.filter(({ pair, similar }) => !similar && pair.paraphrase).length;
  return { tp, fp, fn, precision: tp / (tp + fp), recall: tp / (tp + fn), f1: (2 * tp) / (2 * tp + fp + fn) };
}

describe('the lexical similarity on the shipped labelled pairs', () => {
  it('holds at least 150 pairs of every kind', () => {
    expect(PAIRS.length).toBe(171);
    const kinds: Record<string, number> = {};
    for (const pair of PAIRS) kinds[pair.kind] = (kinds[pair.kind] ?? 0) + 1;
    expect(kinds).toEqual({
      rephrase: 67,
      'follow-up': 42,
      'near-miss': 46,
      unrelated: 16,
    });
  });

  it('has the precision and recall the README states at its threshold 0.6', () => {
    expect(LEXICAL_THRESHOLD).toBe(0.6);
    const { tp, fp, fn, precision, recall } = confusion(LEXICAL_THRESHOLD);
    expect({ tp, fp, fn }).toEqual({ tp: 59, fp: 21, fn: 8 });
    expect(precision).toBeCloseTo(0.7375, 4);
    expect(recall).toBeCloseTo(0.8806, 4);
  });

  it('takes the threshold of highest F1 on the grid of 0.05 steps (the calibration, reproduced)', () => {
    const grid = Array.from({ length: 19 }, (_, i) => Number(((i + 1) * 0.05).toFixed(2)));
    const best = grid.reduce((winner, threshold) => (confusion(threshold).f1 > confusion(winner).f1 ? threshold : winner));
    expect(best).toBe(LEXICAL_THRESHOLD);
  });

  it('misses near-misses most: every false positive at the threshold shares topic words with a different need', () => {
    const falsePositives = PAIRS.filter((pair) => !pair.paraphrase && lexicalSimilarity(pair.a, pair.b) >= LEXICAL_THRESHOLD);
    expect(falsePositives.filter((pair) => pair.kind === 'near-miss')).toHaveLength(20);
    expect(falsePositives.filter((pair) => pair.kind === 'unrelated')).toHaveLength(0);
  });
});

describe('lexicalSimilarity', () => {
  it('is 1 for the same content words in another order and case, 0 without content words, and symmetric', () => {
    expect(lexicalSimilarity('Reset my PASSWORD?', 'password reset')).toBeCloseTo(1, 12);
    expect(lexicalSimilarity('how do I?', 'reset password')).toBe(0);
    expect(contentWords('How don’t I reset my password?')).toEqual(['dont', 'reset', 'password']);
    fc.assert(
      fc.property(fc.string(), fc.string(), (a, b) => {
        const ab = lexicalSimilarity(a, b);
        expect(ab).toBeCloseTo(lexicalSimilarity(b, a), 12);
        expect(ab).toBeGreaterThanOrEqual(0);
        expect(ab).toBeLessThanOrEqual(1 + 1e-12);
      }),
    );
  });

  it('counts trigrams of code points, as Array.from splits a word, whether or not it has surrogates', () => {
    // The measure as first written: every word split into code points, each trigram joined from three of them.
    const counts = (query: string) => {
      const grams = new Map<string, number>();
      for (const word of contentWords(query)) {
        const chars = Array.from(` ${word} `);
        for (let i = 0; i + 3 <= chars.length; i++) grams.set(chars.slice(i, i + 3).join(''), (grams.get(chars.slice(i, i + 3).join('')) ?? 0) + 1);
      }
      return grams;
    };
    const byCodePoints = (a: string, b: string) => {
      const [x, y] = [counts(a), counts(b)];
      let [dot, normX, normY] = [0, 0, 0];
      for (const [gram, count] of x) [normX, dot] = [normX + count * count, dot + count * (y.get(gram) ?? 0)];
      for (const count of y.values()) normY += count * count;
      return normX === 0 || normY === 0 ? 0 : dot / Math.sqrt(normX * normY);
    };
    const query = fc
      .array(
        fc.oneof(
          fc.constantFrom('reset', 'pässword', '\ud835\udc00\ud835\udc01', 'x\ud83d\ude00y', 'пароль', '密码', 'ɏϿЀ', '\ud800', '\udfff', ' ', 'Ⅳ', 'ﬃ'),
          fc.string({ unit: 'binary', maxLength: 6 }),
        ),
        {
          maxLength: 8,
        },
      )
      .map((pieces) => pieces.join(''));
    fc.assert(
      fc.property(query, query, (a, b) => Object.is(lexicalSimilarity(a, b), byCodePoints(a, b))),
      { numRuns: 2000 },
    );
    // Short words of letters whose code units share bits (a, b, c, š, ő, ρ, ǁ, Ё, ё, ѡ, Ձ): a trigram key that
    // dropped or overlapped bits would make two of their trigrams one.
    const near = fc
      .array(
        fc.array(fc.constantFrom('a', 'b', 'c', '\u0161', '\u0151', '\u03c1', '\u01c1', '\u0401', '\u0451', '\u0461', '\u0541'), {
          minLength: 1,
          maxLength: 3,
        }),
        {
          minLength: 1,
          maxLength: 3,
        },
      )
      .map((words) => words.map((letters) => letters.join('')).join(' '));
    fc.assert(
      fc.property(near, near, (a, b) => Object.is(lexicalSimilarity(a, b), byCodePoints(a, b))),
      { numRuns: 3000 },
    );
    expect(lexicalSimilarity('\ud835\udc00\ud835\udc01\ud835\udc02', '\ud835\udc00\ud835\udc01\ud835\udc02')).toBe(1);
  });
});
