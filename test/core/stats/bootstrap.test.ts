import { describe, expect, it } from 'vitest';
import { type BootstrapOptions, bootstrapMeanCIs, DEFAULT_RESAMPLES, resampleMeans } from '../../../src/core/stats/bootstrap.js';
import { BinomialSampler, drawMultinomial, multinomialChain } from '../../../src/core/stats/multinomial.js';
import { pairValues } from '../../../src/core/stats/paired.js';
import { Random } from '../../../src/core/stats/random.js';
import { uniform32, uniform53 } from '../../helpers/uniform.js';

/** The interval of one sample's mean (bootstrapMeanCIs with a single sample). */
const bootstrapMeanCI = (values: ArrayLike<number>, options?: BootstrapOptions) => bootstrapMeanCIs([values], options)[0]!;

/** The interval of the mean paired difference head − base, pairs with a NaN dropped (as compare does). */
const pairedCI = (base: ArrayLike<number>, head: ArrayLike<number>, options?: BootstrapOptions) => bootstrapMeanCI(pairValues(base, head).differences, options);

/** Deterministic differences: `mean` plus uniform noise in ±halfWidth. */
function noisy(seed: string, n: number, mean: number, halfWidth: number): Float64Array {
  const random = new Random(seed);
  return Float64Array.from({ length: n }, () => mean + (uniform53(random) * 2 - 1) * halfWidth);
}

function width([lo, hi]: [number, number]): number {
  return hi - lo;
}

describe('bootstrap interval of a mean (paired differences)', () => {
  it('defaults to 2000 resamples at 95%', () => {
    expect(DEFAULT_RESAMPLES).toBe(2000);
    const diffs = noisy('defaults', 100, 0.02, 0.1);
    expect(bootstrapMeanCI(diffs)).toEqual(bootstrapMeanCI(diffs, { resamples: 2000, level: 0.95 }));
  });

  it('contains the true mean for a large clear sample, and excludes 0 (simulation)', () => {
    const diffs = noisy('clear', 2000, 0.05, 0.1);
    const [lo, hi] = bootstrapMeanCI(diffs);
    expect(lo).toBeLessThan(0.05);
    expect(hi).toBeGreaterThan(0.05);
    expect(lo).toBeGreaterThan(0);
    expect(lo).toBeLessThan(hi);
  });

  it('agrees with the normal-theory interval mean ± 1.96·sd/√n for a large sample, within 10% of the width (simulation)', () => {
    const diffs = noisy('normal', 5000, -0.01, 0.3);
    const n = diffs.length;
    const mean = diffs.reduce((s, d) => s + d, 0) / n;
    const sd = Math.sqrt(diffs.reduce((s, d) => s + (d - mean) ** 2, 0) / (n - 1));
    const halfWidth = (1.959964 * sd) / Math.sqrt(n);
    const [lo, hi] = bootstrapMeanCI(diffs);
    expect(Math.abs(lo - (mean - halfWidth))).toBeLessThan(0.1 * 2 * halfWidth);
    expect(Math.abs(hi - (mean + halfWidth))).toBeLessThan(0.1 * 2 * halfWidth);
  });

  it('the interval shrinks like 1/√n (simulation)', () => {
    const small = width(bootstrapMeanCI(noisy('shrink', 100, 0, 0.5)));
    const large = width(bootstrapMeanCI(noisy('shrink', 10_000, 0, 0.5)));
    expect(large).toBeLessThan(small / 5); // expected ratio ≈ 10
    expect(large).toBeGreaterThan(small / 20);
  });

  it('a higher level gives a wider interval', () => {
    const diffs = noisy('level', 300, 0.01, 0.2);
    expect(width(bootstrapMeanCI(diffs, { level: 0.99 }))).toBeGreaterThan(width(bootstrapMeanCI(diffs, { level: 0.8 })));
  });

  it('another seed moves it only slightly', () => {
    const diffs = noisy('repro', 500, 0.03, 0.2);
    const a = bootstrapMeanCI(diffs);
    const b = bootstrapMeanCI(diffs, { seed: 'another' });
    expect(b).not.toEqual(a);
    expect(Math.abs(b[0] - a[0])).toBeLessThan(0.2 * width(a));
    expect(Math.abs(b[1] - a[1])).toBeLessThan(0.2 * width(a));
  });

  it('degenerate samples: all-equal differences → [d, d]; one pair → [d, d]; none → [NaN, NaN]', () => {
    expect(bootstrapMeanCI(new Float64Array(50).fill(0.1))).toEqual([0.1, 0.1]);
    expect(pairedCI([0.3], [0.4])).toEqual([0.4 - 0.3, 0.4 - 0.3]);
    expect(bootstrapMeanCIs([])).toEqual([]);
    const [lo, hi] = bootstrapMeanCI([]);
    expect(lo).toBeNaN();
    expect(hi).toBeNaN();
  });

  it('all-equal samples are [v, v] exactly, not a mean of n copies with its rounding (0.1 + 0.1 + 0.1 = 0.30000000000000004)', () => {
    expect(bootstrapMeanCI([0.1, 0.1, 0.1])).toEqual([0.1, 0.1]);
    expect(bootstrapMeanCI(new Float64Array(9).fill(0.7))).toEqual([0.7, 0.7]);
  });

  it('pairs with a NaN are dropped before resampling', () => {
    const random = new Random('pairs');
    const base = Array.from({ length: 80 }, () => uniform32(random));
    const head = base.map((b) => b + (uniform32(random) - 0.4) * 0.3);
    base[3] = Number.NaN;
    head[10] = Number.NaN;
    const differences = head.map((h, i) => h - (base[i] as number));
    const fromPairs = pairedCI(base, head, { seed: 's' });
    expect(
      bootstrapMeanCI(
        differences.filter((d) => !Number.isNaN(d)),
        { seed: 's' },
      ),
    ).toEqual(fromPairs);
    expect(fromPairs.every(Number.isFinite)).toBe(true);
  });

  it('several samples: each gets the interval it would get alone', () => {
    const a = noisy('a', 300, 0.05, 0.2);
    const b = noisy('b', 300, -0.1, 0.3).map((d, i) => (i % 3 === 0 ? 0 : d));
    const constant = new Float64Array(300).fill(0.25);
    expect(bootstrapMeanCIs([a, b, constant], { seed: 'shared' })).toEqual([
      bootstrapMeanCI(a, { seed: 'shared' }),
      bootstrapMeanCI(b, { seed: 'shared' }),
      [0.25, 0.25],
    ]);
  });

  it('rejects bad options and infinite values, saying which', () => {
    expect(() => bootstrapMeanCI([1, 2], { resamples: 0 })).toThrow('resamples must be a positive integer, got 0');
    expect(() => bootstrapMeanCI([1, 2], { resamples: 2.5 })).toThrow('resamples must be a positive integer, got 2.5');
    expect(() => bootstrapMeanCI([1, 2], { level: 1 })).toThrow('level must be in (0, 1), got 1');
    expect(() => bootstrapMeanCI([1, 2], { level: 0 })).toThrow('level must be in (0, 1), got 0');
    expect(() => bootstrapMeanCI([1, 2], { level: -0.5 })).toThrow('level must be in (0, 1), got -0.5');
    expect(() => bootstrapMeanCI([1, 2], { level: Number.NaN })).toThrow('level must be in (0, 1), got NaN');
    expect(() => bootstrapMeanCI([1, Infinity])).toThrow('value 1 is not finite: Infinity');
    expect(() => bootstrapMeanCI([0, 0, Number.NaN])).toThrow('value 2 is not finite: NaN');
    expect(() => pairedCI([1, 2], [1])).toThrow(RangeError);
    expect(() => bootstrapMeanCIs([[1, 2], [1]])).toThrow('every sample must have 2 values, sample 1 has 1');
    // The boundaries themselves are allowed: one resample gives the interval [m, m] of its one mean.
    const [lo, hi] = bootstrapMeanCI([0, 1, 3], { resamples: 1, seed: 'one' });
    expect(lo).toBe(hi);
    expect(lo).toBe(referenceBootstrap([0, 1, 3], 1, 0.95, 'one')[0]);
  });
});

/**
 * The percentile bootstrap as bootstrapMeanCIs documents it, written from its definition without its
 * shortcuts: per resample, n indices ⌊w·n / 2^32⌋ from the seeded stream (for n ≤ 5 a word is redrawn with
 * probability below 1e-9, so the multiply-and-reject step never fires here), the mean of the n values drawn; then
 * the type-7 quantiles of the sorted means at (1 ∓ level)/2.
 */
function referenceBootstrap(values: readonly number[], resamples: number, level: number, seed: string): [number, number] {
  const n = values.length;
  const random = new Random(seed);
  const means: number[] = [];
  for (let r = 0; r < resamples; r++) {
    const indices = Array.from({ length: n }, () => Math.floor((random.nextUint32() * n) / 2 ** 32));
    means.push(indices.reduce((sum, i) => sum + values[i]!, 0) / n);
  }
  means.sort((a, b) => a - b);
  const quantile = (q: number) => {
    const h = (resamples - 1) * q;
    const lo = Math.floor(h);
    return means[lo]! + (h - lo) * (means[Math.min(lo + 1, resamples - 1)]! - means[lo]!);
  };
  return [quantile((1 - level) / 2), quantile((1 + level) / 2)];
}

describe('bootstrap interval pinned for a seed', () => {
  it('equals the reference percentile bootstrap (interpolated between order statistics)', () => {
    // Integers, so each resample's sum is exact and the means equal the reference's bit for bit.
    const values = [0, 1, 3, 7, 15];
    for (const [resamples, level, seed] of [
      [10, 0.95, 'pin'],
      [37, 0.8, 'pin'],
      [2000, 0.95, 'rag-gate'],
      [101, 0.5, 'other'],
    ] as const) {
      expect(bootstrapMeanCI(values, { resamples, level, seed }), `${resamples} at ${level}`).toEqual(referenceBootstrap(values, resamples, level, seed));
    }
    // Unsorted input with repeated zeros (still drawn unit by unit: too few to be counted) and negative values (a
    // numeric, not lexicographic, sort).
    const mixed = [-4, 0, 9, 0, -12];
    expect(bootstrapMeanCI(mixed, { resamples: 25, seed: 'mixed' })).toEqual(referenceBootstrap(mixed, 25, 0.95, 'mixed'));
    expect(bootstrapMeanCIs([mixed, values], { resamples: 25, seed: 'mixed' })).toEqual([
      referenceBootstrap(mixed, 25, 0.95, 'mixed'),
      referenceBootstrap(values, 25, 0.95, 'mixed'),
    ]);
  });

  it('large n: redrawn words on the multiply path (n = 2^20 + 1), and nextBelow above 2^21 (slow)', () => {
    // Values held by one unit each are drawn index by index (no value is common enough to be counted by a binomial).
    /** Resample counts as documented: n words first, a rejected one redrawn from the words after them. */
    const lemireCounts = (random: Random, n: number) => {
      const words = Array.from({ length: n }, () => random.nextUint32());
      const counts = new Int32Array(n);
      const reject = BigInt(2 ** 32 % n);
      let rejected = 0;
      for (let word of words) {
        while (BigInt(word * n) % 2n ** 32n < reject) {
          word = random.nextUint32();
          rejected++;
        }
        counts[Math.floor((word * n) / 2 ** 32)]!++;
      }
      return { counts, rejected };
    };
    // Distinct integers: every sum is exact, whatever the order.
    const distinct = (n: number) => Float64Array.from({ length: n }, (_, i) => i - (n >> 1));
    const meanOf = (values: Float64Array, counts: Int32Array) => counts.reduce((sum, c, i) => sum + c * values[i]!, 0) / values.length;
    const interval = (means: number[]) => {
      const [low, high] = means.sort((a, b) => a - b);
      const tail = (1 - 0.95) / 2; // as a double, as the level is turned into quantiles
      return [low! + tail * (high! - low!), low! + (1 - tail) * (high! - low!)];
    };

    const n = 2 ** 20 + 1; // 2^32 mod n = 1044481: about 250 words redrawn per resample
    const values = distinct(n);
    const random = new Random('large');
    const draws = [lemireCounts(random, n), lemireCounts(random, n)];
    expect(draws[0]!.rejected).toBeGreaterThan(100);
    expect(bootstrapMeanCI(values, { resamples: 2, seed: 'large' })).toEqual(interval(draws.map(({ counts }) => meanOf(values, counts))));

    const beyond = 2 ** 21 + 1;
    const big = distinct(beyond);
    const words = new Random('beyond');
    const counts = new Int32Array(beyond);
    for (let i = 0; i < beyond; i++) counts[words.nextBelow(beyond)]!++;
    const mean = meanOf(big, counts);
    expect(bootstrapMeanCI(big, { resamples: 1, seed: 'beyond' })).toEqual([mean, mean]);
  });

  it('pinned numbers for the default seed (a change here changes every published interval)', () => {
    // Ten resamples of [0, 1, 3, 7, 15] at 95%: positions 0.225 and 8.775 in the sorted means, whose two lowest
    // are 0.8 and 1.8 and two highest 8.6 and 8.8: 0.8 + 0.225 · 1 and 8.6 + 0.775 · 0.2.
    const [lo, hi] = bootstrapMeanCI([0, 1, 3, 7, 15], { resamples: 10 });
    expect(lo).toBeCloseTo(1.025, 14);
    expect(hi).toBeCloseTo(8.755, 14);
    expect(bootstrapMeanCI([0, 1, 3, 7, 15], { resamples: 10 })).toEqual(referenceBootstrap([0, 1, 3, 7, 15], 10, 0.95, 'rag-gate'));
  });
});

/**
 * resampleMeans as its comment documents it, with the chain's order given by hand: `counted` the (value, units) the
 * binomial chain draws, in its order; `rare` the other units' values in sample order. Per resample: the counted
 * values' counts from drawMultinomial (pinned in multinomial.test.ts) on the seed's stream, then the draws left
 * fall on the rare units, R of them: that many words, each the index ⌊w·R / 2^32⌋, a word whose low part w·R mod
 * 2^32 is below 2^32 mod R redrawn from the words after the batch. Integer values keep every sum exact, in any
 * order. Also counts the redrawn words, and the accepted ones whose low part is exactly 2^32 mod R.
 */
function chainMeans(counted: readonly (readonly [number, number])[], rare: readonly number[], resamples: number, seed: string) {
  const units = rare.length + counted.reduce((sum, [, size]) => sum + size, 0);
  const random = new Random(seed);
  const binomial = new BinomialSampler(random, units);
  const sizes = counted.map(([, size]) => size);
  const chain = multinomialChain(sizes, rare.length);
  const counts = new Int32Array(sizes.length);
  const reject = 2 ** 32 % rare.length;
  let redrawn = 0;
  let atThreshold = 0;
  const means: number[] = [];
  for (let r = 0; r < resamples; r++) {
    const left = drawMultinomial(binomial, units, chain, counts);
    let sum = counted.reduce((total, [value], j) => total + counts[j]! * value, 0);
    const words = Array.from({ length: left }, () => random.nextUint32());
    for (let word of words) {
      while ((word * rare.length) % 2 ** 32 < reject) {
        word = random.nextUint32();
        redrawn++;
      }
      if ((word * rare.length) % 2 ** 32 === reject) atThreshold++;
      sum += rare[Math.floor((word * rare.length) / 2 ** 32)]!;
    }
    means.push(sum / units);
  }
  return { means: Float64Array.from(means), redrawn, atThreshold };
}

describe('resampleMeans: which values the binomial chain counts, in what order, and the draws on the rest', () => {
  // In sample order: 4 on 8 units, 7 on 7 units (with 5 and 6 once each) among them, 9 on 12, 2 on 8, −3 on 20.
  const sample = [4, 4, 7, 4, 4, 4, 9, 9, 4, 4, 9, 4, 7, 9, 9, 9, 5, 9, 9, 7, 9, 2, 2, 9, 9, 2, 7, 2, 9, 2, 2, 7, 2, 7];
  sample.push(...new Array<number>(20).fill(-3), 6, 7, 2);
  // Held by 8 units or more (COUNTED_FROM): −3 (20 units), then 9 (12), then the ties 2 and 4 (8 each), smaller value first.
  const counted = [
    [-3, 20],
    [9, 12],
    [2, 8],
    [4, 8],
  ] as const;
  // 7 has 7 units, one short of being counted: it is drawn unit by unit with 5 and 6, in sample order.
  const rare = [7, 7, 5, 7, 7, 7, 7, 6, 7];

  it('counts the values held by 8 units or more, most units first, ties by the smaller value; the rest one by one', () => {
    expect(sample).toHaveLength(57);
    const expected = chainMeans(counted, rare, 40, 'chain').means;
    expect(resampleMeans(sample, 40, 'chain')).toEqual(expected);
    // The check sees the order and the threshold: the sample's own order, the order by value, or 7 counted too, differ.
    expect(
      chainMeans(
        [
          [4, 8],
          [9, 12],
          [2, 8],
          [-3, 20],
        ],
        rare,
        40,
        'chain',
      ).means,
    ).not.toEqual(expected);
    expect(
      chainMeans(
        [
          [-3, 20],
          [9, 12],
          [4, 8],
          [2, 8],
        ],
        rare,
        40,
        'chain',
      ).means,
    ).not.toEqual(expected);
    expect(chainMeans([...counted, [7, 7]], [5, 6], 40, 'chain').means).not.toEqual(expected);
  });

  it('with no rare values the last counted value takes the draws left; one value on every unit is that value', () => {
    const noRare = [...new Array<number>(10).fill(0), ...new Array<number>(9).fill(-1), ...new Array<number>(12).fill(1)];
    const expected = chainMeans(
      [
        [1, 12],
        [0, 10],
        [-1, 9],
      ],
      [],
      30,
      'none rare',
    ).means;
    expect(resampleMeans(noRare, 30, 'none rare')).toEqual(expected);
    expect(resampleMeans(new Array<number>(8).fill(5), 3, 'one value')).toEqual(Float64Array.from([5, 5, 5]));
  });

  it('redraws a word whose low part is below 2^32 mod R, from the words after the batch, and keeps one exactly at it', () => {
    // R = 3·2^16 rare units: 2^32 mod R = 2^16 and every low part w·R mod 2^32 is a multiple of 2^16, so a word is
    // redrawn (low part 0) with probability 2^−16, and a word lands exactly on the bound as often; about three of
    // each in a resample of R draws.
    const values = Array.from({ length: 3 * 2 ** 16 }, (_, i) => i - 2 ** 16);
    const expected = chainMeans([], values, 2, 'reject');
    expect(expected.redrawn).toBeGreaterThan(0);
    expect(expected.atThreshold).toBeGreaterThan(0);
    expect(resampleMeans(values, 2, 'reject')).toEqual(expected.means);
  });
});
