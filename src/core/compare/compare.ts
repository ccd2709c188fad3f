import { summarizeRepeats } from '../scoring/repeats.js';
import { byCodeUnits } from '../code-unit-order.js';
import { decompose } from '../scoring/decomposition.js';
import { column, type QuestionOutcomes, repeatCount } from '../scoring/outcomes.js';
import { scoreMetric, scoreNameOf } from '../catalog/scores.js';
import { noiseDiscordance } from '../stats/noise-floor.js';
import { type SignFlipPValue, signFlipPValue } from '../stats/randomization.js';
import { provenanceOf, type RunProvenance, type RunSummary } from '../scoring/summary.js';
import { pairedTTest, wilcoxonSignedRank } from '../stats/classical.js';
import { holmAdjust } from '../stats/holm.js';
import { mcnemar } from '../stats/mcnemar.js';
import { type MeanInterval, meanIntervals, pairedRateInterval } from '../stats/mean-interval.js';
import { mcnemarSampleSize, pairedMeanSampleSize } from '../stats/power.js';
import { type PairedValues, pairValues } from '../stats/paired.js';
import { pairedRandomizationTest, type RandomizationResult } from '../stats/randomization.js';
import { type GateName, GATED_TESTS, type GatedTest, gatedTest, gateMetric, isScoreGate, isUsageGate, usageGate, usageGateOf } from '../catalog/gates.js';
import { USAGE_MEASURES } from '../catalog/metrics.js';
import { type UsagePairs, usageTest } from './usage.js';
import { decideGate } from './gate.js';
import type {
  CompareConfig,
  Comparison,
  Coverage,
  GateDataLost,
  GateWarning,
  LostOutcome,
  McNemarTest,
  MissingQuestion,
  NotRescorable,
  PairedTest,
  QuestionChange,
  RandomizationTest,
  RegressionCause,
  RetrievalRegression,
  TagChange,
  TagOutcome,
} from './types.js';
import { blockedMetrics, judgeStatuses } from './judge-gate.js';
import { gather, pairQuestions, type Pairing } from './pairing.js';

/**
 * The power estimate worth printing: only a finite number above the questions already paired. At or below it the
 * approximation has nothing to say (a zero spread, or an exact test that is coarser than the normal one).
 */
function neededBeyond(needed: number, paired: number): number | null {
  return Number.isFinite(needed) && needed > paired ? needed : null;
}

interface PairedColumns {
  readonly base: Float64Array;
  readonly head: Float64Array;
}

/** The columns a missing question fails in head: the gated tests' outcomes (retrieval not ok, answer wrong, not refused). */
const FAILED_WHEN_MISSING: ReadonlySet<string> = new Set(GATED_TESTS.map((test) => test.column));

/**
 * A metric's values for the pairs: the paired questions first, then the questions missing from head, which
 * count as failed (0) for a gated outcome the base has, and carry no head value (NaN) for anything else. With
 * `failedWhenLost`, so does a paired question whose head record lacks the outcome its base record has: dropping
 * an outcome must not take a question out of a test any more than dropping the question does.
 */
function paired(
  baseRun: QuestionOutcomes,
  headRun: QuestionOutcomes,
  pairing: Pairing,
  name: string,
  failedWhenMissing = FAILED_WHEN_MISSING.has(name),
  failedWhenLost = false,
): PairedColumns {
  const base = gather(column(baseRun, name), concat(pairing.baseRows, pairing.missingRows));
  const head = new Float64Array(base.length).fill(NaN);
  head.set(gather(column(headRun, name), pairing.headRows));
  const from = failedWhenLost ? 0 : pairing.headRows.length;
  if (failedWhenMissing) for (let i = from; i < base.length; i++) if (Number.isNaN(head[i]!) && !Number.isNaN(base[i]!)) head[i] = 0;
  return { base, head };
}

/** Some value of `values` in [from, to) is known. */
function carries(values: Float64Array, from = 0, to = values.length, keep: (i: number) => boolean = () => true): boolean {
  for (let i = from; i < to; i++) if (!Number.isNaN(values[i]!) && keep(i)) return true;
  return false;
}

/** The per-question columns a gate reads, and whether it reads them on unanswerable questions only. */
function gateColumns(gate: GateName): { columns: string[]; unanswerableOnly: boolean } {
  if (isScoreGate(gate)) return { columns: [gate], unanswerableOnly: false };
  if (isUsageGate(gate)) return { columns: [usageGate(gate).column], unanswerableOnly: false };
  const test = gatedTest(gate);
  return {
    columns: test.pairs === 'retrieval-ok-on-both-sides' ? [test.column, 'retrieval_ok'] : [test.column],
    unanswerableOnly: test.pairs === 'unanswerable',
  };
}

/**
 * Which gates of fail-on lost their data, and which of those it names have none at all. A gate's data is lost
 * when some paired question carries in base every column it reads and no paired question carries one of them in
 * head (on unanswerable questions, for the refusal gate). It is unmeasured when neither run carries every column
 * on any question.
 */
function gateData(
  baseRun: QuestionOutcomes,
  headRun: QuestionOutcomes,
  pairing: Pairing,
  config: CompareConfig,
): { lost: GateDataLost[]; unmeasured: GateName[] } {
  const lost: GateDataLost[] = [];
  const unmeasured: GateName[] = [];
  const pairedBase = (name: string) => gather(column(baseRun, name), pairing.baseRows);
  const pairedHead = (name: string) => gather(column(headRun, name), pairing.headRows);
  // Answerability is a gold label: the same on both sides of a pair.
  const unanswerable = pairedHead('answerable');
  for (const gate of config.failOn) {
    const { columns, unanswerableOnly } = gateColumns(gate);
    const inScope = (answerable: Float64Array) => (i: number) => !unanswerableOnly || answerable[i] === 0;
    const wholeRun = (run: QuestionOutcomes) => columns.every((name) => carries(column(run, name), 0, run.size, inScope(column(run, 'answerable'))));
    if (!wholeRun(baseRun) && !wholeRun(headRun)) {
      if (config.namedGates.has(gate)) unmeasured.push(gate);
      continue;
    }
    const base = columns.map(pairedBase);
    let baseQuestions = 0;
    for (let i = 0; i < pairing.baseRows.length; i++) if (inScope(unanswerable)(i) && base.every((values) => !Number.isNaN(values[i]!))) baseQuestions++;
    if (baseQuestions === 0) continue;
    const missingInHead = columns.filter((name) => !carries(pairedHead(name), 0, pairing.headRows.length, inScope(unanswerable)));
    if (missingInHead.length > 0) lost.push({ gate, columns: missingInHead, baseQuestions });
  }
  return { lost, unmeasured };
}

function concat<T extends Int32Array | Float64Array>(a: T, b: T): T {
  const out = new (a.constructor as new (length: number) => T)(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}

/** McNemar over pairs where both outcomes are known (and `keep` holds). Null when no pair qualifies. */
function binaryTest(metric: string, values: PairedColumns, config: CompareConfig, keep: (i: number) => boolean = () => true): McNemarTest | null {
  let bothRight = 0;
  let bothWrong = 0;
  let fixed = 0;
  let broken = 0;
  for (let i = 0; i < values.base.length; i++) {
    const before = values.base[i]!;
    const after = values.head[i]!;
    if (Number.isNaN(before) || Number.isNaN(after) || !keep(i)) continue;
    if (before === 1 && after === 1) bothRight++;
    else if (before === 1) broken++;
    else if (after === 1) fixed++;
    else bothWrong++;
  }
  const n = bothRight + bothWrong + fixed + broken;
  if (n === 0) return null;
  const result = mcnemar(fixed, broken, bothRight, bothWrong, { smallSample: config.mcnemarSmallSample });
  const significant = result.pValue < config.alpha;
  const { ci, method: ciMethod } = pairedRateInterval(fixed, broken, n);
  return {
    ...result,
    kind: 'mcnemar',
    metric,
    gate: null,
    n,
    base: (bothRight + broken) / n,
    head: (bothRight + fixed) / n,
    delta: (fixed - broken) / n,
    ci,
    ciMethod,
    adjustedPValue: null,
    significant,
    gateOutcome: null,
    requiredN: significant ? null : neededBeyond(mcnemarSampleSize({ pFixed: fixed / n, pBroken: broken / n, alpha: config.alpha }), n),
  };
}

/** How many runs of each pair carry a metric: base and head, the missing questions with no head run. */
function pairedCounts(baseRun: QuestionOutcomes, headRun: QuestionOutcomes, pairing: Pairing, name: string): PairedColumns {
  const base = gather(repeatCount(baseRun, name), concat(pairing.baseRows, pairing.missingRows));
  const head = new Float64Array(base.length);
  head.set(gather(repeatCount(headRun, name), pairing.headRows));
  return { base, head };
}

/**
 * A 0/1 outcome when a run has repeats: each pair's value is the question's pass rate, and the test is the paired
 * sign-flip randomization test on the per-question differences of pass rates, with the interval of their mean
 * over questions (the percentile bootstrap resampling questions from 100 on, Student's t below, where the
 * bootstrap under-covers). Questions are the unit both resample: the claim is about the population of
 * questions, and a question's repeats are not independent of each other (they share its difficulty), so
 * resampling runs would treat correlated draws as fresh evidence and make the interval too narrow. On one run per
 * question the differences are 0 or ±1 and the sign-flip test is McNemar's exact test, drawn by Monte Carlo.
 */
function rateTest(
  metric: string,
  values: PairedColumns,
  counts: PairedColumns,
  config: CompareConfig,
  keep: (i: number) => boolean = () => true,
): RandomizationTest | null {
  const differences: number[] = [];
  let sumBase = 0;
  let sumHead = 0;
  let broken = 0;
  let fixed = 0;
  const noise = { broken: 0, fixed: 0, questions: 0 };
  for (let i = 0; i < values.base.length; i++) {
    const before = values.base[i]!;
    const after = values.head[i]!;
    if (Number.isNaN(before) || Number.isNaN(after) || !keep(i)) continue;
    differences.push(after - before);
    sumBase += before;
    sumHead += after;
    if (after < before) broken++;
    else if (after > before) fixed++;
    const baseRuns = counts.base[i]!;
    const headRuns = counts.head[i]!;
    if (baseRuns >= 2 && headRuns >= 1) {
      const expected = noiseDiscordance(Math.round(before * baseRuns), baseRuns, Math.round(after * headRuns), headRuns);
      noise.broken += expected.lower;
      noise.fixed += expected.higher;
      noise.questions++;
    }
  }
  const n = differences.length;
  if (n === 0) return null;
  const signFlip = signFlipPValue(differences, { permutations: config.permutations, seed: metric, alpha: config.alpha });
  const interval = meanIntervals([differences], { seed: metric })[0]!;
  const means = { n, base: sumBase / n, head: sumHead / n, delta: (sumHead - sumBase) / n };
  return randomizationTest(metric, means, differences, interval, signFlip, config.alpha, {}, { broken, fixed, noise: noise.questions === 0 ? null : noise });
}

/**
 * A paired metric's test record from its parts: the means, the differences (for the spread that sizes the
 * sample a non-significant difference would need), the interval of the mean difference and the sign-flip p-value.
 */
function randomizationTest(
  metric: string,
  means: { readonly n: number; readonly base: number; readonly head: number; readonly delta: number },
  differences: ArrayLike<number>,
  interval: MeanInterval,
  signFlip: SignFlipPValue,
  alpha: number,
  extra: RandomizationTest['extra'],
  rates?: RandomizationTest['rates'],
): RandomizationTest {
  const { n, delta } = means;
  let squares = 0;
  for (let i = 0; i < n; i++) squares += (differences[i]! - delta) ** 2;
  const sd = Math.sqrt(squares / Math.max(1, n - 1));
  const { pValue, permutations, monteCarloSE, tailBound } = signFlip;
  const significant = pValue < alpha;
  return {
    kind: 'randomization',
    metric,
    gate: null,
    ...means,
    ci: interval.ci,
    ciMethod: interval.method,
    pValue,
    permutations,
    monteCarloSE,
    tailBound,
    extra,
    ...(rates === undefined ? {} : { rates }),
    adjustedPValue: null,
    significant,
    gateOutcome: null,
    requiredN: significant || sd === 0 ? null : neededBeyond(pairedMeanSampleSize({ meanDifference: delta, sdDifference: sd, alpha }), n),
  };
}

/** What a graded metric's test reads of the comparison's settings: the same on any thread. */
export type GradedTestConfig = Pick<CompareConfig, 'permutations' | 'alpha' | 'extraTests'>;

/**
 * The two halves of a graded metric's test, each drawn from its own seed (the interval's shared by every metric,
 * so that a metric's interval does not depend on which others are tested with it; the randomization's the
 * metric's name): each is the same whichever thread computes it, in any order. Null when no pair carries the metric.
 */
export const GRADED_HALVES = {
  interval: (_metric: string, pair: PairedValues): MeanInterval | null => (pair.n === 0 ? null : meanIntervals([pair.differences])[0]!),
  randomization: (metric: string, pair: PairedValues, config: GradedTestConfig): RandomizationResult | null =>
    pair.n === 0 ? null : pairedRandomizationTest(pair, { permutations: config.permutations, seed: metric, alpha: config.alpha }),
} as const;

export type GradedHalf = keyof typeof GRADED_HALVES;

/**
 * A graded metric's randomization test and the interval of its mean difference, or null when no pair carries it;
 * from its halves when they were computed elsewhere.
 */
export function gradedTest(
  metric: string,
  pair: PairedValues,
  config: GradedTestConfig,
  interval = GRADED_HALVES.interval(metric, pair),
  randomization = GRADED_HALVES.randomization(metric, pair, config),
): RandomizationTest | null {
  if (interval === null || randomization === null) return null;
  const { n, meanBase, meanHead, differences } = pair;
  const extra = {
    ...(config.extraTests.has('t') ? { t: pairedTTest(differences) } : {}),
    ...(config.extraTests.has('wilcoxon') ? { wilcoxon: wilcoxonSignedRank(differences) } : {}),
  };
  return randomizationTest(
    metric,
    { n, base: meanBase, head: meanHead, delta: randomization.delta },
    differences,
    interval,
    randomization,
    config.alpha,
    extra,
  );
}

/** The scores either run carries, as metrics: McNemar's when true/false in both runs, else graded. */
function scoreMetrics(baseRun: QuestionOutcomes, headRun: QuestionOutcomes): { binary: string[]; graded: string[] } {
  const scores = new Map<string, 'number' | 'boolean'>();
  for (const run of [baseRun, headRun]) for (const [name, kind] of run.scores) scores.set(name, scores.get(name) === 'number' ? 'number' : kind);
  const names = [...scores.keys()].map(scoreMetric);
  const binary = names.filter((metric) => scores.get(scoreNameOf(metric)) === 'boolean');
  return { binary, graded: names.filter((metric) => !binary.includes(metric)) };
}

/** The pairing of a comparison, and the graded metrics it tests with their paired values. */
export interface GradedInputs {
  readonly pairing: Pairing;
  readonly metrics: readonly string[];
  readonly pairs: readonly PairedValues[];
}

/**
 * What `compareRuns` pairs and tests by `gradedTest`, one metric each: the costliest part of a large comparison,
 * which a caller with spare threads may compute there and hand to `compareRuns` (its `graded` option).
 */
export function gradedInputs(
  baseRun: QuestionOutcomes,
  headRun: QuestionOutcomes,
  config: CompareConfig,
  files: { base: string; head: string },
  golden?: ReadonlySet<string>,
): GradedInputs {
  const pairing = pairQuestions(baseRun, headRun, files, { missing: config.missing, golden });
  const metrics = [...config.gradedMetrics, ...scoreMetrics(baseRun, headRun).graded];
  const pairs = metrics.map((metric) => {
    const { base, head } = paired(baseRun, headRun, pairing, metric);
    return pairValues(base, head);
  });
  return { pairing, metrics, pairs };
}

/**
 * What a question cost, base against head: a test for each usage measure either run carries (on the paired
 * questions; a missing question has no head cost to compare), with its gate's tolerance when it has a gate.
 */
function usageTests(baseRun: QuestionOutcomes, headRun: QuestionOutcomes, pairing: Pairing, config: CompareConfig) {
  const measures = USAGE_MEASURES.filter((measure) => baseRun.columns.has(measure.column) || headRun.columns.has(measure.column));
  if (measures.length === 0) return [];
  const ids = Array.from(pairing.headRows, (row) => headRun.ids[row]!);
  const questions = Array.from(pairing.headRows, (row) => headRun.questions[row]!);
  const repeated = baseRun.repeats !== undefined || headRun.repeats !== undefined;
  return measures.map((measure) => {
    const name = measure.column;
    const spread = (run: QuestionOutcomes) => run.repeats?.spreads?.get(name) ?? new Float64Array(run.size).fill(NaN);
    const pairs: UsagePairs = {
      base: gather(column(baseRun, name), pairing.baseRows),
      head: gather(column(headRun, name), pairing.headRows),
      ids,
      questions,
      ...(repeated
        ? {
            repeats: {
              baseRuns: gather(repeatCount(baseRun, name), pairing.baseRows),
              headRuns: gather(repeatCount(headRun, name), pairing.headRows),
              baseSpread: gather(spread(baseRun), pairing.baseRows),
              headSpread: gather(spread(headRun), pairing.headRows),
            },
          }
        : {}),
    };
    const gate = usageGateOf(name);
    return usageTest(measure, pairs, config, gate === undefined ? null : config.tolerances[gate.gate]);
  });
}

/** Applies Holm–Bonferroni across the tests the gate uses, and marks each test's gate and significance. */
function adjustGatedTests(tests: PairedTest[], config: CompareConfig): PairedTest[] {
  const gateOf = new Map<string, GateName>();
  for (const gate of config.failOn) gateOf.set(gateMetric(gate), gate);
  const gated = tests.filter((test) => gateOf.has(test.metric));
  const adjusted = holmAdjust(gated.map((test) => test.pValue));
  return tests.map((test) => {
    const index = gated.indexOf(test);
    if (index < 0) return test;
    const adjustedPValue = adjusted[index]!;
    return {
      ...test,
      gate: gateOf.get(test.metric)!,
      adjustedPValue,
      significant: adjustedPValue < config.alpha,
      requiredN: adjustedPValue < config.alpha ? null : test.requiredN,
    };
  });
}

/** Retrieval changed the same way as the answer: ok → failed for a regression (with repeats, its pass rate fell). */
function causeOf(retrievalBase: number, retrievalHead: number, improving: boolean): RegressionCause {
  if (Number.isNaN(retrievalBase) || Number.isNaN(retrievalHead)) return 'unknown';
  const retrievalChanged = improving ? retrievalHead > retrievalBase : retrievalHead < retrievalBase;
  return retrievalChanged ? 'retrieval' : 'generation';
}

/**
 * Compares head with base question by question: pairing, McNemar on binary outcomes, randomization tests on
 * graded metrics, regressions with their cause, the decomposition side by side, and the gate verdict.
 */
export function compareRuns(
  baseRun: QuestionOutcomes,
  headRun: QuestionOutcomes,
  headSummary: RunSummary,
  config: CompareConfig,
  files: { base: string; head: string },
  options: {
    /** Ids of the head's golden set, when known. */
    readonly golden?: ReadonlySet<string>;
    /** Relabelled questions whose base `baseRun` already holds re-scored under the head's labels, and those it could not. */
    readonly rescored?: readonly string[];
    readonly notRescorable?: ReadonlyMap<string, NotRescorable>;
    /** Holdout questions already taken out of both runs. */
    readonly holdoutLeftOut?: readonly string[];
    /** `gradedInputs` of these runs and `gradedTest` of each of its metrics, in its order, when computed elsewhere. */
    readonly graded?: { readonly inputs: GradedInputs; readonly tests: readonly (RandomizationTest | null)[] };
  } = {},
): Comparison {
  const golden = options.golden;
  const inputs = options.graded?.inputs ?? gradedInputs(baseRun, headRun, config, files, golden);
  const { pairing } = inputs;
  const pairedCount = pairing.headRows.length;
  const gated = new Set<string>(config.failOn);
  // A paired question that lost an outcome counts as failed in its tests, as a missing one does, unless missing
  // questions are excluded; a column no paired head question carries is a lost gate (gateData), not a failure each.
  const whenLost = (name: string) =>
    config.missing === 'fail' && carries(gather(column(headRun, name), pairing.headRows)) && carries(gather(column(baseRun, name), pairing.baseRows));
  const tested = (name: string, failedWhenMissing = FAILED_WHEN_MISSING.has(name)) =>
    paired(baseRun, headRun, pairing, name, failedWhenMissing, failedWhenMissing && whenLost(name));
  // The questions' own outcomes, for the lists and the decomposition: a lost outcome is listed apart, not as a regression.
  const retrieval = paired(baseRun, headRun, pairing, 'retrieval_ok');
  const correct = paired(baseRun, headRun, pairing, 'correct');
  const retrievalTested = tested('retrieval_ok');
  // A missing question keeps its base answerability, so that it still counts in the refusal test.
  const answerable = concat(gather(column(headRun, 'answerable'), pairing.headRows), gather(column(baseRun, 'answerable'), pairing.missingRows));

  const pairFilters: Record<GatedTest['pairs'], ((i: number) => boolean) | undefined> = {
    all: undefined,
    'retrieval-ok-on-both-sides': (i) => retrievalTested.base[i] === 1 && retrievalTested.head[i] === 1,
    unanswerable: (i) => answerable[i] === 0,
  };
  // With repeats in either run, 0/1 outcomes are per-question pass rates: tested by rateTest, not McNemar.
  const repeated = baseRun.repeats !== undefined || headRun.repeats !== undefined;
  const outcomeTest = (metric: string, column: string, values: PairedColumns, keep?: (i: number) => boolean) =>
    repeated ? rateTest(metric, values, pairedCounts(baseRun, headRun, pairing, column), config, keep) : binaryTest(metric, values, config, keep);
  const binary = GATED_TESTS.map((test) => outcomeTest(test.metric, test.column, tested(test.column), pairFilters[test.pairs]));
  // Every score either run carries gets its paired test: McNemar when true/false in both runs, else randomization.
  const binaryScores = scoreMetrics(baseRun, headRun).binary;
  const scoreTests = binaryScores.map((metric) => outcomeTest(metric, metric, tested(metric, gated.has(metric))));
  const graded = options.graded?.tests ?? inputs.metrics.map((metric, index) => gradedTest(metric, inputs.pairs[index]!, config));
  if (graded.length !== inputs.metrics.length) throw new Error(`compareRuns: ${graded.length} graded tests given for ${inputs.metrics.length} metrics`);
  const usage = usageTests(baseRun, headRun, pairing, config);
  const testsBeforeGate = adjustGatedTests(
    [...binary, ...scoreTests, ...graded, ...usage].filter((test): test is PairedTest => test !== null),
    config,
  );

  const regressions: QuestionChange[] = [];
  const fixed: QuestionChange[] = [];
  const retrievalRegressions: RetrievalRegression[] = [];
  const correctCounts = repeated ? pairedCounts(baseRun, headRun, pairing, 'correct') : undefined;
  const describe = (i: number, improving: boolean): QuestionChange => {
    const row = pairing.headRows[i]!;
    const runs = (rate: number, count: number) => ({ passes: Math.round(rate * count), runs: count });
    return {
      id: headRun.ids[row]!,
      question: headRun.questions[row]!,
      tags: headRun.tags[row]!,
      cause: causeOf(retrieval.base[i]!, retrieval.head[i]!, improving),
      lostDocuments: lostDocuments(baseRun, headRun, pairing, i),
      ...(correctCounts === undefined
        ? {}
        : { correctRuns: { base: runs(correct.base[i]!, correctCounts.base[i]!), head: runs(correct.head[i]!, correctCounts.head[i]!) } }),
    };
  };
  // On 0/1 outcomes a fall is 1 → 0; with repeats, any fall of the pass rate (NaN compares false either way).
  for (let i = 0; i < pairedCount; i++) {
    if (correct.head[i]! < correct.base[i]!) regressions.push(describe(i, false));
    if (correct.head[i]! > correct.base[i]!) fixed.push(describe(i, true));
    if (retrieval.head[i]! < retrieval.base[i]!) {
      const change = describe(i, false);
      retrievalRegressions.push({
        id: change.id,
        question: change.question,
        tags: change.tags,
        lostDocuments: change.lostDocuments,
        rescued: correct.head[i] === 1,
      });
    }
  }

  const missing = [...pairing.missingRows].map((row, j): MissingQuestion => {
    const i = pairedCount + j;
    const outcome = (value: number) => (Number.isNaN(value) ? null : value === 1);
    return {
      id: baseRun.ids[row]!,
      question: baseRun.questions[row]!,
      tags: baseRun.tags[row]!,
      wasCorrect: outcome(correct.base[i]!),
      retrievalWasOk: outcome(retrieval.base[i]!),
    };
  });
  // On the paired questions only: a missing question has no head split to show.
  const onPaired = (values: Float64Array) => values.subarray(0, pairedCount);
  const decomposition = {
    base: decompose(onPaired(retrieval.base), onPaired(correct.base), onPaired(answerable), gather(column(baseRun, 'closed_book_correct'), pairing.baseRows)),
    head: decompose(onPaired(retrieval.head), onPaired(correct.head), onPaired(answerable), gather(column(headRun, 'closed_book_correct'), pairing.headRows)),
  };
  const lostOutcomes = lostOutcomesOf(
    baseRun,
    headRun,
    pairing,
    [...FAILED_WHEN_MISSING, ...binaryScores.filter((metric) => gated.has(metric))],
    (name, i) => [
      ...GATED_TESTS.filter((test) => test.column === name && (pairFilters[test.pairs]?.(i) ?? true)).map((test) => test.metric),
      ...(gated.has(name) ? [name] : []),
    ],
    config.missing === 'fail' ? 'failed' : 'left-out',
  );
  const gatedMetrics = new Set([...config.failOn].map(gateMetric));
  const lostGated = lostOutcomes.filter((lost) => lost.tests.some((test) => gatedMetrics.has(test))).length;
  const baseQuestions = baseRun.size - pairing.removed.length;
  // Left out of a gated test, a question is not accounted for: coverage says so, and min-coverage holds it to account.
  const compared = pairedCount + missing.length - (config.missing === 'fail' ? 0 : lostGated);
  const coverage: Coverage = {
    paired: pairedCount,
    missing: missing.length,
    lostOutcomes: lostGated,
    compared,
    baseQuestions,
    share: baseQuestions === 0 ? 1 : compared / baseQuestions,
  };
  const data = gateData(baseRun, headRun, pairing, config);
  const retrievalTest = testsBeforeGate.find((test) => test.metric === 'retrieval_ok');
  const judges = judgeStatuses([...baseRun.judges, ...headRun.judges], config.calibrations, config.kappaFloor);
  const { verdict, reasons, warnings, outcomes, floors, ungated } = decideGate(
    testsBeforeGate,
    headSummary,
    config,
    coverage,
    blockedMetrics(judges),
    data.lost,
  );
  const provenance = { base: provenanceOf(baseRun), head: provenanceOf(headRun) };
  const tests = testsBeforeGate.map((test) => (test.gate === null ? test : { ...test, gateOutcome: outcomes.get(test.gate) ?? null }));
  return {
    paired: pairedCount,
    added: pairing.added,
    removed: pairing.removed,
    excluded: pairing.excluded,
    missing,
    lostOutcomes,
    rescored: options.rescored ?? [],
    labelsChanged: pairing.labelsChanged.map((id) => ({ id, reason: options.notRescorable?.get(id) ?? 'not-rescored' })),
    holdoutLeftOut: options.holdoutLeftOut ?? [],
    coverage,
    alpha: config.alpha,
    tests,
    regressions,
    retrievalRegressions,
    fixed,
    regressionsByTag: countByTag(regressions),
    byTag: tagChanges(headRun, pairing, { correct, retrieval_ok: retrieval }, config),
    causes: { regressions: countCauses(regressions), fixed: countCauses(fixed) },
    decomposition,
    retrievalShifted: retrievalTest?.significant === true,
    floors,
    judges,
    provenance,
    verdict,
    ...(repeated ? { flaky: { base: summarizeRepeats(baseRun) ?? null, head: summarizeRepeats(headRun) ?? null } } : {}),
    ungated,
    unmeasured: data.unmeasured,
    reasons,
    warnings: [...warnings, ...provenanceWarnings(provenance.base, provenance.head)],
  };
}

/** Refusals read from the records on one side and by the detector on the other: a change in them may be the detector's. */
function provenanceWarnings(base: RunProvenance, head: RunProvenance): GateWarning[] {
  return base.refusedByDetector > 0 !== head.refusedByDetector > 0
    ? [{ kind: 'refusal-source-differs', base: base.refusedByDetector, head: head.refusedByDetector }]
    : [];
}

/**
 * The paired questions whose head record lacks an outcome (of `columns`) that their base record has, with the
 * tests that read it there. A column no paired head question carries is left to the gate (a lost gate), not
 * listed question by question.
 */
function lostOutcomesOf(
  baseRun: QuestionOutcomes,
  headRun: QuestionOutcomes,
  pairing: Pairing,
  columns: readonly string[],
  testsOf: (name: string, i: number) => string[],
  counted: LostOutcome['counted'],
): LostOutcome[] {
  const byRow = new Map<number, { columns: string[]; tests: Set<string> }>();
  for (const name of columns) {
    const base = gather(column(baseRun, name), pairing.baseRows);
    const head = gather(column(headRun, name), pairing.headRows);
    if (!carries(head)) continue;
    for (let i = 0; i < head.length; i++) {
      if (Number.isNaN(base[i]!) || !Number.isNaN(head[i]!)) continue;
      const tests = testsOf(name, i);
      if (tests.length === 0) continue;
      let entry = byRow.get(i);
      if (entry === undefined) byRow.set(i, (entry = { columns: [], tests: new Set() }));
      entry.columns.push(name);
      for (const test of tests) entry.tests.add(test);
    }
  }
  return [...byRow]
    .sort(([a], [b]) => a - b)
    .map(([i, entry]) => {
      const row = pairing.headRows[i]!;
      return { id: headRun.ids[row]!, question: headRun.questions[row]!, tags: headRun.tags[row]!, columns: entry.columns, tests: [...entry.tests], counted };
    });
}

function lostDocuments(baseRun: QuestionOutcomes, headRun: QuestionOutcomes, pairing: Pairing, i: number): string[] {
  const before = baseRun.goldFound[pairing.baseRows[i]!] ?? [];
  const after = new Set(headRun.goldFound[pairing.headRows[i]!] ?? []);
  return before.filter((id) => !after.has(id));
}

/** The outcomes compared by tag, the end-to-end one first. */
const TAG_OUTCOMES = ['correct', 'retrieval_ok'] as const;

/**
 * Base against head on the paired questions of each tag: for each outcome both runs carry, the rates and the
 * McNemar test of its discordant pairs (exact below 25, as configured), Holm-adjusted across every tag and outcome
 * tested, since a reader scans the whole table for a marked row. The tags whose outcome moved most come first.
 */
function tagChanges(
  headRun: QuestionOutcomes,
  pairing: Pairing,
  values: Readonly<Record<(typeof TAG_OUTCOMES)[number], PairedColumns>>,
  config: CompareConfig,
): TagChange[] {
  type Counts = { bothRight: number; bothWrong: number; fixed: number; broken: number };
  const byTag = new Map<string, { questions: number; counts: Map<TagOutcome['metric'], Counts> }>();
  for (let i = 0; i < pairing.headRows.length; i++) {
    for (const tag of new Set(headRun.tags[pairing.headRows[i]!]!)) {
      let entry = byTag.get(tag);
      if (entry === undefined) byTag.set(tag, (entry = { questions: 0, counts: new Map() }));
      entry.questions++;
      for (const metric of TAG_OUTCOMES) {
        const before = values[metric].base[i]!;
        const after = values[metric].head[i]!;
        if (Number.isNaN(before) || Number.isNaN(after)) continue;
        let counts = entry.counts.get(metric);
        if (counts === undefined) entry.counts.set(metric, (counts = { bothRight: 0, bothWrong: 0, fixed: 0, broken: 0 }));
        if (before === 1 && after === 1) counts.bothRight++;
        else if (before === 1) counts.broken++;
        else if (after === 1) counts.fixed++;
        else counts.bothWrong++;
      }
    }
  }
  const tests = [...byTag].flatMap(([tag, { counts }]) =>
    TAG_OUTCOMES.flatMap((metric) => {
      const c = counts.get(metric);
      return c === undefined
        ? []
        : [{ tag, metric, c, pValue: mcnemar(c.fixed, c.broken, c.bothRight, c.bothWrong, { smallSample: config.mcnemarSmallSample }).pValue }];
    }),
  );
  const adjusted = holmAdjust(tests.map((test) => test.pValue));
  const outcomes = new Map<string, TagOutcome[]>();
  tests.forEach(({ tag, metric, c, pValue }, j) => {
    const n = c.bothRight + c.bothWrong + c.fixed + c.broken;
    const list = outcomes.get(tag) ?? [];
    list.push({
      metric,
      n,
      base: (c.bothRight + c.broken) / n,
      head: (c.bothRight + c.fixed) / n,
      broken: c.broken,
      fixed: c.fixed,
      pValue,
      adjustedPValue: adjusted[j]!,
      significant: adjusted[j]! < config.alpha,
    });
    outcomes.set(tag, list);
  });
  const moved = (change: TagChange) => Math.max(0, ...change.outcomes.map((o) => Math.abs(o.head - o.base)));
  return [...byTag]
    .map(([tag, { questions }]) => ({ tag, questions, outcomes: outcomes.get(tag) ?? [] }))
    .sort((a, b) => moved(b) - moved(a) || b.questions - a.questions || byCodeUnits(a.tag, b.tag));
}

function countCauses(changes: readonly QuestionChange[]): Record<RegressionCause, number> {
  const counts: Record<RegressionCause, number> = { retrieval: 0, generation: 0, unknown: 0 };
  for (const change of changes) counts[change.cause]++;
  return counts;
}

function countByTag(changes: readonly QuestionChange[]): Record<string, number> {
  const counts: Record<string, number> = Object.create(null);
  for (const change of changes) for (const tag of new Set(change.tags)) counts[tag] = (counts[tag] ?? 0) + 1;
  return Object.fromEntries(Object.entries(counts).sort(([a, x], [b, y]) => y - x || byCodeUnits(a, b)));
}
