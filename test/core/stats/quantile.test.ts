import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { pairedRatioIntervals, quantileInterval, quantileSorted } from '../../../src/core/stats/quantile.js';
import { Random } from '../../../src/core/stats/random.js';

const ascending = (values: readonly number[]) => Float64Array.from(values).sort();

describe('quantileSorted', () => {
  it('is type 7, as numpy.quantile and R give it', () => {
    // numpy.quantile([1, 2, 3, 4], [0.5, 0.9, 0.95]) = [2.5, 3.7, 3.85]
    expect(quantileSorted([1, 2, 3, 4], 0.5)).toBe(2.5);
    expect(quantileSorted([1, 2, 3, 4], 0.9)).toBeCloseTo(3.7, 12);
    expect(quantileSorted([1, 2, 3, 4], 0.95)).toBeCloseTo(3.85, 12);
    expect(quantileSorted([7], 0.95)).toBe(7);
    expect(quantileSorted([], 0.5)).toBeNaN();
  });
});

/** The percentile bootstrap by brute force: `resamples` resamples drawn, sorted, their type-7 quantile taken. */
function bruteForceInterval(sorted: Float64Array, q: number, resamples: number, random: Random): [number, number] {
  const n = sorted.length;
  const estimates = new Float64Array(resamples);
  for (let r = 0; r < resamples; r++) {
    const resample = Float64Array.from({ length: n }, () => sorted[random.nextBelow(n)]!).sort();
    estimates[r] = quantileSorted(resample, q);
  }
  estimates.sort();
  return [quantileSorted(estimates, 0.025), quantileSorted(estimates, 0.975)];
}

describe('quantileInterval', () => {
  it('equals the percentile bootstrap of the order statistic, computed exactly', () => {
    // 1…20, the median: between the 10th and 11th values, each one's exact bootstrap interval interpolated by 0.5.
    const values = ascending(Array.from({ length: 20 }, (_, i) => i + 1));
    const exact = quantileInterval(values, 0.5);
    const drawn = bruteForceInterval(values, 0.5, 40_000, new Random('median'));
    expect(exact[0]).toBeCloseTo(drawn[0], 0);
    expect(exact[1]).toBeCloseTo(drawn[1], 0);
    // An order statistic: the 19th of 20 at q = 18/19.
    const high = quantileInterval(values, 18 / 19);
    expect(Number.isInteger(high[0]) && Number.isInteger(high[1])).toBe(true);
    const drawnHigh = bruteForceInterval(values, 18 / 19, 40_000, new Random('p95'));
    expect(Math.abs(high[0] - drawnHigh[0])).toBeLessThanOrEqual(1);
    expect(Math.abs(high[1] - drawnHigh[1])).toBeLessThanOrEqual(1);
  });

  it('holds the estimate, within the sample, and is a point for equal values', () => {
    fc.assert(
      fc.property(fc.array(fc.double({ min: 0, max: 1e4, noNaN: true }), { minLength: 1, maxLength: 200 }), fc.constantFrom(0.5, 0.9, 0.95), (given, q) => {
        const sorted = ascending(given);
        const [low, high] = quantileInterval(sorted, q);
        expect(low).toBeGreaterThanOrEqual(sorted[0]!);
        expect(high).toBeLessThanOrEqual(sorted.at(-1)!);
        expect(low).toBeLessThanOrEqual(high);
      }),
    );
    expect(quantileInterval(ascending([3, 3, 3]), 0.95)).toEqual([3, 3]);
    expect(quantileInterval(new Float64Array(0), 0.5)).toEqual([NaN, NaN]);
  });

  it('covers the true p95 of a log-normal about 95% of the time (simulation)', () => {
    // The p95 of exp(N(0, 1)) is exp(1.6449).
    const truth = Math.exp(1.6448536269514722);
    const random = new Random('coverage');
    const normal = () => Math.sqrt(-2 * Math.log(1 - random.nextUint32() / 4294967296)) * Math.cos((2 * Math.PI * random.nextUint32()) / 4294967296);
    let covered = 0;
    for (let trial = 0; trial < 1000; trial++) {
      const [low, high] = quantileInterval(ascending(Array.from({ length: 200 }, () => Math.exp(normal()))), 0.95);
      if (low <= truth && truth <= high) covered++;
    }
    expect(covered).toBeGreaterThan(910);
    expect(covered).toBeLessThan(985);
  });
});

describe('pairedRatioIntervals', () => {
  it('matches a brute-force paired bootstrap on the same draws', () => {
    const random = new Random('pairs');
    const base = Float64Array.from({ length: 37 }, () => 100 + (random.nextUint32() % 1000));
    const head = Float64Array.from(base, (value) => value * (0.8 + (random.nextUint32() % 100) / 100));
    const got = pairedRatioIntervals(base, head, [0.5, 0.9, 0.95], { resamples: 500, seed: 'same' });
    // The same stream: each resample draws n indices; its quantiles are taken by sorting.
    const draws = new Random('same');
    const ratios = [0.5, 0.9, 0.95].map(() => new Float64Array(500));
    const means = new Float64Array(500);
    for (let r = 0; r < 500; r++) {
      const picked = Array.from({ length: base.length }, () => draws.nextBelow(base.length));
      const b = ascending(picked.map((i) => base[i]!));
      const h = ascending(picked.map((i) => head[i]!));
      [0.5, 0.9, 0.95].forEach((q, k) => (ratios[k]![r] = quantileSorted(h, q) / quantileSorted(b, q)));
      means[r] = h.reduce((sum, v) => sum + v, 0) / b.reduce((sum, v) => sum + v, 0);
    }
    const interval = (values: Float64Array) => {
      const sorted = Float64Array.from(values).sort();
      return [quantileSorted(sorted, 0.025), quantileSorted(sorted, 0.975)];
    };
    got.quantiles.forEach((quantile, k) => {
      const [low, high] = interval(ratios[k]!);
      expect(quantile.ci[0]).toBeCloseTo(low!, 12);
      expect(quantile.ci[1]).toBeCloseTo(high!, 12);
    });
    expect(got.mean.ci[0]).toBeCloseTo(interval(means)[0]!, 12);
    expect(got.mean.ci[1]).toBeCloseTo(interval(means)[1]!, 12);
    expect(got.quantiles[2]!.base).toBe(quantileSorted(ascending([...base]), 0.95));
  });

  it('gives a head exactly twice base the ratio 2 with the interval [2, 2]', () => {
    const base = Float64Array.from({ length: 50 }, (_, i) => 10 + i * i);
    const got = pairedRatioIntervals(
      base,
      base.map((value) => value * 2),
      [0.5, 0.95],
      { resamples: 400 },
    );
    for (const ratio of [...got.quantiles, got.mean]) {
      expect(ratio.ratio).toBeCloseTo(2, 12);
      expect(ratio.ci[0]).toBeCloseTo(2, 12);
      expect(ratio.ci[1]).toBeCloseTo(2, 12);
    }
  });
});
