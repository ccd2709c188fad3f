import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { logRecordSchema, plainTurn, turnOf } from '../../../src/core/monitor/log-record.js';

/** Values each field may take in a log: valid ones, their near misses, and other JSON. */
const value = fc.oneof(
  fc.constantFrom(undefined, null, true, false, 0, -1, 1772359200, 1772359200123, 1.5e15, 1.7e18, Number.NaN, Infinity, '', ' ', ' s1 ', 's-1', '1772359200'),
  fc.constantFrom('2026-03-01T09:30:00Z', '2026-03-01 09:30:00+01:00', '2026-03-01T09:30:00', ' 2026-03-01T09:30:00.5Z ', 'yesterday'),
  fc.string({ maxLength: 6 }),
  fc.array(fc.oneof(fc.double(), fc.constantFrom('1', null, undefined)), { maxLength: 3 }),
  fc.array(fc.double({ noNaN: true, noDefaultInfinity: true }), { minLength: 1, maxLength: 3 }),
  fc.constantFrom([1, Number.NaN], [Infinity, 0], [-0], [], [1, '2']),
  fc.dictionary(fc.string({ maxLength: 2 }), fc.string({ maxLength: 2 }), { maxKeys: 1 }),
);
/** Records the hand check must take: every field plainly valid. */
const plain = fc.record(
  {
    session_id: fc.string({ minLength: 1, maxLength: 8 }).filter((id) => id.trim() !== ''),
    timestamp: fc.oneof(fc.integer({ min: 0, max: 2e12 }), fc.constantFrom('2026-03-01T09:30:00Z', '2026-03-01T10:30:00.250+01:00')),
    user_query: fc.string({ maxLength: 8 }),
    answer: fc.string({ maxLength: 8 }),
    refused: fc.boolean(),
    embedding: fc.array(fc.double({ noNaN: true, noDefaultInfinity: true }), { minLength: 1, maxLength: 3 }),
  },
  { requiredKeys: ['session_id', 'timestamp', 'user_query', 'answer'] },
);

const KEYS = ['session_id', 'timestamp', 'user_query', 'answer', 'refused', 'embedding'] as const;
/** Plainly valid records with up to three fields taken out or given another value: near misses and the rest. */
const fields = fc
  .tuple(plain, fc.array(fc.tuple(fc.constantFrom(...KEYS), fc.option(value, { nil: undefined }), fc.boolean()), { maxLength: 3 }))
  .map(([record, edits]) => {
    const edited: Record<string, unknown> = { ...record };
    for (const [key, given, drop] of edits) {
      if (drop) delete edited[key];
      else edited[key] = given;
    }
    return edited;
  });

describe('the plainly valid log record, checked by hand', () => {
  it('gives the turn the schema gives, or leaves the record to the schema', () => {
    fc.assert(
      fc.property(fields, (record) => {
        const turn = plainTurn(record);
        if (turn === undefined) return;
        const parsed = logRecordSchema.safeParse(record);
        expect(parsed.success).toBe(true);
        expect(turn).toStrictEqual(turnOf(parsed.data!));
      }),
      { numRuns: 3000 },
    );
  });

  it('takes every plainly valid record, the same turn as the schema', () => {
    fc.assert(
      fc.property(plain, (record) => {
        expect(plainTurn(record)).toStrictEqual(turnOf(logRecordSchema.parse(record)));
      }),
      { numRuns: 1000 },
    );
    expect(plainTurn({ session_id: ' s1 ', timestamp: 1772359200, user_query: 'q', refused: true })).toStrictEqual({
      session: 's1',
      at: 1772359200000,
      query: 'q',
      refused: true,
    });
  });
});
