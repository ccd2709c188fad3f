import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { noiseDiscordance } from '../../../src/core/stats/noise-floor.js';

/** C(n, k) for small n. */
const choose = (n: number, k: number): number => (k < 0 || k > n ? 0 : k === 0 ? 1 : (choose(n - 1, k - 1) * n) / k);

describe('noiseDiscordance: the pooled runs dealt at random between base and head', () => {
  it('3 of 5 and 3 of 5: 6 passes in 10 runs put 4 or 5 on base with (C(5,4)·C(5,2) + C(5,5)·C(5,1)) / C(10,6) = 55/210', () => {
    const { lower, higher } = noiseDiscordance(3, 5, 3, 5);
    expect(lower).toBeCloseTo(55 / 210, 14);
    expect(higher).toBeCloseTo(55 / 210, 14);
  });

  it('unequal sides: 2 of 3 in base, 1 of 2 in head, rates compared by cross-multiplying (1/2 = 2/4)', () => {
    // 3 passes in 5 runs; base takes b of them with C(3,b)·C(2,3−b)/C(5,3): b=1: 3/10 (head 2/2 > 1/3),
    // b=2: 6/10 (head 1/2 < 2/3), b=3: 1/10 (head 0/2 < 3/3).
    const { lower, higher } = noiseDiscordance(2, 3, 1, 2);
    expect(lower).toBeCloseTo(0.7, 14);
    expect(higher).toBeCloseTo(0.3, 14);
    // 2 of 4 against 1 of 2: b = 2 gives equal rates, which count neither way.
    const even = noiseDiscordance(2, 4, 1, 2);
    expect(even.lower + even.higher).toBeCloseTo(1 - (choose(4, 2) * choose(2, 1)) / choose(6, 3), 14);
  });

  it('a question steady on both sides counts 0, even when it moved (a deterministic change is not noise)', () => {
    expect(noiseDiscordance(5, 5, 0, 5)).toEqual({ lower: 0, higher: 0 });
    expect(noiseDiscordance(3, 3, 3, 3)).toEqual({ lower: 0, higher: 0 });
    // Steady in base but not in head: its runs vary, so it counts.
    expect(noiseDiscordance(5, 5, 1, 5).lower).toBeCloseTo(55 / 210, 14);
  });

  it('is a probability, symmetric when the sides swap, and matches the direct hypergeometric sum', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 12 }), fc.nat(), fc.nat(), (baseRuns, headRuns, a, b) => {
        const basePasses = a % (baseRuns + 1);
        const headPasses = b % (headRuns + 1);
        const { lower, higher } = noiseDiscordance(basePasses, baseRuns, headPasses, headRuns);
        const swapped = noiseDiscordance(headPasses, headRuns, basePasses, baseRuns);
        expect(swapped.lower).toBeCloseTo(higher, 12);
        expect(lower + higher).toBeLessThanOrEqual(1 + 1e-12);
        const passes = basePasses + headPasses;
        const steady = (p: number, n: number) => p === 0 || p === n;
        let direct = 0;
        if (!(steady(basePasses, baseRuns) && steady(headPasses, headRuns)))
          for (let k = 0; k <= baseRuns; k++)
            if ((passes - k) * baseRuns < k * headRuns) direct += (choose(baseRuns, k) * choose(headRuns, passes - k)) / choose(baseRuns + headRuns, passes);
        expect(lower).toBeCloseTo(direct, 12);
      }),
    );
  });

  it('stays finite for hundreds of runs', () => {
    const { lower, higher } = noiseDiscordance(300, 600, 310, 600);
    expect(Number.isFinite(lower) && Number.isFinite(higher)).toBe(true);
    expect(lower + higher).toBeGreaterThan(0.9);
  });
});
