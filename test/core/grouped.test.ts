import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { grouped } from '../../src/core/grouped.js';

describe('grouped', () => {
  it("writes any number as toLocaleString('en-US') does (property)", () => {
    const number = fc.oneof(
      fc.integer(),
      fc.maxSafeInteger(),
      fc.double(),
      fc.constantFrom(0, -0, 999, 1_000, -1_000, 999_999, 1_000_000, Number.MAX_SAFE_INTEGER + 1, 2 ** 70, -(2 ** 60)),
    );
    fc.assert(
      fc.property(number, (n) => {
        expect(grouped(n)).toBe(n.toLocaleString('en-US'));
      }),
      { numRuns: 2_000 },
    );
  });

  it('groups the digits of a count in threes', () => {
    expect([0, 7, 999, 1_000, 12_345, 1_234_567, -4_321].map(grouped)).toEqual(['0', '7', '999', '1,000', '12,345', '1,234,567', '-4,321']);
  });
});
