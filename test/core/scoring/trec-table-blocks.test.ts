import { afterAll, describe, expect, it } from 'vitest';
import { type Duplicate, TrecTableBuilder } from '../../../src/core/scoring/trec-table.js';
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

describe('a stretch that crosses into a new block, then another query in that block', () => {
  it('keeps the next query’s docnos whole (no bytes left between the stretches)', async () => {
    // q1's 70,000 lines fill block 0 and go 4,464 lines into block 1; q2's lines follow them in block 1.
    const q1 = Array.from({ length: 70_000 }, (_, i) => `q1 Q0 d${i} 1 ${i % 7} t`);
    const q2 = ['q2 Q0 first 1 3 t', 'q2 Q0 second 2 2 t'];
    const run = await readRunTable(scratch.file('across-then-next.run', `${[...q1, ...q2].join('\n')}\n`));
    const entries = run.entries(run.queryNumber('q2')!);
    expect([entries.docno(0), entries.docno(1), [...entries.values.subarray(0, entries.count)]]).toEqual(['first', 'second', [3, 2]]);
    expect(run.entries(0).docno(69_999)).toBe('d69999');
  });
});

describe('more queries and stretches than the builder first has room for (64)', () => {
  it('keeps every query’s entries when each of 100 queries comes in two stretches', async () => {
    const pass = (round: number) => Array.from({ length: 100 }, (_, q) => `q${q} Q0 r${round}-${q} ${round} ${q + round / 10} t`);
    const run = await readRunTable(scratch.file('hundred-queries.run', `${[...pass(1), ...pass(2)].join('\n')}\n`));
    expect(run.qids).toHaveLength(100);
    for (const q of [0, 63, 64, 65, 99]) {
      const entries = run.entries(run.queryNumber(`q${q}`)!);
      expect([entries.count, entries.docno(0), entries.docno(1), entries.values[1]]).toEqual([2, `r1-${q}`, `r2-${q}`, q + 0.2]);
      expect(run.stretchCount(run.queryNumber(`q${q}`)!)).toBe(2);
    }
  });

  it('reports each duplicate of queries 64 and 65 once, in a first stretch and in a query of one stretch', () => {
    const duplicates: Duplicate[] = [];
    const builder = new TrecTableBuilder((duplicate) => duplicates.push(duplicate));
    const bytes = new TextEncoder().encode('ab');
    let line = 0;
    const add = (qid: string, docno: 'a' | 'b') => {
      const start = docno === 'a' ? 0 : 1;
      builder.add(builder.queryNumber(qid), bytes, start, start + 1, 1, ++line, 7);
    };
    for (let q = 0; q < 65; q++) add(`q${q}`, 'a');
    add('q64', 'a'); // line 66: a duplicate within the first stretch of q64 (query number 64)
    add('q65', 'b');
    add('q65', 'b'); // line 68: a duplicate in q65 (number 65), which has one stretch
    add('q64', 'b'); // a later stretch of q64, with a new docno
    builder.build('late.run');
    expect(duplicates).toEqual([
      { qid: 'q64', docno: 'a', line: 66, docnoColumn: 7, firstLine: 65 },
      { qid: 'q65', docno: 'b', line: 68, docnoColumn: 7, firstLine: 67 },
    ]);
  });

  it('numbers a query id once, however often it is asked for', () => {
    const builder = new TrecTableBuilder(() => {});
    expect([builder.queryNumber('a'), builder.queryNumber('b'), builder.queryNumber('a')]).toEqual([0, 1, 0]);
    expect(builder.build('ids.run').qids).toEqual(['a', 'b']);
  });
});
