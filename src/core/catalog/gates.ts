import { isScoreMetric } from './scores.js';
import type { ColumnName } from './metrics.js';

/**
 * The catalog of paired binary tests, each a gate a user may switch on with `fail-on`. The comparison runs every
 * row's McNemar test; the settings, the JSON, the comment's and the text report's words derive from these rows.
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
  readonly words: GateWords;
}

/**
 * How reports speak of a gate. `{rule}` stands for the retrieval-ok rule, e.g. `hit@5`; `{rule-words}` for the
 * rule in words, e.g. "every gold document in the top 5".
 */
export interface GateWords {
  /** The gate in a verdict: "… regressed significantly". */
  readonly gate: string;
  /** What the test measures, as the subject of a sentence. */
  readonly subject: string;
  /** The questions its success rate counts, for a headline such as "questions answered right: 77.4% → 73.1%". */
  readonly share: string;
  /** The metric cell of the tests table. */
  readonly label: string;
  /** The two outcomes in the McNemar table's headers. */
  readonly outcomes: readonly [success: string, failure: string];
  /** The discordant pairs: "16 questions lost their gold document, 2 gained it". */
  readonly movement: (broken: number, fixed: number) => string;
}

const questions = (n: number, noun = 'question') => `${n.toLocaleString('en-US')} ${noun}${n === 1 ? '' : 's'}`;

export const GATED_TESTS = [
  {
    gate: 'retrieval',
    metric: 'retrieval_ok',
    column: 'retrieval_ok',
    pairs: 'all',
    onByDefault: true,
    definition: "retrieval success (the `retrieval-ok` rule or the records' `retrieval_ok`) dropped",
    words: {
      gate: 'retrieval',
      subject: '{rule}',
      share: 'questions with {rule-words}',
      label: '{rule} — retrieval ok',
      outcomes: ['ok', 'failed'],
      movement: (broken, fixed) => `${questions(broken)} lost ${broken === 1 ? 'its' : 'their'} gold document, ${fixed} gained it`,
    },
  },
  {
    gate: 'end-to-end',
    metric: 'correct',
    column: 'correct',
    pairs: 'all',
    onByDefault: true,
    definition: 'end-to-end correctness dropped',
    words: {
      gate: 'end-to-end correctness',
      subject: 'end-to-end correctness',
      share: 'questions answered right',
      label: 'correct — end to end',
      outcomes: ['right', 'wrong'],
      movement: (broken, fixed) => `${questions(broken)} went from right to wrong, ${fixed} from wrong to right`,
    },
  },
  {
    gate: 'generation',
    metric: 'correct_given_retrieval',
    column: 'correct',
    pairs: 'retrieval-ok-on-both-sides',
    onByDefault: false,
    definition: 'correctness dropped on the questions whose retrieval succeeded in both runs: the answerer got worse',
    words: {
      gate: 'generation',
      subject: 'correctness with retrieval ok on both sides',
      share: 'answers right where retrieval was ok on both sides',
      label: 'correct with retrieval ok — generation',
      outcomes: ['right', 'wrong'],
      movement: (broken, fixed) => `with retrieval ok on both sides, ${questions(broken, 'answer')} went from right to wrong, ${fixed} from wrong to right`,
    },
  },
  {
    gate: 'refusal',
    metric: 'refusal',
    column: 'refused',
    pairs: 'unanswerable',
    onByDefault: false,
    definition: 'fewer unanswerable questions were refused',
    words: {
      gate: 'refusal of unanswerable questions',
      subject: 'correct refusals on unanswerable questions',
      share: 'unanswerable questions refused',
      label: 'refusals on unanswerable',
      outcomes: ['right', 'wrong'],
      movement: (broken, fixed) => `${questions(broken, 'unanswerable question')} ${broken === 1 ? 'was' : 'were'} no longer refused, ${fixed} newly refused`,
    },
  },
] as const satisfies readonly GatedTest[];

export type GateCategory = (typeof GATED_TESTS)[number]['gate'];

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
  return isScoreGate(gate) ? gate : gatedTest(gate).metric;
}

export const GATE_CATEGORIES: readonly GateCategory[] = GATED_TESTS.map((test) => test.gate);

export const DEFAULT_FAIL_ON: readonly GateCategory[] = GATED_TESTS.filter((test) => test.onByDefault).map((test) => test.gate);

const BY_METRIC: ReadonlyMap<string, GatedTest> = new Map(GATED_TESTS.map((test) => [test.metric, test]));
const BY_GATE: ReadonlyMap<string, GatedTest> = new Map(GATED_TESTS.map((test) => [test.gate, test]));

/** The gated test with this test key (`retrieval_ok`, `correct`…), if any. */
export function gatedTestOf(metric: string): GatedTest | undefined {
  return BY_METRIC.get(metric);
}

export function gatedTest(gate: GateCategory): GatedTest {
  return BY_GATE.get(gate)!;
}
