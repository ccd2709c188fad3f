import { describe, expect, it } from 'vitest';
import { byCodeUnits, byKey } from '../../src/core/code-unit-order.js';

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
