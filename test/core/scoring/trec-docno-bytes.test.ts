import { afterAll, describe, expect, it } from 'vitest';
import { readRunTable } from '../../../src/sources/trec.js';
import { scratchDir } from '../../helpers/cli.js';

const scratch = scratchDir();
afterAll(() => scratch.cleanup());

/** The bytes of docnos `d${i}` for i in [from, to). */
const docnoBytes = (from: number, to: number) => Array.from({ length: to - from }, (_, k) => `d${from + k}`.length).reduce((a, b) => a + b, 0);

/** A run file of these lines (`qid docno score`), each query's documents ranked in order. */
const runFile = (name: string, lines: readonly (readonly [string, string, number])[]) =>
  scratch.file(name, lines.map(([qid, docno, score], i) => `${qid} Q0 ${docno} ${i + 1} ${score} t`).join('\n') + '\n');

// Storage blocks hold 64 Ki entries: a query's bytes are counted from its first entry, which may be inside a block,
// through whole blocks, to its last.
describe("TrecTable.docnoByteCount: a query's docno bytes, what `entries` copies", () => {
  it('a query over three blocks, from the first entry of the first', async () => {
    const run = await readRunTable(
      runFile(
        'three.run',
        Array.from({ length: 140_000 }, (_, i) => ['q1', `d${i}`, i % 13] as const),
      ),
    );
    expect(run.docnoByteCount(0)).toBe(docnoBytes(0, 140_000));
  });

  it('a query inside one block, after another query; one from inside a block into the next', async () => {
    const q0 = [['q0', 'alpha', 3] as const, ['q0', 'beta', 2] as const, ['q0', 'gamma', 1] as const];
    const q1 = Array.from({ length: 70_000 }, (_, i) => ['q1', `d${i}`, i % 7] as const);
    const q2 = [['q2', 'first', 3] as const, ['q2', 'second', 2] as const];
    const run = await readRunTable(runFile('inside.run', [...q0, ...q1, ...q2]));
    const bytes = ['q0', 'q1', 'q2'].map((qid) => run.docnoByteCount(run.queryNumber(qid)!));
    expect(bytes).toEqual(['alphabetagamma'.length, docnoBytes(0, 70_000), 'firstsecond'.length]);
    const entries = run.entries(run.queryNumber('q1')!);
    expect([entries.docno(0), entries.docno(65_532), entries.docno(65_533), entries.docno(69_999)]).toEqual(['d0', 'd65532', 'd65533', 'd69999']);
  });

  it('a query in two stretches counts both, and no other query', async () => {
    const pass = (round: number) => Array.from({ length: 3 }, (_, q) => [`q${q}`, `r${round}-${q}`, q + round / 10] as const);
    const run = await readRunTable(runFile('stretches.run', [...pass(1), ...pass(2)]));
    expect([0, 1, 2].map((q) => run.docnoByteCount(run.queryNumber(`q${q}`)!))).toEqual([0, 1, 2].map((q) => `r1-${q}r2-${q}`.length));
  });
});
