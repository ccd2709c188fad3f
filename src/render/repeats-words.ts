import type { RateCounts } from '../core/compare/types.js';
import type { PassCount, RepeatSummary } from '../core/scoring/repeats.js';
import { fixed3, textTable } from './text-table.js';

/** Flaky questions listed in the text report; JSON holds them all. */
const LISTED_FLAKY = 20;

/** What pass@k and pass^k mean, stated wherever they are printed. */
export const PASS_K_DEFINITION =
  'pass@k: the chance that at least one of k runs of a question passes; pass^k: that all k pass (unbiased estimates from each question’s c passes in n runs, averaged over questions; k is the fewest runs of any question)';

/** "5 × 290, 4 × 10": how many questions were run how many times, most runs first. */
export function runsPerQuestionText(runsPerQuestion: Readonly<Record<string, number>>): string {
  return Object.entries(runsPerQuestion)
    .sort(([a], [b]) => Number(b) - Number(a))
    .map(([runs, questions]) => `${runs} run${runs === '1' ? '' : 's'} × ${questions} question${questions === 1 ? '' : 's'}`)
    .join(', ');
}

/** "correct 2/5, retrieval_ok 4/5". */
export function passCountsText(outcomes: Readonly<Record<string, { passes: number; runs: number }>>): string {
  return Object.entries(outcomes)
    .map(([metric, { passes, runs }]) => `${metric} ${passes}/${runs}`)
    .join(', ');
}

/** The `eval` text section on repeated runs: flaky rates, pass@k and pass^k, and the flaky questions. */
export function repeatsText(repeats: RepeatSummary): string {
  const lines = [`Repeated runs: ${repeats.records} records of ${repeats.questions} questions (${runsPerQuestionText(repeats.runsPerQuestion)})`];
  if (repeats.outcomes.length > 0) {
    lines.push(
      textTable([
        ['outcome', 'flaky', 'flaky rate', 'k', 'pass@k', 'pass^k'],
        ...repeats.outcomes.map((o) => [o.metric, `${o.flaky}/${o.repeated}`, fixed3(o.flakyRate), String(o.k), fixed3(o.passAtK), fixed3(o.passHatK)]),
      ]),
      `  A question is flaky when its outcome differs across its runs. ${PASS_K_DEFINITION}.`,
    );
  }
  const flaky = repeats.flakyQuestions;
  if (flaky.length > 0) {
    const rows = flaky.slice(0, LISTED_FLAKY).map((q) => [q.id, passCountsText(q.outcomes), q.question.replace(/\s+/g, ' ').slice(0, 80)]);
    const more = flaky.length > LISTED_FLAKY ? `\n  … and ${flaky.length - LISTED_FLAKY} more (all in --json)` : '';
    lines.push(`Flaky questions (passes/runs)\n${textTable([['id', 'passes', 'question'], ...rows])}${more}`);
  }
  return lines.join('\n');
}

/** "9 broken, 3.1 expected from run-to-run noise; 2 fixed, 3.0 expected": a rate test's movement beside its noise floor. */
export function rateMovementWords(rates: RateCounts): string {
  if (rates.noise === null) return `${rates.broken} broken, ${rates.fixed} fixed (questions whose pass rate fell or rose)`;
  const { noise } = rates;
  return (
    `${rates.broken} broken, ${noise.broken.toFixed(1)} expected from run-to-run noise; ${rates.fixed} fixed, ${noise.fixed.toFixed(1)} expected ` +
    `(questions whose pass rate fell or rose; noise: each question's runs dealt at random between base and head, over the ${noise.questions} question${noise.questions === 1 ? '' : 's'} base ran at least twice)`
  );
}

/** "correct in 1/5 head runs vs 5/5 base runs". */
export function correctRunsWords(runs: { readonly base: PassCount; readonly head: PassCount }): string {
  return `correct in ${runs.head.passes}/${runs.head.runs} head runs vs ${runs.base.passes}/${runs.base.runs} base runs`;
}

/** The name of the paired test on pass rates, as p-values are introduced. */
export const RATE_TEST_NAME = 'sign-flip randomization on pass rates';

/** "10 of 40 questions flaky on correct (0.250), 2 of 40 on retrieval_ok (0.050)", or null when nothing was repeated. */
export function flakyRateWords(repeats: RepeatSummary): string {
  const rates = repeats.outcomes.filter((o) => o.repeated > 0).map((o) => `${o.flaky} of ${o.repeated} on ${o.metric} (${fixed3(o.flakyRate)})`);
  return rates.length === 0 ? 'no question ran twice' : `flaky questions: ${rates.join(', ')}`;
}
