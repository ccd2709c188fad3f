import { describe, expect, it } from 'vitest';
import { readerThreadPays } from '../../src/sources/parallel.js';

const MiB = 1024 * 1024;

describe('whether the base is read on a reader thread', () => {
  it('needs a second core and at least 16 MiB of base', () => {
    expect([readerThreadPays(16 * MiB, 2, undefined), readerThreadPays(16 * MiB - 1, 2, undefined), readerThreadPays(1024 * MiB, 1, undefined)]).toEqual([
      true,
      false,
      false,
    ]);
  });

  it('is forced from a size the tests choose, on any number of cores', () => {
    expect([readerThreadPays(0, 1, '0'), readerThreadPays(99, 1, '100'), readerThreadPays(100, 1, '100')]).toEqual([true, false, true]);
    // A value that is not a size leaves the default rule.
    expect([readerThreadPays(16 * MiB, 2, 'many'), readerThreadPays(16 * MiB, 1, '-1')]).toEqual([true, false]);
  });
});
