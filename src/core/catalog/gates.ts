import { isScoreMetric } from './scores.js';
import type { ColumnName } from './metrics.js';

/**
 * The catalog of paired binary tests, each a gate a user may switch on with `fail-on`. The comparison runs every
 * row's McNemar test; the settings, the JSON and the reports derive from these rows (their words from render's GATE_WORDS,
 * one entry per row).
 * Adding a gate: a row here (and, when its pairs need a new filter, that filter in `compare.ts`).
 */
export interface GatedTest {
  /** The gate's name in `fail-on`. */
  readonly gate: string;
  /** The test's key in the JSON and the tests table. */
  readonly metric: string;
  /** The per-question 0/1 column it pairs. */
  readonly column: ColumnName;
  /** Which pairs count: all, those with retrieval ok on both sides, or unanswerable questions only. */
  readonly pairs: 'all' | 'retrieval-ok-on-both-sides' | 'unanswerable';
  /** Fails the check by default. */
  readonly onByDefault: boolean;
  /** For the README: what a significant drop means. */
  readonly definition: string;
}

export const GATED_TESTS = [
  {
    gate: 'retrieval',
    metric: 'retrieval_ok',
    column: 'retrieval_ok',
    pairs: 'all',
    onByDefault: true,
    definition: "retrieval success (the `retrieval-ok` rule or the records' `retrieval_ok`) dropped",
  },
  {
    gate: 'end-to-end',
    metric: 'correct',
    column: 'correct',
    pairs: 'all',
    onByDefault: true,
    definition: 'end-to-end correctness dropped',
  },
  {
    gate: 'generation',
    metric: 'correct_given_retrieval',
    column: 'correct',
    pairs: 'retrieval-ok-on-both-sides',
    onByDefault: false,
    definition: 'correctness dropped on the questions whose retrieval succeeded in both runs: the answerer got worse',
  },
  {
    gate: 'refusal',
    metric: 'refusal',
    column: 'refused',
    pairs: 'unanswerable',
    onByDefault: false,
    definition: 'fewer unanswerable questions were refused',
  },
] as const satisfies readonly GatedTest[];

/**
 * The gates on what a question cost the pipeline, each on a usage measure's column (metrics.ts): a significant rise
 * beyond its tolerance setting fails. Never on by default: results without these fields are common.
 */
export interface UsageGateRow {
  readonly gate: string;
  /** The usage column it tests: the test's key in the JSON and the tests table. */
  readonly column: ColumnName;
  /** The setting of the rise it tolerates. */
  readonly toleranceSetting: string;
  readonly definition: string;
}

export const USAGE_GATES = [
  {
    gate: 'latency',
    column: 'latency_ms',
    toleranceSetting: 'latency-tolerance',
    definition: 'end-to-end latency rose beyond `latency-tolerance` (paired test on log-latency; the geometric-mean ratio)',
  },
  {
    gate: 'tokens',
    column: 'tokens',
    toleranceSetting: 'tokens-tolerance',
    definition: 'tokens a question rose beyond `tokens-tolerance` (paired test on the differences; the ratio of means)',
  },
  {
    gate: 'cost',
    column: 'cost_usd',
    toleranceSetting: 'cost-tolerance',
    definition: 'cost a question rose beyond `cost-tolerance` (paired test on the differences; the ratio of means)',
  },
] as const satisfies readonly UsageGateRow[];

export type UsageGate = (typeof USAGE_GATES)[number]['gate'];

type UsageGateOf = (typeof USAGE_GATES)[number];

const USAGE_BY_GATE: ReadonlyMap<string, UsageGateOf> = new Map(USAGE_GATES.map((row) => [row.gate, row]));

export function isUsageGate(gate: string): gate is UsageGate {
  return USAGE_BY_GATE.has(gate);
}

export function usageGate(gate: UsageGate): UsageGateOf {
  return USAGE_BY_GATE.get(gate)!;
}

/** The usage gate whose test this is (`latency_ms` → latency), if any. */
export function usageGateOf(metric: string): UsageGateOf | undefined {
  return USAGE_GATES.find((row) => row.column === metric);
}

export type GateCategory = (typeof GATED_TESTS)[number]['gate'] | UsageGate;

/**
 * A gate on a score another tool computed, `score:NAME` in fail-on: its paired test (McNemar for a true/false
 * score, randomization for a graded one) fails the check on a significant drop. Never on by default: the score
 * was not calibrated here, so gating on it is the user's explicit choice.
 */
export type ScoreGate = `score:${string}`;

/** A gate a user may switch on: a row of the catalog or a score. */
export type GateName = GateCategory | ScoreGate;

export function isScoreGate(gate: string): gate is ScoreGate {
  return isScoreMetric(gate);
}

/** The test a gate decides, by its key: the catalog row's, or the score's own metric. */
export function gateMetric(gate: GateName): string {
  if (isScoreGate(gate)) return gate;
  return isUsageGate(gate) ? usageGate(gate).column : gatedTest(gate).metric;
}

export const GATE_CATEGORIES: readonly GateCategory[] = [...GATED_TESTS.map((test) => test.gate), ...USAGE_GATES.map((row) => row.gate)];

export const DEFAULT_FAIL_ON: readonly GateCategory[] = GATED_TESTS.filter((test) => test.onByDefault).map((test) => test.gate);

const BY_METRIC: ReadonlyMap<string, GatedTest> = new Map(GATED_TESTS.map((test) => [test.metric, test]));
const BY_GATE: ReadonlyMap<string, GatedTest> = new Map(GATED_TESTS.map((test) => [test.gate, test]));

/** The gated test with this test key (`retrieval_ok`, `correct`…), if any. */
export function gatedTestOf(metric: string): GatedTest | undefined {
  return BY_METRIC.get(metric);
}

export function gatedTest(gate: Exclude<GateCategory, UsageGate>): GatedTest {
  return BY_GATE.get(gate)!;
}
