import type { Qrels, Run } from '../io/trec.js';
import { judgeRanking } from './ranking.js';
import type { RetrievalMetric } from './registry.js';

/** trec_eval-compatible evaluation: the mean of each metric over queries, and each query's values. */
export interface TrecEvaluation {
  readonly queries: number;
  readonly aggregate: Record<string, number>;
  readonly perQuery: Record<string, Record<string, number>>;
}

/**
 * Evaluates a run against qrels with trec_eval's `-c` semantics: every query in the qrels is evaluated and
 * counted in the mean (a query missing from the run retrieved nothing and scores 0; a query whose judgments
 * are all below grade 1 scores 0); queries only in the run are ignored.
 */
export function evaluateTrec(qrels: Qrels, run: Run, metrics: readonly RetrievalMetric[]): TrecEvaluation {
  const sums = new Float64Array(metrics.length);
  const perQuery: Record<string, Record<string, number>> = {};
  for (const [qid, relevance] of qrels) {
    const ranking = judgeRanking(run.get(qid) ?? [], relevance);
    const values: Record<string, number> = {};
    metrics.forEach((metric, i) => {
      const value = metric.compute(ranking);
      values[metric.name] = value;
      sums[i]! += value;
    });
    perQuery[qid] = values;
  }
  const queries = qrels.size;
  const aggregate: Record<string, number> = {};
  metrics.forEach((metric, i) => (aggregate[metric.name] = queries === 0 ? 0 : sums[i]! / queries));
  return { queries, aggregate, perQuery };
}
