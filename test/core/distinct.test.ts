import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hasRepeat } from '../../src/core/distinct.js';

const bySet = (values: readonly string[]) => new Set(values).size !== values.length;

describe('hasRepeat', () => {
  it.each([
    ['no values', [], false],
    ['one value', ['d1'], false],
    ['two distinct', ['d1', 'd2'], false],
    ['a repeat', ['d1', 'd2', 'd1'], true],
    ['the empty string twice', ['', 'a', ''], true],
    ['the same code units apart from case', ['Doc', 'doc'], false],
    ['a surrogate pair and its halves', ['\u{1F600}', '\uD83D', '\uDE00'], false],
  ])('%s', (_, values, expected) => {
    expect(hasRepeat(values)).toBe(expected);
  });

  it('finds a repeat at the end of a ranking of a thousand ids, and none without it', () => {
    const ids = Array.from({ length: 1000 }, (_, i) => `doc-${(i * 2654435761) % 2 ** 32}`);
    expect(hasRepeat(ids)).toBe(false);
    expect(hasRepeat([...ids, ids[0]!])).toBe(true);
    expect(hasRepeat([...ids, ids[999]!])).toBe(true);
  });

  it('tells apart ids that differ only where the first hash does not look, with a repeat among them or not', () => {
    // One length, the same middle and last three code units: every id in one probe sequence of the first hash.
    const ids = Array.from({ length: 500 }, (_, i) => `${String(i).padStart(4, '0')}-middle-end`);
    expect(hasRepeat(ids)).toBe(false);
    expect(hasRepeat([...ids, ids[250]!])).toBe(true);
    expect(hasRepeat([ids[7]!, ...ids])).toBe(true);
  });

  // A small alphabet makes repeats and hash collisions common; long lists make the table grow between calls.
  const value = fc.string({ unit: fc.constantFrom('a', 'b', 'é', '\uD83D', '\uDE00'), maxLength: 4 });
  it('agrees with a Set on random lists, call after call (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.array(value, { maxLength: 300 }), { maxLength: 8 }), (lists) => {
        for (const values of lists) expect(hasRepeat(values)).toBe(bySet(values));
      }),
      { numRuns: 2000 },
    );
  });

  it('agrees with a Set on lists of distinct ids with one repeated at a random place (property)', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.string({ maxLength: 12 }), { minLength: 1, maxLength: 700 }), fc.nat(), fc.nat(), (ids, from, to) => {
        const repeated = [...ids];
        repeated.splice(to % (ids.length + 1), 0, ids[from % ids.length]!);
        expect(hasRepeat(ids)).toBe(false);
        expect(hasRepeat(repeated)).toBe(true);
      }),
      { numRuns: 1000 },
    );
  });
});
