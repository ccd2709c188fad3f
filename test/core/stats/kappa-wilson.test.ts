import { describe, expect, it } from 'vitest';
import { cohensKappa } from '../../../src/core/stats/kappa.js';
import { wilsonInterval } from '../../../src/core/stats/wilson.js';

/** `count` copies of the pair (human, judge). */
const repeat = (count: number, human: string, judge: string) => Array.from({ length: count }, () => [human, judge] as const);

/** The third article's 100 claim-context pairs: human 70 supported, judge 76, agreement on 88. */
const ARTICLE_KAPPA_PAIRS = [
  ...repeat(67, 'SUPPORTED', 'SUPPORTED'),
  ...repeat(3, 'SUPPORTED', 'NOT_SUPPORTED'),
  ...repeat(9, 'NOT_SUPPORTED', 'SUPPORTED'),
  ...repeat(21, 'NOT_SUPPORTED', 'NOT_SUPPORTED'),
];

describe("Cohen's kappa", () => {
  it('the third article: observed 0.88, chance 0.604, kappa 0.697', () => {
    const agreement = cohensKappa(ARTICLE_KAPPA_PAIRS)!;
    expect(agreement.n).toBe(100);
    expect(agreement.observed).toBeCloseTo(0.88, 12);
    // p_e = 0.70 · 0.76 + 0.30 · 0.24 = 0.532 + 0.072
    expect(agreement.expected).toBeCloseTo(0.604, 12);
    // (0.88 − 0.604) / (1 − 0.604) = 0.276 / 0.396
    expect(agreement.kappa).toBeCloseTo(0.276 / 0.396, 12);
    expect(agreement.kappa!.toFixed(3)).toBe('0.697');
    expect(agreement.confusion).toEqual({
      SUPPORTED: { SUPPORTED: 67, NOT_SUPPORTED: 3 },
      NOT_SUPPORTED: { SUPPORTED: 9, NOT_SUPPORTED: 21 },
    });
  });

  it('perfect agreement is 1; agreement at chance is 0; systematic disagreement is negative', () => {
    expect(cohensKappa([...repeat(5, 'a', 'a'), ...repeat(5, 'b', 'b')])!.kappa).toBe(1);
    // Independent raters: each uses a/b half the time, agreeing on exactly half.
    expect(
      cohensKappa([
        ['a', 'a'],
        ['a', 'b'],
        ['b', 'a'],
        ['b', 'b'],
      ])!.kappa,
    ).toBe(0);
    expect(cohensKappa([...repeat(5, 'a', 'b'), ...repeat(5, 'b', 'a')])!.kappa).toBe(-1);
  });

  it('works for more than two labels', () => {
    // 3×3 table: diagonal 4+3+2 of 12; human marginals 5,4,3; judge marginals 5,4,3 → p_e = (25+16+9)/144.
    const pairs = [...repeat(4, 'x', 'x'), ['x', 'y'] as const, ...repeat(3, 'y', 'y'), ['y', 'z'] as const, ['z', 'x'] as const, ...repeat(2, 'z', 'z')];
    const agreement = cohensKappa(pairs)!;
    const po = 9 / 12;
    const pe = 50 / 144;
    expect(agreement.observed).toBeCloseTo(po, 15);
    expect(agreement.expected).toBeCloseTo(pe, 15);
    expect(agreement.kappa).toBeCloseTo((po - pe) / (1 - pe), 12);
  });

  it('is undefined (null) when both raters used a single label, and null for no pairs', () => {
    const agreement = cohensKappa(repeat(4, 'a', 'a'))!;
    expect(agreement.kappa).toBeNull();
    expect(agreement.observed).toBe(1);
    expect(agreement.expected).toBe(1);
    expect(cohensKappa([])).toBeNull();
  });
});

describe('Wilson 95% interval', () => {
  /** The closed form (2np + z² ± z·√(z² + 4np(1−p))) / (2(n + z²)), written independently of the code. */
  function wilsonReference(successes: number, n: number): [number, number] {
    const z = 1.959963984540054;
    const p = successes / n;
    const centre = 2 * n * p + z * z;
    const spread = z * Math.sqrt(z * z + 4 * n * p * (1 - p));
    const denominator = 2 * (n + z * z);
    return [Math.max(0, (centre - spread) / denominator), Math.min(1, (centre + spread) / denominator)];
  }

  it.each([
    // successes, n, lower, upper (3 dp)
    [0, 10, 0, 0.2775], // upper = z²/(n + z²) = 3.8415/13.8415
    [10, 10, 0.7225, 1],
    [5, 10, 0.2366, 0.7634],
    [10, 12, 0.552, 0.953],
  ])('%i/%i matches the closed form: [%f, %f]', (successes, n, lower, upper) => {
    const [lo, hi] = wilsonInterval(successes, n);
    const [refLo, refHi] = wilsonReference(successes, n);
    expect(lo).toBeCloseTo(refLo, 12);
    expect(hi).toBeCloseTo(refHi, 12);
    expect(lo).toBeCloseTo(lower, 3);
    expect(hi).toBeCloseTo(upper, 3);
  });

  // Newcombe (1998), "Two-sided confidence intervals for the single proportion: comparison of seven
  // methods", Statistics in Medicine 17:857-872, Table I, method 3 (score interval without continuity
  // correction).
  it.each([
    [81, 263, 0.2553, 0.3662],
    [15, 148, 0.0624, 0.1605],
    [0, 20, 0, 0.1611],
    [1, 29, 0.0061, 0.1718],
  ])('%i/%i matches Newcombe (1998): [%f, %f]', (successes, n, lower, upper) => {
    const [lo, hi] = wilsonInterval(successes, n);
    expect(lo.toFixed(4)).toBe(lower.toFixed(4));
    expect(hi.toFixed(4)).toBe(upper.toFixed(4));
  });

  it('0/n and n/n stay inside [0, 1] and within 1e-15 of their point estimate', () => {
    for (let n = 1; n <= 200; n++) {
      const [lo0, hi0] = wilsonInterval(0, n);
      expect(lo0).toBeGreaterThanOrEqual(0);
      expect(lo0).toBeLessThan(1e-15);
      expect(hi0).toBeCloseTo(3.8414588206941254 / (n + 3.8414588206941254), 12); // z² / (n + z²)
      const [loN, hiN] = wilsonInterval(n, n);
      expect(hiN).toBeLessThanOrEqual(1);
      expect(hiN).toBeGreaterThan(1 - 1e-15);
      expect(loN).toBeCloseTo(n / (n + 3.8414588206941254), 12);
    }
  });

  // The float formula lands one ulp inside at boundary counts (0/7 gave 2.8e-17); the bound must be exact.
  it('0/n starts exactly at 0 and n/n ends exactly at 1 (the interval holds its point estimate)', () => {
    for (let n = 1; n <= 200; n++) {
      expect(wilsonInterval(0, n)[0], `0/${n}`).toBe(0);
      expect(wilsonInterval(n, n)[1], `${n}/${n}`).toBe(1);
    }
  });

  it('n = 0 gives the uninformative [0, 1]', () => {
    expect(wilsonInterval(0, 0)).toEqual([0, 1]);
  });
});
