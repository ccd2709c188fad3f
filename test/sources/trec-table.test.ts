import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { InputError, type InputProblem, MAX_LISTED_PROBLEMS } from '../../src/core/errors.js';
import { parseRetrievalMetric } from '../../src/core/catalog/retrieval-metrics.js';
import { evaluateTrecTables } from '../../src/core/scoring/trec-eval.js';
import { readQrelsTable, readRunTable } from '../../src/sources/trec.js';
import type { TrecTable } from '../../src/core/scoring/trec-table.js';
import { evaluateTrec, type Qrels, type Run } from '../helpers/trec-reference.js';
import { scratchDir } from '../helpers/cli.js';

/**
 * The TREC readers against a plain reference built from the generated lines themselves: random files with
 * queries split into several stretches, comments and blank lines between, ties, docnos shared by qrels and run
 * (prefixes, case, multi-byte UTF-8), and duplicates.
 */

const scratch = scratchDir();
afterAll(() => scratch.cleanup());

const QIDS = ['q1', 'q2', 'qé', '10'];
const DOCNOS = ['a', 'ab', 'B', 'doc-1', 'doc-10', 'doc-2', 'é', 'z', '\u{1F600}', '\ufffd', '7', 'D#1'];
/** Score texts, several of them the same number (ties across spellings). */
const SCORES = ['1', '1.0', '0.5', '2', '-0', '0', '3.25', '1e0', '0x2', '+.5'];
const METRICS = ['map', 'ndcg@3', 'mrr', 'recall@2', 'precision@2', 'ndcg', 'bpref', 'r_precision'].map(parseRetrievalMetric);

interface Line {
  readonly qid: number;
  readonly docno: number;
  readonly value: number;
  /** Blanks before the line, between its fields, and the lines (blank or comment) before it. */
  readonly indent: string;
  readonly separator: string;
  readonly before: readonly string[];
}

const lineArb = (values: number) =>
  fc.record({
    qid: fc.nat(QIDS.length - 1),
    docno: fc.nat(DOCNOS.length - 1),
    value: fc.nat(values - 1),
    indent: fc.constantFrom('', '', ' ', '\t'),
    separator: fc.constantFrom(' ', ' ', '\t', '  '),
    before: fc.array(fc.constantFrom('', '# a comment', '  # 0 Q0 d 1 1 t', '\t'), { maxLength: 2 }),
  });

/** The file's text, and each line's number and docno column (in UTF-16 units, as an editor counts). */
function write(lines: readonly Line[], fields: (line: Line) => [string, string, string, ...string[]], ext: string) {
  let text = '';
  let lineNumber = 0;
  const located = lines.map((line) => {
    for (const other of line.before) {
      text += `${other}\n`;
      lineNumber++;
    }
    const [qid, second, docno, ...rest] = fields(line);
    const prefix = `${line.indent}${qid}${line.separator}${second}${line.separator}`;
    text += `${prefix}${[docno, ...rest].join(line.separator)}\n`;
    lineNumber++;
    return { line: lineNumber, column: prefix.length + 1 };
  });
  return { path: scratch.file(`table-${Math.random().toString(36).slice(2)}.${ext}`, text), located };
}

/** The problems the reader must report: each later listing of a docno in its query, naming the first. */
function expectedDuplicates(path: string, lines: readonly Line[], located: readonly { line: number; column: number }[], what: 'judged' | 'listed') {
  const first = new Map<string, number>();
  const problems: InputProblem[] = [];
  lines.forEach((line, i) => {
    const key = `${line.qid} ${line.docno}`;
    const firstLine = first.get(key);
    if (firstLine === undefined) {
      first.set(key, located[i]!.line);
      return;
    }
    const qid = QIDS[line.qid]!;
    const docno = DOCNOS[line.docno]!;
    const message =
      what === 'judged'
        ? `document "${docno}" is judged twice for query "${qid}"`
        : `document "${docno}" is listed twice for query "${qid}" (first on line ${firstLine})`;
    problems.push({ file: path, line: located[i]!.line, column: located[i]!.column, field: 'docno', message });
  });
  return problems;
}

async function rejection(read: Promise<unknown>): Promise<InputError | undefined> {
  try {
    await read;
    return undefined;
  } catch (error) {
    if (error instanceof InputError) return error;
    throw error;
  }
}

/** Query id → [docno, value] in file order, from a table. */
function contents(table: TrecTable): Map<string, [string, number][]> {
  const byQuery = new Map<string, [string, number][]>();
  table.qids.forEach((qid, q) => {
    const query = table.entries(q);
    byQuery.set(
      qid,
      Array.from({ length: query.count }, (_, i) => [query.docno(i), query.values[i]!]),
    );
  });
  return byQuery;
}

function referenceContents(lines: readonly Line[], value: (line: Line) => number): Map<string, [string, number][]> {
  const byQuery = new Map<string, [string, number][]>();
  for (const line of lines) {
    const qid = QIDS[line.qid]!;
    if (!byQuery.has(qid)) byQuery.set(qid, []);
    byQuery.get(qid)!.push([DOCNOS[line.docno]!, value(line)]);
  }
  return byQuery;
}

const qrelsFields = (line: Line): [string, string, string, string] => [QIDS[line.qid]!, '0', DOCNOS[line.docno]!, String(line.value - 1)];
const runFields = (line: Line): [string, string, string, string, string, string] => [
  QIDS[line.qid]!,
  'Q0',
  DOCNOS[line.docno]!,
  '1',
  SCORES[line.value]!,
  'tag',
];
const grade = (line: Line) => line.value - 1;
const score = (line: Line) => Number(SCORES[line.value]!);

describe('TREC readers against a plain reference (property)', () => {
  it('read every query from all of its stretches, in file order, and evaluate as the reference ranks', async () => {
    const judgments = fc.uniqueArray(lineArb(5), { selector: (line) => `${line.qid} ${line.docno}`, minLength: 1, maxLength: 30 });
    const retrieved = fc.uniqueArray(lineArb(SCORES.length), { selector: (line) => `${line.qid} ${line.docno}`, minLength: 1, maxLength: 40 });
    await fc.assert(
      fc.asyncProperty(judgments, retrieved, async (qrelsLines, runLines) => {
        const qrelsFile = write(qrelsLines, qrelsFields, 'qrels');
        const runFile = write(runLines, runFields, 'run');
        const qrels = await readQrelsTable(qrelsFile.path);
        const run = await readRunTable(runFile.path);
        expect(contents(qrels)).toEqual(referenceContents(qrelsLines, grade));
        expect(contents(run)).toEqual(referenceContents(runLines, score));

        const referenceQrels: Qrels = new Map([...referenceContents(qrelsLines, grade)].map(([qid, judged]) => [qid, new Map(judged)]));
        const referenceRun: Run = new Map();
        for (const [qid, entries] of referenceContents(runLines, score)) {
          const ranked = [...entries].sort((a, b) => b[1] - a[1] || Buffer.compare(Buffer.from(b[0]), Buffer.from(a[0])));
          referenceRun.set(
            qid,
            ranked.map(([docno]) => docno),
          );
        }
        const evaluation = evaluateTrecTables(qrels, run, METRICS);
        const reference = evaluateTrec(referenceQrels, referenceRun, METRICS);
        expect(evaluation.perQuery).toEqual(reference.perQuery);
        for (const metric of METRICS) expect(evaluation.aggregate[metric.name]).toBeCloseTo(reference.aggregate[metric.name]!, 12);
      }),
      { numRuns: 150 },
    );
  });

  it('report each docno listed twice for a query, at the later line and column, naming the first, whichever stretch each is in', async () => {
    for (const [ext, fields, read, what, values] of [
      ['run', runFields, readRunTable, 'listed', SCORES.length],
      ['qrels', qrelsFields, readQrelsTable, 'judged', 5],
    ] as const) {
      await fc.assert(
        fc.asyncProperty(fc.array(lineArb(values), { minLength: 1, maxLength: 60 }), async (lines) => {
          const file = write(lines, fields, ext);
          const expected = expectedDuplicates(file.path, lines, file.located, what);
          const error = await rejection(read(file.path));
          if (expected.length === 0) {
            expect(error).toBeUndefined();
            return;
          }
          expect(error?.totalProblems).toBe(expected.length);
          expect(error?.problems).toEqual(expected.slice(0, MAX_LISTED_PROBLEMS));
        }),
        { numRuns: 150 },
      );
    }
  });
});

describe('TREC readers: files of more entries than a storage block (64 Ki)', () => {
  /** q1's 70,000 lines, q2's 100, then q1's 70,000 more: q1 crosses blocks in both stretches; a comment every 10,000 lines. */
  function bigRun(duplicateAt?: number): { text: string; lineOf: (docno: string) => number } {
    const lines: string[] = [];
    const lineNumbers = new Map<string, number>();
    const add = (qid: string, docno: string, score: number) => {
      if (lines.length % 10_000 === 0) lines.push('# progress');
      lines.push(`${qid} Q0 ${docno} 1 ${score} t`);
      if (qid === 'q1' && !lineNumbers.has(docno)) lineNumbers.set(docno, lines.length);
    };
    for (let i = 0; i < 70_000; i++) add('q1', `doc-${i}`, i % 7);
    for (let i = 0; i < 100; i++) add('q2', `doc-${i}`, i);
    for (let i = 70_000; i < 140_000; i++) add('q1', `doc-${i === duplicateAt ? 3 : i}`, i % 7);
    return { text: `${lines.join('\n')}\n`, lineOf: (docno) => lineNumbers.get(docno)! };
  }

  it('keeps every entry, in file order, across blocks and stretches', async () => {
    const path = scratch.file('big.run', bigRun().text);
    const run = await readRunTable(path);
    expect(run.qids).toEqual(['q1', 'q2']);
    const q1 = run.entries(0);
    expect(q1.count).toBe(140_000);
    for (const i of [0, 65_535, 65_536, 69_999, 70_000, 131_071, 131_072, 139_999]) {
      expect([q1.docno(i), q1.values[i]]).toEqual([`doc-${i}`, i % 7]);
    }
    const q2 = run.entries(1);
    expect([q2.count, q2.docno(99), q2.values[99]]).toEqual([100, 'doc-99', 99]);
  });

  it('names the lines of a duplicate whose listings lie in different stretches and blocks', async () => {
    const { text, lineOf } = bigRun(135_000);
    const path = scratch.file('big-duplicate.run', text);
    const error = await rejection(readRunTable(path));
    const line = text.split('\n').indexOf(`q1 Q0 doc-3 1 ${135_000 % 7} t`, lineOf('doc-3')) + 1;
    expect(line).toBeGreaterThan(135_000);
    expect(error?.problems).toEqual([
      { file: path, line, column: 7, field: 'docno', message: `document "doc-3" is listed twice for query "q1" (first on line ${lineOf('doc-3')})` },
    ]);
  });
});
