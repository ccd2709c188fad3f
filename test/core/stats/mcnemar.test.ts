import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MCNEMAR_EXACT_THRESHOLD, mcnemar, mcnemarUsesExact } from '../../../src/core/stats/mcnemar.js';

/** |actual − expected| / |expected| ≤ tolerance. */
function expectRelativelyClose(actual: number, expected: number, tolerance: number): void {
  expect(Math.abs(actual - expected) / Math.abs(expected)).toBeLessThanOrEqual(tolerance);
}

/**
 * Independent exact two-sided binomial p-value with BigInt: min(1, 2·Σ_{i ≤ min(f, b)} C(f + b, i) / 2^(f + b)).
 * Exact integer sums; only the conversion to a double and the final division round.
 */
function exactByBigInt(fixed: number, broken: number): number {
  const n = BigInt(fixed + broken);
  const k = BigInt(Math.min(fixed, broken));
  let term = 1n;
  let sum = 0n;
  for (let i = 0n; i <= k; i++) {
    sum += term;
    term = (term * (n - i)) / (i + 1n);
  }
  // Number(2·sum) rounds once (relative 1e-16); 2^n is exact in a double for n ≤ 1023.
  return Math.min(1, Number(2n * sum) / 2 ** Number(n));
}

/*
 * Reference values computed outside the library with Python 3 (standard library only):
 * - exactPValue: exact rational arithmetic — Python big integers sum C(n, i) for i ≤ min(f, b), then
 *   float(min(1, Fraction(2·sum, 2**n))) (correctly rounded).
 * - chi2PValue: x = Fraction(max(0, |f − b| − 1)², f + b) exactly; p = erfc(√(x/2)) evaluated in `decimal` at
 *   120 significant digits as 1 − erf, erf(z) = 2/√π·e^{−z²}·Σ 2ⁿz^{2n+1}/(1·3·…·(2n+1)) (all-positive series;
 *   π from the decimal-module recipe), cross-checked against math.erfc (agreement ≤ 1.1e-14 relative).
 */
const REFERENCES = [
  // [fixed, broken, chi2, chi2PValue, exactPValue]
  [2, 16, 9.38888888888889, 0.002183044737362253, 0.001312255859375],
  [38, 24, 2.725806451612903, 0.09873823777462477, 0.09795444051950737],
  [95, 60, 7.458064516129032, 0.006315287236426033, 0.006132892626972144],
  [10, 14, 0.375, 0.5402913746074199, 0.5412561893463135],
  [49950, 50050, 0.09801, 0.7542309083786458, 0.7542310871591272],
  [49900, 50100, 0.39601, 0.5291570867513564, 0.5291572940801932],
  [49000, 51000, 39.96001, 2.592157679681921e-10, 2.588716038346898e-10],
  [48000, 52000, 159.92001, 1.1779455463120723e-36, 1.1530938666722977e-36],
] as const;

describe('mcnemar: the reference article A/B numbers', () => {
  it('138 vs 152 of 200 (38 fixed, 24 broken): χ² 2.726, p ≈ 0.10, not significant at 0.05', () => {
    const result = mcnemar(38, 24, 114, 24);
    expect(result.chi2).toBeCloseTo(2.726, 3);
    expect(result.chi2).toBe(169 / 62); // (14 − 1)² / 62
    expect(result.chi2).toBeLessThan(3.841); // the article's 5% critical value
    expect(result.chi2PValue).toBeGreaterThan(0.05);
    expect(result.exactPValue).toBeGreaterThan(0.05);
    expect(result.pValue).toBeCloseTo(0.1, 1);
    expect(result.decidedBy).toBe('chi2'); // 62 discordant pairs ≥ 25
    expect(result).toMatchObject({ fixed: 38, broken: 24, bothRight: 114, bothWrong: 24, discordant: 62 });
    // Head fixes 38 and breaks 24: odds 38/24 = 1.58, its exact interval straddling 1 as the p-value says.
    expect(result.oddsRatio).toBe(38 / 24);
    expect(result.oddsRatioCI[0]).toBeLessThan(1);
    expect(result.oddsRatioCI[1]).toBeGreaterThan(1);
  });

  it('the same effect at 500 questions (95 fixed, 60 broken): χ² = 1156/155 = 7.46, significant', () => {
    const result = mcnemar(95, 60);
    expect(result.chi2).toBe(1156 / 155);
    expect(result.chi2).toBeCloseTo(7.46, 2);
    expect(result.chi2).toBeGreaterThan(3.841);
    expect(result.pValue).toBeLessThan(0.05);
    expect(result.exactPValue).toBeLessThan(0.05);
    expect(result.decidedBy).toBe('chi2');
  });
});

describe('mcnemar: exact and χ² p-values against independent references', () => {
  it.each(REFERENCES)('fixed %d, broken %d', (fixed, broken, chi2, chi2PValue, exactPValue) => {
    const result = mcnemar(fixed, broken);
    expectRelativelyClose(result.chi2, chi2, 1e-12);
    expectRelativelyClose(result.chi2PValue, chi2PValue, 1e-6);
    expectRelativelyClose(result.exactPValue, exactPValue, 1e-6);
    // Symmetric in fixed and broken.
    const swapped = mcnemar(broken, fixed);
    expect(swapped.exactPValue).toBe(result.exactPValue);
    expect(swapped.chi2PValue).toBe(result.chi2PValue);
  });

  it('fixed 2, broken 16: exact p = 2·(1 + 18 + 153)/2^18 = 344/262144, decided exactly', () => {
    const result = mcnemar(2, 16);
    expect(result.exactPValue).toBeCloseTo(344 / 262144, 15);
    expect(result.decidedBy).toBe('exact');
    expect(result.pValue).toBe(result.exactPValue);
  });

  it('small hand sums: 0 vs 5 → 2/32, 1 vs 6 → 2·8/128, 3 vs 9 → 2·299/4096', () => {
    expect(mcnemar(0, 5).exactPValue).toBeCloseTo(2 / 32, 15);
    expect(mcnemar(6, 1).exactPValue).toBeCloseTo(16 / 128, 15);
    // C(12,0..3) = 1 + 12 + 66 + 220 = 299
    expect(mcnemar(3, 9).exactPValue).toBeCloseTo(598 / 4096, 15);
  });

  it('large n tails keep relative accuracy (no 1 − cdf cancellation)', () => {
    const result = mcnemar(48000, 52000);
    expect(result.chi2PValue).toBeGreaterThan(0);
    expect(result.chi2PValue).toBeLessThan(1e-35);
    expect(result.pValue).toBe(result.chi2PValue);
  });
});

describe('mcnemar: conventions', () => {
  it('no discordant pairs: chi2 0, every p-value 1, the odds ratio undefined', () => {
    expect(mcnemar(0, 0, 10, 5)).toEqual({
      fixed: 0,
      broken: 0,
      bothRight: 10,
      bothWrong: 5,
      discordant: 0,
      chi2: 0,
      chi2PValue: 1,
      exactPValue: 1,
      midPValue: 1,
      oddsRatio: NaN,
      oddsRatioCI: [NaN, NaN],
      pValue: 1,
      decidedBy: 'exact',
    });
  });

  it('continuity correction is floored at 0: |fixed − broken| ≤ 1 gives chi2 0 and χ² p 1', () => {
    for (const [fixed, broken] of [
      [30, 30],
      [30, 31],
      [31, 30],
      [0, 1],
    ] as const) {
      const result = mcnemar(fixed, broken);
      expect(result.chi2).toBe(0);
      expect(result.chi2PValue).toBe(1);
      expect(result.exactPValue).toBe(1);
    }
  });

  it('the exact p-value decides below 25 discordant pairs, χ² from 25 on', () => {
    expect(MCNEMAR_EXACT_THRESHOLD).toBe(25);
    expect(mcnemarUsesExact(24)).toBe(true);
    expect(mcnemarUsesExact(25)).toBe(false);
    const below = mcnemar(6, 18);
    expect(below.decidedBy).toBe('exact');
    expect(below.pValue).toBe(below.exactPValue);
    const at = mcnemar(6, 19);
    expect(at.decidedBy).toBe('chi2');
    expect(at.pValue).toBe(at.chi2PValue);
  });

  it('rejects counts that are not non-negative integers', () => {
    expect(() => mcnemar(-1, 3)).toThrow('fixed must be a non-negative integer, got -1');
    expect(() => mcnemar(1.5, 3)).toThrow('fixed must be a non-negative integer, got 1.5');
    expect(() => mcnemar(1, Number.NaN)).toThrow('broken must be a non-negative integer, got NaN');
    expect(() => mcnemar(1, 2, -1)).toThrow('bothRight must be a non-negative integer, got -1');
    expect(() => mcnemar(1, 2, 0, Infinity)).toThrow('bothWrong must be a non-negative integer, got Infinity');
    expect(() => mcnemar(2 ** 53, 0)).toThrow('fixed must be a non-negative integer, got 9007199254740992');
    expect(mcnemar(0, 1, 0, 0).exactPValue).toBe(1);
  });
});

describe('mcnemar: properties', () => {
  const count = fc.integer({ min: 0, max: 3000 });

  it('p-values lie in [0, 1], the deciding one follows the threshold rule', () => {
    fc.assert(
      fc.property(count, count, (fixed, broken) => {
        const result = mcnemar(fixed, broken);
        for (const p of [result.chi2PValue, result.exactPValue, result.pValue]) {
          expect(p).toBeGreaterThanOrEqual(0);
          expect(p).toBeLessThanOrEqual(1);
        }
        expect(result.pValue).toBe(fixed + broken < 25 ? result.exactPValue : result.chi2PValue);
        expect(result.chi2).toBeGreaterThanOrEqual(0);
      }),
    );
  });

  it('symmetric: swapping fixed and broken changes no statistic', () => {
    fc.assert(
      fc.property(count, count, (fixed, broken) => {
        const a = mcnemar(fixed, broken);
        const b = mcnemar(broken, fixed);
        expect([b.chi2, b.chi2PValue, b.exactPValue, b.pValue]).toEqual([a.chi2, a.chi2PValue, a.exactPValue, a.pValue]);
      }),
    );
  });

  it('fixed = broken gives p = 1 (the doubled tail 2·P(X ≤ n/2) exceeds 1 and is clamped)', () => {
    fc.assert(
      fc.property(count, (k) => {
        const result = mcnemar(k, k);
        expect(result.exactPValue).toBe(1);
        expect(result.chi2PValue).toBe(1);
        expect(result.pValue).toBe(1);
      }),
    );
  });

  it('moving the counts further apart (raising the larger one) never raises either p-value', () => {
    fc.assert(
      fc.property(count, fc.integer({ min: 0, max: 3000 }), (smaller, gap) => {
        const before = mcnemar(smaller, smaller + gap);
        const after = mcnemar(smaller, smaller + gap + 1);
        expect(after.exactPValue).toBeLessThanOrEqual(before.exactPValue * (1 + 1e-9));
        expect(after.chi2PValue).toBeLessThanOrEqual(before.chi2PValue * (1 + 1e-9));
      }),
    );
  });

  it('exact p-value equals an independent BigInt binomial sum for n ≤ 200', () => {
    const small = fc.integer({ min: 0, max: 100 });
    fc.assert(
      fc.property(small, small, (fixed, broken) => {
        const expected = exactByBigInt(fixed, broken);
        const actual = mcnemar(fixed, broken).exactPValue;
        expect(Math.abs(actual - expected)).toBeLessThanOrEqual(1e-9 * expected);
      }),
      { numRuns: 300 },
    );
  });
});

/** C(n, k) / 2^n as an exact BigInt ratio turned into a double once. */
function binomialHalfPmf(n: number, k: number): number {
  let c = 1n;
  for (let i = 0n; i < BigInt(k); i++) c = (c * (BigInt(n) - i)) / (i + 1n);
  return Number(c) / 2 ** n;
}

describe('mcnemar: mid-p', () => {
  it('is the exact p-value less the probability of the observed table: 2·P(X < k) + P(X = k)', () => {
    for (const [fixed, broken] of [
      [2, 9],
      [0, 5],
      [7, 3],
      [11, 13],
      [1, 23],
    ] as const) {
      const result = mcnemar(fixed, broken);
      const k = Math.min(fixed, broken);
      const expected = Math.min(1, exactByBigInt(fixed, broken) - binomialHalfPmf(fixed + broken, k));
      expect(Math.abs(result.midPValue - expected)).toBeLessThan(1e-15);
      expect(result.midPValue).toBeLessThan(result.exactPValue);
    }
  });

  it('worked value: 2 fixed, 9 broken → exact 0.0654296875 (134/2048), mid-p 0.0385742188 (79/2048)', () => {
    // P(X ≤ 2) = (1 + 11 + 55) / 2048 = 67/2048; exact = 134/2048; P(X = 2) = 55/2048; mid-p = (134 − 55)/2048.
    const result = mcnemar(2, 9);
    expect(result.exactPValue).toBe(134 / 2048);
    expect(result.midPValue).toBeCloseTo(79 / 2048, 15);
  });

  it('decides below 25 discordant pairs only when asked; χ² from 25 on either way', () => {
    expect(mcnemar(2, 9).decidedBy).toBe('exact');
    expect(mcnemar(2, 9).pValue).toBe(mcnemar(2, 9).exactPValue);
    const mid = mcnemar(2, 9, 0, 0, { smallSample: 'mid-p' });
    expect(mid.decidedBy).toBe('mid-p');
    expect(mid.pValue).toBe(mid.midPValue);
    expect(mid.pValue).toBeLessThan(0.05);
    const large = mcnemar(10, 20, 0, 0, { smallSample: 'mid-p' });
    expect(large.decidedBy).toBe('chi2');
    expect(large.pValue).toBe(large.chi2PValue);
  });

  it('fixed = broken gives mid-p 1; it stays in (0, 1]', () => {
    expect(mcnemar(6, 6).midPValue).toBe(1);
    // As many fixed as broken: odds ratio 1, its interval around it (Clopper–Pearson for 3 of 6, mapped to odds).
    const even = mcnemar(3, 3);
    expect(even.oddsRatio).toBe(1);
    expect(even.oddsRatioCI[0]).toBeCloseTo(0.1181 / (1 - 0.1181), 3);
    expect(even.oddsRatioCI[1]).toBeCloseTo(0.8819 / (1 - 0.8819), 2);
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 60 }), fc.integer({ min: 0, max: 60 }), (fixed, broken) => {
        const { midPValue, exactPValue } = mcnemar(fixed, broken);
        expect(midPValue).toBeGreaterThan(0);
        expect(midPValue).toBeLessThanOrEqual(exactPValue);
      }),
    );
  });
});

describe('mcnemar: odds ratio of the discordant pairs (fixed / broken)', () => {
  it('worked interval: 9 fixed, 2 broken → OR 4.5, Clopper–Pearson on 9/11 transformed', () => {
    const result = mcnemar(9, 2);
    expect(result.oddsRatio).toBe(4.5);
    const [lower, upper] = result.oddsRatioCI;
    // πL, πU solve P(X ≥ 9 | 11, πL) = 0.025 and P(X ≤ 9 | 11, πU) = 0.025 (checked by the binomial sums below).
    const piL = lower / (1 + lower);
    const piU = upper / (1 + upper);
    const tailAtLeast9 = (pi: number) => [9, 10, 11].reduce((sum, k) => sum + binomial(11, k) * pi ** k * (1 - pi) ** (11 - k), 0);
    expect(tailAtLeast9(piL)).toBeCloseTo(0.025, 12);
    expect(1 - [10, 11].reduce((sum, k) => sum + binomial(11, k) * piU ** k * (1 - piU) ** (11 - k), 0)).toBeCloseTo(0.025, 12);
    // R's binom.test(9, 11)$conf.int: 0.4822441 0.9771688.
    expect(piL).toBeCloseTo(0.4822441, 7);
    expect(piU).toBeCloseTo(0.9771688, 7);
    expect(lower).toBeCloseTo(0.9314122581937677, 12);
    expect(upper).toBeCloseTo(42.799715935267585, 9);
  });

  it('swapping fixed and broken inverts the ratio and its interval', () => {
    const a = mcnemar(7, 3);
    const b = mcnemar(3, 7);
    expect(b.oddsRatio).toBeCloseTo(1 / a.oddsRatio, 14);
    expect(b.oddsRatioCI[0]).toBeCloseTo(1 / a.oddsRatioCI[1], 10);
    expect(b.oddsRatioCI[1]).toBeCloseTo(1 / a.oddsRatioCI[0], 10);
  });

  it('no broken pair: OR and upper bound infinite; no fixed pair: OR and lower bound 0', () => {
    const onlyFixed = mcnemar(4, 0);
    expect(onlyFixed.oddsRatio).toBe(Infinity);
    expect(onlyFixed.oddsRatioCI[1]).toBe(Infinity);
    // πL = 0.025^(1/4): the one-sided Clopper–Pearson bound when every discordant pair is a fix.
    const piL = 0.025 ** (1 / 4);
    expect(onlyFixed.oddsRatioCI[0]).toBeCloseTo(piL / (1 - piL), 10);
    const onlyBroken = mcnemar(0, 4);
    expect(onlyBroken.oddsRatio).toBe(0);
    expect(onlyBroken.oddsRatioCI[0]).toBe(0);
  });

  it('the interval excludes 1 about when the exact test rejects (it is the inverted exact test)', () => {
    for (let discordant = 1; discordant <= 30; discordant++) {
      for (let fixed = 0; fixed <= discordant; fixed++) {
        const result = mcnemar(fixed, discordant - fixed);
        const excludesOne = result.oddsRatioCI[0] > 1 || result.oddsRatioCI[1] < 1;
        // Clopper–Pearson inverts two one-sided tests at 2.5% each: excluding 1 means the doubled tail is < 5%.
        expect(excludesOne).toBe(result.exactPValue < 0.05);
      }
    }
  });
});

function binomial(n: number, k: number): number {
  let c = 1;
  for (let i = 0; i < k; i++) c = (c * (n - i)) / (i + 1);
  return c;
}
