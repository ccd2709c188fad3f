import type { CalibrationRecord } from './calibration.js';
import type { CorrectnessRule } from '../scoring/generation/correctness.js';
import type { ContextMatchRule } from '../derived-ids.js';
import type { FieldMap } from '../record.js';
import { defaultRetrievalMetrics, parseRetrievalMetric, type RetrievalMetric } from '../catalog/retrieval-metrics.js';
import type { RetrievalOkRule } from '../scoring/retrieval-ok.js';
import type { EvalConfig } from '../scoring/score.js';
import type { Settings } from '../catalog/settings.js';
import { answerMetric } from '../catalog/metrics.js';
import type { CompareConfig } from './types.js';

/** The scoring configuration; the retrieval-ok rule's metric is always computed, reported or not. */
export function evalConfig(
  rules: {
    readonly cutoffs: readonly number[];
    readonly retrievalOk: RetrievalOkRule;
    readonly correctness: CorrectnessRule;
    readonly contextMatch?: ContextMatchRule;
    readonly fields?: FieldMap;
  },
  extraMetrics: readonly string[] = [],
): EvalConfig {
  const { cutoffs, retrievalOk, correctness, contextMatch = { kind: 'exact' }, fields = new Map() } = rules;
  const metrics: RetrievalMetric[] = defaultRetrievalMetrics(cutoffs);
  const add = (metric: RetrievalMetric) => {
    if (!metrics.some((m) => m.name === metric.name)) metrics.push(metric);
  };
  add(retrievalOk.metric);
  for (const name of extraMetrics) if (answerMetric(name) === undefined && !name.startsWith('score:')) add(parseRetrievalMetric(name));
  return { retrievalMetrics: metrics, retrievalOk, correctness, contextMatch, fields };
}

/** The scoring rules a run's settings name. */
export function scoringRules(settings: Settings) {
  return {
    cutoffs: settings.k,
    retrievalOk: settings['retrieval-ok'],
    correctness: settings.correct,
    contextMatch: settings['context-match'],
    fields: settings.fields,
  };
}

/** The comparison configuration; every metric named by a floor or a graded test is computed. */
export function compareConfig(settings: Settings, calibrations: readonly CalibrationRecord[]): CompareConfig {
  const floors = settings.floors;
  return {
    eval: evalConfig(scoringRules(settings), [...settings.graded, ...floors.map((floor) => floor.metric)]),
    missing: settings.missing,
    minPaired: settings['min-paired'],
    minCoverage: settings['min-coverage'],
    alpha: settings.alpha,
    failOn: settings['fail-on'],
    minEffect: settings['min-effect'],
    floors,
    permutations: settings.permutations,
    gradedMetrics: settings.graded,
    mcnemarSmallSample: settings['mcnemar-small-sample'],
    extraTests: settings['extra-tests'],
    calibrations,
    kappaFloor: settings['kappa-floor'],
  };
}
