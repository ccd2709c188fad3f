import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fitLists, largestFitting } from '../../src/render/fit.js';

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

type Key = 'a' | 'b' | 'c';
const KEYS: readonly Key[] = ['a', 'b', 'c'];
/** A render begins with its limits, so that a test can read them. */
const names = (limits: Readonly<Record<Key, number>>) => KEYS.map((key) => `${key}${limits[key]}`).join(' ');

/**
 * Three lists whose rows each add a length to a render of `fixed` characters (after the names of its limits), and
 * a lower bound that counts its names, `fixed` less `fixedSlack` and each row less `rowSlack`: exact when both are 0.
 */
const listModel = fc
  .record({
    fixed: fc.integer({ min: 0, max: 200 }),
    rows: fc.record({ a: fc.array(fc.nat(60), { maxLength: 30 }), b: fc.array(fc.nat(60), { maxLength: 30 }), c: fc.array(fc.nat(60), { maxLength: 30 }) }),
    fixedSlack: fc.oneof(fc.constant(0), fc.nat(50)),
    rowSlack: fc.oneof(fc.constant(0), fc.nat(30)),
    maxLength: fc.integer({ min: 0, max: 2_500 }),
    order: fc.shuffledSubarray([...KEYS], { minLength: 3, maxLength: 3 }),
    guessShift: fc.integer({ min: -10, max: 10 }),
  })
  .map((model) => {
    const sum = (values: readonly number[], count: number) => values.slice(0, count).reduce((total, value) => total + value, 0);
    const length = (limits: Readonly<Record<Key, number>>) => model.fixed + KEYS.reduce((total, key) => total + sum(model.rows[key], limits[key]), 0);
    const bound = (limits: Readonly<Record<Key, number>>) =>
      Math.max(0, model.fixed - model.fixedSlack) +
      names(limits).length +
      KEYS.reduce(
        (total, key) =>
          total +
          sum(
            model.rows[key].map((row) => Math.max(0, row - model.rowSlack)),
            limits[key],
          ),
        0,
      );
    const full = { a: model.rows.a.length, b: model.rows.b.length, c: model.rows.c.length };
    return { ...model, length, bound, full };
  });

/** The rule fitLists implements, by brute force: every count of each list in turn, from the largest down. */
function fitByBruteForce(
  order: readonly Key[],
  limits: Record<Key, number>,
  maxLength: number,
  length: (limits: Record<Key, number>) => number,
): Record<Key, number> {
  if (length(limits) <= maxLength) return limits;
  let best = limits;
  for (const key of order) {
    for (let count = best[key] - 1; count >= 0; count--) if (length({ ...best, [key]: count }) <= maxLength) return { ...best, [key]: count };
    best = { ...best, [key]: 0 };
  }
  return best;
}

describe('fitLists', () => {
  const text = names;

  it('cuts the lists in order as a brute-force search does, whatever the guess, and renders nothing its bound puts over the budget', () => {
    fc.assert(
      fc.property(listModel, (model) => {
        const renders: Readonly<Record<Key, number>>[] = [];
        // A render names its limits, then has the model's length: longer with every count, and bounded by `bound`.
        const renderLength = (limits: Readonly<Record<Key, number>>) => text(limits).length + model.length(limits);
        const render = (limits: Readonly<Record<Key, number>>) => (renders.push(limits), text(limits) + '.'.repeat(model.length(limits)));
        const fitted = fitLists(model.order, model.full, model.maxLength, {
          render,
          atLeast: model.bound,
          guess: (_, shown) => shown + model.guessShift,
        });
        const expected = fitByBruteForce(model.order, model.full, model.maxLength, renderLength);
        expect(fitted).toBe(text(expected) + '.'.repeat(model.length(expected)));
        // Only the result may have been rendered with its bound over the budget (when nothing fits).
        const overBound = renders.filter((limits) => model.bound(limits) > model.maxLength);
        expect(overBound.every((limits) => text(limits) === text(expected) && fitted.length > model.maxLength)).toBe(true);
      }),
      { numRuns: 2_000 },
    );
  });
});

describe('fitLists with an exact bound', () => {
  // A render of 10 characters and rows of 5, 5, 5 (list a) and 7, 7 (list b); the bound is the exact length.
  const rows = { a: [5, 5, 5], b: [7, 7] };
  const length = (limits: Readonly<Record<'a' | 'b', number>>) =>
    10 + rows.a.slice(0, limits.a).reduce((sum, row) => sum + row, 0) + rows.b.slice(0, limits.b).reduce((sum, row) => sum + row, 0);
  const fit = (maxLength: number) =>
    fitLists(['a', 'b'], { a: 3, b: 2 }, maxLength, {
      render: (limits) => `${limits.a}${limits.b}`.padEnd(length(limits), '.'),
      atLeast: length,
      guess: () => undefined,
    });

  it('keeps the whole when it is exactly as long as the budget', () => {
    expect(fit(39)).toBe('32'.padEnd(39, '.'));
  });

  it('keeps a count whose render is exactly as long as the budget', () => {
    expect(fit(34)).toBe('22'.padEnd(34, '.'));
    expect(fit(33)).toBe('12'.padEnd(29, '.'));
  });
});
