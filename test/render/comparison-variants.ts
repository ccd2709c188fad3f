/**
 * Pieces for the comment sections the sketch scenario of comparison-fixture.ts does not reach: repeated runs,
 * missing questions, gates on scores and uncalibrated judges. Each returns plain data to pass as an override to
 * `makeComparison`; `renderBody` renders with the options the tests share.
 */
import type { GateOutcome, MissingQuestion, PairedTest } from '../../src/core/compare/types.js';
import type { FlakyQuestion, PassCount, RepeatSummary } from '../../src/core/scoring/repeats.js';
import { renderComment, type CommentOptions } from '../../src/render/markdown.js';

/** A repeated run's summary: one outcome's flaky count over `repeated` questions, and its flaky questions. */
export function repeatSummary(outcome: { metric: string; repeated: number; flaky: number }, flakyQuestions: readonly FlakyQuestion[]): RepeatSummary {
  return {
    records: outcome.repeated * 5,
    questions: outcome.repeated,
    runsPerQuestion: { '5': outcome.repeated },
    outcomes: [{ ...outcome, flakyRate: outcome.repeated === 0 ? null : outcome.flaky / outcome.repeated, k: 5, passAtK: 0.9, passHatK: 0.5 }],
    flakyQuestions,
  };
}

/** Flaky question `f-<i>` with these pass counts. */
export function flakyQuestion(i: number, outcomes: Readonly<Record<string, PassCount>>): FlakyQuestion {
  return { id: `f-${i}`, question: `Flaky question ${i}?`, outcomes };
}

export function flakyQuestions(count: number, from = 0): FlakyQuestion[] {
  return Array.from({ length: count }, (_, k) => flakyQuestion(from + k, { correct: { passes: 1 + ((from + k) % 4), runs: 5 } }));
}

/** Base question `m-<i>` missing from head, with its base outcomes. */
export function missingQuestion(i: number, wasCorrect: boolean | null, retrievalWasOk: boolean | null): MissingQuestion {
  return { id: `m-${i}`, question: `Missing question ${i}?`, tags: [], wasCorrect, retrievalWasOk };
}

/** A test as the gate leaves it: gated under `gate`, with its Holm-adjusted p, significance and outcome. */
export function gatedAs(test: PairedTest, gate: PairedTest['gate'], adjustedPValue: number, gateOutcome: GateOutcome | null, alpha = 0.05): PairedTest {
  const significant = adjustedPValue < alpha;
  return { ...test, gate, adjustedPValue, significant, gateOutcome, requiredN: significant ? null : test.requiredN };
}

export const BASE_OPTIONS: CommentOptions = { retrievalOk: 'hit@5' };

export function renderBody(comparison: Parameters<typeof renderComment>[0], options: Partial<CommentOptions> = {}): string {
  return renderComment(comparison, { ...BASE_OPTIONS, ...options });
}

/** The lines of `markdown` from the line equal to `first` up to the next line equal to `last` (both kept). */
export function linesBetween(markdown: string, first: string, last: string): string {
  const lines = markdown.split('\n');
  const start = lines.indexOf(first);
  if (start < 0) throw new Error(`no line "${first}" in:\n${markdown}`);
  const end = lines.indexOf(last, start + 1);
  if (end < 0) throw new Error(`no line "${last}" after "${first}" in:\n${markdown}`);
  return lines.slice(start, end + 1).join('\n');
}

/** The paragraph or table of `markdown` that starts with `start`: its lines up to the next blank line. */
export function block(markdown: string, start: string): string {
  const at = markdown.indexOf(`\n${start}`);
  if (at < 0) throw new Error(`no block starting "${start}" in:\n${markdown}`);
  const from = at + 1;
  const end = markdown.indexOf('\n\n', from);
  return markdown.slice(from, end < 0 ? undefined : end);
}
