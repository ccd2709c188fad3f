import { afterAll, describe, expect, it } from 'vitest';
import { InputError, type InputProblem } from '../../src/core/errors.js';
import { readQrelsTable, readRunTable } from '../../src/sources/trec.js';
import { evaluateTrec, readQrels, readRun } from '../helpers/trec-reference.js';
import { evaluateTrecTables } from '../../src/core/scoring/trec-eval.js';
import { parseRetrievalMetric } from '../../src/core/catalog/retrieval-metrics.js';
import { scratchDir } from '../helpers/cli.js';

const scratch = scratchDir();
afterAll(() => scratch.cleanup());

let counter = 0;
function file(lines: readonly string[], ext: string): string {
  counter++;
  return scratch.file(`reader-${counter}.${ext}`, `${lines.join('\n')}\n`);
}

async function problems(read: (path: string) => Promise<unknown>, path: string): Promise<{ listed: readonly InputProblem[]; total: number }> {
  try {
    await read(path);
  } catch (error) {
    if (error instanceof InputError) return { listed: error.problems, total: error.totalProblems };
    throw error;
  }
  throw new Error(`${path} was accepted`);
}

const METRICS = ['map', 'ndcg@3', 'mrr', 'recall@2', 'precision@2', 'ndcg'].map(parseRetrievalMetric);

describe('TREC readers: queries whose lines are not contiguous', () => {
  const run = file(['q2 Q0 a 1 0.3 t', 'q1 Q0 x 1 0.9 t', 'q2 Q0 b 2 0.8 t', 'q1 Q0 y 2 0.9 t', '', 'q2 Q0 c 3 0.5 t', 'q1 Q0 z 3 1.5 t'], 'run');
  const qrels = file(['q1 0 y 1', 'q2 0 c 2', 'q1 0 z 0', 'q2 0 a 1', 'q1 0 x 3'], 'qrels');

  it('gathers each query from all of its lines', async () => {
    const ranked = await readRun(run);
    expect([...ranked.keys()]).toEqual(['q2', 'q1']);
    expect(ranked.get('q1')).toEqual(['z', 'y', 'x']);
    expect(ranked.get('q2')).toEqual(['b', 'c', 'a']);
    const judged = await readQrels(qrels);
    expect([...judged.keys()]).toEqual(['q1', 'q2']);
    expect(Object.fromEntries(judged.get('q1')!)).toEqual({ y: 1, z: 0, x: 3 });
  });

  it('evaluates the same as the contiguous file', async () => {
    const fast = evaluateTrecTables(await readQrelsTable(qrels), await readRunTable(run), METRICS);
    const reference = evaluateTrec(await readQrels(qrels), await readRun(run), METRICS);
    expect(fast).toEqual(reference);
    const contiguousRun = file(['q1 Q0 x 1 0.9 t', 'q1 Q0 y 2 0.9 t', 'q1 Q0 z 3 1.5 t', 'q2 Q0 a 1 0.3 t', 'q2 Q0 b 2 0.8 t', 'q2 Q0 c 3 0.5 t'], 'run');
    expect(evaluateTrecTables(await readQrelsTable(qrels), await readRunTable(contiguousRun), METRICS).perQuery).toEqual(fast.perQuery);
  });

  it('names the first lines of duplicates after 40 gaps in the line numbers', async () => {
    // A blank line after each: every entry's line moves one further from its place (more moves than the 16 the line
    // map starts with). e8 of q2 and d9 of q1, the 18th and 19th entries read, are on lines 35 and 37.
    const lines = Array.from({ length: 20 }, (_, s) => [`q1 Q0 d${s} ${s + 1} 0.5 t`, '', `q2 Q0 e${s} ${s + 1} 0.5 t`, '']).flat();
    const path = file([...lines, 'q1 Q0 d9 21 0.1 t', 'q2 Q0 e8 21 0.1 t'], 'run');
    expect((await problems(readRunTable, path)).listed).toEqual([
      { file: path, line: 81, column: 7, field: 'docno', message: 'document "d9" is listed twice for query "q1" (first on line 37)' },
      { file: path, line: 82, column: 7, field: 'docno', message: 'document "e8" is listed twice for query "q2" (first on line 35)' },
    ]);
  });

  it('names the first line of a duplicate that is its stretch’s 65th line, past the room the reader first keeps', async () => {
    // q1's 70 lines make one stretch: the 65th (d64) outgrows the 64 line numbers a stretch starts with.
    const lines = Array.from({ length: 70 }, (_, i) => `q1 Q0 d${i} ${i + 1} 0.5 t`);
    const path = file([...lines, 'q1 Q0 d64 71 0.1 t', 'q2 Q0 d64 1 0.1 t', 'q1 Q0 d0 72 0.1 t'], 'run');
    expect((await problems(readRunTable, path)).listed).toEqual([
      { file: path, line: 71, column: 7, field: 'docno', message: 'document "d64" is listed twice for query "q1" (first on line 65)' },
      { file: path, line: 73, column: 7, field: 'docno', message: 'document "d0" is listed twice for query "q1" (first on line 1)' },
    ]);
  });

  it('finds a document listed twice in separate stretches of its query, naming both lines', async () => {
    const path = file(['q1 Q0 d1 1 0.9 t', 'q2 Q0 d1 1 0.9 t', 'q2 Q0 d2 2 0.9 t', 'q1 Q0 d2 2 0.8 t', 'q2 Q0 d3 3 0.1 t', 'q1  Q0 d1 3 0.7 t'], 'run');
    expect((await problems(readRun, path)).listed).toEqual([
      { file: path, line: 6, column: 8, field: 'docno', message: 'document "d1" is listed twice for query "q1" (first on line 1)' },
    ]);
    const judged = file(['q1 0 d1 1', 'q2 0 d1 1', 'q1 0 d2 0', 'q1 0 d1 2'], 'qrels');
    expect((await problems(readQrels, judged)).listed).toEqual([
      { file: judged, line: 4, column: 6, field: 'docno', message: 'document "d1" is judged twice for query "q1"' },
    ]);
  });
});

describe('TREC readers: problems', () => {
  it('lists problems in line order whether found while reading or after (duplicates), up to 20, counting the rest', async () => {
    // Line 1 lists d1; then odd lines repeat it (found once the file is read), even lines have a bad score.
    const lines = ['q1 Q0 d1 1 0.9 t'];
    for (let line = 2; line <= 30; line++) lines.push(line % 2 === 1 ? 'q1 Q0 d1 2 0.5 t' : `q1 Q0 e${line} 2 x t`);
    const path = file(lines, 'run');
    const { listed, total } = await problems(readRun, path);
    expect(total).toBe(29);
    expect(listed.map((problem) => problem.line)).toEqual(Array.from({ length: 20 }, (_, i) => i + 2));
    expect(listed[0]!.message).toBe('score "x" is not a finite number');
    expect(listed[1]!.message).toBe('document "d1" is listed twice for query "q1" (first on line 1)');
  });

  it('counts columns in characters, not bytes, after non-ASCII text', async () => {
    const path = file(['qé Q0 d1 1 0.5 t', 'qé Q0 d1 2 0.4 t', 'qé Q0 d2 3 abc t', 'q€ Q0 d9 1 0.5'], 'run');
    const { listed } = await problems(readRun, path);
    expect(listed.map((problem) => [problem.line, problem.column, problem.message])).toEqual([
      [2, 7, 'document "d1" is listed twice for query "qé" (first on line 1)'],
      [3, 12, 'score "abc" is not a finite number'],
      [4, 15, 'expected 6 columns (qid Q0 docno rank score tag), found 5'],
    ]);
  });

  it('reports a bad score and a bad grade with their text, decoded as UTF-8', async () => {
    const run = file(['q1 Q0 d1 1 0,5€ t'], 'run');
    expect((await problems(readRun, run)).listed[0]).toMatchObject({ line: 1, column: 12, field: 'score', message: 'score "0,5€" is not a finite number' });
    const qrels = file(['q1 0 d1 ½'], 'qrels');
    expect((await problems(readQrels, qrels)).listed[0]).toMatchObject({ line: 1, column: 9, field: 'rel', message: 'relevance grade "½" is not an integer' });
  });
});

describe('TREC readers: bytes', () => {
  it('breaks score ties by docno bytes, as strcmp, not by UTF-16 order', async () => {
    // Bytes: 😀 F0…, U+FFFD EF BF BD, é C3 A9, z 7A. (UTF-16 would put U+FFFD above 😀, whose first unit is D83D.)
    const path = file(['q1 Q0 z 1 1 t', 'q1 Q0 é 2 1 t', 'q1 Q0 \ufffd 3 1 t', 'q1 Q0 \u{1F600} 4 1 t'], 'run');
    expect((await readRun(path)).get('q1')).toEqual(['\u{1F600}', '\ufffd', 'é', 'z']);
  });

  it('separates fields by space, tab, CR, VT and FF (as trec_eval), and reads scores as decimals, exponents or hex', async () => {
    const path = file(['q1\tQ0\vd1\f1\r0x10 t', 'q1 Q0 d2 2 1.5e1 t', 'q1 Q0 d3 3 -.5 t', 'q1 Q0 d4 4 +17 t'], 'run');
    expect((await readRun(path)).get('q1')).toEqual(['d4', 'd1', 'd2', 'd3']);
  });

  it('rejects a grade too large to hold exactly, and a score in a form trec_eval reads differently', async () => {
    const qrels = file([`q1 0 d1 ${'9'.repeat(40)}`], 'qrels');
    await expect(readQrels(qrels)).rejects.toThrow(/relevance grade "9{40}" is too large a whole number to hold exactly/);
    const run = file(['q1 Q0 d1 1 0o17 t'], 'run');
    await expect(readRun(run)).rejects.toThrow(/score "0o17" is not a finite number/);
  });

  it('reads a final line without a line feed, and a byte-order mark', async () => {
    counter++;
    const path = scratch.file(`reader-${counter}.qrels`, '\ufeffq1 0 d1 1\r\nq1 0 d2 2');
    expect(Object.fromEntries((await readQrels(path)).get('q1')!)).toEqual({ d1: 1, d2: 2 });
  });
});

describe('TREC readers: comments and extra columns, as trec_eval 10 reads them', () => {
  it('skips comment lines in qrels wherever they are, so "# 0 note 1" never judges a query "#"', async () => {
    const path = file(['# qrels for q1', 'q1 0 d1 1', '# 0 note 1', '# 0 note 2', '  # indented, 0 d9 1', 'q1 0 d2 0', '# last line'], 'qrels');
    const qrels = await readQrels(path);
    expect([...qrels.keys()]).toEqual(['q1']);
    expect(Object.fromEntries(qrels.get('q1')!)).toEqual({ d1: 1, d2: 0 });
  });

  it('keeps a "#" inside a line: a docno may hold one', async () => {
    const path = file(['q1 0 CR#93E-1 1', 'q1 0 d#2 0'], 'qrels');
    expect(Object.fromEntries((await readQrels(path)).get('q1')!)).toEqual({ 'CR#93E-1': 1, 'd#2': 0 });
  });

  it('skips comment lines in runs, indented or not, and reads a "#" inside a docno', async () => {
    const path = file(['# run header', 'q1 Q0 d#1 1 2 t', '\t# 0 Q0 d9 1 9 t', 'q1 Q0 d2 2 1 t'], 'run');
    const run = await readRun(path);
    expect([...run.keys()]).toEqual(['q1']);
    expect(run.get('q1')).toEqual(['d#1', 'd2']);
  });

  it('ignores columns after the sixth in a run (trec_eval results.trunc style), but not a fifth in qrels', async () => {
    const run = file(['q1 Q0 d1 99 2.5 STANDARD more junk at', 'q1 Q0 d2 98 3.5 STANDARD end'], 'run');
    expect((await readRun(run)).get('q1')).toEqual(['d2', 'd1']);
    const qrels = file(['q1 0 d1 1 extra'], 'qrels');
    expect((await problems(readQrels, qrels)).listed).toEqual([
      { file: qrels, line: 1, column: 11, message: 'expected 4 columns (qid iter docno rel), found 5' },
    ]);
  });

  it('skips a comment that is not UTF-8, since nothing in it is read', async () => {
    counter++;
    const path = scratch.file(`reader-${counter}.qrels`, Buffer.concat([Buffer.from('# caf'), Buffer.from([0xe9]), Buffer.from('\nq1 0 d1 1\n')]));
    expect(Object.fromEntries((await readQrels(path)).get('q1')!)).toEqual({ d1: 1 });
  });

  it('refuses ids that are not UTF-8 rather than merge two that differ only there, naming file, line and byte', async () => {
    counter++;
    // q\xff and q\xfe would both decode to "q\ufffd"; trec_eval keeps them apart, so rag-gate may not merge them.
    const bytes = Buffer.concat([
      Buffer.from('q'),
      Buffer.from([0xff]),
      Buffer.from(' 0 d1 1\nq'),
      Buffer.from([0xfe]),
      Buffer.from(' 0 d1 0\nq2 0 d'),
      Buffer.from([0xc3]),
      Buffer.from(' 1\n'),
    ]);
    const path = scratch.file(`reader-${counter}.qrels`, bytes);
    const found = await problems(readQrels, path);
    expect(found.listed.map((p) => [p.line, p.column, p.message])).toEqual([
      [1, 2, 'not valid UTF-8 (byte 0xFF at byte 2 of the line); save the file as UTF-8'],
      [2, 2, 'not valid UTF-8 (byte 0xFE at byte 2 of the line); save the file as UTF-8'],
      [3, 7, 'not valid UTF-8 (byte 0xC3 at byte 7 of the line); save the file as UTF-8'],
    ]);
  });

  it('strips a byte-order mark before the first line, so that a first-line comment is still one', async () => {
    counter++;
    const path = scratch.file(`reader-${counter}.run`, '\ufeff# made by a tool\nq1 Q0 d1 1 1 t\n');
    expect((await readRun(path)).get('q1')).toEqual(['d1']);
  });
});
