import { isScoreMetric } from '../catalog/scores.js';
import type { CalibrationRecord } from './calibration.js';
import { defaultRetrievalMetrics, parseRetrievalMetric, type RetrievalMetric } from '../catalog/retrieval-metrics.js';
import type { EvalConfig } from '../scoring/score.js';
import type { Settings } from '../catalog/settings.js';
import { answerMetric } from '../catalog/metrics.js';
import { DEFAULT_FAIL_ON } from '../catalog/gates.js';
import type { CompareConfig } from './types.js';

/** The settings that decide how questions are scored. */
export type ScoringSettings = Pick<Settings, 'k' | 'retrieval-ok' | 'correct' | 'relevance-level' | 'ndcg-gains'> &
  Partial<Pick<Settings, 'context-match' | 'fields' | 'format'>>;

/**
 * The scoring configuration; the retrieval-ok rule's metric is always computed, reported or not. `reported`
 * 'asked': of the retrieval metrics only those `extraMetrics` name (a run whose report lists no others).
 */
export function evalConfig(settings: ScoringSettings, extraMetrics: readonly string[] = [], reported: 'all' | 'asked' = 'all'): EvalConfig {
  const retrievalOk = settings['retrieval-ok'];
  const metrics: RetrievalMetric[] = reported === 'all' ? defaultRetrievalMetrics(settings.k) : [];
  const add = (metric: RetrievalMetric) => {
    if (!metrics.some((m) => m.name === metric.name)) metrics.push(metric);
  };
  add(retrievalOk.metric);
  for (const name of extraMetrics) if (answerMetric(name) === undefined && !isScoreMetric(name)) add(parseRetrievalMetric(name));
  return {
    retrievalMetrics: metrics,
    retrievalOk,
    correctness: settings.correct,
    contextMatch: settings['context-match'] ?? { kind: 'exact' },
    fields: settings.fields ?? new Map(),
    format: settings.format ?? 'auto',
    judging: { relevanceLevel: settings['relevance-level'], ndcgGains: settings['ndcg-gains'] },
  };
}

/**
 * fail-on's gates when it differs from the default, which is all settings tell of it. Written out equal to the
 * default, it is read as the default: its gates only warn when neither run has their data.
 */
function namedGates(failOn: Settings['fail-on']): Settings['fail-on'] {
  const isDefault = failOn.size === DEFAULT_FAIL_ON.length && DEFAULT_FAIL_ON.every((gate) => failOn.has(gate));
  return isDefault ? new Set() : failOn;
}

/**
 * The comparison configuration; every metric named by a floor or a graded test is computed, and the other
 * retrieval metrics only when the report shows every metric (`reported` 'all': its JSON does).
 */
export function compareConfig(settings: Settings, calibrations: readonly CalibrationRecord[], reported: 'all' | 'asked' = 'all'): CompareConfig {
  const floors = settings.floors;
  return {
    eval: evalConfig(settings, [...settings.graded, ...floors.map((floor) => floor.metric)], reported),
    missing: settings.missing,
    minPaired: settings['min-paired'],
    minCoverage: settings['min-coverage'],
    alpha: settings.alpha,
    failOn: settings['fail-on'],
    namedGates: namedGates(settings['fail-on']),
    minEffect: settings['min-effect'],
    tolerances: { latency: settings['latency-tolerance'], tokens: settings['tokens-tolerance'], cost: settings['cost-tolerance'] },
    floors,
    permutations: settings.permutations,
    gradedMetrics: settings.graded,
    mcnemarSmallSample: settings['mcnemar-small-sample'],
    extraTests: settings['extra-tests'],
    calibrations,
    kappaFloor: settings['kappa-floor'],
  };
}
