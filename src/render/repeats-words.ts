import type { RepeatSummary } from '../core/scoring/repeats.js';
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
