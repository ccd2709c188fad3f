import { InvalidArgumentError } from 'commander';
import { CorrectnessRuleError, type CorrectnessRule, parseCorrectnessRule } from '../metrics/generation/correctness.js';
import { MetricNameError, type RetrievalMetric, parseRetrievalMetric } from '../metrics/registry.js';
import { type RetrievalOkRule, parseRetrievalOkRule } from '../metrics/retrieval-ok.js';

/** Turns a core parser into a commander argument parser, so a bad value is reported against its option. */
export function argParser<T>(parse: (text: string) => T): (text: string) => T {
  return (text) => {
    try {
      return parse(text);
    } catch (error) {
      if (error instanceof MetricNameError || error instanceof CorrectnessRuleError) throw new InvalidArgumentError(error.message);
      throw error;
    }
  };
}

export function list(text: string): string[] {
  return text
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
}

/** `--k 1,3,5,10`: distinct positive integers, ascending. */
export const cutoffsOption = argParser((text: string): number[] => {
  const items = list(text);
  const cutoffs = items.map(Number);
  if (items.length === 0 || cutoffs.some((k) => !Number.isInteger(k) || k < 1)) {
    throw new InvalidArgumentError(`"${text}" is not a comma list of positive whole numbers such as 1,3,5,10`);
  }
  return [...new Set(cutoffs)].sort((a, b) => a - b);
});

/** `--metrics ndcg@10,map`: retrieval metric names, in the order given, without repeats. */
export const metricsOption = argParser((text: string): RetrievalMetric[] => {
  const metrics = list(text).map(parseRetrievalMetric);
  if (metrics.length === 0) throw new InvalidArgumentError('give at least one metric, for example ndcg@10,map');
  const byName = new Map(metrics.map((metric) => [metric.name, metric]));
  return [...byName.values()];
});

export const retrievalOkOption = argParser((text: string): RetrievalOkRule => parseRetrievalOkRule(text));

export const correctnessOption = argParser((text: string): CorrectnessRule => parseCorrectnessRule(text));
