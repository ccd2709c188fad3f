import { describe, expect, it } from 'vitest';
import { resultRecordSchema } from '../../src/core/record.js';

/** The grade of document d as the schema reads it, or the words of its problem. */
function gradeOf(value: unknown): number | string[] {
  const parsed = resultRecordSchema.safeParse({ question: 'q', relevant_ids: { d: value } });
  return parsed.success ? (parsed.data.relevant_ids as Record<string, number>).d! : parsed.error.issues.map((issue) => issue.message);
}

describe('graded relevance', () => {
  it('takes every whole number from 0 to the largest safe integer as it is, -0 included', () => {
    expect([0, 1, 3, Number.MAX_SAFE_INTEGER].map(gradeOf)).toEqual([0, 1, 3, Number.MAX_SAFE_INTEGER]);
    expect(Object.is(gradeOf(-0), -0)).toBe(true);
  });

  it('words each other value’s problem', () => {
    expect([2 ** 53, 1.5, -1, '2', null].map(gradeOf)).toEqual([
      ['must be a whole-number grade'],
      ['must be a whole-number grade'],
      ['must not be negative (grades are 0 or more; 1 and up is relevant)'],
      ['must be a relevance grade (a number)'],
      ['must be a relevance grade (a number)'],
    ]);
  });
});
