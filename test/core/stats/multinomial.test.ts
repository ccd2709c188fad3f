import gammainc from '@stdlib/math-base-special-gammainc';
import binomialCdf from '@stdlib/stats-base-dists-binomial-cdf';
import { describe, expect, it } from 'vitest';
import { resampleMeans } from '../../../src/core/stats/bootstrap.js';
import { BinomialSampler, drawMultinomial } from '../../../src/core/stats/multinomial.js';
import { Random } from '../../../src/core/stats/random.js';

// Every check below draws from fixed seeds, so it passes or fails the same way on every run; the bounds are set at a
// one-in-a-million tail, so a correct sampler fails them with probability 1e-6 for a given seed, and a sampler off
// by a few percent in any cell fails them for certain at these sample sizes.
const TAIL = 1e-6;

/** Pearson's χ² p-value of observed counts against expected ones, cells pooled from the tails until each expects ≥ 5. */
function chiSquarePValue(observed: readonly number[], expected: readonly number[]): number {
  const cells: { observed: number; expected: number }[] = [];
  let pending = { observed: 0, expected: 0 };
  observed.forEach((count, i) => {
    pending = { observed: pending.observed + count, expected: pending.expected + expected[i]! };
    if (pending.expected >= 5) {
      cells.push(pending);
      pending = { observed: 0, expected: 0 };
    }
  });
  if (pending.expected > 0) {
    const last = cells.pop()!;
    cells.push({ observed: last.observed + pending.observed, expected: last.expected + pending.expected });
  }
  const statistic = cells.reduce((sum, cell) => sum + (cell.observed - cell.expected) ** 2 / cell.expected, 0);
  return gammainc(statistic / 2, (cells.length - 1) / 2, true, true);
}

/** Binomial probabilities from the distribution's CDF (stdlib), an independent computation. */
function binomialPmf(trials: number, p: number): number[] {
  return Array.from({ length: trials + 1 }, (_, k) => binomialCdf(k, trials, p) - (k === 0 ? 0 : binomialCdf(k - 1, trials, p)));
}

/** The largest gap between the empirical distribution functions of two ascending samples. */
function ksDistance(a: Float64Array, b: Float64Array): number {
  let distance = 0;
  for (let i = 0, j = 0; i < a.length || j < b.length;) {
    const x = Math.min(a[i] ?? Infinity, b[j] ?? Infinity);
    while (i < a.length && a[i]! <= x) i++;
    while (j < b.length && b[j]! <= x) j++;
    distance = Math.max(distance, Math.abs(i / a.length - j / b.length));
  }
  return distance;
}

describe('BinomialSampler', () => {
  it.each([
    [20, 0.3, 'inversion from 0'],
    [1000, 0.004, 'inversion from 0, small p'],
    [60, 0.5, 'from the mode, p = ½'],
    [1000, 0.3, 'from the mode'],
    [100_000, 0.45, 'from the mode, many trials'],
    [50, 0.8, 'p above ½: trials minus failures'],
  ])('draws Binomial(%i, %d) (%s): χ² against the exact probabilities', (trials, p) => {
    const sampler = new BinomialSampler(new Random(`binomial ${trials} ${p}`), trials);
    const draws = 20_000;
    const pmf = binomialPmf(trials, p);
    const observed = new Array<number>(trials + 1).fill(0);
    let sum = 0;
    for (let i = 0; i < draws; i++) {
      const k = sampler.draw(trials, p);
      expect(Number.isInteger(k) && k >= 0 && k <= trials).toBe(true);
      observed[k]!++;
      sum += k;
    }
    // Only the populated middle of a wide distribution is binned cell by cell; the tails pool.
    expect(
      chiSquarePValue(
        observed,
        pmf.map((q) => q * draws),
      ),
    ).toBeGreaterThan(TAIL);
    const mean = trials * p;
    const standardError = Math.sqrt((trials * p * (1 - p)) / draws);
    expect(Math.abs(sum / draws - mean)).toBeLessThan(5 * standardError);
  });

  it('degenerate cases: no trials, p = 0, p = 1', () => {
    const sampler = new BinomialSampler(new Random('edges'), 10);
    expect(sampler.draw(0, 0.3)).toBe(0);
    expect(sampler.draw(10, 0)).toBe(0);
    expect(sampler.draw(10, 1)).toBe(10);
  });
});

describe('drawMultinomial', () => {
  it('tallies trials among categories and the rest; the counts add up', () => {
    const sampler = new BinomialSampler(new Random('tally'), 100);
    const out = new Int32Array(3);
    for (let i = 0; i < 200; i++) {
      const rest = drawMultinomial(sampler, 100, [50, 30, 15], 5, out);
      expect(out[0]! + out[1]! + out[2]! + rest).toBe(100);
    }
    // No rest: the last category takes what is left.
    expect(drawMultinomial(sampler, 100, [60, 40], 0, out)).toBe(0);
    expect(out[0]! + out[1]!).toBe(100);
  });
});

describe('resampleMeans: the distribution of the plain index bootstrap', () => {
  it('a 0/±1 sample (counted and unit-drawn values together): χ² against the exact multinomial distribution of the mean', () => {
    // 25 zeros and nine +1 are counted by binomials; the six −1 are drawn unit by unit.
    const sample = [...new Array<number>(25).fill(0), ...new Array<number>(9).fill(1), ...new Array<number>(6).fill(-1)];
    const n = sample.length;
    // Exact: the resample sum is N₊ − N₋ with (N₀, N₊, N₋) ~ Multinomial(n; 25/n, 9/n, 6/n).
    const logFactorial = (k: number) => Array.from({ length: k }, (_, i) => Math.log(i + 1)).reduce((a, b) => a + b, 0);
    const exact = new Map<number, number>();
    for (let plus = 0; plus <= n; plus++) {
      for (let minus = 0; plus + minus <= n; minus++) {
        const zero = n - plus - minus;
        const log =
          logFactorial(n) -
          logFactorial(plus) -
          logFactorial(minus) -
          logFactorial(zero) +
          plus * Math.log(9 / n) +
          minus * Math.log(6 / n) +
          zero * Math.log(25 / n);
        exact.set(plus - minus, (exact.get(plus - minus) ?? 0) + Math.exp(log));
      }
    }
    const resamples = 20_000;
    const observed = new Map<number, number>();
    for (const mean of resampleMeans(sample, resamples, 'exact')) {
      const sum = Math.round(mean * n);
      expect(mean * n).toBeCloseTo(sum, 9);
      observed.set(sum, (observed.get(sum) ?? 0) + 1);
    }
    const sums = [...exact.keys()].sort((a, b) => a - b);
    expect([...observed.keys()].every((sum) => exact.has(sum))).toBe(true);
    expect(
      chiSquarePValue(
        sums.map((sum) => observed.get(sum) ?? 0),
        sums.map((sum) => exact.get(sum)! * resamples),
      ),
    ).toBeGreaterThan(TAIL);
  });

  it('a graded sample (many zeros, repeated and unique values): two-sample Kolmogorov–Smirnov against the plain index bootstrap', () => {
    const random = new Random('graded');
    const n = 400;
    const sample = Array.from({ length: n }, (_, i) => {
      if (i % 2 === 0) return 0;
      if (i % 5 === 1) return 0.25;
      if (i % 7 === 3) return -0.5;
      return Math.round((random.nextUint32() / 2 ** 32 - 0.45) * 1e6) / 1e6;
    });
    const resamples = 20_000;
    const ours = Float64Array.from(resampleMeans(sample, resamples, 'ks')).sort();
    // The definition itself: n uniform indices per resample from another stream, the mean of the values drawn.
    const plain = new Float64Array(resamples);
    const other = new Random('plain');
    for (let r = 0; r < resamples; r++) {
      let sum = 0;
      for (let i = 0; i < n; i++) sum += sample[other.nextBelow(n)]!;
      plain[r] = sum / n;
    }
    plain.sort();
    const bound = Math.sqrt(-Math.log(TAIL / 2) / 2) * Math.sqrt(2 / resamples); // two-sample KS at level TAIL
    expect(ksDistance(ours, plain)).toBeLessThan(bound);
    // The check can see a wrong sampler: the same means shifted by a tenth of their spread (±1 sd) fail it.
    const spread = plain[Math.floor(0.84 * resamples)]! - plain[Math.floor(0.16 * resamples)]!;
    expect(
      ksDistance(
        ours.map((mean) => mean + spread / 10),
        plain,
      ),
    ).toBeGreaterThan(bound);
  });
});
