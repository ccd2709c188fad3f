import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { byCodeUnits, byKey, sortByCodeUnits } from '../../src/core/code-unit-order.js';

describe('byCodeUnits', () => {
  it('is negative, zero or positive as the first string comes before, equals or follows the second', () => {
    expect([byCodeUnits('a', 'b'), byCodeUnits('b', 'a'), byCodeUnits('a', 'a'), byCodeUnits('', '')]).toEqual([-1, 1, 0, 0]);
    expect([byCodeUnits('a', 'ab'), byCodeUnits('ab', 'a')]).toEqual([-1, 1]);
  });

  it('orders by UTF-16 code units, not by locale or code point', () => {
    // Upper case before lower, accented letters after z, and an astral character (a surrogate pair, 0xD83D…) before
    // U+FFFD although its code point is higher.
    const words = ['z', 'é', 'Z', 'a', '\uFFFD', '😀', 'q-10', 'q-9'];
    expect(words.sort(byCodeUnits)).toEqual(['Z', 'a', 'q-10', 'q-9', 'z', 'é', '😀', '\uFFFD']);
  });
});

describe('byKey', () => {
  it('orders entries by their keys alone', () => {
    const entries: [string, number][] = [
      ['b', 1],
      ['B', 3],
      ['a', 2],
    ];
    expect(entries.sort(byKey)).toEqual([
      ['B', 3],
      ['a', 2],
      ['b', 1],
    ]);
    expect([byKey(['x', 1], ['x', 2]), byKey(['y', 0], ['x', 0])]).toEqual([0, 1]);
  });
});

describe('sortByCodeUnits', () => {
  it('sorts as Array.prototype.sort with byCodeUnits does, short lists and long, repeats included (property)', () => {
    const value = fc.string({ unit: fc.constantFrom('a', 'b', 'B', 'é', '\uD83D', '\uDE00', '-', '1'), maxLength: 3 });
    fc.assert(
      fc.property(fc.array(value, { maxLength: 40 }), (values) => {
        const expected = [...values].sort(byCodeUnits);
        expect(sortByCodeUnits([...values])).toEqual(expected);
      }),
      { numRuns: 2000 },
    );
  });
});
