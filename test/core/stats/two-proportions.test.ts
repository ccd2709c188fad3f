import { describe, expect, it } from 'vitest';
import { newcombeInterval, twoProportionTest } from '../../../src/core/stats/two-proportions.js';

/*
 * Reference values from scipy 1.17.1:
 * - Newcombe: each side's Wilson interval from binomtest(k, n).proportion_ci(0.95, method='wilson'), combined as
 *   [d − √((p1 − l1)² + (u2 − p2)²), d + √((u1 − p1)² + (p2 − l2)²)]; the cases are Newcombe's (1998, Table II,
 *   method 10), whose four-decimal bounds they reproduce (56/70 − 48/80: 0.0524 to 0.3339, and so on).
 * - z test: chi2_contingency([[c1, n1 − c1], [c2, n2 − c2]], correction=False) for χ² = z² and the two-sided p,
 *   z = sign(p1 − p2)·√χ², and norm.sf(z) for the one-sided p of p1 > p2.
 */
describe('newcombeInterval (hybrid score interval of p1 − p2)', () => {
  it.each([
    [56, 70, 48, 80, 0.052431472402364815, 0.3338726540369059],
    [9, 10, 3, 10, 0.17052272393450302, 0.8090179735354881],
    [6, 7, 2, 7, 0.0582279274823122, 0.8062496375242278],
    [12, 40, 21, 40, -0.41323784081134385, -0.009787401742831547],
    [30, 200, 18, 150, -0.04513487254390315, 0.10048537176732561],
  ])('%i/%i − %i/%i: [%d, %d] (scipy)', (count1, n1, count2, n2, lower, upper) => {
    const [lo, hi] = newcombeInterval({ count1, n1, count2, n2 });
    expect(lo).toBeCloseTo(lower, 12);
    expect(hi).toBeCloseTo(upper, 12);
  });

  it('at the boundaries: no successes on a side, all successes, a side with no trials', () => {
    // 0/10 − 0/20: d = 0, so the bounds are −u2 and u1, the Wilson upper bounds of 0/20 and 0/10.
    const [lo0, hi0] = newcombeInterval({ count1: 0, n1: 10, count2: 0, n2: 20 });
    expect(lo0).toBeCloseTo(-0.16112515805281935, 12);
    expect(hi0).toBeCloseTo(0.27753279986288926, 12);
    // 10/10 − 0/20: u1 = 1 and l2 = 0 exactly, so the upper bound is d + 0 = 1.
    const [lo1, hi1] = newcombeInterval({ count1: 10, n1: 10, count2: 0, n2: 20 });
    expect(lo1).toBeCloseTo(0.6790860371419147, 12);
    expect(hi1).toBe(1);
    // 5/56 − 0/29 (Newcombe's example: −0.0381 to 0.1926).
    const [lo2, hi2] = newcombeInterval({ count1: 5, n1: 56, count2: 0, n2: 29 });
    expect(lo2).toBeCloseTo(-0.03813714790353688, 12);
    expect(hi2).toBeCloseTo(0.1925600138551116, 12);
    // Nothing measured on one side (either one): nothing is known about the difference.
    expect(newcombeInterval({ count1: 0, n1: 0, count2: 3, n2: 10 })).toEqual([-1, 1]);
    expect(newcombeInterval({ count1: 3, n1: 10, count2: 0, n2: 0 })).toEqual([-1, 1]);
  });

  it('swapping the sides mirrors the interval', () => {
    const [lo, hi] = newcombeInterval({ count1: 48, n1: 80, count2: 56, n2: 70 });
    expect(lo).toBeCloseTo(-0.3338726540369059, 12);
    expect(hi).toBeCloseTo(-0.052431472402364815, 12);
  });
});

describe('twoProportionTest (pooled z test)', () => {
  it.each([
    // 56/70 against 48/80: pooled 104/150, z = 0.2 / √(0.6933·0.3067·(1/70 + 1/80)).
    [56, 70, 48, 80, 2.650171951258532, 0.008045081368196585, 0.004022540684098295],
    [30, 200, 18, 150, 0.8074057056461362, 0.41943278079846114, 0.20971639039923057],
    // p1 < p2: z is negative and the one-sided p of p1 > p2 is above ½.
    [12, 40, 21, 40, -2.044003353682328, 0.0409532158397652, 0.9795233920801174],
  ])('%i/%i against %i/%i: z %d, two-sided p %d, one-sided p %d (scipy)', (count1, n1, count2, n2, z, pValue, upperPValue) => {
    const result = twoProportionTest({ count1, n1, count2, n2 });
    expect(result.z).toBeCloseTo(z, 12);
    expect(result.pValue).toBeCloseTo(pValue, 12);
    expect(result.upperPValue).toBeCloseTo(upperPValue, 12);
  });

  it('equal rates give z = 0, p = 1 and a one-sided p of ½', () => {
    expect(twoProportionTest({ count1: 3, n1: 10, count2: 6, n2: 20 })).toEqual({ z: 0, pValue: 1, upperPValue: 0.5 });
  });

  it('no spread (both sides all 0, or all 1) gives z = 0, not 0/0', () => {
    expect(twoProportionTest({ count1: 0, n1: 10, count2: 0, n2: 20 })).toEqual({ z: 0, pValue: 1, upperPValue: 0.5 });
    expect(twoProportionTest({ count1: 10, n1: 10, count2: 20, n2: 20 })).toEqual({ z: 0, pValue: 1, upperPValue: 0.5 });
  });

  it('all successes against none: pooled ⅓, se = √(⅓·⅔·(1/10 + 1/20)) = √(1/30), z = √30 (scipy: p = 4.320463057827503e-8)', () => {
    const result = twoProportionTest({ count1: 10, n1: 10, count2: 0, n2: 20 });
    expect(result.z).toBeCloseTo(Math.sqrt(30), 12);
    // Relative to the reference: the p-values are tiny.
    expect(result.pValue / 4.320463057827503e-8).toBeCloseTo(1, 9);
    expect(result.upperPValue / 2.160231528913744e-8).toBeCloseTo(1, 9);
  });

  it('a side with no trials (either one) is no evidence: z = 0, both p-values 1', () => {
    expect(twoProportionTest({ count1: 0, n1: 0, count2: 3, n2: 10 })).toEqual({ z: 0, pValue: 1, upperPValue: 1 });
    expect(twoProportionTest({ count1: 3, n1: 10, count2: 0, n2: 0 })).toEqual({ z: 0, pValue: 1, upperPValue: 1 });
  });
});
