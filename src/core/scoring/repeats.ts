import { GATED_TESTS } from '../catalog/gates.js';
import { column, type QuestionOutcomes, repeatCount } from './outcomes.js';
import { scoreMetric } from '../catalog/scores.js';

/** A question's pass count and repeats on one 0/1 outcome. */
export interface PassCount {
  readonly passes: number;
  readonly runs: number;
}

/** One 0/1 outcome across the repeats of a run. */
export interface OutcomeRepeats {
  readonly metric: string;
  /** Questions with at least two repeats carrying the outcome: the ones that can be flaky. */
  readonly repeated: number;
  /** Of those, questions whose outcome differs across repeats. */
  readonly flaky: number;
  /** flaky / repeated; null when no question was repeated. */
  readonly flakyRate: number | null;
  /** The k of pass@k and pass^k: the fewest repeats among the questions that carry the outcome. */
  readonly k: number;
  /** Mean over questions of 1 − C(n−c, k)/C(n, k): the chance that at least one of k runs passes. */
  readonly passAtK: number | null;
  /** Mean over questions of C(c, k)/C(n, k): the chance that all k runs pass. */
  readonly passHatK: number | null;
}

export interface FlakyQuestion {
  readonly id: string;
  readonly question: string;
  /** The outcomes on which it is flaky, with its passes out of its runs. */
  readonly outcomes: Readonly<Record<string, PassCount>>;
}

export interface RepeatSummary {
  /** Records read and questions they belong to. */
  readonly records: number;
  readonly questions: number;
  /** How many questions were run how many times: `{"5": 290, "4": 10}` (mixed counts are allowed). */
  readonly runsPerQuestion: Readonly<Record<string, number>>;
  readonly outcomes: readonly OutcomeRepeats[];
  /** Questions flaky on any of `outcomes`, in file order. */
  readonly flakyQuestions: readonly FlakyQuestion[];
}

/** C(n, k) / C(m, k) as a product, stable for the small k of repeats. */
function chooseRatio(n: number, m: number, k: number): number {
  if (n < k) return 0;
  let ratio = 1;
  for (let i = 0; i < k; i++) ratio *= (n - i) / (m - i);
  return ratio;
}

/**
 * The unbiased estimators of Chen et al. (2021, pass@k) and Yao et al. (2024, pass^k) from c passes in n runs:
 * drawing k of the n runs without replacement, the chance that at least one passes, and that all k pass.
 */
export function passAtK(passes: number, runs: number, k: number): { atK: number; hatK: number } {
  return { atK: 1 - chooseRatio(runs - passes, runs, k), hatK: chooseRatio(passes, runs, k) };
}

/** The 0/1 outcomes whose flakiness is reported: the gated ones, then true/false scores. */
function binaryOutcomes(outcomes: QuestionOutcomes, binary: ReadonlySet<string>): string[] {
  const names = [
    ...new Set(GATED_TESTS.map((test) => test.column)),
    ...[...outcomes.scores].filter(([, kind]) => kind === 'boolean').map(([name]) => scoreMetric(name)),
  ];
  return names.filter((name) => binary.has(name));
}

/** Flakiness and pass@k of a run whose questions were run several times; undefined for a run without repeats. */
export function summarizeRepeats(outcomes: QuestionOutcomes): RepeatSummary | undefined {
  const { repeats } = outcomes;
  if (repeats === undefined) return undefined;
  const runsPerQuestion: Record<string, number> = {};
  let records = 0;
  for (const runs of repeats.runs) {
    records += runs;
    runsPerQuestion[runs] = (runsPerQuestion[runs] ?? 0) + 1;
  }
  const flakyOn = new Map<number, Record<string, PassCount>>();
  const summaries = binaryOutcomes(outcomes, repeats.binary).map((metric): OutcomeRepeats => {
    const rates = column(outcomes, metric);
    const counts = repeatCount(outcomes, metric);
    let k = Infinity;
    for (const runs of counts) if (runs > 0) k = Math.min(k, runs);
    let repeated = 0;
    let flaky = 0;
    let carried = 0;
    let atK = 0;
    let hatK = 0;
    for (let row = 0; row < outcomes.size; row++) {
      const runs = counts[row]!;
      if (runs === 0) continue;
      const passes = Math.round(rates[row]! * runs);
      carried++;
      const estimate = passAtK(passes, runs, k);
      atK += estimate.atK;
      hatK += estimate.hatK;
      if (runs < 2) continue;
      repeated++;
      if (passes > 0 && passes < runs) {
        flaky++;
        const flakyRow = flakyOn.get(row) ?? {};
        flakyRow[metric] = { passes, runs };
        flakyOn.set(row, flakyRow);
      }
    }
    return {
      metric,
      repeated,
      flaky,
      flakyRate: repeated === 0 ? null : flaky / repeated,
      k: Number.isFinite(k) ? k : 0,
      passAtK: carried === 0 ? null : atK / carried,
      passHatK: carried === 0 ? null : hatK / carried,
    };
  });
  const flakyQuestions = [...flakyOn.keys()]
    .sort((a, b) => a - b)
    .map((row) => ({ id: outcomes.ids[row]!, question: outcomes.questions[row]!, outcomes: flakyOn.get(row)! }));
  return { records, questions: outcomes.size, runsPerQuestion, outcomes: summaries, flakyQuestions };
}
