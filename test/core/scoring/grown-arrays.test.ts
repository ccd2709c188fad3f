import { describe, expect, it } from 'vitest';
import { grownBytes, grownFloat64, grownInt32 } from '../../../src/core/scoring/query-entries.js';

// Appending one entry at a time stays linear only if an array that must grow at least doubles.
describe.each([
  ['grownInt32', grownInt32, Int32Array],
  ['grownFloat64', grownFloat64, Float64Array],
  ['grownBytes', grownBytes, Uint8Array],
] as const)('%s', (_, grow, Type) => {
  const filled = () => Type.from([1, 2, 3, 4]);

  it('returns the array itself when it is long enough', () => {
    const array = filled();
    expect(grow(array as never, 4)).toBe(array);
    expect(grow(array as never, 0)).toBe(array);
  });

  it('doubles an array one element too short, keeping its contents and zeroing the rest', () => {
    expect([...grow(filled() as never, 5)]).toEqual([1, 2, 3, 4, 0, 0, 0, 0]);
  });

  it('grows to the length asked for when that is more than double', () => {
    const grown = grow(filled() as never, 11);
    expect([grown.length, [...grown.subarray(0, 5)]]).toEqual([11, [1, 2, 3, 4, 0]]);
  });
});
