import { SettingError } from '../errors.js';
import type { CalibrationRecord } from './calibration.js';
import type { CorrectnessRule } from '../scoring/generation/correctness.js';
import { defaultRetrievalMetrics, parseRetrievalMetric, type RetrievalMetric } from '../catalog/retrieval-metrics.js';
import type { RetrievalOkRule } from '../scoring/retrieval-ok.js';
import type { EvalConfig } from '../scoring/score.js';
import { GATE_CATEGORIES, type GateCategory } from '../catalog/gates.js';
import { answerMetric, GRADED_ANSWER_METRICS } from '../catalog/metrics.js';
import type { CompareConfig, Floor } from './types.js';

/** Parsers for the settings the CLI options and the action inputs share; each throws SettingError. */

export const DEFAULT_CUTOFFS = [1, 3, 5, 10];

/** Graded metrics that get a paired randomization test unless told otherwise. */
export const DEFAULT_GRADED = ['ndcg@10', 'recall@5', 'mrr', 'map', 'faithfulness', 'answer_relevance'];

const PER_QUESTION_GRADED: ReadonlySet<string> = new Set(GRADED_ANSWER_METRICS);

export function splitList(text: string): string[] {
  return text
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
}

/** `1,3,5,10`: distinct positive integers, ascending. */
export function parseCutoffs(text: string): number[] {
  const items = splitList(text);
  const cutoffs = items.map(Number);
  if (items.length === 0 || cutoffs.some((k) => !Number.isInteger(k) || k < 1)) {
    throw new SettingError(`"${text}" is not a comma list of positive whole numbers such as 1,3,5,10`);
  }
  return [...new Set(cutoffs)].sort((a, b) => a - b);
}

/** A significance level strictly between 0 and 1. */
export function parseAlpha(text: string): number {
  const value = Number(text);
  if (text.trim() === '' || !Number.isFinite(value) || value <= 0 || value >= 1) throw new SettingError(`alpha must be a number between 0 and 1, got "${text}"`);
  return value;
}

/** A kappa floor in [0, 1]. */
export function parseKappaFloor(text: string): number {
  const value = Number(text);
  if (text.trim() === '' || !Number.isFinite(value) || value < 0 || value > 1) throw new SettingError(`the kappa floor must be a number between 0 and 1, got "${text}"`);
  return value;
}

/** A minimum effect: an absolute drop, 0 or more. */
export function parseMinEffect(text: string): number {
  const value = Number(text);
  if (text.trim() === '' || !Number.isFinite(value) || value < 0) throw new SettingError(`the minimum effect must be a number ≥ 0, got "${text}"`);
  return value;
}

export function parsePermutations(text: string): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value < 100) throw new SettingError(`permutations must be a whole number of at least 100, got "${text}"`);
  return value;
}

/** `retrieval,end-to-end`: gates that fail the check on a significant drop; empty means none. */
export function parseFailOn(text: string): Set<GateCategory> {
  const categories = splitList(text);
  for (const category of categories) {
    if (!(GATE_CATEGORIES as readonly string[]).includes(category)) {
      throw new SettingError(`"${category}" is not a gate; use a comma list of ${GATE_CATEGORIES.join(', ')}`);
    }
  }
  return new Set(categories as GateCategory[]);
}

/** Graded metrics for randomization tests: retrieval metric names or per-question generation scores. */
export function parseGraded(text: string): string[] {
  return [...new Set(splitList(text).map((name) => (PER_QUESTION_GRADED.has(name) ? name : parseRetrievalMetric(name).name)))];
}

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
