import { describe, expect, it } from 'vitest';
import { byteRanges, parallelMinBytes } from '../../src/sources/parallel.js';

const MiB = 1024 * 1024;

describe('how the runs are cut into parts', () => {
  it('pays for workers from 96 MiB of input, or from the size the tests force', () => {
    expect([parallelMinBytes(undefined), parallelMinBytes('0'), parallelMinBytes('100')]).toEqual([96 * MiB, 0, 100]);
    // A value that is not a size leaves the default.
    expect([parallelMinBytes('many'), parallelMinBytes('-1'), parallelMinBytes('')]).toEqual([96 * MiB, 96 * MiB, 96 * MiB]);
  });

  it('splits a file into up to eight ranges per thread of at least the least size, covering each byte once', () => {
    expect(byteRanges(32, 2, 0)).toEqual(Array.from({ length: 16 }, (_, i) => ({ start: 2 * i, end: 2 * i + 2 })));
    expect(byteRanges(350 * MiB, 2, 4 * MiB)).toHaveLength(16);
    expect(byteRanges(350 * MiB, 2, 32 * MiB)).toHaveLength(10);
    expect(byteRanges(70 * MiB, 4, 32 * MiB)).toEqual([
      { start: 0, end: 35 * MiB },
      { start: 35 * MiB, end: 70 * MiB },
    ]);
    expect(byteRanges(31 * MiB, 4, 32 * MiB)).toEqual([{ start: 0, end: 31 * MiB }]);
  });
});
