import { afterAll, describe, expect, it } from 'vitest';
import { evalConfig } from '../../../src/core/compare/settings.js';
import { InputError } from '../../../src/core/errors.js';
import { parseRetrievalOkRule } from '../../../src/core/catalog/parse/retrieval-ok.js';
import { summarizeRun } from '../../../src/core/scoring/summary.js';
import { readOutcomes } from '../../../src/sources/outcomes.js';
import { jsonl, scratchDir } from '../../helpers/cli.js';

const scratch = scratchDir();
afterAll(() => scratch.cleanup());
const config = evalConfig({ k: [5], 'retrieval-ok': parseRetrievalOkRule('hit@5'), correct: { kind: 'exact' }, 'relevance-level': 1, 'ndcg-gains': new Map() });

let counter = 0;
const file = (records: object[]) => scratch.file(`repeats-${++counter}.jsonl`, jsonl(records));

async function problems(files: string[]): Promise<string[]> {
  try {
    await readOutcomes(files, config);
  } catch (error) {
    if (error instanceof InputError) return error.problems.map((p) => `${p.file === files[0] ? 'A' : 'B'}:${p.line}: ${p.field}: ${p.message}`);
    throw error;
  }
  throw new Error('accepted');
}

describe('records with run (or repeat)', () => {
  it('group by id: one question per id, each column the mean over its repeats, with the repeat counts', async () => {
    const path = file([
      { id: 'q1', question: 'a?', run: 1, correct: true, answer_relevance: 0.2 },
      { id: 'q2', question: 'b?', run: 1, correct: false },
      { id: 'q1', question: 'a?', run: 2, correct: false, answer_relevance: 0.6 },
      { id: 'q1', question: 'a?', repeat: 3, correct: true },
    ]);
    const { outcomes } = await readOutcomes(path, config);
    expect(outcomes.size).toBe(2);
    expect(outcomes.ids).toEqual(['q1', 'q2']);
    expect([...outcomes.columns.get('correct')!]).toEqual([2 / 3, 0]);
    expect(outcomes.columns.get('answer_relevance')![0]).toBeCloseTo(0.4, 12);
    expect([...outcomes.repeats!.runs]).toEqual([3, 1]);
    expect([...outcomes.repeats!.counts.get('answer_relevance')!]).toEqual([2, 0]);
    expect(outcomes.repeats!.binary.has('correct')).toBe(true);
    expect(outcomes.repeats!.binary.has('answer_relevance')).toBe(false);
    // Each question weighs the same: (2/3 + 0) / 2, not 2 of 4 records.
    expect(summarizeRun(outcomes, config).metrics.correct).toMatchObject({ value: 1 / 3, n: 2, count: 2 / 3 });
  });

  it('repeats may come one file per run (shards)', async () => {
    const first = file([{ id: 'q1', question: 'a?', run: 1, correct: true }]);
    const second = file([{ id: 'q1', question: 'a?', run: 2, correct: false }]);
    const { outcomes } = await readOutcomes([first, second], config);
    expect([...outcomes.columns.get('correct')!]).toEqual([0.5]);
  });

  it('the same (id, run) twice is an error naming both places, in one file or across shards', async () => {
    const one = file([
      { id: 'q1', question: 'a?', run: 2 },
      { id: 'q1', question: 'a?', repeat: 2 },
    ]);
    expect(await problems([one])).toEqual(['A:2: id: duplicate id "q1" in run 2 (first on line 1); each repeat of a question needs its own run number']);
    const a = file([{ id: 'q1', question: 'a?', run: 1 }]);
    const b = file([{ id: 'q1', question: 'a?' }]);
    expect((await problems([a, b]))[0]).toMatch(/^B:1: id: duplicate id "q1" \(first on .*repeats-\d+\.jsonl:1\)$/);
  });

  it.each([
    [0, 'must be 1 or more (repeats are numbered from 1)'],
    [1.5, 'must be a whole number, 1 or more (which repeat of the question this record is)'],
    ['2', 'must be a whole number, 1 or more (which repeat of the question this record is)'],
  ])('run %j is refused: %s', async (run, message) => {
    expect(await problems([file([{ id: 'q1', question: 'a?', run }])])).toEqual([`A:1: run: ${message}`]);
  });

  it('without run, numbers are exactly as before: no repeats, the same columns and summary', async () => {
    const records = [
      { id: 'q1', question: 'a?', correct: true, answer_relevance: 0.3, retrieved_ids: ['d1'], relevant_ids: ['d1'] },
      { id: 'q2', question: 'b?', correct: false, answer_relevance: 0.9, retrieved_ids: ['d2'], relevant_ids: ['d1'] },
    ];
    const plain = await readOutcomes(file(records), config);
    const runOne = await readOutcomes(file(records.map((r) => ({ ...r, run: 1 }))), config);
    expect(plain.outcomes.repeats).toBeUndefined();
    expect(runOne.outcomes.repeats).toBeUndefined();
    expect(summarizeRun(runOne.outcomes, config)).toEqual(summarizeRun(plain.outcomes, config));
    expect(summarizeRun(plain.outcomes, config).metrics.correct).toMatchObject({ value: 0.5, n: 2, count: 1 });
  });
});
