import type { ContextMatchRule } from '../core/derived-ids.js';
import { formatDescription } from '../core/catalog/formats.js';
import type { CorrectnessRule } from '../core/measures/generation/correctness.js';
import type { RunProvenance } from '../core/scoring/summary.js';
import type { Comparison } from '../core/compare/types.js';
import { REFUSAL_PREFIX_CHARS } from '../core/measures/refusal.js';
import { SCORE_NOT_CALIBRATED } from './gate-words.js';
import { plural } from './format.js';
import { grouped } from '../core/grouped.js';

/** The rules the numbers rest on, stated in every report: how `correct` was computed, what was derived. */

export interface ScoringRulesInUse {
  readonly correctness: CorrectnessRule;
  readonly contextMatch: ContextMatchRule;
}

/** The correctness rule in words, as the headline of a report states it. */
export function correctnessWords(rule: CorrectnessRule): string {
  switch (rule.kind) {
    case 'contains':
      return 'expected answer contained in the answer';
    case 'exact':
      return 'answer equal to the expected answer';
    case 'f1':
      return `token F1 with the expected answer at least ${rule.threshold}`;
  }
}

/** The text refusal detector's rule, as reports state it wherever a refusal came from it. */
export const REFUSAL_DETECTOR_WORDS = `the text refusal detector (an empty answer, or a refusal phrase such as "I don't know" from the start of a word in its first ${REFUSAL_PREFIX_CHARS} characters)`;

function contextMatchWords(rule: ContextMatchRule): string {
  return rule.kind === 'exact'
    ? 'a retrieved context counts as a reference one when their normalised texts are the same'
    : `a retrieved context counts as a reference one when it holds at least ${rule.threshold} of the reference's normalised tokens`;
}

/**
 * One line per rule or derivation that applies to a run (of `questions` questions): the correctness rule where it
 * computed `correct`, the refusal detector where it read `refused`, ids
 * derived from question text, retrieval matched by text, scores other tools wrote. Score names are spelled by
 * `scoreName`, so they hold no active markdown.
 */
export function scoringLines(provenance: RunProvenance, questions: number | undefined, rules: ScoringRulesInUse): string[] {
  const lines: string[] = [];
  const foreign = provenance.formats.filter((format) => format !== 'jsonl' && format !== 'json-array');
  if (foreign.length > 0) lines.push(`read as ${foreign.map(formatDescription).join('; and as ')}`);
  if (provenance.correctByRule > 0) {
    lines.push(`correct: ${correctnessWords(rules.correctness)} (computed for ${plural(provenance.correctByRule, 'question')} without a correct field)`);
  }
  if (provenance.refusedByDetector > 0) {
    lines.push(`refused: ${REFUSAL_DETECTOR_WORDS} (read for ${plural(provenance.refusedByDetector, 'question')} without a refused field)`);
  }
  if (provenance.idsFromQuestion > 0) {
    const of =
      questions === undefined ? plural(provenance.idsFromQuestion, 'question') : `${grouped(provenance.idsFromQuestion)} of ${plural(questions, 'question')}`;
    lines.push(`ids derived from question text for ${of}`);
  }
  if (provenance.retrievalByText > 0) {
    lines.push(`retrieval matched by text for ${plural(provenance.retrievalByText, 'question')}: ${contextMatchWords(rules.contextMatch)}`);
  }
  const scores = Object.keys(provenance.scores);
  if (scores.length > 0) lines.push(`scores from the results, ${SCORE_NOT_CALIBRATED}: ${scores.join(', ')}`);
  return lines;
}

/** The rules of a comparison: both runs were read under the same settings; counts are the larger run's. */
export function comparisonScoringLines(comparison: Comparison, rules: ScoringRulesInUse): string[] {
  const { base, head } = comparison.provenance;
  const scores = { ...base.scores, ...head.scores };
  const most = (key: 'idsFromQuestion' | 'retrievalByText' | 'correctByRule' | 'refusedByDetector') => Math.max(base[key], head[key]);
  const provenance = {
    idsFromQuestion: most('idsFromQuestion'),
    retrievalByText: most('retrievalByText'),
    correctByRule: most('correctByRule'),
    refusedByDetector: most('refusedByDetector'),
    formats: [...new Set([...base.formats, ...head.formats])],
    scores,
  };
  return scoringLines(provenance, undefined, rules);
}
