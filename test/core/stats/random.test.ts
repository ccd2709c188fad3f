import { describe, expect, it } from 'vitest';
import { Random, startState } from '../../../src/core/stats/random.js';

const TWO_POW_32 = 2 ** 32;

/**
 * nextBelow as its comment defines it, written from the definitions with BigInt (no double rounding to get
 * wrong), drawing from `words`, a second generator on the same seed:
 * - bound ≤ 2^21: Lemire's multiply-and-reject, index = ⌊w·bound / 2^32⌋, redrawn while (w·bound mod 2^32) <
 *   2^32 mod bound;
 * - above: threshold rejection, w redrawn while w ≥ 2^32 − (2^32 mod bound), index = w mod bound.
 * Returns the index and how many words were rejected.
 */
function referenceBelow(words: Random, bound: number): { index: number; rejected: number } {
  const b = BigInt(bound);
  const range = 1n << 32n;
  let rejected = 0;
  if (bound <= 2 ** 21) {
    for (;;) {
      const product = BigInt(words.nextUint32()) * b;
      if (product % range >= range % b) return { index: Number(product / range), rejected };
      rejected++;
    }
  }
  const limit = range - (range % b);
  for (;;) {
    const word = BigInt(words.nextUint32());
    if (word < limit) return { index: Number(word % b), rejected };
    rejected++;
  }
}

/** Draws `count` values of nextBelow(bound) and the reference's on the same seed; returns both and the rejections. */
function drawBoth(seed: string, bound: number, count: number) {
  const random = new Random(seed);
  const words = new Random(seed);
  const actual: number[] = [];
  const expected: number[] = [];
  let rejected = 0;
  for (let i = 0; i < count; i++) {
    actual.push(random.nextBelow(bound));
    const reference = referenceBelow(words, bound);
    expected.push(reference.index);
    rejected += reference.rejected;
  }
  // Both consumed the same words: the streams are still in step.
  expect(random.nextUint32()).toBe(words.nextUint32());
  return { actual, expected, rejected };
}

describe('Random.nextBelow against a reference of each path', () => {
  it('bound above 2^21 (3e9): threshold rejection, about 30% of the words redrawn', () => {
    const { actual, expected, rejected } = drawBoth('big', 3_000_000_000, 5000);
    expect(actual).toEqual(expected);
    // 2^32 − 3e9 of every 2^32 words are rejected: ≈ 30%, so ≈ 2150 of ≈ 7150 words.
    expect(rejected).toBeGreaterThan(1800);
    expect(rejected).toBeLessThan(2500);
  });

  it('bound 2^21 + 1, the first bound on the threshold path, and 2^32 (no rejection at all)', () => {
    const first = drawBoth('edge', 2 ** 21 + 1, 2000);
    expect(first.actual).toEqual(first.expected);
    const full = drawBoth('full', TWO_POW_32, 200);
    expect(full.actual).toEqual(full.expected);
    expect(full.rejected).toBe(0);
    // bound 2^32 returns the words themselves.
    const words = new Random('full');
    expect(full.actual).toEqual(Array.from({ length: 200 }, () => words.nextUint32()));
  });

  it('bound 2^20 + 1 on the multiply path, where 2^32 mod bound is large enough to reject now and then', () => {
    // 2^32 mod (2^20 + 1) = 1044481: a word is redrawn with probability ≈ 2.4e-4, ≈ 24 times in 100,000 draws.
    const { actual, expected, rejected } = drawBoth('lemire', 2 ** 20 + 1, 100_000);
    expect(actual).toEqual(expected);
    expect(rejected).toBeGreaterThan(5);
  });

  it('small bounds and bound 2^21 (the last on the multiply path) follow ⌊w·bound / 2^32⌋', () => {
    for (const bound of [1, 2, 7, 10, 1000, 2 ** 21]) {
      const { actual, expected } = drawBoth(`small-${bound}`, bound, 500);
      expect(actual, `bound ${bound}`).toEqual(expected);
    }
    // Worked by hand from the pinned stream of the default seed, 4099203635, 2929233804, …:
    // ⌊4099203635 · 10 / 2^32⌋ = ⌊9.54⌋ = 9;
    expect(new Random('rag-gate').nextBelow(10)).toBe(9);
    // with bound 3e9 the first word is ≥ 3e9 and is redrawn, and the second is below it: 2929233804.
    expect(new Random('rag-gate').nextBelow(3_000_000_000)).toBe(2929233804);
  });

  it('the word exactly at each rejection bound is kept on the multiply path and redrawn on the threshold path (scripted words)', () => {
    /** nextBelow(bound) drawing from the given words; the index and how many words it took. */
    const below = (bound: number, words: readonly number[]) => {
      let taken = 0;
      const stream = { nextUint32: () => words[taken++] ?? Number.NaN } as unknown as Random;
      const index = Random.prototype.nextBelow.call(stream, bound);
      return { index, taken };
    };
    // Bound 3: 2^32 mod 3 = 1. 2863311531·3 = 2·2^32 + 1, low part exactly 1, not below it: kept, index 2. Word 0 has
    // low part 0 < 1: redrawn. Word 1 has low part 3, the bound itself, kept after the cheap pre-check: index 0.
    expect(below(3, [2863311531, 7])).toEqual({ index: 2, taken: 1 });
    expect(below(3, [0, 2863311531])).toEqual({ index: 2, taken: 2 });
    expect(below(3, [1])).toEqual({ index: 0, taken: 1 });
    // Bound 3e9: words from 2^32 − (2^32 mod 3e9) = 3e9 on are redrawn, 3e9 itself included; 3e9 − 1 is kept.
    expect(below(3_000_000_000, [3_000_000_000, 2_999_999_999])).toEqual({ index: 2_999_999_999, taken: 2 });
    expect(below(3_000_000_000, [2 ** 32 - 1, 5])).toEqual({ index: 5, taken: 2 });
  });

  it('rejects a bound that is not an integer in [1, 2^32], naming it', () => {
    const random = new Random('bounds');
    expect(() => random.nextBelow(0)).toThrow('bound must be an integer in [1, 2^32], got 0');
    expect(() => random.nextBelow(TWO_POW_32 + 1)).toThrow('bound must be an integer in [1, 2^32], got 4294967297');
    expect(() => random.nextBelow(2.5)).toThrow('bound must be an integer in [1, 2^32], got 2.5');
    expect(random.nextBelow(1)).toBe(0);
  });
});

describe('Random seeding', () => {
  it('the all-zero state, the one xoshiro128** never leaves, becomes [1, 0, 0, 0]; any other state is kept', () => {
    expect(startState([0, 0, 0, 0])).toEqual([1, 0, 0, 0]);
    expect(startState([0, 0, 0, 5])).toEqual([0, 0, 0, 5]);
    expect(startState([0, 0, 7, 0])).toEqual([0, 0, 7, 0]);
    expect(startState([0, 9, 0, 0])).toEqual([0, 9, 0, 0]);
    expect(startState([3, 0, 0, 0])).toEqual([3, 0, 0, 0]);
    // Words are kept as int32: 0xFFFFFFFF is −1.
    expect(startState([0xffffffff, 0x80000000, 1, 2])).toEqual([-1, -2147483648, 1, 2]);
  });

  it('a number seed is the string "\\u0000number:" + String(seed); 0 and −0 give the same stream; non-finite is refused', () => {
    const first = (seed: string | number) => new Random(seed).nextUint32();
    expect(first(42)).toBe(first('\u0000number:42'));
    expect(first(-0)).toBe(first(0));
    expect(first(0.5)).toBe(first('\u0000number:0.5'));
    expect(first(42)).not.toBe(first('42'));
    expect(() => new Random(Number.POSITIVE_INFINITY)).toThrow('seed must be a finite number or a string, got Infinity');
    expect(() => new Random(Number.NaN)).toThrow('seed must be a finite number or a string, got NaN');
  });
});
