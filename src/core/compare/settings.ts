import type { CalibrationRecord } from './calibration.js';
import type { CorrectnessRule } from '../scoring/generation/correctness.js';
import { defaultRetrievalMetrics, parseRetrievalMetric, type RetrievalMetric } from '../catalog/retrieval-metrics.js';
import type { RetrievalOkRule } from '../scoring/retrieval-ok.js';
import type { EvalConfig } from '../scoring/score.js';
import type { GateCategory } from '../catalog/gates.js';
import { answerMetric } from '../catalog/metrics.js';
import type { CompareConfig, Floor } from './types.js';

/** The scoring configuration; the retrieval-ok rule's metric is always computed, reported or not. */
export function evalConfig(cutoffs: readonly number[], retrievalOk: RetrievalOkRule, correctness: CorrectnessRule, extraMetrics: readonly string[] = []): EvalConfig {
  const metrics: RetrievalMetric[] = defaultRetrievalMetrics(cutoffs);
  const add = (metric: RetrievalMetric) => {
    if (!metrics.some((m) => m.name === metric.name)) metrics.push(metric);
  };
  add(retrievalOk.metric);
  for (const name of extraMetrics) if (answerMetric(name) === undefined) add(parseRetrievalMetric(name));
  return { retrievalMetrics: metrics, retrievalOk, correctness };
}

export interface CompareSettings {
  readonly k: readonly number[];
  readonly retrievalOk: RetrievalOkRule;
  readonly correct: CorrectnessRule;
  readonly alpha: number;
  readonly failOn: ReadonlySet<GateCategory>;
  readonly minEffect: number;
  readonly floors: readonly Floor[];
  readonly graded: readonly string[];
  readonly permutations: number;
  readonly calibrations: readonly CalibrationRecord[];
  readonly kappaFloor: number;
}

/** The comparison configuration; every metric named by a floor or a graded test is computed. */
export function compareConfig(settings: CompareSettings): CompareConfig {
  return {
    eval: evalConfig(settings.k, settings.retrievalOk, settings.correct, [...settings.graded, ...settings.floors.map((floor) => floor.metric)]),
    alpha: settings.alpha,
    failOn: settings.failOn,
    minEffect: settings.minEffect,
    floors: settings.floors,
    permutations: settings.permutations,
    gradedMetrics: settings.graded,
    calibrations: settings.calibrations,
    kappaFloor: settings.kappaFloor,
  };
}
