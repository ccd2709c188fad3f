import { InvalidArgumentError } from 'commander';
import { parseFloor } from '../compare/gate.js';
import { parseAlpha, parseCutoffs, parseFailOn, parseGraded, parseKappaFloor, parseMinEffect, parsePermutations, splitList } from '../compare/settings.js';
import { SettingError } from '../io/errors.js';
import { parseCorrectnessRule } from '../metrics/generation/correctness.js';
import { parseRetrievalMetric, type RetrievalMetric } from '../metrics/registry.js';
import { parseRetrievalOkRule } from '../metrics/retrieval-ok.js';

/** Turns a core parser into a commander argument parser, so a bad value is reported against its option. */
export function argParser<T>(parse: (text: string) => T): (text: string) => T {
  return (text) => {
    try {
      return parse(text);
    } catch (error) {
      if (error instanceof SettingError) throw new InvalidArgumentError(error.message);
      throw error;
    }
  };
}

export const cutoffsOption = argParser(parseCutoffs);
export const retrievalOkOption = argParser(parseRetrievalOkRule);
export const correctnessOption = argParser(parseCorrectnessRule);
export const alphaOption = argParser(parseAlpha);
export const minEffectOption = argParser(parseMinEffect);
export const permutationsOption = argParser(parsePermutations);
export const failOnOption = argParser(parseFailOn);
export const gradedOption = argParser(parseGraded);
export const floorOption = argParser(parseFloor);
export const kappaFloorOption = argParser(parseKappaFloor);

/** `--metrics ndcg@10,map`: retrieval metric names, in the order given, without repeats. */
export const metricsOption = argParser((text: string): RetrievalMetric[] => {
  const metrics = splitList(text).map(parseRetrievalMetric);
  if (metrics.length === 0) throw new SettingError('give at least one metric, for example ndcg@10,map');
  return [...new Map(metrics.map((metric) => [metric.name, metric])).values()];
});
