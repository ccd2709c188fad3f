import { beforeEach, describe, expect, it } from 'vitest';
import { evalConfig } from '../../../src/core/compare/settings.js';
import { bootstrapMeanCIs } from '../../../src/core/stats/bootstrap.js';
import { wilsonInterval } from '../../../src/core/stats/wilson.js';
import { parseRetrievalOkRule } from '../../../src/core/catalog/parse/retrieval-ok.js';
import { summarizeRun } from '../../../src/core/scoring/summary.js';
import type { QuestionOutcomes } from '../../../src/core/scoring/outcomes.js';
import { questionOutcomes } from '../../helpers/outcomes.js';

const config = evalConfig({ k: [5], 'retrieval-ok': parseRetrievalOkRule('hit@5'), correct: { kind: 'exact' }, 'relevance-level': 1, 'ndcg-gains': new Map() });

/**
 * Four questions, every kind of aggregate in play: q3 is unanswerable, q2 lost its document, q4 has no ranking and
 * its answer was not scored for relevance. Tags: q1 `b` and `a` (given twice), q2 `a`, q3 `__proto__`, q4 none.
 */
function fourQuestions(fields: Partial<QuestionOutcomes> = {}): QuestionOutcomes {
  return questionOutcomes({
    ids: ['q1', 'q2', 'q3', 'q4'],
    tags: [['b', 'a', 'a'], ['a'], ['__proto__'], []],
    columns: new Map([
      ['hit@5', new Float64Array([1, 0, 1, NaN])],
      ['ndcg@5', new Float64Array([0.5, 0.25, 1, NaN])],
      ['retrieval_ok', new Float64Array([1, 0, 1, 0])],
      ['correct', new Float64Array([1, 0, 0, 1])],
      ['answerable', new Float64Array([1, 1, 0, 1])],
      ['refused', new Float64Array([0, 1, 1, 0])],
      ['answer_relevance', new Float64Array([0.9, 0.3, 0.6, NaN])],
      ['closed_book_correct', new Float64Array([NaN, 1, NaN, 0])],
      ['score:grounded', new Float64Array([1, 0, NaN, 1])],
      ['score:tone', new Float64Array([0.2, NaN, 0.4, 0.9])],
      ['score:never', new Float64Array([NaN, NaN, NaN, NaN])],
    ]),
    scores: new Map([
      ['grounded', 'boolean'],
      ['tone', 'number'],
      ['never', 'number'],
    ]),
    ...fields,
  });
}

// Summaries are made as each test runs (beforeEach): one made while tests are collected would escape a mutation run.
describe('summarizeRun: every aggregate of a run', () => {
  let summary: ReturnType<typeof summarizeRun>;
  beforeEach(() => {
    summary = summarizeRun(fourQuestions({ noRelevant: 2, noClaims: 1, judgeErrors: 3 }), config);
  });

  it('averages a graded metric over the questions that carry it', () => {
    expect(summary.questions).toBe(4);
    expect(summary.metrics['ndcg@5']).toEqual({ value: 1.75 / 3, n: 3 });
    expect(summary.metrics.answer_relevance).toEqual({ value: 0.6, n: 3 });
    // A metric no question carries has no value, not 0.
    expect(summary.metrics.faithfulness).toEqual({ value: null, n: 0 });
  });

  it('gives a proportion its count and Wilson interval, and an empty one the whole [0, 1]', () => {
    expect(summary.metrics['hit@5']).toEqual({ value: 2 / 3, n: 3, count: 2, ci: wilsonInterval(2, 3) });
    expect(summary.metrics.retrieval_ok).toEqual({ value: 0.5, n: 4, count: 2, ci: wilsonInterval(2, 4) });
    expect(summary.metrics.closed_book_correct).toEqual({ value: 0.5, n: 2, count: 1, ci: wilsonInterval(1, 2) });
    // Tag a's questions are both answerable: none to count a refusal among.
    expect(summary.byTag.a!.metrics.refusal_rate_unanswerable).toEqual({ value: null, n: 0, count: 0, ci: [0, 1] });
  });

  it('counts refusals among the unanswerable and among the answerable apart', () => {
    expect(summary.metrics.refusal_rate_unanswerable).toEqual({ value: 1, n: 1, count: 1, ci: wilsonInterval(1, 1) });
    expect(summary.metrics.false_refusal_rate).toEqual({ value: 1 / 3, n: 3, count: 1, ci: wilsonInterval(1, 3) });
  });

  it("aggregates other tools' scores: true/false ones as proportions, graded ones as means with a bootstrap interval", () => {
    expect(summary.metrics['score:grounded']).toEqual({ value: 2 / 3, n: 3, count: 2, ci: wilsonInterval(2, 3) });
    // The interval is of the three present values only: a NaN resampled in would make it NaN.
    const [interval] = bootstrapMeanCIs([[0.2, 0.4, 0.9]]);
    expect(interval![0]).toBeLessThan(interval![1]);
    expect(summary.metrics['score:tone']).toEqual({ value: 0.5, n: 3, ci: interval });
    expect(summary.metrics['score:never']).toEqual({ value: null, n: 0 });
  });

  it('passes the counted exclusions through and counts the unanswerable questions', () => {
    expect(summary.excluded).toEqual({ noRelevant: 2, noClaims: 1, judgeErrors: 3, unanswerable: 1 });
  });

  it('decomposes the answerable questions by retrieval_ok and correct, with the closed-book answers', () => {
    // q1 (ok, right), q2 (failed, wrong), q4 (failed, right); q3 is unanswerable. Closed-book: q2 right, q4 wrong.
    expect(summary.decomposition).toMatchObject({ n: 3, r: 1 / 3, nGood: 1, gGood: 1, nBad: 2, gBad: 0.5 });
    expect(summary.decomposition.closedBook).toEqual({ onFailed: 0.5, nFailed: 2, all: 0.5, n: 2 });
  });

  it('states its provenance, scores included', () => {
    const counted = summarizeRun(
      fourQuestions({ idsFromQuestion: 1, retrievalByText: 2, correctByRule: 3, refusedByDetector: 4, formats: ['deepeval', 'jsonl'] }),
      config,
    );
    expect(counted.provenance).toEqual({
      idsFromQuestion: 1,
      retrievalByText: 2,
      correctByRule: 3,
      refusedByDetector: 4,
      formats: ['deepeval', 'jsonl'],
      scores: { grounded: 'boolean', tone: 'number', never: 'number' },
    });
  });
});

describe('summarizeRun: per tag', () => {
  let byTag: ReturnType<typeof summarizeRun>['byTag'];
  beforeEach(() => {
    byTag = summarizeRun(fourQuestions(), config).byTag;
  });

  it('lists tags in sorted order, a question once per tag however often it names it, `__proto__` as a plain key', () => {
    expect(Object.keys(byTag)).toEqual(['__proto__', 'a', 'b']);
    expect(Object.getPrototypeOf(byTag)).toBeNull();
    expect(byTag.a!.questions).toBe(2);
    expect(byTag.b!.questions).toBe(1);
    expect(byTag.__proto__!.questions).toBe(1);
  });

  it('sorts tags whatever order they are first seen in', () => {
    const seen = questionOutcomes({ ids: ['q1', 'q2', 'q3', 'q4'], tags: [['m'], ['z', 'a'], ['b'], ['m', 'y']], columns: new Map() });
    expect(Object.keys(summarizeRun(seen, config).byTag)).toEqual(['a', 'b', 'm', 'y', 'z']);
  });

  it("aggregates each tag's questions only, with no bootstrap interval", () => {
    expect(byTag.a!.metrics['hit@5']).toEqual({ value: 0.5, n: 2, count: 1, ci: wilsonInterval(1, 2) });
    expect(byTag.a!.metrics['ndcg@5']).toEqual({ value: 0.375, n: 2 });
    expect(byTag.b!.metrics.correct).toEqual({ value: 1, n: 1, count: 1, ci: wilsonInterval(1, 1) });
    expect(byTag.__proto__!.metrics.refusal_rate_unanswerable).toMatchObject({ value: 1, n: 1 });
    expect(byTag.a!.metrics['score:tone']).toEqual({ value: 0.2, n: 1 });
  });
});

describe('summarizeRun: repeated runs', () => {
  const repeated = (columns: ReadonlyMap<string, Float64Array>) =>
    questionOutcomes({
      ids: ['q1', 'q2', 'q3', 'q4'],
      columns,
      repeats: {
        runs: new Float64Array([2, 2, 4, 1]),
        counts: new Map([...columns.keys()].map((name) => [name, new Float64Array([2, 2, 4, 1])])),
        binary: new Set(['correct', 'retrieval_ok', 'answerable']),
      },
    });

  it('counts a 0/1 outcome by its pass rate, so each question weighs the same', () => {
    const summary = summarizeRun(
      repeated(
        new Map([
          ['correct', new Float64Array([0.5, 0, 0.75, 1])],
          ['retrieval_ok', new Float64Array([1, 1, 1, 1])],
          ['answerable', new Float64Array([1, 1, 1, 1])],
          // Not a pass rate (its values were not all 0 or 1): a share counts the questions above 2.5.
          ['length_ratio', new Float64Array([3, 2, 2.75, 1])],
        ]),
      ),
      config,
    );
    expect(summary.metrics.correct).toEqual({ value: 2.25 / 4, n: 4, count: 2.25, ci: wilsonInterval(2.25, 4) });
    expect(summary.metrics.long_answer_rate).toEqual({ value: 0.5, n: 4, count: 2, ci: wilsonInterval(2, 4) });
    expect(summary.repeats).toMatchObject({ records: 9, questions: 4 });
    // The decomposition's own is data (g_good rests on only 4 questions), put in words by the renderers.
    expect(summary.decomposition.warnings).toEqual([{ kind: 'small-split', split: 'good', n: 4 }]);
    expect(summary.warnings).toEqual([
      'questions were run several times: the decomposition puts a question on the retrieval-ok side only when retrieval was ok in every run, and g is the mean pass rate on each side.',
    ]);
  });

  it('says nothing of the decomposition when nothing was decomposed', () => {
    const summary = summarizeRun(repeated(new Map([['correct', new Float64Array([0.5, 0, 0.75, 1])]])), config);
    expect(summary.decomposition.n).toBe(0);
    expect(summary.warnings).toEqual([]);
    expect(summary.repeats).toBeDefined();
  });

  it('has no repeats part for a run read once', () => {
    expect(summarizeRun(fourQuestions(), config)).not.toHaveProperty('repeats');
  });
});

describe('summarizeRun: the judge agreement warning', () => {
  const pairs = (counts: { tt: number; tf: number; ft: number; ff: number }): [string, string][] => [
    ...Array.from({ length: counts.tt }, (): [string, string] => ['true', 'true']),
    ...Array.from({ length: counts.tf }, (): [string, string] => ['true', 'false']),
    ...Array.from({ length: counts.ft }, (): [string, string] => ['false', 'true']),
    ...Array.from({ length: counts.ff }, (): [string, string] => ['false', 'false']),
  ];
  const warningsFor = (labelPairs: [string, string][]) =>
    summarizeRun(fourQuestions({ labelPairs }), config).warnings.filter((w) => w.startsWith('judge agreement'));

  it('warns below kappa 0.6, with kappa to three decimals and the number of labels', () => {
    // p_o = 4/6, p_e = 1/2: kappa = 1/3.
    expect(warningsFor(pairs({ tt: 2, tf: 1, ft: 1, ff: 2 }))).toEqual([
      "judge agreement with humans is low (Cohen's kappa 0.333 < 0.6 on 6 labels): judge-based metrics are noise until the judge is fixed.",
    ]);
  });

  it('does not warn at kappa exactly 0.6', () => {
    const labelPairs = pairs({ tt: 1, tf: 0, ft: 1, ff: 6 });
    expect(summarizeRun(fourQuestions({ labelPairs }), config).judgeAgreement?.kappa).toBe(0.6);
    expect(warningsFor(labelPairs)).toEqual([]);
  });

  it('warns when kappa is undefined (one label throughout), and not without labels', () => {
    expect(warningsFor(pairs({ tt: 3, tf: 0, ft: 0, ff: 0 }))).toEqual([
      "judge agreement with humans is low (Cohen's kappa undefined < 0.6 on 3 labels): judge-based metrics are noise until the judge is fixed.",
    ]);
    const none = summarizeRun(fourQuestions(), config);
    expect(none.judgeAgreement).toBeNull();
    expect(none.warnings.filter((w) => w.startsWith('judge agreement'))).toEqual([]);
  });

  it('keeps the decomposition warnings as data apart from its own words', () => {
    // e2e = 2/3 > r = 1/3, and both splits are small.
    const { warnings, decomposition } = summarizeRun(fourQuestions({ labelPairs: pairs({ tt: 2, tf: 1, ft: 1, ff: 2 }) }), config);
    expect(decomposition.warnings).toEqual([
      { kind: 'right-without-retrieval', productModelG: 2, rightWithoutRetrieval: 1, wrongWithRetrieval: 0 },
      { kind: 'small-split', split: 'bad', n: 2 },
      { kind: 'small-split', split: 'good', n: 1 },
    ]);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^judge agreement/);
  });
});
