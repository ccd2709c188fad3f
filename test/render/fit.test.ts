import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { largestFitting } from '../../src/render/fit.js';

/** Renders of a list whose i-th count has length `lengths[i]` (non-decreasing), counting the renders. */
function renders(lengths: readonly number[]) {
  const calls: number[] = [];
  return { calls, render: (count: number) => (calls.push(count), 'x'.repeat(lengths[count]!)) };
}

const growing = fc
  .array(fc.integer({ min: 0, max: 40 }), { minLength: 2, maxLength: 60 })
  .map((steps) => steps.reduce<number[]>((lengths, step) => [...lengths, (lengths.at(-1) ?? 0) + step], []));

describe('largestFitting', () => {
  it('finds the largest fitting count below shown, whatever the guess', () => {
    fc.assert(
      fc.property(growing, fc.integer({ min: 0, max: 1_200 }), fc.option(fc.integer({ min: -5, max: 70 }), { nil: undefined }), (lengths, maxLength, guess) => {
        const shown = lengths.length - 1;
        fc.pre(lengths[shown]! > maxLength);
        const { render } = renders(lengths);
        const fitted = largestFitting(shown, render, maxLength, guess);
        const fitting = lengths.slice(0, shown).filter((length) => length <= maxLength).length;
        if (fitting === 0) expect(fitted).toEqual({ fits: false, textAtZero: 'x'.repeat(lengths[0]!) });
        else expect(fitted).toEqual({ fits: true, count: fitting - 1, text: 'x'.repeat(lengths[fitting - 1]!) });
      }),
    );
  });

  it('renders twice from an exact guess, and gallops from a wrong one', () => {
    const lengths = Array.from({ length: 1_001 }, (_, count) => 100 + 10 * count);
    const exact = renders(lengths);
    expect(largestFitting(1_000, exact.render, 5_000, 490)).toMatchObject({ fits: true, count: 490 });
    expect(exact.calls).toEqual([490, 491]);

    const low = renders(lengths);
    expect(largestFitting(1_000, low.render, 5_000, 480)).toMatchObject({ fits: true, count: 490 });
    expect(low.calls).toEqual([480, 481, 482, 484, 488, 496, 492, 490, 491]);

    const high = renders(lengths);
    expect(largestFitting(1_000, high.render, 5_000, 495)).toMatchObject({ fits: true, count: 490 });
    expect(high.calls).toEqual([495, 494, 493, 491, 487, 489, 490]);
  });

  it('reports the render of 0 rows when even that is too long, rendering 0 once', () => {
    const lengths = [500, 600, 700];
    const { calls, render } = renders(lengths);
    expect(largestFitting(2, render, 400, 1)).toEqual({ fits: false, textAtZero: 'x'.repeat(500) });
    expect(calls).toEqual([1, 0]);
  });
});
