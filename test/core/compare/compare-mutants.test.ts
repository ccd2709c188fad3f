/**
 * compareRuns on small hand-built outcomes, each number worked out by hand: the repeated-runs (pass-rate) test,
 * the power estimates at their boundaries, significance at p = α, the score tests, the causes, missing and lost
 * documents, coverage, the options passed through, the provenance warning and the order of the tag tables.
 */
import { describe, expect, it } from 'vitest';
import { resolveSettings } from '../../../src/core/catalog/settings.js';
import { compareRuns } from '../../../src/core/compare/compare.js';
import { compareConfig } from '../../../src/core/compare/settings.js';
import type { CompareConfig, McNemarTest, PairedTest, RandomizationTest } from '../../../src/core/compare/types.js';
import type { QuestionOutcomes } from '../../../src/core/scoring/outcomes.js';
import { summarizeRepeats } from '../../../src/core/scoring/repeats.js';
import { summarizeRun } from '../../../src/core/scoring/summary.js';
import { meanIntervals, studentTInterval } from '../../../src/core/stats/mean-interval.js';
import { mcnemar } from '../../../src/core/stats/mcnemar.js';
import { mcnemarSampleSize, pairedMeanSampleSize } from '../../../src/core/stats/power.js';
import { MAX_PERMUTATIONS, signFlipPValue } from '../../../src/core/stats/randomization.js';
import { questionOutcomes } from '../../helpers/outcomes.js';

type Values = Readonly<Record<string, number | undefined>>;

/** One question of a hand-built run: its columns (absent = not carried), and with repeats how many runs carry each. */
interface Row {
  readonly id: string;
  readonly values: Values;
  readonly counts?: Values;
  readonly tags?: readonly string[];
  readonly goldFound?: readonly string[];
  /** The gold labels' fingerprint; questions with different ones are relabelled, not paired. */
  readonly labels?: string;
}

const BINARY_COLUMNS = ['retrieval_ok', 'correct', 'answerable', 'refused', 'closed_book_correct'];

/** The outcomes the reader would build from these questions; a run has repeats when some row gives counts. */
function run(rows: readonly Row[], extra: Partial<QuestionOutcomes> = {}): QuestionOutcomes {
  const names = [...new Set(rows.flatMap((row) => Object.keys(row.values)))];
  const value = (row: Row, name: string) => row.values[name] ?? NaN;
  const count = (row: Row, name: string) => row.counts?.[name] ?? (Number.isNaN(value(row, name)) ? 0 : 1);
  const ids = rows.map((row) => row.id);
  const repeats = rows.some((row) => row.counts !== undefined)
    ? {
        runs: Float64Array.from(rows, (row) => Math.max(1, ...names.map((name) => count(row, name)))),
        counts: new Map(names.map((name) => [name, Float64Array.from(rows, (row) => count(row, name))])),
        binary: new Set(names.filter((name) => BINARY_COLUMNS.includes(name))),
      }
    : undefined;
  return questionOutcomes({
    ids,
    questions: ids.map((id) => `${id}?`),
    tags: rows.map((row) => row.tags ?? []),
    goldKeys: rows.map((row) => row.labels ?? 'same labels'),
    goldFound: rows.map((row) => row.goldFound),
    columns: new Map(names.map((name) => [name, Float64Array.from(rows, (row) => value(row, name))])),
    ...(repeats === undefined ? {} : { repeats }),
    ...extra,
  });
}

/** `count` questions id-prefix-0…, each with the same values. */
function same(prefix: string, count: number, values: Values, more: Partial<Row> = {}): Row[] {
  return Array.from({ length: count }, (_, i) => ({ id: `${prefix}-${i}`, values, ...more }));
}

const DEFAULTS = compareConfig(resolveSettings([], (problem) => problem.message).settings, []);

/** The default configuration with no graded metric, 2,000 permutations, and nothing gated unless asked. */
function configWith(overrides: Partial<CompareConfig> = {}): CompareConfig {
  return { ...DEFAULTS, gradedMetrics: [], permutations: 2000, failOn: new Set(), ...overrides };
}

const FILES = { base: 'base.jsonl', head: 'head.jsonl' };

function compare(base: QuestionOutcomes, head: QuestionOutcomes, overrides: Partial<CompareConfig> = {}, options: Parameters<typeof compareRuns>[5] = {}) {
  const config = configWith(overrides);
  const comparison = compareRuns(base, head, summarizeRun(head, config.eval), config, FILES, options);
  const test = <T extends PairedTest = PairedTest>(metric: string): T => {
    const found = comparison.tests.find((t) => t.metric === metric);
    expect(found, `test ${metric}`).toBeDefined();
    return found as T;
  };
  return { ...comparison, test, metrics: comparison.tests.map((t) => t.metric) };
}

const sampleSD = (values: readonly number[]) => {
  const mean = values.reduce((sum, v) => sum + v, 0) / values.length;
  return Math.sqrt(values.reduce((sum, v) => sum + (v - mean) ** 2, 0) / (values.length - 1));
};

describe('repeated runs: 0/1 outcomes compared on per-question pass rates', () => {
  // Per question: correct pass rate (runs carrying it), retrieval_ok (same runs).
  //   q1 base 3/3, head 1/3: fell          q2 base 1/2, head 1/1: rose (head ran it once)
  //   q3 base 1/1 (once), head 0/3: fell    q4 base 2/3, head 2/3: the same rate
  //   q5 no correct in base: left out of the correct test; q6 none in head: its outcome lost, counted as failed (0)
  //   q7 base 2/3, missing from head: counts as failed (0) there, with no head run
  const base = run([
    { id: 'q1', values: { correct: 1, retrieval_ok: 1 }, counts: { correct: 3, retrieval_ok: 3 }, goldFound: ['d1'] },
    { id: 'q2', values: { correct: 0.5, retrieval_ok: 1 }, counts: { correct: 2, retrieval_ok: 2 } },
    { id: 'q3', values: { correct: 1, retrieval_ok: 1 }, counts: { correct: 1, retrieval_ok: 1 } },
    { id: 'q4', values: { correct: 2 / 3, retrieval_ok: 1 }, counts: { correct: 3, retrieval_ok: 3 } },
    { id: 'q5', values: { retrieval_ok: 1 }, counts: { retrieval_ok: 2 } },
    { id: 'q6', values: { correct: 0.5, retrieval_ok: 1 }, counts: { correct: 2, retrieval_ok: 2 } },
    { id: 'q7', values: { correct: 2 / 3, retrieval_ok: 1 }, counts: { correct: 3, retrieval_ok: 3 } },
  ]);
  const head = run([
    { id: 'q1', values: { correct: 1 / 3, retrieval_ok: 1 }, counts: { correct: 3, retrieval_ok: 3 }, goldFound: ['d1'] },
    { id: 'q2', values: { correct: 1, retrieval_ok: 1 }, counts: { correct: 1, retrieval_ok: 1 } },
    { id: 'q3', values: { correct: 0, retrieval_ok: 0 }, counts: { correct: 3, retrieval_ok: 3 } },
    { id: 'q4', values: { correct: 2 / 3, retrieval_ok: 1 }, counts: { correct: 3, retrieval_ok: 3 } },
    { id: 'q5', values: { correct: 0.5, retrieval_ok: 1 }, counts: { correct: 2, retrieval_ok: 2 } },
    { id: 'q6', values: { retrieval_ok: 1 }, counts: { retrieval_ok: 2 } },
  ]);
  // Head − base on q1, q2, q3, q4, q6, q7.
  const differences = [1 / 3 - 1, 1 - 0.5, 0 - 1, 0, 0 - 0.5, 0 - 2 / 3];

  it('tests the pass-rate differences of the questions both runs carry, missing ones as failed, with the noise floor of those base ran twice', () => {
    const { test, metrics } = compare(base, head);
    const correct = test<RandomizationTest>('correct');
    expect(correct.kind).toBe('randomization');
    expect(correct.n).toBe(6);
    // base (1 + 1/2 + 1 + 2/3 + 1/2 + 2/3) / 6 = 13/18; head (1/3 + 1 + 0 + 2/3 + 0 + 0) / 6 = 1/3.
    expect(correct.base).toBeCloseTo(13 / 18, 14);
    expect(correct.head).toBeCloseTo(1 / 3, 14);
    expect(correct.delta).toBeCloseTo(1 / 3 - 13 / 18, 14);
    // The rate fell on q1, q3, q6, q7 and rose on q2; q4's is unchanged.
    expect(correct.rates!.broken).toBe(4);
    expect(correct.rates!.fixed).toBe(1);
    // Noise floor over q1 (3 runs vs 3), q2 (2 vs 1) and q4 (3 vs 3); not q3 (base ran it once) nor q6, q7 (no head run carries it).
    // q1: 4 passes of 6 dealt 3/3: C(3,1)C(3,3) = 3 ways to 1 in base (head higher), 9 to 2 (equal), 3 to 3
    //     (head lower): 3/15 each way. q4 the same. q2: 2 passes of 3 dealt 2/1: base 1 of 2 and head 1 of 1
    //     (2 ways, head higher), base 2 of 2 and head 0 (1 way, lower): 1/3 lower, 2/3 higher.
    expect(correct.rates!.noise!.questions).toBe(3);
    expect(correct.rates!.noise!.broken).toBeCloseTo(3 / 15 + 1 / 3 + 3 / 15, 14);
    expect(correct.rates!.noise!.fixed).toBeCloseTo(3 / 15 + 2 / 3 + 3 / 15, 14);
    // The sign-flip test on those differences, seeded by the metric, with the configured permutations.
    const expected = signFlipPValue(differences, { permutations: 2000, seed: 'correct', alpha: 0.05 });
    expect(correct.permutations).toBe(2000);
    expect(correct.pValue).toBe(expected.pValue);
    expect(correct.monteCarloSE).toBe(expected.monteCarloSE);
    // Exactly, 12 of the 64 sign flips reach |Σ| ≥ 7/3: p = 0.1875, 2.1 Monte Carlo standard errors from the draw.
    expect(correct.pValue).toBeCloseTo(0.2059, 4);
    expect(correct.ciMethod).toBe('student-t');
    expect(correct.ci).toEqual(studentTInterval(differences));
    expect(correct.significant).toBe(false);
    // ((z₀.₉₇₅ + z₀.₈)·s/δ)² with s = 0.54433 (divisor n − 1) and δ = −7/18: 15.4, rounded up.
    expect(sampleSD(differences)).toBeCloseTo(0.54433105, 8);
    expect(correct.requiredN).toBe(16);
    expect(correct).toMatchObject({ gate: null, adjustedPValue: null, gateOutcome: null, extra: {} });
    // Retrieval ok on both sides: q1, q2, q4 and q6, whose lost correct counts as failed (q5 lacks it in base); no
    // unanswerable question.
    expect(metrics).toEqual(['retrieval_ok', 'correct', 'correct_given_retrieval']);
    const given = test<RandomizationTest>('correct_given_retrieval');
    expect(given.n).toBe(4);
    expect(given.base).toBeCloseTo((1 + 0.5 + 2 / 3 + 0.5) / 4, 14);
    expect(given.head).toBeCloseTo((1 / 3 + 1 + 2 / 3 + 0) / 4, 14);
    expect(given.rates).toMatchObject({ broken: 2, fixed: 1 });
  });

  it('gives each regression and fixed question its passes and runs on both sides, and both runs’ repeat summaries', () => {
    const { regressions, fixed, causes, flaky, missing } = compare(base, head);
    expect(regressions.map((change) => [change.id, change.cause, change.correctRuns])).toEqual([
      ['q1', 'generation', { base: { passes: 3, runs: 3 }, head: { passes: 1, runs: 3 } }],
      ['q3', 'retrieval', { base: { passes: 1, runs: 1 }, head: { passes: 0, runs: 3 } }],
    ]);
    expect(fixed.map((change) => [change.id, change.cause, change.correctRuns])).toEqual([
      ['q2', 'generation', { base: { passes: 1, runs: 2 }, head: { passes: 1, runs: 1 } }],
    ]);
    expect(causes).toEqual({ regressions: { retrieval: 1, generation: 1, unknown: 0 }, fixed: { retrieval: 0, generation: 1, unknown: 0 } });
    // A pass rate of 2/3 is not a right answer.
    expect(missing).toEqual([{ id: 'q7', question: 'q7?', tags: [], wasCorrect: false, retrievalWasOk: true }]);
    expect(flaky).toStrictEqual({ base: summarizeRepeats(base), head: summarizeRepeats(head) });
    expect(flaky!.base).toBeDefined();
  });

  it('with repeats in base only, or in head only, still compares pass rates; the side without has no repeat summary', () => {
    const once = run([
      { id: 'q1', values: { correct: 0 } },
      { id: 'q2', values: { correct: 1 } },
    ]);
    const twice = run([
      { id: 'q1', values: { correct: 0.5 }, counts: { correct: 2 } },
      { id: 'q2', values: { correct: 1 }, counts: { correct: 2 } },
    ]);
    const baseOnly = compare(twice, once);
    const baseOnlyCorrect = baseOnly.test<RandomizationTest>('correct');
    expect(baseOnlyCorrect.kind).toBe('randomization');
    expect(baseOnlyCorrect.delta).toBeCloseTo(-0.25, 14);
    // q1 ran twice in base (1 of 2) and once in head (0 of 1): 1 pass of 3 runs dealt 2/1, to base in 2 ways (head
    // 0 of 1, lower) and to head in 1 (higher). q2 is steady on both sides: counted, with 0 either way.
    expect(baseOnlyCorrect.rates).toEqual({ broken: 1, fixed: 0, noise: { broken: 2 / 3, fixed: 1 / 3, questions: 2 } });
    expect(baseOnly.flaky).toStrictEqual({ base: summarizeRepeats(twice), head: null });
    expect(baseOnly.flaky!.base).not.toBeNull();
    const headOnly = compare(once, twice);
    const headOnlyCorrect = headOnly.test<RandomizationTest>('correct');
    expect(headOnlyCorrect.kind).toBe('randomization');
    expect(headOnlyCorrect.delta).toBeCloseTo(0.25, 14);
    // Base ran each question once: no noise floor.
    expect(headOnlyCorrect.rates).toEqual({ broken: 0, fixed: 1, noise: null });
    expect(headOnly.flaky).toStrictEqual({ base: null, head: summarizeRepeats(twice) });
    expect(headOnly.flaky!.head).not.toBeNull();
  });

  it('a barely significant drop over 120 questions: significant, and no sample-size estimate', () => {
    // 8 questions fell from 1 to 0, one rose, 111 unchanged, one run each on both sides (base marked repeated).
    const rows = (side: 'base' | 'head'): Row[] => [
      ...same('fell', 8, { correct: side === 'base' ? 1 : 0 }, { counts: { correct: 1 } }),
      ...same('rose', 1, { correct: side === 'base' ? 0 : 1 }, { counts: { correct: 1 } }),
      ...same('kept', 111, { correct: 1 }, { counts: { correct: 1 } }),
    ];
    const differences = [...Array<number>(8).fill(-1), 1, ...Array<number>(111).fill(0)];
    const { test } = compare(run(rows('base')), run(rows('head')));
    const correct = test<RandomizationTest>('correct');
    expect(correct.n).toBe(120);
    expect(correct.delta).toBeCloseTo(-7 / 120, 14);
    expect(correct.pValue).toBe(signFlipPValue(differences, { permutations: 2000, seed: 'correct', alpha: 0.05 }).pValue);
    expect(correct.pValue).toBeCloseTo(0.031, 3);
    expect(correct.significant).toBe(true);
    // The normal approximation would ask for 167 questions for 80% power: a significant test gets none.
    expect(pairedMeanSampleSize({ meanDifference: -7 / 120, sdDifference: sampleSD(differences), alpha: 0.05 })).toBe(167);
    expect(correct.requiredN).toBeNull();
  });

  it('from 100 questions on, the interval is the bootstrap seeded by the metric', () => {
    // 120 questions run 4 times a side: base passes i mod 5 of 4, head 3i mod 5 of 4.
    const rows = (factor: number): Row[] =>
      Array.from({ length: 120 }, (_, i) => ({ id: `q${i}`, values: { correct: ((factor * i) % 5) / 4 }, counts: { correct: 4 } }));
    const differences = Array.from({ length: 120 }, (_, i) => ((3 * i) % 5) / 4 - (i % 5) / 4);
    const correct = compare(run(rows(1)), run(rows(3))).test<RandomizationTest>('correct');
    expect(correct.n).toBe(120);
    expect(correct.delta).toBe(0);
    expect(correct.ciMethod).toBe('percentile-bootstrap');
    const seeded = meanIntervals([differences], { seed: 'correct' })[0]!.ci;
    expect(seeded).not.toEqual(meanIntervals([differences])[0]!.ci);
    expect(correct.ci).toEqual(seeded);
  });

  it('a p-value exactly at α is not significant', () => {
    // α set to the p-value the test reaches after the extension to the most permutations, which it runs to
    // since p stays within 3 standard errors of α.
    const alpha = signFlipPValue(differences, { permutations: MAX_PERMUTATIONS, seed: 'correct' }).pValue;
    const correct = compare(base, head, { alpha }).test<RandomizationTest>('correct');
    expect(correct.permutations).toBe(MAX_PERMUTATIONS);
    expect(correct.pValue).toBe(alpha);
    expect(correct.significant).toBe(false);
  });

  it('a pass-rate outcome with no question to pair has no test', () => {
    // No unanswerable question, so no refusal test; a repeated run with no correct value at all has none either.
    const noCorrect = run([{ id: 'q1', values: { retrieval_ok: 1 }, counts: { retrieval_ok: 2 } }]);
    expect(compare(noCorrect, noCorrect).metrics).toEqual(['retrieval_ok']);
  });
});

/** Base and head `correct` outcomes in the given counts: `fixed` 0 → 1, `broken` 1 → 0, and both right or wrong. */
function correctness(counts: { fixed?: number; broken?: number; bothRight?: number; bothWrong?: number }, more: Partial<Row> = {}) {
  const pairs: [string, number, number, number][] = [
    ['fixed', counts.fixed ?? 0, 0, 1],
    ['broken', counts.broken ?? 0, 1, 0],
    ['right', counts.bothRight ?? 0, 1, 1],
    ['wrong', counts.bothWrong ?? 0, 0, 0],
  ];
  const side = (which: 2 | 3) => run(pairs.flatMap(([prefix, count, ...values]) => same(prefix, count, { correct: values[which - 2] }, more)));
  return { base: side(2), head: side(3) };
}

describe('McNemar on 0/1 outcomes: significance and the sample-size estimate at their boundaries', () => {
  it('gives no estimate when the approximation asks for no more questions than were paired, or can say nothing', () => {
    // 5 broken of 5: exact p = 2/32, not significant; n = z²·ψ/δ² = 1.96² = 3.84 → 4 ≤ 5.
    const allBroken = compare(correctness({ broken: 5 }).base, correctness({ broken: 5 }).head).test<McNemarTest>('correct');
    expect(allBroken).toMatchObject({ n: 5, broken: 5, fixed: 0, pValue: 1 / 16, significant: false, requiredN: null });
    // 4 broken of 4: the estimate is 4, exactly the questions paired: still nothing to add.
    expect(mcnemarSampleSize({ pFixed: 0, pBroken: 1, alpha: 0.05 })).toBe(4);
    const four = correctness({ broken: 4 });
    expect(compare(four.base, four.head).test<McNemarTest>('correct')).toMatchObject({ n: 4, pValue: 1 / 8, requiredN: null });
    // One fixed and one broken: no difference to detect, an infinite estimate, none given.
    const even = correctness({ fixed: 1, broken: 1, bothRight: 3 });
    expect(compare(even.base, even.head).test<McNemarTest>('correct')).toMatchObject({ n: 5, pValue: 1, requiredN: null });
    // 6 broken among 100: p = 2/64, significant, so no estimate.
    const six = correctness({ broken: 6, bothRight: 94 });
    expect(compare(six.base, six.head).test<McNemarTest>('correct')).toMatchObject({ n: 100, pValue: 1 / 32, significant: true, requiredN: null });
    const five = correctness({ broken: 5, bothRight: 95 });
    // 5 broken among 100: p = 1/16; n = (1.95996·√0.05 + 0.84162·√0.0475)² / 0.0025 = 154.6 → 155.
    expect(compare(five.base, five.head).test<McNemarTest>('correct')).toMatchObject({ n: 100, pValue: 1 / 16, significant: false, requiredN: 155 });
  });

  it('leaves out a pair whose base lacks the outcome, and counts one whose head lost it as failed', () => {
    const base = run([...same('right', 3, { correct: 1 }), { id: 'no-head', values: { correct: 1 } }, { id: 'no-base', values: {} }]);
    const head = run([...same('right', 3, { correct: 1 }), { id: 'no-head', values: {} }, { id: 'no-base', values: { correct: 1 } }]);
    expect(compare(base, head).test<McNemarTest>('correct')).toMatchObject({ n: 4, bothRight: 3, broken: 1, fixed: 0, bothWrong: 0 });
    // With missing: exclude, a lost outcome leaves its test as a missing question leaves the comparison.
    expect(compare(base, head, { missing: 'exclude' }).test<McNemarTest>('correct')).toMatchObject({ n: 3, bothRight: 3, broken: 0, fixed: 0, bothWrong: 0 });
  });

  it('an ungated test is significant on its raw p-value, strictly below α', () => {
    // 8 broken of 8 discordant: exact p = 2/256.
    const eight = correctness({ broken: 8, bothRight: 12 });
    expect(compare(eight.base, eight.head).test<McNemarTest>('correct')).toMatchObject({ pValue: 1 / 128, significant: true, requiredN: null });
    // 6 broken of 6: exact p = 2/64 = α, not significant; the estimate at α = 1/32 is 148 questions.
    const six = correctness({ broken: 6, bothRight: 94 });
    const atAlpha = compare(six.base, six.head, { alpha: 1 / 32 }).test<McNemarTest>('correct');
    expect(mcnemarSampleSize({ pFixed: 0, pBroken: 0.06, alpha: 1 / 32 })).toBe(148);
    expect(atAlpha).toMatchObject({ gate: null, pValue: 1 / 32, adjustedPValue: null, significant: false, requiredN: 148 });
  });

  it('a gated test whose Holm-adjusted p equals α is not significant and keeps its estimate; so is a tag’s', () => {
    const six = correctness({ broken: 6, bothRight: 94 }, { tags: ['all'] });
    const { test, byTag } = compare(six.base, six.head, { alpha: 1 / 32, failOn: new Set(['end-to-end']) });
    expect(test<McNemarTest>('correct')).toMatchObject({ gate: 'end-to-end', pValue: 1 / 32, adjustedPValue: 1 / 32, significant: false, requiredN: 148 });
    expect(byTag).toEqual([
      {
        tag: 'all',
        questions: 100,
        outcomes: [{ metric: 'correct', n: 100, base: 1, head: 0.94, broken: 6, fixed: 0, pValue: 1 / 32, adjustedPValue: 1 / 32, significant: false }],
      },
    ]);
  });

  it('tests the tags with the configured small-sample McNemar test', () => {
    const six = correctness({ broken: 6, bothRight: 94 }, { tags: ['all'] });
    const { byTag } = compare(six.base, six.head, { mcnemarSmallSample: 'mid-p' });
    // The mid-p value of 0 fixed vs 6 broken: 2·(P(X ≤ 0) − P(X = 0)/2) = 1/64, half the exact 1/32.
    expect(mcnemar(0, 6, 94, 0, { smallSample: 'mid-p' }).pValue).toBe(1 / 64);
    expect(byTag[0]!.outcomes[0]).toMatchObject({ pValue: 1 / 64, adjustedPValue: 1 / 64, significant: true });
  });
});

describe('changed questions: causes, lost documents, missing questions', () => {
  it('a regression whose retrieval either side lacks has an unknown cause', () => {
    const base = run([
      { id: 'neither', values: { correct: 1 } },
      { id: 'base-only', values: { correct: 1, retrieval_ok: 1 } },
      { id: 'head-only', values: { correct: 1 } },
      { id: 'both', values: { correct: 1, retrieval_ok: 1 } },
    ]);
    const head = run([
      { id: 'neither', values: { correct: 0 } },
      { id: 'base-only', values: { correct: 0 } },
      { id: 'head-only', values: { correct: 0, retrieval_ok: 0 } },
      { id: 'both', values: { correct: 0, retrieval_ok: 0 } },
    ]);
    const { regressions, causes } = compare(base, head);
    expect(regressions.map((change) => [change.id, change.cause])).toEqual([
      ['neither', 'unknown'],
      ['base-only', 'unknown'],
      ['head-only', 'unknown'],
      ['both', 'retrieval'],
    ]);
    expect(causes.regressions).toEqual({ retrieval: 1, generation: 0, unknown: 3 });
  });

  it('lists the gold documents base found and head did not', () => {
    const base = run([
      { id: 'lost-one', values: { correct: 1, retrieval_ok: 1 }, goldFound: ['d1', 'd2'] },
      { id: 'no-base-ranking', values: { correct: 1 } },
      { id: 'no-head-ranking', values: { correct: 1, retrieval_ok: 1 }, goldFound: ['d3'] },
    ]);
    const head = run([
      { id: 'lost-one', values: { correct: 0, retrieval_ok: 0 }, goldFound: ['d2'] },
      { id: 'no-base-ranking', values: { correct: 0 }, goldFound: ['d4'] },
      { id: 'no-head-ranking', values: { correct: 0 } },
    ]);
    const { regressions, retrievalRegressions } = compare(base, head);
    expect(regressions.map((change) => [change.id, change.lostDocuments])).toEqual([
      ['lost-one', ['d1']],
      ['no-base-ranking', []],
      ['no-head-ranking', ['d3']],
    ]);
    expect(retrievalRegressions).toEqual([{ id: 'lost-one', question: 'lost-one?', tags: [], lostDocuments: ['d1'], rescued: false }]);
  });

  it('lists each missing question with its own base outcomes, and none of them among the regressions', () => {
    const base = run([
      { id: 'q1', values: { correct: 1, retrieval_ok: 1 } },
      { id: 'q2', values: { correct: 1, retrieval_ok: 1 } },
      { id: 'gone-right', values: { correct: 1, retrieval_ok: 0 }, tags: ['t'] },
      { id: 'gone-wrong', values: { correct: 0 } },
    ]);
    const head = run([
      { id: 'q1', values: { correct: 1, retrieval_ok: 1 } },
      { id: 'q2', values: { correct: 1, retrieval_ok: 1 } },
    ]);
    const { missing, regressions, retrievalRegressions, test, coverage } = compare(base, head);
    expect(missing).toEqual([
      { id: 'gone-right', question: 'gone-right?', tags: ['t'], wasCorrect: true, retrievalWasOk: false },
      { id: 'gone-wrong', question: 'gone-wrong?', tags: [], wasCorrect: false, retrievalWasOk: null },
    ]);
    expect(regressions).toEqual([]);
    expect(retrievalRegressions).toEqual([]);
    // Missing questions count as failed in head: gone-right is broken, gone-wrong stays wrong.
    expect(test<McNemarTest>('correct')).toMatchObject({ n: 4, bothRight: 2, broken: 1, bothWrong: 1, fixed: 0 });
    expect(coverage).toEqual({ paired: 2, missing: 2, lostOutcomes: 0, compared: 4, baseQuestions: 4, share: 1 });
  });

  it('retrieval shifted only when the retrieval test itself is significant', () => {
    // No retrieval outcome at all, and a significant drop in correctness (exact p = 2/256).
    const eight = correctness({ broken: 8, bothRight: 12 });
    const noRetrieval = compare(eight.base, eight.head);
    expect(noRetrieval.test('correct').significant).toBe(true);
    expect(noRetrieval.metrics).not.toContain('retrieval_ok');
    expect(noRetrieval.retrievalShifted).toBe(false);
    // Retrieval tested and not significant.
    const both = (retrieval: number, correct: number): Values => ({ retrieval_ok: retrieval, correct });
    const base = run([...same('kept', 10, both(1, 1)), ...same('lost', 8, both(1, 1))]);
    const head = run([...same('kept', 10, both(1, 1)), ...same('lost', 8, both(1, 0))]);
    const unshifted = compare(base, head);
    expect(unshifted.test('retrieval_ok').significant).toBe(false);
    expect(unshifted.retrievalShifted).toBe(false);
    const shifted = compare(base, run([...same('kept', 10, both(1, 1)), ...same('lost', 8, both(0, 0))]));
    expect(shifted.test('retrieval_ok').significant).toBe(true);
    expect(shifted.retrievalShifted).toBe(true);
  });
});

describe('coverage, relabelled questions and the options passed through', () => {
  const base = run([
    { id: 'q1', values: { correct: 1 } },
    { id: 'q2', values: { correct: 1 } },
    { id: 'relabelled', values: { correct: 1 } },
    { id: 'removed', values: { correct: 1 } },
  ]);
  const head = run([
    { id: 'q1', values: { correct: 1 } },
    { id: 'q2', values: { correct: 0 } },
    { id: 'relabelled', values: { correct: 1 }, labels: 'new labels' },
  ]);

  it('counts the base questions left in the golden set, and defaults the lists it was not given to empty', () => {
    const comparison = compare(base, head, {}, { golden: new Set(['q1', 'q2', 'relabelled']) });
    expect(comparison.removed).toEqual(['removed']);
    // 4 base questions, 1 removed from the golden set: 2 paired of 3.
    expect(comparison.coverage).toEqual({ paired: 2, missing: 0, lostOutcomes: 0, compared: 2, baseQuestions: 3, share: 2 / 3 });
    expect(comparison.rescored).toEqual([]);
    expect(comparison.holdoutLeftOut).toEqual([]);
    expect(comparison.labelsChanged).toEqual([{ id: 'relabelled', reason: 'not-rescored' }]);
  });

  it('passes on the re-scored, not re-scorable and holdout questions it is given', () => {
    const comparison = compare(
      base,
      head,
      {},
      {
        rescored: ['elsewhere'],
        notRescorable: new Map([['relabelled', 'correct-given' as const]]),
        holdoutLeftOut: ['held-out'],
      },
    );
    expect(comparison.rescored).toEqual(['elsewhere']);
    expect(comparison.labelsChanged).toEqual([{ id: 'relabelled', reason: 'correct-given' }]);
    expect(comparison.holdoutLeftOut).toEqual(['held-out']);
  });
});

describe('refusals read by the detector on one side only', () => {
  const questions = [{ id: 'q1', values: { correct: 1 } }];
  const warningsOf = (base: number, head: number) =>
    compare(run(questions, { refusedByDetector: base }), run(questions, { refusedByDetector: head })).warnings.filter(
      (warning) => warning.kind === 'refusal-source-differs',
    );

  it('warns with both counts when one run used the detector and the other did not', () => {
    expect(warningsOf(2, 0)).toEqual([{ kind: 'refusal-source-differs', base: 2, head: 0 }]);
    expect(warningsOf(0, 3)).toEqual([{ kind: 'refusal-source-differs', base: 0, head: 3 }]);
  });

  it('does not warn when both or neither did', () => {
    expect(warningsOf(2, 3)).toEqual([]);
    expect(warningsOf(0, 0)).toEqual([]);
  });
});

describe('scores other tools wrote', () => {
  // score:pass true/false in both runs; score:sim a number in both; score:mixed a number in base, true/false in head.
  const scores = (kinds: [string, 'number' | 'boolean'][]) => ({ scores: new Map(kinds) });
  const base = run(
    [
      { id: 'q1', values: { 'score:pass': 1, 'score:sim': 0.9, 'score:mixed': 0.5 } },
      { id: 'q2', values: { 'score:pass': 1, 'score:sim': 0.4, 'score:mixed': 0.25 } },
      { id: 'q3', values: { 'score:pass': 0, 'score:sim': 0.3, 'score:mixed': 1 } },
      { id: 'gone', values: { 'score:pass': 1, 'score:sim': 0.8, 'score:mixed': 1 } },
    ],
    scores([
      ['pass', 'boolean'],
      ['sim', 'number'],
      ['mixed', 'number'],
    ]),
  );
  const head = run(
    [
      { id: 'q1', values: { 'score:pass': 0, 'score:sim': 0.7, 'score:mixed': 0 } },
      { id: 'q2', values: { 'score:pass': 1, 'score:sim': 0.4, 'score:mixed': 1 } },
      { id: 'q3', values: { 'score:pass': 1, 'score:sim': 0.6, 'score:mixed': 1 } },
    ],
    scores([
      ['pass', 'boolean'],
      ['sim', 'number'],
      ['mixed', 'boolean'],
    ]),
  );

  it('tests a true/false score with McNemar and any score a number in either run with the randomization test, once each', () => {
    const { tests } = compare(base, head);
    expect(tests.map((test) => [test.metric, test.kind])).toEqual([
      ['score:pass', 'mcnemar'],
      ['score:sim', 'randomization'],
      ['score:mixed', 'randomization'],
    ]);
  });

  it('an ungated score leaves a missing question out; a gated one counts it as failed', () => {
    const ungated = compare(base, head);
    // q1 broken, q2 both right, q3 fixed; the missing question has no head value.
    expect(ungated.test<McNemarTest>('score:pass')).toMatchObject({ n: 3, broken: 1, fixed: 1, bothRight: 1, bothWrong: 0 });
    // Head − base: −0.2, 0, +0.3 (the missing question left out here too).
    const sim = ungated.test<RandomizationTest>('score:sim');
    expect(sim.n).toBe(3);
    expect(sim.delta).toBeCloseTo(0.1 / 3, 14);
    const gated = compare(base, head, { failOn: new Set(['score:pass']) });
    expect(gated.test<McNemarTest>('score:pass')).toMatchObject({ gate: 'score:pass', n: 4, broken: 2, fixed: 1, bothRight: 1, bothWrong: 0 });
  });
});

describe('graded metrics', () => {
  const graded = (name: string, baseValues: readonly number[], headValues: readonly number[]) => ({
    base: run(baseValues.map((value, i) => ({ id: `q${i}`, values: { [name]: value } }))),
    head: run(headValues.map((value, i) => ({ id: `q${i}`, values: { [name]: value } }))),
  });

  it('a graded metric no pair carries gets no test, and a missing question carries no head value', () => {
    const base = run([
      { id: 'q1', values: { 'ndcg@10': 0.5, correct: 1 } },
      { id: 'q2', values: { 'ndcg@10': 0.25, correct: 1 } },
      { id: 'gone', values: { 'ndcg@10': 1, correct: 1 } },
    ]);
    const head = run([
      { id: 'q1', values: { 'ndcg@10': 0.75, correct: 1 } },
      { id: 'q2', values: { 'ndcg@10': 0.25, correct: 1 } },
    ]);
    const { tests, test } = compare(base, head, { gradedMetrics: ['ndcg@10', 'mrr'] });
    expect(tests.map((t) => t.metric)).toEqual(['correct', 'ndcg@10']);
    // Pairs q1 and q2 only: base (0.5 + 0.25)/2, head (0.75 + 0.25)/2.
    expect(test<RandomizationTest>('ndcg@10')).toMatchObject({ n: 2, base: 0.375, head: 0.5, delta: 0.125 });
  });

  it('estimates the questions needed from the spread of the differences (divisor n − 1)', () => {
    // Differences +0.3, −0.1, +0.1, 0, +0.2: δ = 0.1, s² = (0.04 + 0.04 + 0 + 0.01 + 0.01)/4 = 0.025, s = 0.158114.
    // ((1.959964 + 0.841621)·0.158114/0.1)² = 19.62 → 20, more than the 5 paired.
    const { base, head } = graded('ndcg@10', [0.1, 0.5, 0.2, 0.4, 0.3], [0.4, 0.4, 0.3, 0.4, 0.5]);
    const ndcg = compare(base, head, { gradedMetrics: ['ndcg@10'] }).test<RandomizationTest>('ndcg@10');
    expect(ndcg.delta).toBeCloseTo(0.1, 14);
    expect(ndcg.significant).toBe(false);
    expect(pairedMeanSampleSize({ meanDifference: 0.1, sdDifference: Math.sqrt(0.025), alpha: 0.05 })).toBe(20);
    expect(ndcg.requiredN).toBe(20);
  });

  it('a barely significant graded drop gets no estimate, though the approximation would ask for more questions', () => {
    // 30 questions: 8 fell by 0.5, 1 rose by 0.5, 21 unchanged.
    const baseValues = Array.from({ length: 30 }, () => 0.5);
    const headValues = baseValues.map((value, i) => (i < 8 ? value - 0.5 : i === 8 ? value + 0.5 : value));
    const { base, head } = graded('ndcg@10', baseValues, headValues);
    const ndcg = compare(base, head, { gradedMetrics: ['ndcg@10'] }).test<RandomizationTest>('ndcg@10');
    const differences = headValues.map((value, i) => value - baseValues[i]!);
    expect(ndcg.pValue).toBe(signFlipPValue(differences, { permutations: 2000, seed: 'ndcg@10', alpha: 0.05 }).pValue);
    expect(ndcg.pValue).toBeLessThan(0.05);
    expect(ndcg.significant).toBe(true);
    expect(pairedMeanSampleSize({ meanDifference: -3.5 / 30, sdDifference: sampleSD(differences), alpha: 0.05 })).toBe(37);
    expect(ndcg.requiredN).toBeNull();
  });

  it('a graded p-value exactly at α is not significant', () => {
    const baseValues = [0.1, 0.5, 0.2, 0.4, 0.3, 0.6, 0.2];
    const headValues = [0.4, 0.4, 0.3, 0.4, 0.5, 0.9, 0.3];
    const { base, head } = graded('ndcg@10', baseValues, headValues);
    const differences = headValues.map((value, i) => value - baseValues[i]!);
    // α set to the p-value of the most permutations, which the test extends to since p stays within 3 SE of α.
    const alpha = signFlipPValue(differences, { permutations: MAX_PERMUTATIONS, seed: 'ndcg@10' }).pValue;
    const ndcg = compare(base, head, { gradedMetrics: ['ndcg@10'], alpha }).test<RandomizationTest>('ndcg@10');
    expect(ndcg.permutations).toBe(MAX_PERMUTATIONS);
    expect(ndcg.pValue).toBe(alpha);
    expect(ndcg.significant).toBe(false);
  });
});

describe('refusal and the decomposition', () => {
  // Three unanswerable questions (refused 1 → 1, 1 → 0, 0 → 0) and two answerable ones, with closed-book answers.
  const unanswerable = (refused: number): Values => ({ answerable: 0, refused });
  const rows = (side: 0 | 1): Row[] => [
    { id: 'u1', values: unanswerable([1, 1][side]!) },
    { id: 'u2', values: unanswerable([1, 0][side]!) },
    { id: 'u3', values: unanswerable([0, 0][side]!) },
    { id: 'a1', values: { answerable: 1, refused: 0, retrieval_ok: 1, correct: 1, closed_book_correct: [1, 0][side] } },
    { id: 'a2', values: { answerable: 1, refused: 0, retrieval_ok: 0, correct: [0, 1][side], closed_book_correct: 1 } },
  ];

  it('tests refusal on the unanswerable questions only, a missing one by its base answerability', () => {
    const refusal = compare(run(rows(0)), run(rows(1))).test<McNemarTest>('refusal');
    expect(refusal).toMatchObject({ n: 3, bothRight: 1, broken: 1, bothWrong: 1, fixed: 0 });
    // An unanswerable question base refused and head lacks: not refused in head, one more broken.
    const withMissing = compare(run([...rows(0), { id: 'gone', values: unanswerable(1) }]), run(rows(1))).test<McNemarTest>('refusal');
    expect(withMissing).toMatchObject({ n: 4, bothRight: 1, broken: 2, bothWrong: 1, fixed: 0 });
  });

  it('decomposes the answerable questions of each side, closed-book answers beside the retrieval failures', () => {
    const { decomposition } = compare(run(rows(0)), run(rows(1)));
    // a1 retrieval ok, a2 failed. Base: closed book right on both; head: wrong on a1, right on a2.
    expect(decomposition.base).toMatchObject({ n: 2, nGood: 1, gGood: 1, nBad: 1, gBad: 0, closedBook: { onFailed: 1, nFailed: 1, all: 1, n: 2 } });
    expect(decomposition.head).toMatchObject({ n: 2, nGood: 1, gGood: 1, nBad: 1, gBad: 1, closedBook: { onFailed: 1, nFailed: 1, all: 0.5, n: 2 } });
  });
});

describe('the order of the tag tables', () => {
  // Per tag, base all right, head with `broken` of `questions` wrong; tags first seen in head in the order below.
  const tags: [tag: string, questions: number, broken: number][] = [
    ['small', 4, 1], // moved 0.25, 4 questions
    ['medium-count', 8, 2], // moved 0.25, 8 questions
    ['also-small', 4, 1], // moved 0.25, 4 questions: alphabetically before small
    ['big-move', 2, 2], // moved 1
    ['x-one', 4, 1], // like small, and seen in the order of their names
    ['y-two', 4, 1],
  ];
  const rows = (side: 'base' | 'head'): Row[] =>
    tags.flatMap(([tag, questions, broken]) =>
      Array.from({ length: questions }, (_, i) => ({
        id: `${tag}-${i}`,
        tags: [tag],
        // Retrieval only in base: no retrieval outcome to compare by tag.
        values: { correct: side === 'head' && i < broken ? 0 : 1, ...(side === 'base' ? { retrieval_ok: 1 } : {}) },
      })),
    );

  it('puts the tag whose outcome moved most first, then the larger tag, then by name; only outcomes both sides carry', () => {
    const { byTag } = compare(run(rows('base')), run(rows('head')));
    expect(byTag.map(({ tag, questions, outcomes }) => [tag, questions, outcomes.map((o) => [o.metric, o.n, o.base, o.head])])).toEqual([
      ['big-move', 2, [['correct', 2, 1, 0]]],
      ['medium-count', 8, [['correct', 8, 1, 0.75]]],
      ['also-small', 4, [['correct', 4, 1, 0.75]]],
      ['small', 4, [['correct', 4, 1, 0.75]]],
      ['x-one', 4, [['correct', 4, 1, 0.75]]],
      ['y-two', 4, [['correct', 4, 1, 0.75]]],
    ]);
  });

  it('counts regressions by tag, most first, then by name', () => {
    const { regressionsByTag } = compare(run(rows('base')), run(rows('head')));
    expect(Object.entries(regressionsByTag)).toEqual([
      ['big-move', 2],
      ['medium-count', 2],
      ['also-small', 1],
      ['small', 1],
      ['x-one', 1],
      ['y-two', 1],
    ]);
  });
});
