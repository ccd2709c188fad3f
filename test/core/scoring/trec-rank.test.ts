import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { QueryEntries } from '../../../src/core/scoring/query-entries.js';
import { JudgedRanker } from '../../../src/core/scoring/trec-rank.js';
import { UNJUDGED } from '../../../src/core/measures/ranking.js';

/** Docnos that tie-break in interesting ways: prefixes, case, digits vs letters, multi-byte UTF-8. */
const DOCNOS = ['a', 'ab', 'abc', 'b', 'B', 'Z', '0', '10', '9', 'é', 'z', '\u{1F600}', '\ufffd', 'doc-1', 'doc-10', 'doc-2'];
/** Few distinct scores, so that most documents tie; −0 and 0 must tie too. */
const SCORES = [-0, 0, 0.5, 1, 1, 2.5, -3, 1e-300, 7];

interface Query {
  /** Retrieved documents (indexes into DOCNOS, no repeats) with scores. */
  readonly run: readonly { doc: number; score: number }[];
  /** Judged documents (retrieved or not) with grades −1 … 3. */
  readonly qrels: readonly { doc: number; grade: number }[];
}

const queryArb: fc.Arbitrary<Query> = fc.record({
  run: fc.uniqueArray(fc.record({ doc: fc.nat(DOCNOS.length - 1), score: fc.constantFrom(...SCORES) }), {
    selector: (entry) => entry.doc,
    maxLength: DOCNOS.length,
  }),
  qrels: fc.uniqueArray(fc.record({ doc: fc.nat(DOCNOS.length - 1), grade: fc.integer({ min: -1, max: 3 }) }), {
    selector: (entry) => entry.doc,
    maxLength: DOCNOS.length,
  }),
});

/** The reference: a comparator sort by score descending, then docno bytes descending (trec_eval's qsort order). */
function naiveGrades(query: Query): number[] {
  const grade = new Map(query.qrels.map((entry) => [entry.doc, entry.grade]));
  const bytes = (doc: number) => Buffer.from(DOCNOS[doc]!, 'utf8');
  return [...query.run].sort((a, b) => b.score - a.score || Buffer.compare(bytes(b.doc), bytes(a.doc))).map((entry) => grade.get(entry.doc) ?? UNJUDGED);
}

function naiveIdeal(query: Query): number[] {
  return query.qrels
    .map((entry) => entry.grade)
    .filter((grade) => grade >= 0)
    .sort((a, b) => b - a);
}

/** Appends an entry whose docno is `docno`, as a reader would store it. */
function push(entries: QueryEntries, docno: string, value: number): void {
  const bytes = Buffer.from(docno, 'utf8');
  entries.push(bytes, 0, bytes.length, value);
}

/** The query as a reader would store it (run order shuffled by the arbitrary). */
function tables(query: Query): { run: QueryEntries; qrels: QueryEntries } {
  const run = new QueryEntries();
  for (const entry of query.run) push(run, DOCNOS[entry.doc]!, entry.score);
  const qrels = new QueryEntries();
  for (const entry of query.qrels) push(qrels, DOCNOS[entry.doc]!, entry.grade);
  return { run, qrels };
}

describe('JudgedRanker', () => {
  it('places every judged grade where a full comparator sort puts it, over a sequence of queries (property)', () => {
    fc.assert(
      fc.property(fc.array(queryArb, { minLength: 1, maxLength: 8 }), (queries) => {
        const stored = queries.map((query) => tables(query));
        const ranker = new JudgedRanker();
        queries.forEach((query, i) => {
          const ranking = ranker.judge(stored[i]!.qrels, stored[i]!.run);
          expect(Array.from(ranking.grades)).toEqual(naiveGrades(query));
          expect(Array.from(ranking.judgedRanks)).toEqual(naiveGrades(query).flatMap((grade, rank) => (grade === UNJUDGED ? [] : [rank])));
          expect(Array.from(ranking.judgedGrades)).toEqual(naiveIdeal(query));
          expect(ranking.relevant).toBe(naiveIdeal(query).filter((grade) => grade >= 1).length);
        });
      }),
      { numRuns: 1000 },
    );
  });

  it('handles large tie groups (more than the insertion-sort size) and many levels', () => {
    const docnos = Array.from({ length: 300 }, (_, i) => `d${(i * 37) % 300}`);
    const query: Query = {
      run: docnos.map((_, doc) => ({ doc, score: doc % 3 === 0 ? 1 : doc % 7 })),
      qrels: docnos.map((_, doc) => ({ doc, grade: (doc % 5) - 1 })),
    };
    const run = new QueryEntries();
    const qrels = new QueryEntries();
    for (const entry of query.run) push(run, docnos[entry.doc]!, entry.score);
    for (const entry of query.qrels) push(qrels, docnos[entry.doc]!, entry.grade);
    const grade = new Map(query.qrels.map((entry) => [entry.doc, entry.grade]));
    const expected = [...query.run]
      .sort((a, b) => b.score - a.score || Buffer.compare(Buffer.from(docnos[b.doc]!), Buffer.from(docnos[a.doc]!)))
      .map((entry) => grade.get(entry.doc) ?? UNJUDGED);
    expect(Array.from(new JudgedRanker().judge(qrels, run).grades)).toEqual(expected);
  });

  it('grows every buffer past twice its first size: 600 judged documents at 599 scores', () => {
    // The per-judged-document buffers start at 256 entries (257 for the per-level ones): 599 levels need more than
    // twice that. The top two tie, broken by docno: d593 first.
    const ranker = new JudgedRanker();
    const docnos = Array.from({ length: 600 }, (_, i) => `d${(i * 7) % 600}`);
    const run = new QueryEntries();
    const qrels = new QueryEntries();
    docnos.forEach((docno, i) => push(run, docno, Math.min(i, 598) / 4));
    docnos.forEach((docno, i) => push(qrels, docno, i % 4));
    const ranking = ranker.judge(qrels, run);
    // Scores rise with i, so rank 1 is the last document (d593), whose grade is 599 % 4 = 3.
    expect(Array.from(ranking.grades)).toEqual(docnos.map((_, i) => (599 - i) % 4));
    expect(Array.from(ranking.judgedGrades)).toEqual([3, 2, 1, 0].flatMap((grade) => Array<number>(150).fill(grade)));
    expect(ranking.relevant).toBe(450);
  });

  it('ranks a tie group of 600 judged documents, more than twice the first buffer, by docno', () => {
    const docnos = Array.from({ length: 600 }, (_, i) => `d${String(i).padStart(3, '0')}`);
    const run = new QueryEntries();
    const qrels = new QueryEntries();
    docnos.forEach((docno) => push(run, docno, 1));
    docnos.forEach((docno, i) => push(qrels, docno, i % 4));
    // All tie: docnos descending, d599 first.
    expect(Array.from(new JudgedRanker().judge(qrels, run).grades)).toEqual(docnos.map((_, i) => (599 - i) % 4));
  });

  it('a query missing from the run retrieved nothing: no grades, the judged grades still from the qrels', () => {
    const qrels = new QueryEntries();
    push(qrels, 'd1', 2);
    push(qrels, 'd2', 0);
    push(qrels, 'd3', 3);
    const ranking = new JudgedRanker().judge(qrels, undefined);
    expect(Array.from(ranking.grades)).toEqual([]);
    expect(Array.from(ranking.judgedGrades)).toEqual([3, 2, 0]);
    expect(ranking.relevant).toBe(2);
  });
});
