import { afterAll, describe, expect, it } from 'vitest';
import { readRunTable } from '../../../src/sources/trec.js';
import { scratchDir } from '../../helpers/cli.js';

const scratch = scratchDir();
afterAll(() => scratch.cleanup());

describe('a query listed in one stretch over three storage blocks (64 Ki entries each)', () => {
  it('keeps every docno and score, whole blocks in the middle included', async () => {
    // 140,000 lines of one query: entries 0–65,535 in block 0, 65,536–131,071 in block 1 (a whole block between the
    // first and the last), the rest in block 2. Docnos of 2 to 7 bytes, so the byte counts of the blocks differ.
    const lines = Array.from({ length: 140_000 }, (_, i) => `q1 Q0 d${i} ${i + 1} ${i % 13} t`);
    const run = await readRunTable(scratch.file('three-blocks.run', `${lines.join('\n')}\n`));
    const entries = run.entries(0);
    expect(entries.count).toBe(140_000);
    for (const i of [0, 9, 10, 65_535, 65_536, 99_999, 100_000, 131_071, 131_072, 139_999]) {
      expect([entries.docno(i), entries.values[i]]).toEqual([`d${i}`, i % 13]);
    }
  });
});
