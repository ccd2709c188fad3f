import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { byKey } from '../../../src/core/code-unit-order.js';
import { normalizeText } from '../../../src/core/derived-ids.js';
import { evalConfig } from '../../../src/core/compare/settings.js';
import type { ResultRecord } from '../../../src/core/record.js';
import { goldKeyOf, OutcomeBuilder } from '../../../src/core/scoring/outcomes.js';
import { parseRetrievalOkRule } from '../../../src/core/catalog/parse/retrieval-ok.js';
import { DEFAULT_JUDGING, judgeRanking, relevantCount, UNJUDGED } from '../../../src/core/measures/ranking.js';
import { judgedRanking } from '../../../src/core/scoring/score.js';

const config = evalConfig({ k: [5], 'retrieval-ok': parseRetrievalOkRule('hit@5'), correct: { kind: 'exact' }, 'relevance-level': 1, 'ndcg-gains': new Map() });

function built(records: readonly Partial<ResultRecord>[]) {
  const builder = new OutcomeBuilder(config);
  for (const record of records) builder.add({ question: `${record.id}?`, ...record } as ResultRecord);
  return builder.build();
}

describe('gold-label fingerprints', () => {
  it('are the relevant ids in id order with their grades, whatever order or form the record lists them in', () => {
    const expected = '[[["a",1],["b",1],["c",2]],null,true]';
    expect(goldKeyOf({ id: 'q', question: 'q?', relevant_ids: { c: 2, a: 1, b: 1 } } as ResultRecord)).toBe(expected);
    expect(goldKeyOf({ id: 'q', question: 'q?', relevant_ids: { b: 1, c: 2, a: 1, d: 0 } } as ResultRecord)).toBe(expected);
    expect(goldKeyOf({ id: 'q', question: 'q?', relevant_ids: ['c', 'b', 'a'] } as ResultRecord)).toBe('[[["a",1],["b",1],["c",1]],null,true]');
    expect(goldKeyOf({ id: 'q', question: 'q?', relevant_ids: ['b', 'c', 'a'] } as ResultRecord)).toBe('[[["a",1],["b",1],["c",1]],null,true]');
  });

  it('are the JSON of [grades, normalised expected answer, answerable]', () => {
    const record = { id: 'q', question: 'q?', relevant_ids: { 'd"1': 2 }, expected_answer: '  Say "\\ é"\n ', answerable: false } as ResultRecord;
    expect(goldKeyOf(record)).toBe(JSON.stringify([[['d"1', 2]], 'Say "\\ é"', false]));
    expect(goldKeyOf({ id: 'q', question: 'q?' } as ResultRecord)).toBe('[[],null,true]');
  });

  it('equal their definition: the JSON of the graded pairs (grade 1 and up) deduplicated and in id order, then the rest', () => {
    const definition = (record: ResultRecord) => {
      const relevant = record.relevant_ids;
      const graded: [string, number][] = relevant === undefined ? [] : Array.isArray(relevant) ? relevant.map((id) => [id, 1]) : Object.entries(relevant);
      const grades = [...new Map(graded.filter(([, grade]) => grade >= 1))].sort(byKey);
      return JSON.stringify([grades, record.expected_answer === undefined ? null : normalizeText(record.expected_answer), record.answerable ?? true]);
    };
    // Few distinct ids, so that lists repeat them; quotes, escapes, astral characters and __proto__ among them.
    const id = fc.constantFrom('a', 'b', 'B', 'a b', 'd"1', 'd\\2', '\u{1F600}', 'é', '__proto__', '10', '9', 'doc-1873ec8aaa');
    const relevant = fc.oneof(
      fc.constant(undefined),
      fc.array(id, { maxLength: 8 }),
      fc.dictionary(id, fc.integer({ min: 0, max: 3 }), { maxKeys: 8 }).map((grades) => JSON.parse(JSON.stringify(grades)) as Record<string, number>),
    );
    // Printable ASCII, which JSON writes as it is but for the quote and the backslash, and what it escapes or NFC changes.
    const expected = fc.oneof(
      fc.string(),
      fc.string({ unit: fc.constantFrom('a', ' ', '  ', '"', '\\', '\u0000', '\n', '\u007f', 'e\u0301', '\u00a0', '\uD83D', '😀') }),
    );
    const record = fc.record(
      { relevant_ids: relevant, expected_answer: fc.option(expected, { nil: undefined }), answerable: fc.option(fc.boolean(), { nil: undefined }) },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(record, (fields) => {
        const given = { id: 'q', question: 'q?', ...fields } as ResultRecord;
        expect(goldKeyOf(given)).toBe(definition(given));
      }),
      { numRuns: 2000 },
    );
  });
});

describe('the judged ranking of a record', () => {
  const grades = (relevant_ids: ResultRecord['relevant_ids']) =>
    Array.from(judgedRanking({ id: 'q', question: 'q?', retrieved_ids: ['a', '__proto__', 'b', 'c'], relevant_ids } as ResultRecord, DEFAULT_JUDGING)!.grades);

  it('grades each id of a list 1, a repeated one too', () => {
    expect(grades(['b', '__proto__', 'b'])).toEqual([UNJUDGED, 1, 1, UNJUDGED]);
  });

  it('keeps the grades of an object, 0 (judged, not relevant) and a key named __proto__ included', () => {
    expect(grades(JSON.parse('{"b": 3, "__proto__": 2, "a": 0}') as Record<string, number>)).toEqual([0, 2, 3, UNJUDGED]);
  });
});

describe('the judged ranking, judged into a shared array', () => {
  // Few ids, so that lists repeat them and rankings hold them; grades 0 (judged, not relevant) to 3; levels 1 and 2.
  const id = fc.constantFrom('a', 'b', 'c', 'B', '__proto__', 'doc-1873ec8aaa', 'é');
  const record = fc.record({
    retrieved_ids: fc.option(fc.uniqueArray(id, { maxLength: 7 }), { nil: undefined }),
    relevant_ids: fc.option(
      fc.oneof(
        fc.array(id, { maxLength: 4 }),
        fc.dictionary(id, fc.integer({ min: 0, max: 3 }), { maxKeys: 4 }).map((grades) => JSON.parse(JSON.stringify(grades)) as Record<string, number>),
      ),
      { nil: undefined },
    ),
  });
  const relevance = (relevant: ResultRecord['relevant_ids']) =>
    new Map<string, number>(relevant === undefined ? [] : Array.isArray(relevant) ? relevant.map((id) => [id, 1]) : Object.entries(relevant));

  it('is the ranking judged on its own, and none where it has no relevant document, record after record (property)', () => {
    fc.assert(
      fc.property(fc.array(record, { maxLength: 6 }), fc.constantFrom(1, 2), (records, relevanceLevel) => {
        const judging = { relevanceLevel, ndcgGains: new Map<number, number>() };
        // Two grades long: longer rankings are judged into arrays of their own.
        const shared = new Float64Array(2);
        for (const fields of records) {
          const given = { id: 'q', question: 'q?', ...fields } as ResultRecord;
          const alone = given.retrieved_ids === undefined ? undefined : judgeRanking(given.retrieved_ids, relevance(given.relevant_ids), judging);
          const expected = alone === undefined || relevantCount(alone) === 0 ? undefined : alone;
          const ranking = judgedRanking(given, judging, shared);
          expect(ranking === undefined ? undefined : { ...ranking, grades: Array.from(ranking.grades) }).toEqual(
            expected === undefined ? undefined : { ...expected, grades: Array.from(expected.grades) },
          );
        }
      }),
      { numRuns: 1000 },
    );
  });
});

describe('the gold documents found within the retrieval-ok cut-off (hit@5)', () => {
  it('lists the relevant documents in the top 5 in rank order, none past it; nothing for a question without relevant ones', () => {
    const outcomes = built([
      { id: 'found', retrieved_ids: ['x', 'b', 'y', 'z', 'a', 'c'], relevant_ids: ['a', 'b', 'c'] },
      { id: 'none in top 5', retrieved_ids: ['x', 'y', 'z', 'w', 'v', 'a'], relevant_ids: ['a'] },
      { id: 'nothing relevant', retrieved_ids: ['x'], relevant_ids: [] },
      { id: 'no labels', retrieved_ids: ['x'] },
      { id: 'judged not relevant', retrieved_ids: ['x'], relevant_ids: { x: 0 } },
      { id: 'no ranking', answer: 'Paris' },
    ]);
    expect(outcomes.goldFound).toEqual([['b', 'a'], [], undefined, undefined, undefined, undefined]);
    // Three questions whose ranking has nothing to find, against two with a ranking to judge.
    expect(outcomes.noRelevant).toBe(3);
  });
});

describe('what the report says was derived', () => {
  it('counts correctness by the rule only for records with an answer and an expected answer but no correct field', () => {
    // Three derived, and fewer of each kind that misses one condition: a test of the wrong condition counts otherwise.
    const outcomes = built([
      { id: 'derived 1', answer: 'Paris', expected_answer: 'Paris' },
      { id: 'derived 2', answer: 'Lyon', expected_answer: 'Paris' },
      { id: 'derived 3', answer: 'Paris', expected_answer: 'Paris' },
      { id: 'no answer', expected_answer: 'Paris' },
      { id: 'no expected answer 1', answer: 'Paris' },
      { id: 'no expected answer 2', answer: 'Paris' },
      { id: 'given', answer: 'Paris', expected_answer: 'Paris', correct: false },
    ]);
    expect(outcomes.correctByRule).toBe(3);
    // Refusal by the detector: every record with an answer and no refused field.
    expect(outcomes.refusedByDetector).toBe(6);
  });

  it('counts ids hashed from the question and documents matched by text as the reader says it derived them', () => {
    const builder = new OutcomeBuilder(config);
    const record = (id: string) => ({ id, question: `${id}?` }) as ResultRecord;
    builder.add(record('hashed'), { idFromQuestion: true, retrievalByText: false, documentIdsFromText: false });
    builder.add(record('matched'), { idFromQuestion: false, retrievalByText: true, documentIdsFromText: true });
    builder.add(record('both'), { idFromQuestion: true, retrievalByText: true, documentIdsFromText: true });
    builder.add(record('neither'), { idFromQuestion: false, retrievalByText: false, documentIdsFromText: false });
    builder.add(record('not said'));
    const outcomes = builder.build();
    expect(outcomes.idsFromQuestion).toBe(2);
    expect(outcomes.retrievalByText).toBe(2);
  });
});

describe('what the report counts per run', () => {
  it('counts records with no claims and records with judge errors (an empty list is none)', () => {
    const error = { metric: 'faithfulness', kind: 'parse', message: 'no verdict' } as const;
    const outcomes = built([
      { id: 'no claims', claims: [] },
      { id: 'claims', claims: [{ text: 'Paris is in France.', verdict: 'SUPPORTED' }] },
      { id: 'errors', judge_errors: [error] },
      { id: 'no errors', judge_errors: [] },
    ]);
    expect([outcomes.noClaims, outcomes.judgeErrors]).toEqual([1, 1]);
  });

  it('tallies the questions each judge (field, model, prompt) filled, in order of first use', () => {
    const judge = (model: string, prompt_version = 'v1') => ({ model, prompt_version });
    const outcomes = built([
      { id: 'a', judged_by: { correct: judge('m1'), claims: judge('m1') } },
      { id: 'b', judged_by: { correct: judge('m1') } },
      { id: 'c', judged_by: { correct: judge('m2'), answer_relevance: undefined } },
      { id: 'd', judged_by: { correct: judge('m1', 'v2') } },
      { id: 'e', judged_by: { correct: judge('m1') } },
    ]);
    expect(outcomes.judges).toEqual([
      { field: 'correct', model: 'm1', promptVersion: 'v1', questions: 3 },
      { field: 'claims', model: 'm1', promptVersion: 'v1', questions: 1 },
      { field: 'correct', model: 'm2', promptVersion: 'v1', questions: 1 },
      { field: 'correct', model: 'm1', promptVersion: 'v2', questions: 1 },
    ]);
  });

  it('knows a score by its first value: true/false ones are outcomes, numbers are graded', () => {
    const outcomes = built([
      { id: 'a', scores: { passed: true, rating: 0.5 } },
      { id: 'b', scores: { passed: 0.5, rating: false } },
    ]);
    expect([...outcomes.scores]).toEqual([
      ['passed', 'boolean'],
      ['rating', 'number'],
    ]);
    expect([...outcomes.columns.get('score:passed')!]).toEqual([1, 0.5]);
  });
});
