import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { largestFitting } from '../../src/render/fit.js';

/** Non-decreasing render lengths, one per count 0…shown. */
const growing = fc
  .array(fc.integer({ min: 0, max: 40 }), { minLength: 2, maxLength: 60 })
  .map((steps) => steps.reduce<number[]>((lengths, step) => [...lengths, (lengths.at(-1) ?? 0) + step], []));

describe('largestFitting: the renders it asks for', () => {
  it('renders each count at most once, and never `shown`, which the caller knows does not fit', () => {
    fc.assert(
      fc.property(growing, fc.integer({ min: 0, max: 1_200 }), fc.option(fc.integer({ min: -5, max: 70 }), { nil: undefined }), (lengths, maxLength, guess) => {
        const shown = lengths.length - 1;
        fc.pre(lengths[shown]! > maxLength);
        const calls: number[] = [];
        largestFitting(shown, (count) => (calls.push(count), 'x'.repeat(lengths[count]!)), maxLength, guess);
        expect(calls).not.toContain(shown);
        expect(new Set(calls).size).toBe(calls.length);
      }),
    );
  });

  it('galloping up from a fitting guess stops below `shown`', () => {
    // Counts 0…3 fit, 4 = shown does not: from 0 the gallop tries 1 and 2, then 0 + 4 would be `shown`; 3 is bisected.
    const calls: number[] = [];
    const fitted = largestFitting(4, (count) => (calls.push(count), 'x'.repeat(count < 4 ? 10 : 100)), 50, 0);
    expect(fitted).toEqual({ fits: true, count: 3, text: 'x'.repeat(10) });
    expect(calls).toEqual([0, 1, 2, 3]);
  });
});
