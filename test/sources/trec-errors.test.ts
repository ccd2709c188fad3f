import { afterAll, describe, expect, it } from 'vitest';
import { InputError, type InputProblem } from '../../src/core/errors.js';
import { readQrels, readRun } from '../helpers/trec-reference.js';
import { scratchDir } from '../helpers/cli.js';

const scratch = scratchDir();
afterAll(() => scratch.cleanup());

let counter = 0;
function file(content: string, ext: string): string {
  counter++;
  return scratch.file(`trec-${counter}.${ext}`, content);
}

async function problems(read: (path: string) => Promise<unknown>, path: string): Promise<readonly InputProblem[]> {
  try {
    await read(path);
  } catch (error) {
    if (error instanceof InputError) return error.problems;
    throw error;
  }
  throw new Error(`${path} was accepted`);
}

describe('readRun', () => {
  it('ranks by score descending, ties by docno in descending byte order, ignoring the rank column', async () => {
    const path = file(['q1 Q0 a 1 1.0 t', 'q1 Q0 b 2 2.5 t', 'q1 Q0 c 3 1.0 t', 'q1 Q0 B 4 1.0 t', 'q2 Q0 x 9 -1 t', 'q2 Q0 y 1 3e0 t'].join('\n'), 'run');
    const run = await readRun(path);
    // Score 2.5 first; then the 1.0 tie ordered c > a > B (bytes: 'c' 0x63, 'a' 0x61, 'B' 0x42).
    expect(run.get('q1')).toEqual(['b', 'c', 'a', 'B']);
    expect(run.get('q2')).toEqual(['y', 'x']);
  });

  it('accepts tabs, repeated spaces, CRLF and blank lines', async () => {
    const path = file('q1\tQ0\td1\t1\t0.5\trun\r\n\r\nq1  Q0  d2  2  0.7  run\r\n', 'run');
    expect((await readRun(path)).get('q1')).toEqual(['d2', 'd1']);
  });

  it.each([
    ['too few columns', 'q1 Q0 d1 1 0.5', 15, /^expected 6 columns \(qid Q0 docno rank score tag\), found 5$/, undefined],
    ['a score "abc"', 'q1 Q0 d1 1 abc t', 12, /^score "abc" is not a finite number$/, 'score'],
    ['a score "nan"', 'q1 Q0 d1 1 nan t', 12, /^score "nan" is not a finite number$/, 'score'],
    ['a score "inf"', 'q1 Q0 d1 1 inf t', 12, /^score "inf" is not a finite number$/, 'score'],
    ['a score "Infinity"', 'q1 Q0 d1 1 Infinity t', 12, /not a finite number/, 'score'],
    ['a score "1e999"', 'q1 Q0 d1 1 1e999 t', 12, /not a finite number/, 'score'],
  ])('rejects %s, naming line and column', async (_name, line, column, message, field) => {
    const path = file(`q0 Q0 d0 1 1.0 t\n${line}\n`, 'run');
    const found = await problems(readRun, path);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ file: path, line: 2, column });
    expect(found[0]!.field).toBe(field);
    expect(found[0]!.message).toMatch(message);
  });

  it('rejects a docno listed twice for one query, naming the first line', async () => {
    const path = file('q1 Q0 d1 1 0.9 t\nq2 Q0 d1 1 0.9 t\nq1 Q0 d2 2 0.8 t\nq1 Q0 d1 3 0.7 t\n', 'run');
    expect(await problems(readRun, path)).toEqual([
      { file: path, line: 4, column: 7, field: 'docno', message: 'document "d1" is listed twice for query "q1" (first on line 1)' },
    ]);
  });

  it('reports every bad line, not just the first', async () => {
    const path = file('q1 Q0 d1 1 x t\nq1 Q0 d2 2 0.5\nq1 Q0 d3 3 y t\n', 'run');
    expect((await problems(readRun, path)).map((p) => [p.line, p.column])).toEqual([
      [1, 12],
      [2, 15],
      [3, 12],
    ]);
  });

  it('rejects an empty run', async () => {
    const path = file('', 'run');
    expect(await problems(readRun, path)).toEqual([{ file: path, message: 'the file is empty; expected lines of "qid Q0 docno rank score tag"' }]);
  });

  it.each([
    ['blank lines', '\n  \n\t\n'],
    ['comments', '# a run\n# 1 Q0 d1 1 0.5 t\n'],
  ])('rejects a run of only %s', async (_name, content) => {
    const path = file(content, 'run');
    expect(await problems(readRun, path)).toEqual([
      { file: path, message: 'the file holds only comments and blank lines; expected lines of "qid Q0 docno rank score tag"' },
    ]);
  });

  it('rejects a run that does not exist', async () => {
    const path = `${scratch.dir}/none.run`;
    expect(await problems(readRun, path)).toEqual([{ file: path, message: 'cannot read: no such file' }]);
  });
});

describe('readQrels', () => {
  it('reads grades, including 0 and negative ones, per query', async () => {
    const path = file('q1 0 d1 1\nq1 0 d2 0\nq1 0 d3 -1\nq2 Q0 d1 +3\n', 'qrels');
    const qrels = await readQrels(path);
    expect([...qrels.keys()]).toEqual(['q1', 'q2']);
    expect(Object.fromEntries(qrels.get('q1')!)).toEqual({ d1: 1, d2: 0, d3: -1 });
    expect(qrels.get('q2')!.get('d1')).toBe(3);
  });

  it.each([
    ['too few columns', 'q1 0 d1', 8, /^expected 4 columns \(qid iter docno rel\), found 3$/, undefined],
    ['too many columns', 'q1 0 d1 1 x', 11, /^expected 4 columns .*found 5$/, undefined],
    ['a non-integer grade', 'q1 0 d1 1.5', 9, /^relevance grade "1.5" is not an integer$/, 'rel'],
    ['a grade that is not a number', 'q1 0 d1 high', 9, /^relevance grade "high" is not an integer$/, 'rel'],
  ])('rejects %s, naming line and column', async (_name, line, column, message, field) => {
    const path = file(`q0 0 d0 1\n${line}\n`, 'qrels');
    const found = await problems(readQrels, path);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ file: path, line: 2, column });
    expect(found[0]!.field).toBe(field);
    expect(found[0]!.message).toMatch(message);
  });

  it('rejects a docno judged twice for one query', async () => {
    const path = file('q1 0 d1 1\nq2 0 d1 1\nq1 0 d1 2\n', 'qrels');
    expect(await problems(readQrels, path)).toEqual([
      { file: path, line: 3, column: 6, field: 'docno', message: 'document "d1" is judged twice for query "q1"' },
    ]);
  });

  it('rejects empty qrels', async () => {
    const path = file('', 'qrels');
    expect(await problems(readQrels, path)).toEqual([{ file: path, message: 'the file is empty; expected lines of "qid iter docno rel"' }]);
  });
});
