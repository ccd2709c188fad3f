import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { holmAdjust } from '../../../src/core/stats/holm.js';

function expectAllClose(actual: number[], expected: number[]): void {
  expect(actual).toHaveLength(expected.length);
  actual.forEach((value, i) => expect(value).toBeCloseTo(expected[i] as number, 12));
}

describe('holmAdjust', () => {
  it('textbook example, returned in input order', () => {
    // Sorted: 0.005·4 = 0.02, 0.01·3 = 0.03, 0.03·2 = 0.06, 0.04·1 = 0.04 → raised to 0.06 (step-down monotonicity).
    expectAllClose(holmAdjust([0.01, 0.04, 0.03, 0.005]), [0.03, 0.06, 0.06, 0.02]);
  });

  it('a single p-value is unchanged; no p-values → []', () => {
    expect(holmAdjust([0.037])).toEqual([0.037]);
    expect(holmAdjust([])).toEqual([]);
  });

  it('clamps to 1', () => {
    expect(holmAdjust([0.5, 0.6, 0.01])).toEqual([1, 1, 0.03]);
  });

  it('ties get the same adjusted value whatever their position', () => {
    expectAllClose(holmAdjust([0.02, 0.04, 0.02]), [0.06, 0.06, 0.06]);
    expectAllClose(holmAdjust([0.01, 0.01, 0.2, 0.01]), [0.04, 0.04, 0.2, 0.04]);
  });

  it('rejects values outside [0, 1] and NaN', () => {
    expect(() => holmAdjust([0.1, 1.2])).toThrow('p-value 1 must be in [0, 1], got 1.2');
    expect(() => holmAdjust([-0.1])).toThrow('p-value 0 must be in [0, 1], got -0.1');
    expect(() => holmAdjust([0.2, 0.3, Number.NaN])).toThrow('p-value 2 must be in [0, 1], got NaN');
    // The ends of [0, 1] are p-values.
    expect(holmAdjust([0, 1])).toEqual([0, 1]);
  });

  it('properties: raw ≤ adjusted ≤ min(1, m·raw), order preserved, permutation-equivariant', () => {
    const pValues = fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 1, maxLength: 20 });
    fc.assert(
      fc.property(pValues, fc.integer({ min: 0, max: 1000 }), (raw, shift) => {
        const m = raw.length;
        const adjusted = holmAdjust(raw);
        raw.forEach((p, i) => {
          const a = adjusted[i] as number;
          expect(a).toBeGreaterThanOrEqual(p);
          expect(a).toBeLessThanOrEqual(Math.min(1, m * p));
          raw.forEach((q, j) => {
            if (p <= q) expect(a).toBeLessThanOrEqual(adjusted[j] as number);
          });
        });
        // Rotating the input rotates the output.
        const k = shift % m;
        const rotated = [...raw.slice(k), ...raw.slice(0, k)];
        expect(holmAdjust(rotated)).toEqual([...adjusted.slice(k), ...adjusted.slice(0, k)]);
        // The smallest p-value is multiplied by m.
        expect(Math.min(...adjusted)).toBe(Math.min(1, m * Math.min(...raw)));
      }),
    );
  });
});
