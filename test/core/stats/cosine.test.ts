import { describe, expect, it } from 'vitest';
import { cosine } from '../../../src/core/stats/cosine.js';

describe('cosine similarity', () => {
  it('worked values: (1, 2, 3)·(4, 5, 6) = 32 over √14·√77; parallel 1, opposite −1, orthogonal 0', () => {
    expect(cosine([1, 2, 3], [4, 5, 6])).toBeCloseTo(32 / Math.sqrt(14 * 77), 15);
    expect(cosine([1, 2, 3], [4, 5, 6])).toBeCloseTo(0.9746318461970762, 15);
    expect(cosine([0.5, -2], [1, -4])).toBeCloseTo(1, 15);
    expect(cosine([3, -1, 2], [-6, 2, -4])).toBeCloseTo(-1, 15);
    expect(cosine([1, 2, 0], [-2, 1, 5])).toBe(0);
    // (2, 1)·(1, 3) = 5 over √5·√10 = √50.
    expect(cosine([2, 1], [1, 3])).toBeCloseTo(1 / Math.SQRT2, 15);
  });

  it('a shorter second vector counts its missing entries as 0', () => {
    // (1, 1)·(1, 0) = 1 over √2·1.
    expect(cosine([1, 1], [1])).toBeCloseTo(1 / Math.SQRT2, 15);
    expect(cosine([3, 4, 12], [3, 4])).toBeCloseTo(25 / (13 * 5), 15);
  });

  it('a vector with no direction gives NaN, on either side, including one whose squares underflow to 0', () => {
    expect(cosine([0, 0], [1, 2])).toBeNaN();
    expect(cosine([1, 2], [0, 0])).toBeNaN();
    expect(cosine([0, 0], [0, 0])).toBeNaN();
    expect(cosine([], [])).toBeNaN();
    // 1e-200² underflows to 0 while the dot product does not: NaN, not dot / 0 = ±Infinity.
    expect(cosine([1e-200], [1])).toBeNaN();
    expect(cosine([1], [-1e-200])).toBeNaN();
  });
});
