import { describe, expect, it } from 'vitest';
import { evalConfig } from '../../../src/core/compare/settings.js';
import type { ResultRecord } from '../../../src/core/record.js';
import { OutcomeBuilder, type QuestionOutcomes, withoutQuestions, withRowsOf } from '../../../src/core/scoring/outcomes.js';
import { summarizeRepeats } from '../../../src/core/scoring/repeats.js';
import { parseRetrievalOkRule } from '../../../src/core/catalog/parse/retrieval-ok.js';
import { summarizeRun } from '../../../src/core/scoring/summary.js';

const config = evalConfig({ k: [5], 'retrieval-ok': parseRetrievalOkRule('hit@5'), correct: { kind: 'exact' }, 'relevance-level': 1, 'ndcg-gains': new Map() });

function outcomesOf(records: readonly Partial<ResultRecord>[]): QuestionOutcomes {
  const builder = new OutcomeBuilder(config);
  for (const record of records) builder.add({ question: `${record.id}?`, ...record } as ResultRecord);
  return builder.build();
}

const LOW_KAPPA = 'judge-based metrics are noise until the judge is fixed.';

describe('label pairs and the judge-agreement warning', () => {
  it('pairs a human label with a judge label only when a record carries both, as strings', () => {
    const outcomes = outcomesOf([
      { id: 'a', human_label: 'yes', judge_label: 'yes' },
      { id: 'b', human_label: true, judge_label: false } as Partial<ResultRecord>,
      { id: 'c', human_label: 'no' },
      { id: 'd', judge_label: 'no' },
    ]);
    expect(outcomes.labelPairs).toEqual([
      ['yes', 'yes'],
      ['true', 'false'],
    ]);
  });

  it('warns below kappa 0.6 with the kappa to three decimals and the number of labels', () => {
    // 2 agreements of 4, both raters half yes: observed 0.5 = expected 0.5, kappa 0.
    const pairs = [
      ['yes', 'yes'],
      ['yes', 'no'],
      ['no', 'yes'],
      ['no', 'no'],
    ] as const;
    const summary = summarizeRun(outcomesOf(pairs.map(([human, judge], i) => ({ id: `q${i}`, human_label: human, judge_label: judge }))), config);
    expect(summary.judgeAgreement?.kappa).toBe(0);
    expect(summary.warnings).toContain(`judge agreement with humans is low (Cohen's kappa 0.000 < 0.6 on 4 labels): ${LOW_KAPPA}`);
  });

  it('warns when kappa is undefined (both raters gave one label to everything)', () => {
    const summary = summarizeRun(outcomesOf(['a', 'b', 'c'].map((id) => ({ id, human_label: 'yes', judge_label: 'yes' }))), config);
    expect(summary.judgeAgreement?.kappa).toBeNull();
    expect(summary.warnings).toContain(`judge agreement with humans is low (Cohen's kappa undefined < 0.6 on 3 labels): ${LOW_KAPPA}`);
  });

  it('does not warn at kappa exactly 0.6, nor without labels', () => {
    // 8 pairs: (yes, yes), (no, yes), 6 × (no, no). observed 7/8; expected 1/8·2/8 + 7/8·6/8 = 44/64;
    // kappa = (56/64 − 44/64) / (20/64) = 0.6, exactly so in doubles too.
    const pairs = [['yes', 'yes'], ['no', 'yes'], ...Array.from({ length: 6 }, () => ['no', 'no'])];
    const summary = summarizeRun(outcomesOf(pairs.map(([human, judge], i) => ({ id: `q${i}`, human_label: human, judge_label: judge }))), config);
    expect(summary.judgeAgreement?.kappa).toBe(0.6);
    expect(summary.warnings.filter((w) => w.includes('judge agreement'))).toEqual([]);
    const unlabelled = summarizeRun(outcomesOf([{ id: 'a', correct: true }]), config);
    expect(unlabelled.judgeAgreement).toBeNull();
    expect(unlabelled.warnings.filter((w) => w.includes('judge agreement'))).toEqual([]);
  });
});

describe('withRowsOf and withoutQuestions: nothing to change, nothing copied', () => {
  const once = () =>
    outcomesOf([
      { id: 'a', correct: true },
      { id: 'b', correct: false },
    ]);

  it('returns the run itself when there is nothing to replace or to leave out', () => {
    const run = once();
    expect(withRowsOf(run, outcomesOf([]))).toBe(run);
    expect(withoutQuestions(run, new Set(['z'])).outcomes).toBe(run);
  });

  it('adds no repeats field to a run read once', () => {
    const run = once();
    expect(Object.keys(withRowsOf(run, outcomesOf([{ id: 'b', correct: true }])))).not.toContain('repeats');
    expect(Object.keys(withoutQuestions(run, new Set(['a'])).outcomes)).not.toContain('repeats');
  });
});

describe('repeats through withRowsOf and withoutQuestions', () => {
  // Question a run 3 times (2 right), b twice (both wrong), c once (right).
  const baseRun = () =>
    outcomesOf([
      { id: 'a', run: 1, correct: true },
      { id: 'a', run: 2, correct: false },
      { id: 'a', run: 3, correct: true },
      { id: 'b', run: 1, correct: false },
      { id: 'b', run: 2, correct: false },
      { id: 'c', run: 1, correct: true },
    ]);

  it('takes the replaced questions’ repeat counts with their values, and keeps the others', () => {
    const base = baseRun();
    // b re-scored under new labels: now in 4 runs, one right.
    const replacement = outcomesOf([1, 2, 3, 4].map((run) => ({ id: 'b', run, correct: run === 4 })));
    const merged = withRowsOf(base, replacement);
    expect([...merged.columns.get('correct')!]).toEqual([2 / 3, 1 / 4, 1]);
    expect([...merged.repeats!.counts.get('correct')!]).toEqual([3, 4, 1]);
    expect([...merged.repeats!.runs]).toEqual([3, 2, 1]);
    expect(merged.repeats!.binary).toBe(base.repeats!.binary);
    // The base run itself is untouched.
    expect([...base.repeats!.counts.get('correct')!]).toEqual([3, 2, 1]);
  });

  it('takes the gold labels and the gold documents found of the replaced questions only', () => {
    const labelled = outcomesOf([
      { id: 'x', retrieved_ids: ['d1', 'd2'], relevant_ids: ['d1'] },
      { id: 'y', retrieved_ids: ['d1', 'd2'], relevant_ids: ['d2'] },
    ]);
    const relabelled = outcomesOf([{ id: 'y', retrieved_ids: ['d1', 'd2'], relevant_ids: ['d1', 'd2'] }]);
    const merged = withRowsOf(labelled, relabelled);
    expect(merged.goldKeys).toEqual([labelled.goldKeys[0], relabelled.goldKeys[0]]);
    expect(merged.goldFound).toEqual([['d1'], ['d1', 'd2']]);
    expect([...merged.columns.get('hit@5')!]).toEqual([1, 1]);
  });

  it('counts a replaced question without repeats as one run, and a column the replacement lacks as none', () => {
    const base = baseRun();
    const replacement = outcomesOf([{ id: 'a', correct: false, answer_relevance: 0.5 }]);
    const merged = withRowsOf(base, replacement);
    expect([...merged.repeats!.counts.get('correct')!]).toEqual([1, 2, 1]);
    expect([...merged.repeats!.counts.get('answer_relevance')!]).toEqual([1, 0, 0]);
  });

  it('leaves out the held-out questions’ gold labels and gold documents found with them', () => {
    const run = outcomesOf([
      { id: 'x', retrieved_ids: ['d1', 'd2'], relevant_ids: ['d1'] },
      { id: 'y', retrieved_ids: ['d1', 'd2'], relevant_ids: ['d2'] },
      { id: 'z', answer: 'Paris' },
    ]);
    const { outcomes } = withoutQuestions(run, new Set(['x']));
    expect(outcomes.goldKeys).toEqual([run.goldKeys[1], run.goldKeys[2]]);
    expect(outcomes.goldFound).toEqual([['d2'], undefined]);
  });

  it('leaves out the held-out questions from the runs and the counts too', () => {
    const base = baseRun();
    const { outcomes, leftOut } = withoutQuestions(base, new Set(['a', 'z']));
    expect(leftOut).toEqual(['a']);
    expect(outcomes.ids).toEqual(['b', 'c']);
    expect([...outcomes.repeats!.runs]).toEqual([2, 1]);
    expect([...outcomes.repeats!.counts.get('correct')!]).toEqual([2, 1]);
    expect([...outcomes.columns.get('correct')!]).toEqual([0, 1]);
    expect(outcomes.repeats!.binary).toBe(base.repeats!.binary);
  });
});

describe('flakiness of scores other tools computed', () => {
  it('reports true/false scores as outcomes, but not numeric scores that happen to be 0 or 1', () => {
    const outcomes = outcomesOf([
      { id: 'a', run: 1, scores: { passed: true, graded: 1 } },
      { id: 'a', run: 2, scores: { passed: false, graded: 0 } },
    ]);
    expect(outcomes.repeats!.binary.has('score:graded')).toBe(true);
    const summary = summarizeRepeats(outcomes)!;
    expect(summary.outcomes.map((o) => o.metric)).toEqual(['score:passed']);
    expect(summary.outcomes[0]).toMatchObject({ repeated: 1, flaky: 1, flakyRate: 1, k: 2, passAtK: 1, passHatK: 0 });
    expect(summary.flakyQuestions).toEqual([{ id: 'a', question: 'a?', outcomes: { 'score:passed': { passes: 1, runs: 2 } } }]);
  });
});

describe('retrieval-ok rules that cannot be used', () => {
  it('asks for a threshold on a metric that is not hit@k', () => {
    expect(() => parseRetrievalOkRule('ndcg@10')).toThrow('retrieval-ok rule "ndcg@10" needs a threshold, for example "ndcg@10>=0.8" (or use "hit@k")');
  });

  it.each(['recall@5>=', 'recall@5>= ', 'recall@5>=abc', 'recall@5>=0.5>=0.7', 'recall@5>=Infinity'])('rejects the threshold of %j', (rule) => {
    expect(() => parseRetrievalOkRule(rule)).toThrow(`retrieval-ok rule "${rule}": the threshold must be a number, for example "recall@5>=0.8"`);
  });

  it('names a rule by its metric and threshold as a number', () => {
    expect(parseRetrievalOkRule('hit@5')).toMatchObject({ name: 'hit@5', threshold: 1 });
    expect(parseRetrievalOkRule('recall@5>=0.80')).toMatchObject({ name: 'recall@5>=0.8', threshold: 0.8 });
  });
});

describe('pass@k and flakiness over the questions that carry an outcome', () => {
  // q1 run 3 times (right, wrong, right), q2 twice (right twice), q3 twice without the outcome.
  const repeatedRun = () =>
    outcomesOf([
      { id: 'q1', run: 1, correct: true },
      { id: 'q1', run: 2, correct: false },
      { id: 'q1', run: 3, correct: true },
      { id: 'q2', run: 1, correct: true },
      { id: 'q2', run: 2, correct: true },
      { id: 'q3', run: 1, answer: 'Paris' },
      { id: 'q3', run: 2, answer: 'Paris' },
    ]);

  it('takes k from the questions carrying it and leaves the others out of every figure', () => {
    const run = repeatedRun();
    // k = 2 (q2's runs; q3 carries none). q1: 2 passes of 3, pass@2 = 1 − C(1,2)/C(3,2) = 1, pass^2 = C(2,2)/C(3,2) = 1/3;
    // q2: 2 of 2, both 1. Means over the two: pass@2 = 1, pass^2 = 2/3; flaky: q1 of the two repeated.
    const correct = summarizeRepeats(run)!.outcomes.find((o) => o.metric === 'correct');
    expect(correct).toEqual({ metric: 'correct', repeated: 2, flaky: 1, flakyRate: 0.5, k: 2, passAtK: 1, passHatK: (1 / 3 + 1) / 2 });
  });

  it('has no rates for an outcome no question left carries, and no flaky rate when none was repeated', () => {
    const run = repeatedRun();
    const { outcomes: none } = withoutQuestions(run, new Set(['q1', 'q2']));
    expect(summarizeRepeats(none)!.outcomes.find((o) => o.metric === 'correct')).toEqual({
      metric: 'correct',
      repeated: 0,
      flaky: 0,
      flakyRate: null,
      k: 0,
      passAtK: null,
      passHatK: null,
    });
    const once = outcomesOf([
      { id: 'a', run: 1, correct: true },
      { id: 'b', run: 1, answer: 'Paris' },
      { id: 'b', run: 2, answer: 'Paris' },
    ]);
    expect(summarizeRepeats(once)!.outcomes.find((o) => o.metric === 'correct')).toEqual({
      metric: 'correct',
      repeated: 0,
      flaky: 0,
      flakyRate: null,
      k: 1,
      passAtK: 1,
      passHatK: 1,
    });
  });

  it('lists flaky questions in file order, whichever outcome found them first', () => {
    const outcomes = outcomesOf([
      { id: 'first', run: 1, correct: true, scores: { passed: true } },
      { id: 'first', run: 2, correct: true, scores: { passed: false } },
      { id: 'second', run: 1, correct: true, scores: { passed: true } },
      { id: 'second', run: 2, correct: false, scores: { passed: true } },
    ]);
    expect(summarizeRepeats(outcomes)!.flakyQuestions.map((q) => [q.id, Object.keys(q.outcomes)])).toEqual([
      ['first', ['score:passed']],
      ['second', ['correct']],
    ]);
  });
});
