import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type RecordFields, readRecordFields, resultRecordSchema } from '../../src/core/record.js';

/** A plain value, or now and then a value near its rules: one the schema converts or rejects, or a valid edge. */
const orNear = (plain: fc.Arbitrary<unknown>, ...near: unknown[]): fc.Arbitrary<unknown> => fc.oneof(plain, fc.constantFrom(...near));

/** A plain list with, half the time, one element near its rules put somewhere in it. */
const listWithOne = <T, U>(plain: fc.Arbitrary<T[]>, near: fc.Arbitrary<U>) =>
  fc.tuple(plain, fc.option(fc.tuple(near, fc.nat()), { nil: undefined })).map(([list, one]) => {
    if (one === undefined) return list;
    const at = one[1] % (list.length + 1);
    return [...list.slice(0, at), one[0], ...list.slice(at)];
  });

/** A plain object with, half the time, one entry near its rules (a new key or a changed value). */
const objectWithOne = <T>(plain: fc.Arbitrary<Record<string, T>>, key: fc.Arbitrary<string>, near: fc.Arbitrary<unknown>) =>
  fc.tuple(plain, fc.option(fc.tuple(key, near), { nil: undefined })).map(([object, one]) => (one === undefined ? object : { ...object, [one[0]]: one[1] }));

const plainId = fc.constantFrom('d1', 'd2', 'd3', 'doc-00a1', 'constructor', 'é');
const nearId = fc.constantFrom('', ' ', '\u00a0', '\t\n', 'd1', 7, -2, 0, 2 ** 53, 1.5, null, undefined, true);
const plainIds = fc.uniqueArray(plainId, { maxLength: 5 });
const nearIds = fc.oneof({ weight: 6, arbitrary: listWithOne(plainIds, nearId) }, fc.constantFrom('d1', 7, { d1: 1 }, null));
const plainGrades = fc.dictionary(fc.constantFrom('d1', 'd2', 'toString', '__proto__'), fc.oneof(fc.nat(), fc.constantFrom(-0, Number.MAX_SAFE_INTEGER)));
const nearGrades = objectWithOne(
  plainGrades,
  fc.constantFrom('d1', ' ', '', 'd9'),
  fc.constantFrom(0, 3, -0, 2 ** 53, -1, -0.5, 1.5, '2', null, undefined, Number.NaN),
);
const plainString = fc.string({ maxLength: 8 });
const string = orNear(plainString, 3, null, undefined, true, ['a']);
const plainStrings = fc.array(plainString, { maxLength: 4 });
const strings = fc.oneof({ weight: 6, arbitrary: listWithOne(plainStrings, fc.constantFrom(3, null, undefined, true)) }, fc.constantFrom('a', {}, null));
const flag = orNear(fc.boolean(), 'true', 0, null, undefined);
const label = orNear(fc.oneof(fc.string(), fc.boolean()), 1, null, undefined, ['a']);
const unknownKey = fc.constantFrom('extra', 'Text', 'verdicts');

const VERDICTS = ['SUPPORTED', 'CONTRADICTED', 'NOT_STATED'];
const plainClaim = fc.record({ text: fc.string(), verdict: fc.constantFrom(...VERDICTS) }, { requiredKeys: ['verdict'] });
const nearClaim = fc.oneof(
  fc.record({ text: string, verdict: orNear(fc.constantFrom(...VERDICTS), 'supported', 1, undefined, null) }, { requiredKeys: ['verdict'] }),
  fc.record({ text: plainString }),
  fc.record({ verdict: fc.constant('SUPPORTED'), source: fc.anything() }),
  fc.constantFrom(null, 'SUPPORTED', []),
);
const plainJudgedBy = fc.record(
  { model: fc.string(), prompt_version: fc.string(), embedding_model: fc.string() },
  { requiredKeys: ['model', 'prompt_version'] },
);
const nearJudgedBy = fc.oneof(
  fc.record({ model: string, prompt_version: string, embedding_model: string }, { requiredKeys: [] }),
  fc.record({ model: fc.constant('m'), prompt_version: fc.constant('v1'), temperature: fc.constant(0) }),
  fc.constantFrom(null, 'm', []),
);
const plainJudgedByField = fc.record({ claims: plainJudgedBy, answer_relevance: plainJudgedBy, correct: plainJudgedBy }, { requiredKeys: [] });
const nearJudgedByField = fc.oneof(
  { weight: 6, arbitrary: objectWithOne(plainJudgedByField, fc.constantFrom('claims', 'correct', 'faithfulness'), fc.oneof(plainJudgedBy, nearJudgedBy)) },
  fc.constantFrom([], null, 'x'),
);
const JUDGE_METRICS = ['faithfulness', 'answer_relevance', 'correctness'];
const plainJudgeError = fc.record({ metric: fc.constantFrom(...JUDGE_METRICS), kind: fc.string(), message: fc.string() });
const nearJudgeError = fc.oneof(
  fc.record({ metric: orNear(fc.constantFrom(...JUDGE_METRICS), 'recall', null), kind: string, message: string }, { requiredKeys: [] }),
  fc.record({ metric: fc.constant('faithfulness'), kind: fc.constant('http'), message: fc.constant('429'), status: fc.constant('429') }),
);
const SCORE_NAMES = ['faithfulness', 'answer_relevancy', 'factual_correctness_mode_f1', 'x9', 'x'.repeat(64)];
const plainScore = fc.oneof(fc.double({ noNaN: true, noDefaultInfinity: true }), fc.boolean());
const plainScores = fc.dictionary(fc.constantFrom(...SCORE_NAMES), plainScore);
const nearScores = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.oneof(
      objectWithOne(plainScores, fc.constantFrom('Answer Relevancy', 'a__b', '_x', 'x_', 'é', 'x'.repeat(65), '!!'), plainScore),
      objectWithOne(plainScores, fc.constantFrom(...SCORE_NAMES), fc.constantFrom(Number.NaN, Number.POSITIVE_INFINITY, '0.5', null, undefined)),
    ),
  },
  fc.constantFrom([], 'high', null),
);

/** A field left out. */
const ABSENT = Symbol('absent');

/** A latency, a token count or a cost: 0 or more, near its edges. */
const amount = orNear(fc.double({ min: 0, max: 1e6, noNaN: true }), -0, -1e-9, Number.NaN, Number.POSITIVE_INFINITY, '12', null);

/** For each field, a value near its rules. */
const NEAR: Record<keyof RecordFields, fc.Arbitrary<unknown>> = {
  id: orNear(plainId, '', ' ', '\u00a0', 7, -2, 2 ** 53, 1.5, null, true),
  question: orNear(plainString, 3, null, undefined, ABSENT),
  retrieved_ids: nearIds,
  relevant_ids: fc.oneof(nearIds, nearGrades, fc.constantFrom('d1', 3)),
  answer: string,
  expected_answer: string,
  correct: flag,
  retrieval_ok: flag,
  answerable: flag,
  refused: flag,
  claims: fc.oneof({ weight: 6, arbitrary: listWithOne(fc.array(plainClaim, { maxLength: 3 }), nearClaim) }, fc.constantFrom('x', {})),
  cited_ids: nearIds,
  answer_relevance: orNear(fc.double({ min: 0, max: 1, noNaN: true }), -0, -0.1, 1.1, Number.NaN, Number.POSITIVE_INFINITY, '0.5', null),
  human_label: label,
  judge_label: label,
  closed_book_correct: flag,
  tags: strings,
  judged_by: nearJudgedByField,
  judge_errors: fc.oneof({ weight: 6, arbitrary: listWithOne(fc.array(plainJudgeError, { maxLength: 2 }), nearJudgeError) }, fc.constantFrom({}, null)),
  retrieved_contexts: strings,
  reference_contexts: strings,
  scores: nearScores,
  trace_url: string,
  run: orNear(fc.integer({ min: 1 }), Number.MAX_SAFE_INTEGER, 0, -1, 1.5, 2 ** 53, '1', null),
  latency_ms: amount,
  retrieval_latency_ms: amount,
  generation_latency_ms: amount,
  prompt_tokens: amount,
  completion_tokens: amount,
  total_tokens: amount,
  cost_usd: amount,
};

/** Only plainly valid values, the cross-field rules kept: what the hand check must take on its own. */
const plainRecord = fc
  .record(
    {
      id: fc.constantFrom('q1', 'q-85ebca770000', 'constructor'),
      question: fc.string(),
      retrieved_ids: plainIds,
      relevant_ids: fc.oneof(plainIds, plainGrades),
      answer: fc.string(),
      expected_answer: fc.string(),
      correct: fc.boolean(),
      retrieval_ok: fc.boolean(),
      answerable: fc.boolean(),
      refused: fc.boolean(),
      claims: fc.array(plainClaim),
      cited_ids: plainIds,
      answer_relevance: fc.double({ min: 0, max: 1, noNaN: true }),
      human_label: fc.oneof(fc.string(), fc.boolean()),
      judge_label: fc.oneof(fc.string(), fc.boolean()),
      closed_book_correct: fc.boolean(),
      tags: fc.array(fc.string()),
      judged_by: plainJudgedByField,
      judge_errors: fc.array(plainJudgeError),
      scores: plainScores,
      trace_url: fc.webUrl(),
      run: fc.integer({ min: 1 }),
    },
    { requiredKeys: ['question'] },
  )
  .map((fields) => {
    // Contexts one per retrieved id, and relevant ids given whenever reference texts are.
    const contexts = fields.retrieved_ids?.map((docId) => `text of ${docId}`);
    return contexts === undefined ? fields : { ...fields, retrieved_contexts: contexts, reference_contexts: contexts.slice(0, 1) };
  });

/** A record with its fields replaced by the values given (`ABSENT` removes one). */
function replaced(plain: Record<string, unknown>, fields: Record<string, unknown>): Record<string, unknown> {
  const given = { ...plain };
  for (const [key, value] of Object.entries(fields)) {
    if (value === ABSENT) delete given[key];
    else given[key] = value;
  }
  return given;
}

/**
 * A plainly valid record with two fields replaced by values near their rules, and perhaps a field the schema does
 * not know: where the cross-field rules and the unknown fields are tried.
 */
const nearRecord = fc
  .tuple(plainRecord, fc.record(NEAR, { requiredKeys: [] }), fc.option(fc.tuple(unknownKey, fc.anything()), { nil: undefined, freq: 5 }))
  .map(([plain, near, extra]) => {
    const [first, second] = Object.keys(near);
    const given = replaced(
      plain,
      first === undefined
        ? {}
        : { [first]: near[first as keyof RecordFields], ...(second === undefined ? {} : { [second]: near[second as keyof RecordFields] }) },
    );
    return extra === undefined ? given : { ...given, [extra[0]]: extra[1] };
  });

/** The record's keys that hold a value (the schema leaves an absent optional key absent). */
const definedKeys = (value: object) =>
  Object.entries(value)
    .filter(([, field]) => field !== undefined)
    .map(([key]) => key)
    .sort();

afterEach(() => {
  vi.restoreAllMocks();
});

describe('readRecordFields', () => {
  /** readRecordFields gives what the schema gives: the same verdict, equal fields, the same problems. */
  function expectAsTheSchema(given: Record<string, unknown>) {
    const read = readRecordFields(given);
    const parsed = resultRecordSchema.safeParse(given);
    expect(read.success).toBe(parsed.success);
    if (read.success && parsed.success) {
      expect(read.data).toEqual(parsed.data);
      expect(definedKeys(read.data)).toEqual(definedKeys(parsed.data));
      if (read.data.scores !== undefined) expect(Object.getPrototypeOf(read.data.scores)).toBe(Object.prototype);
    } else {
      expect(read.error?.issues).toEqual(parsed.error?.issues);
    }
  }

  it.each(Object.keys(NEAR))('reads %s as the schema does, at the edges of its rules', (key) => {
    fc.assert(
      fc.property(plainRecord, NEAR[key as keyof RecordFields], (plain, value) => {
        expectAsTheSchema(replaced(plain, { [key]: value }));
      }),
      { numRuns: 400 },
    );
  });

  it('reads records as the schema does when two fields are near their rules, and with a field it does not know', () => {
    fc.assert(
      fc.property(nearRecord, (given) => {
        expectAsTheSchema(given);
      }),
      { numRuns: 3_000 },
    );
  });

  it('takes a plainly valid record without the schema', () => {
    const safeParse = vi.spyOn(resultRecordSchema, 'safeParse');
    fc.assert(
      fc.property(plainRecord, (given) => {
        const read = readRecordFields(given);
        expect(read).toEqual({ success: true, data: given });
      }),
      { numRuns: 500 },
    );
    expect(safeParse).not.toHaveBeenCalled();
  });

  it('leaves to the schema a record it would change or reject', () => {
    const safeParse = vi.spyOn(resultRecordSchema, 'safeParse');
    const cases: Record<string, unknown>[] = [
      { id: 7, question: 'a numeric id, read as "7"' },
      { question: 'q', retrieved_ids: ['d1', 'd1'] },
      { question: 'q', claims: [{ verdict: 'SUPPORTED', source: 'x' }] },
      { question: 'q', scores: { 'Answer Relevancy': 0.5 } },
      { question: 'q', retrieved_ids: ['d1'], retrieved_contexts: ['a', 'b'] },
      { question: 'q', extra: 1 },
      { question: 'q', answer: undefined },
    ];
    for (const given of cases) readRecordFields(given);
    expect(safeParse).toHaveBeenCalledTimes(cases.length);
    expect(readRecordFields(cases[0]!)).toEqual({ success: true, data: { id: '7', question: 'a numeric id, read as "7"' } });
  });

  it('gives scores gathered without a prototype back as a plain object', () => {
    const gathered = Object.assign(Object.create(null) as object, { faithfulness: 0.9 });
    const read = readRecordFields({ question: 'q', scores: gathered });
    expect(read.success && Object.getPrototypeOf(read.data.scores)).toBe(Object.prototype);
    expect(read.data?.scores).toEqual({ faithfulness: 0.9 });
  });
});
