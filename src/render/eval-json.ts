import { formatCorrectnessRule } from '../core/measures/generation/correctness.js';
import type { EvalConfig } from '../core/scoring/score.js';
import type { RunSummary } from '../core/scoring/summary.js';
import { formatContextMatchRule } from '../core/derived-ids.js';
import { scoringLines } from './scoring-words.js';
import { PASS_K_DEFINITION } from './repeats-words.js';
import { decompositionJson, runWarnings } from './decomposition-words.js';

/**
 * The `eval --json` object. Contract: `questions`, `metrics` (name → value, null when no question carries
 * it), `decomposition` and `judgeAgreement` keep their keys; `details` adds n, counts and intervals.
 */
export function evalJson(summary: RunSummary, config: EvalConfig) {
  const metrics: Record<string, number | null> = {};
  for (const [name, metric] of Object.entries(summary.metrics)) metrics[name] = metric.value;
  return {
    questions: summary.questions,
    metrics,
    details: summary.metrics,
    excluded: summary.excluded,
    decomposition: decompositionJson(summary.decomposition),
    judgeAgreement: summary.judgeAgreement,
    byTag: summary.byTag,
    provenance: summary.provenance,
    scoring: scoringLines(summary.provenance, summary.questions, config),
    warnings: runWarnings(summary),
    ...(summary.repeats === undefined ? {} : { repeats: { ...summary.repeats, definitions: { passAtK: PASS_K_DEFINITION } } }),
    config: {
      retrievalOk: config.retrievalOk.name,
      correct: formatCorrectnessRule(config.correctness),
      contextMatch: formatContextMatchRule(config.contextMatch),
    },
  };
}
