import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mcnemar } from '../../../src/core/stats/mcnemar.js';
import { mcnemarSampleSize, pairedMeanSampleSize } from '../../../src/core/stats/power.js';
import { Random } from '../../../src/core/stats/random.js';
import { uniform32 } from '../../helpers/uniform.js';

/*
 * Worked values, by hand with z(0.975) = 1.959964, z(0.8) = 0.841621, z(0.995) = 2.575829, z(0.9) = 1.281552
 * (checked with Python's statistics.NormalDist().inv_cdf, which does not share code with the library).
 *
 * McNemar, n = (z_{1−α/2}·√ψ + z_{power}·√(ψ − δ²))² / δ², ψ = pFixed + pBroken, δ = pFixed − pBroken:
 * - PR comment scenario, 200 paired, 6 fixed / 15 broken: pFixed 0.03, pBroken 0.075, ψ 0.105, δ −0.045:
 *   (1.959964·0.324037 + 0.841621·0.320897)² / 0.002025 = (0.635101 + 0.270074)² / 0.002025 = 404.613 → 405.
 * - reference article, 38 fixed / 24 broken of 200: pFixed 0.19, pBroken 0.12, ψ 0.31, δ 0.07 → 494.197 → 495
 *   (consistent with the article: the same effect is significant at 500 questions).
 * - pFixed 0.1, pBroken 0.05 → 468.568 → 469.
 * - 0.03 / 0.075 at α 0.01, power 0.9 → 766.564 → 767.
 * Paired mean, n = ((z_{1−α/2} + z_{power})·sd / δ)²:
 * - δ 0.05, sd 0.2: (2.801585·4)² = 125.582 → 126.
 * - δ 0.01, sd 0.1: (28.01585)² = 784.888 → 785.
 * - δ 0.05, sd 0.2, α 0.01, power 0.9: (3.857381·4)² = 238.070 → 239.
 */
describe('mcnemarSampleSize', () => {
  it('matches the worked values', () => {
    expect(mcnemarSampleSize({ pFixed: 6 / 200, pBroken: 15 / 200 })).toBe(405);
    expect(mcnemarSampleSize({ pFixed: 38 / 200, pBroken: 24 / 200 })).toBe(495);
    expect(mcnemarSampleSize({ pFixed: 0.1, pBroken: 0.05 })).toBe(469);
    expect(mcnemarSampleSize({ pFixed: 0.03, pBroken: 0.075, alpha: 0.01, power: 0.9 })).toBe(767);
  });

  it('is Infinity when there is no difference to detect', () => {
    expect(mcnemarSampleSize({ pFixed: 0.04, pBroken: 0.04 })).toBe(Infinity);
    expect(mcnemarSampleSize({ pFixed: 0, pBroken: 0 })).toBe(Infinity);
  });

  it('is symmetric in fixed and broken; larger effects need fewer pairs; stricter alpha or more power need more', () => {
    const share = fc.integer({ min: 0, max: 400 }).map((k) => k / 1000);
    fc.assert(
      fc.property(
        share,
        share,
        fc.integer({ min: 1, max: 100 }).map((k) => k / 1000),
        (pFixed, pBroken, extra) => {
          const n = mcnemarSampleSize({ pFixed, pBroken });
          expect(mcnemarSampleSize({ pFixed: pBroken, pBroken: pFixed })).toBe(n);
          if (pFixed === pBroken) return;
          expect(n).toBeGreaterThanOrEqual(1);
          // Widen the gap keeping the discordant share: larger effect, smaller n.
          const [low, high] = pFixed < pBroken ? [pFixed, pBroken] : [pBroken, pFixed];
          const moved = Math.min(extra, low);
          if (moved > 0) expect(mcnemarSampleSize({ pFixed: low - moved, pBroken: high + moved })).toBeLessThanOrEqual(n);
          expect(mcnemarSampleSize({ pFixed, pBroken, alpha: 0.01 })).toBeGreaterThanOrEqual(n);
          expect(mcnemarSampleSize({ pFixed, pBroken, power: 0.9 })).toBeGreaterThanOrEqual(n);
        },
      ),
    );
  });

  it('delivers about the promised power: simulated McNemar tests at n = 405 reject about 80% of the time (simulation)', () => {
    const random = new Random('power');
    const n = 405;
    const trials = 2000;
    let rejected = 0;
    for (let t = 0; t < trials; t++) {
      let fixed = 0;
      let broken = 0;
      for (let i = 0; i < n; i++) {
        const u = uniform32(random);
        if (u < 0.03) fixed++;
        else if (u < 0.105) broken++;
      }
      if (mcnemar(fixed, broken).pValue < 0.05) rejected++;
    }
    // The continuity-corrected test is a little conservative, so the power lands somewhat below 0.8.
    expect(rejected / trials).toBeGreaterThan(0.7);
    expect(rejected / trials).toBeLessThan(0.88);
  });

  it('rejects impossible inputs, saying which (alpha and power at both ends of (0, 1))', () => {
    const shares = 'pFixed and pBroken must be non-negative with sum ≤ 1, got';
    expect(() => mcnemarSampleSize({ pFixed: -0.1, pBroken: 0.2 })).toThrow(`${shares} -0.1 and 0.2`);
    expect(() => mcnemarSampleSize({ pFixed: 0.2, pBroken: -0.1 })).toThrow(`${shares} 0.2 and -0.1`);
    expect(() => mcnemarSampleSize({ pFixed: 0.6, pBroken: 0.6 })).toThrow(`${shares} 0.6 and 0.6`);
    expect(() => mcnemarSampleSize({ pFixed: Number.NaN, pBroken: 0.1 })).toThrow(`${shares} NaN and 0.1`);
    for (const alpha of [0, 1, -0.05, Number.NaN]) {
      expect(() => mcnemarSampleSize({ pFixed: 0.1, pBroken: 0.2, alpha })).toThrow(`alpha must be in (0, 1), got ${alpha}`);
    }
    for (const power of [0, 1, 1.5, Number.NaN]) {
      expect(() => mcnemarSampleSize({ pFixed: 0.1, pBroken: 0.2, power })).toThrow(`power must be in (0, 1), got ${power}`);
    }
    // The edges of the allowed shares: one of them 0, and a sum of exactly 1.
    // (1.959964·√0.2 + 0.841621·√(0.2 − 0.04))² / 0.04 = 1.21317² / 0.04 = 36.79 → 37
    expect(mcnemarSampleSize({ pFixed: 0, pBroken: 0.2 })).toBe(37);
    // (1.959964·1 + 0.841621·√(1 − 0.04))² / 0.04 = 2.78458² / 0.04 = 193.85 → 194
    expect(mcnemarSampleSize({ pFixed: 0.6, pBroken: 0.4 })).toBe(194);
  });
});

describe('pairedMeanSampleSize', () => {
  it('matches the worked values, whatever the sign of the difference', () => {
    expect(pairedMeanSampleSize({ meanDifference: 0.05, sdDifference: 0.2 })).toBe(126);
    expect(pairedMeanSampleSize({ meanDifference: -0.05, sdDifference: 0.2 })).toBe(126);
    expect(pairedMeanSampleSize({ meanDifference: 0.01, sdDifference: 0.1 })).toBe(785);
    expect(pairedMeanSampleSize({ meanDifference: 0.05, sdDifference: 0.2, alpha: 0.01, power: 0.9 })).toBe(239);
  });

  it('a size that is a whole number up to rounding is that number, not the next one', () => {
    // sd = √k / (z(0.975) + z(0.8)) with the sum from scipy 1.17.1 (norm.ppf(0.975) + norm.ppf(0.8) =
    // 2.8015852181129683) makes n = k exactly; the doubles land on 405.00000000000006, 999.9999999999998 and 100.
    const zSum = 2.8015852181129683;
    for (const k of [100, 405, 1000]) {
      expect(pairedMeanSampleSize({ meanDifference: 1, sdDifference: Math.sqrt(k) / zSum }), `n = ${k}`).toBe(k);
      // A hair more noise needs the next whole number.
      expect(pairedMeanSampleSize({ meanDifference: 1, sdDifference: (Math.sqrt(k) / zSum) * (1 + 1e-9) }), `n > ${k}`).toBe(k + 1);
    }
  });

  it('is Infinity for no difference, at least 1 otherwise', () => {
    expect(pairedMeanSampleSize({ meanDifference: 0, sdDifference: 0.2 })).toBe(Infinity);
    expect(pairedMeanSampleSize({ meanDifference: 0.1, sdDifference: 0 })).toBe(1);
    // Nothing to detect and no noise: still Infinity, not 0/0.
    expect(pairedMeanSampleSize({ meanDifference: 0, sdDifference: 0 })).toBe(Infinity);
  });

  it('larger effects need fewer pairs, noisier differences more', () => {
    const positive = fc.integer({ min: 1, max: 1000 }).map((k) => k / 1000);
    fc.assert(
      fc.property(positive, positive, positive, (delta, sd, extra) => {
        const n = pairedMeanSampleSize({ meanDifference: delta, sdDifference: sd });
        expect(pairedMeanSampleSize({ meanDifference: delta + extra, sdDifference: sd })).toBeLessThanOrEqual(n);
        expect(pairedMeanSampleSize({ meanDifference: delta, sdDifference: sd + extra })).toBeGreaterThanOrEqual(n);
      }),
    );
  });

  it('rejects bad input, saying which', () => {
    expect(() => pairedMeanSampleSize({ meanDifference: 0.1, sdDifference: -1 })).toThrow('sdDifference must be finite and ≥ 0, got -1');
    expect(() => pairedMeanSampleSize({ meanDifference: 0.1, sdDifference: Infinity })).toThrow('sdDifference must be finite and ≥ 0, got Infinity');
    expect(() => pairedMeanSampleSize({ meanDifference: Number.NaN, sdDifference: 1 })).toThrow('meanDifference must be finite, got NaN');
    expect(() => pairedMeanSampleSize({ meanDifference: Infinity, sdDifference: 1 })).toThrow('meanDifference must be finite, got Infinity');
    expect(() => pairedMeanSampleSize({ meanDifference: 0.1, sdDifference: 1, alpha: 1 })).toThrow('alpha must be in (0, 1), got 1');
    expect(() => pairedMeanSampleSize({ meanDifference: 0.1, sdDifference: 1, power: 0 })).toThrow('power must be in (0, 1), got 0');
  });
});
