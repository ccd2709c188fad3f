import signrankCdf from '@stdlib/stats-base-dists-signrank-cdf';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { pairedTTest, type WilcoxonMethod, wilcoxonSignedRank } from '../../../src/core/stats/classical.js';

/**
 * Two-sided p-value of Student's t with integer df from Abramowitz & Stegun 26.7.3–4 (a finite trigonometric
 * series, independent of the incomplete beta function the code uses): p = 1 − A(t | ν).
 */
function studentTwoSidedP(t: number, df: number): number {
  const theta = Math.atan(Math.abs(t) / Math.sqrt(df));
  const c = Math.cos(theta);
  const s = Math.sin(theta);
  let a: number;
  if (df % 2 === 1) {
    let term = c;
    let series = df > 1 ? c : 0;
    for (let k = 3; k <= df - 2; k += 2) {
      term *= ((k - 1) / k) * c * c;
      series += term;
    }
    a = (2 / Math.PI) * (theta + s * series);
  } else {
    let term = 1;
    let series = 1;
    for (let k = 2; k <= df - 2; k += 2) {
      term *= ((k - 1) / k) * c * c;
      series += term;
    }
    a = s * series;
  }
  return 1 - a;
}

/** Two-sided p of the signed-rank sum by enumerating every sign pattern of the given ranks. */
function enumeratedP(ranks: readonly number[], rPlus: number): number {
  let lower = 0;
  let upper = 0;
  for (let mask = 0; mask < 2 ** ranks.length; mask++) {
    const sum = ranks.reduce((acc, r, i) => acc + ((mask >> i) & 1 ? r : 0), 0);
    if (sum <= rPlus) lower++;
    if (sum >= rPlus) upper++;
  }
  return Math.min(1, (2 * Math.min(lower, upper)) / 2 ** ranks.length);
}

// R's sleep data: extra hours of sleep under two drugs, ten patients.
const SLEEP_1 = [0.7, -1.6, -0.2, -1.2, -0.1, 3.4, 3.7, 0.8, 0.0, 2.0];
const SLEEP_2 = [1.9, 0.8, 1.1, 0.1, -0.1, 4.4, 5.5, 1.6, 4.6, 3.4];

describe('pairedTTest (scipy.stats.ttest_rel)', () => {
  it("R's sleep data: t = −4.0621, df = 9, p = 0.002833 (t.test(paired = TRUE)); p to 1e-12 of A&S 26.7", () => {
    const differences = SLEEP_1.map((x, i) => x - SLEEP_2[i]!);
    const result = pairedTTest(differences)!;
    expect(result.kind).toBe('t');
    expect(result.df).toBe(9);
    expect(result.statistic).toBeCloseTo(-4.062127683, 8);
    expect(result.pValue).toBeCloseTo(0.002833, 6);
    expect(Math.abs(result.pValue - studentTwoSidedP(result.statistic, 9))).toBeLessThan(1e-12);
  });

  it('matches the closed form for even and odd df (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.double({ min: -1, max: 1, noNaN: true }), { minLength: 2, maxLength: 40 }), (differences) => {
        const result = pairedTTest(differences);
        if (result === null) return;
        expect(Math.abs(result.pValue - studentTwoSidedP(result.statistic, result.df))).toBeLessThan(1e-9);
      }),
      { numRuns: 300 },
    );
  });

  it('two pairs are enough: [1, 3] has t = 2 / (√2/√2) = 2 on 1 df, p = 1 − (2/π)·atan(2) (Cauchy)', () => {
    const result = pairedTTest([1, 3])!;
    expect(result).toMatchObject({ kind: 't', statistic: 2, df: 1 });
    expect(result.pValue).toBeCloseTo(1 - (2 / Math.PI) * Math.atan(2), 12);
  });

  it('is undefined for fewer than two pairs or differences without spread', () => {
    expect(pairedTTest([0.3])).toBeNull();
    expect(pairedTTest([0.1, 0.1, 0.1])).toBeNull();
    expect(pairedTTest([0, 0])).toBeNull();
    // Subnormal differences whose squares underflow to 0: no spread a double holds, not t = ±Infinity with p = 0.
    expect(pairedTTest([8e-323, -7.4e-323])).toBeNull();
  });
});

describe('wilcoxonSignedRank (scipy.stats.wilcoxon defaults)', () => {
  it("scipy's documentation example: statistic 24, exact p = 0.041259765625", () => {
    const d = [6, 8, 14, 16, 23, 24, 28, 29, 41, -48, 49, 56, 60, -67, 75];
    const result = wilcoxonSignedRank(d)!;
    expect(result).toEqual({ kind: 'wilcoxon', statistic: 24, nonZero: 15, pValue: 0.041259765625, method: 'exact' });
    expect(
      enumeratedP(
        Array.from({ length: 15 }, (_, i) => i + 1),
        120 - 24,
      ),
    ).toBe(0.041259765625);
  });

  it('exact p equals the signed-rank distribution of @stdlib to 1e-12 for n ≤ 50 without ties', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.integer({ min: 1, max: 10_000 }), { minLength: 1, maxLength: 50 }),
        fc.array(fc.boolean(), { minLength: 50, maxLength: 50 }),
        (magnitudes, signs) => {
          const d = magnitudes.map((m, i) => (signs[i] ? m : -m));
          const result = wilcoxonSignedRank(d)!;
          expect(result.method).toBe('exact');
          const n = d.length;
          const order = [...magnitudes].sort((a, b) => a - b);
          const rPlus = d.reduce((sum, v) => (v > 0 ? sum + order.indexOf(v) + 1 : sum), 0);
          const lower = signrankCdf(rPlus, n);
          const upper = 1 - (rPlus === 0 ? 0 : signrankCdf(rPlus - 1, n));
          expect(Math.abs(result.pValue - Math.min(1, 2 * Math.min(lower, upper)))).toBeLessThan(1e-12);
          expect(result.statistic).toBe(Math.min(rPlus, (n * (n + 1)) / 2 - rPlus));
        },
      ),
      { numRuns: 100 },
    );
  });

  it('ties or zeros at n ≤ 13 enumerate the sign flips: ten equal differences give p = 2/1024', () => {
    const result = wilcoxonSignedRank(new Array(10).fill(0.1))!;
    expect(result).toEqual({ kind: 'wilcoxon', statistic: 0, nonZero: 10, pValue: 2 / 1024, method: 'permutation' });
    // Zeros are dropped before ranking; 1, −2, 2, 3 rank 1, 2.5, 2.5, 4.
    const withZero = wilcoxonSignedRank([0, 1, -2, 2, 3, 0])!;
    expect(withZero.method).toBe('permutation');
    expect(withZero.nonZero).toBe(4);
    expect(withZero.statistic).toBe(2.5);
    expect(withZero.pValue).toBe(enumeratedP([1, 2.5, 2.5, 4], 7.5));
  });

  it("scipy's tie test (56 values from −4 to 4, eight zeros): normal approximation p = 0.00641346115861", () => {
    const freq = [1, 4, 16, 15, 8, 4, 5, 1, 2];
    const x = freq.flatMap((count, i) => new Array<number>(count).fill(i - 4));
    expect(x).toHaveLength(56);
    const result = wilcoxonSignedRank(x)!;
    expect(result.method).toBe('normal');
    expect(result.kind).toBe('wilcoxon');
    expect(result.nonZero).toBe(48);
    expect(Math.abs(result.pValue - 0.00641346115861)).toBeLessThan(1e-12);
  });

  it('normal approximation with ties at 14…50 pairs follows the tie-corrected formula (erfc, by hand)', () => {
    // 20 pairs: |d| = 1 ×6 (4 positive), 2 ×8 (2 positive), 3 ×6 (5 positive); ranks 3.5, 10.5, 17.5.
    const d = [1, 1, 1, 1, -1, -1, 2, 2, -2, -2, -2, -2, -2, -2, 3, 3, 3, 3, 3, -3];
    const result = wilcoxonSignedRank(d)!;
    expect(result.method).toBe('normal');
    const rPlus = 4 * 3.5 + 2 * 10.5 + 5 * 17.5;
    const variance = (20 * 21 * 41 - (6 ** 3 - 6 + 8 ** 3 - 8 + 6 ** 3 - 6) / 2) / 24;
    const z = (rPlus - 105) / Math.sqrt(variance);
    expect(result.statistic).toBe(210 - rPlus);
    expect(Math.abs(result.pValue - erfc(Math.abs(z) / Math.SQRT2))).toBeLessThan(1e-12);
  });

  it("takes each method at scipy's boundaries, from either tail (values from scipy 1.17.1's wilcoxon)", () => {
    const lowerTail = [-1.5, -2.25, -3.125, 0.5, -4.75, -5.5, 1.25, -6.875, -7.5, -8.25, 2.625, -9.5];
    const upperTail = lowerTail.map((d) => -d);
    const tiedLower = [-1, -1, -2, -2, -3, 1, -4, -4, -5, -6, 2, -7, -8];
    const d50 = [
      0.30123, 0.598746, 0.025862, -0.590592, -0.154671, -0.691647, 0.360144, 1.640215, -0.192207, -0.320475, 0.789842, 0.656887, 0.405414, -0.630468, 0.270748,
      0.995303, -1.044215, -0.157616, -1.601223, -0.989538, -1.541735, 0.064909, -0.967446, 0.571264, 0.456751, 0.113069, -2.21676, -0.238693, 0.251499,
      0.413309, -1.230136, -0.177753, -0.678519, -0.508837, 1.360899, -0.507535, 0.267478, 1.18439, -0.2836, 0.188298, 0.410464, 0.363782, -0.925056, 0.37614,
      1.658823, -1.247145, 1.159383, 0.419354, -0.34147, 2.300417,
    ];
    const d51 = [
      1.06226, -0.899289, 0.374516, 0.87669, 0.111218, 0.98291, 0.233483, 0.967248, 1.738523, -0.375662, 0.503139, -0.163308, 0.427268, -0.887195, -0.279302,
      0.103804, 1.198764, 1.445222, -1.023528, -0.494642, 0.946903, -1.69242, -0.16317, 0.202713, 1.557015, 0.989404, -0.027213, -0.068576, 0.049805, 1.823529,
      -0.128025, -0.00368, 0.652589, 0.17923, 0.102716, -0.814067, 0.288479, -0.143581, 1.466128, 0.953089, 0.275856, 0.968381, -0.03987, 1.352126, 0.2946,
      0.883382, -0.990893, 0.64668, -1.388204, -1.735329, -0.004477,
    ];
    const cases: [string, number[], WilcoxonMethod, number, number][] = [
      ['exact, R+ in the lower tail', lowerTail, 'exact', 8, 0.01220703125],
      ['exact, R+ in the upper tail', upperTail, 'exact', 8, 0.01220703125],
      ['13 pairs with ties, lower tail: enumerated', tiedLower, 'permutation', 7, 0.005126953125],
      ['13 pairs with ties, upper tail: enumerated', tiedLower.map((d) => -d), 'permutation', 7, 0.005126953125],
      ['13 pairs with a zero: enumerated', [0, ...lowerTail], 'permutation', 8, 0.01220703125],
      ['14 pairs with ties: normal', [...tiedLower, -9], 'normal', 7, 0.004200708267270724],
      ['50 pairs without ties: exact', d50, 'exact', 622, 0.8858855663449852],
      ['51 pairs: normal', d51, 'normal', 437, 0.03414090869156308],
    ];
    for (const [name, d, method, statistic, pValue] of cases) {
      const result = wilcoxonSignedRank(d)!;
      expect(result.method, name).toBe(method);
      expect(result.statistic, name).toBe(statistic);
      expect(Math.abs(result.pValue - pValue), name).toBeLessThan(1e-12);
    }
  });

  it('all differences zero (or none): undefined', () => {
    expect(wilcoxonSignedRank([0, 0, 0])).toBeNull();
    expect(wilcoxonSignedRank([])).toBeNull();
  });
});

/** erfc by its continued fraction / series (Numerical Recipes erfcc is too coarse): high-precision series for |x| < 3. */
function erfc(x: number): number {
  // erf(x) = 2/√π · e^{−x²} · Σ 2ⁿ x^{2n+1} / (1·3·…·(2n+1)), all terms positive.
  let term = x;
  let sum = x;
  for (let n = 1; n < 200; n++) {
    term *= (2 * x * x) / (2 * n + 1);
    sum += term;
  }
  return 1 - (2 / Math.sqrt(Math.PI)) * Math.exp(-x * x) * sum;
}
