import { type Command, InvalidArgumentError, Option } from 'commander';
import { parseFloor } from '../../core/compare/gate.js';
import { DEFAULT_CUTOFFS, parseAlpha, parseCutoffs, parseFailOn, parseGraded, parseKappaFloor, parseMinEffect, parsePermutations, splitList } from '../../core/compare/settings.js';
import { SettingError } from '../../core/errors.js';
import { parseCorrectnessRule } from '../../core/scoring/generation/correctness.js';
import { parseRetrievalMetric, type RetrievalMetric } from '../../core/catalog/retrieval-metrics.js';
import { parseRetrievalOkRule } from '../../core/scoring/retrieval-ok.js';

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
const retrievalOkOption = argParser(parseRetrievalOkRule);
const correctnessOption = argParser(parseCorrectnessRule);
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

/** The options that decide how questions are scored, shared by `eval` and `compare`: --k, --retrieval-ok, --correct. */
export function addScoringOptions(command: Command): Command {
  return command
    .addOption(new Option('--k <list>', 'cut-offs for the @k metrics').argParser(cutoffsOption).default(DEFAULT_CUTOFFS, DEFAULT_CUTOFFS.join(',')))
    .addOption(
      new Option('--retrieval-ok <rule>', 'when retrieval succeeded, unless a record says so: hit@k or METRIC>=x (e.g. recall@5>=0.8)')
        .argParser(retrievalOkOption)
        .default(parseRetrievalOkRule('hit@5'), 'hit@5'),
    )
    .addOption(
      new Option('--correct <rule>', 'how to judge answers that lack "correct": exact (normalised exact match) or f1:T (token F1 ≥ T)')
        .argParser(correctnessOption)
        .default(parseCorrectnessRule('exact'), 'exact'),
    );
}
