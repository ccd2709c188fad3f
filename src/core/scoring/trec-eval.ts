import { QueryEntries, type TrecTable } from './trec-table.js';
import type { JudgedRanking } from './ranking.js';
import type { RetrievalMetric } from '../catalog/retrieval-metrics.js';
import { JudgedRanker } from './trec-rank.js';

/** trec_eval-compatible evaluation: the mean of each metric over queries, and each query's values. */
export interface TrecEvaluation {
  readonly queries: number;
  readonly aggregate: Record<string, number>;
  readonly perQuery: Record<string, Record<string, number>>;
}

/** Accumulates each query's metric values and their sums, in the order queries are added. */
function evaluation(metrics: readonly RetrievalMetric[], queries: number, rankings: Iterable<[string, JudgedRanking]>): TrecEvaluation {
  const sums = new Float64Array(metrics.length);
  const perQuery: Record<string, Record<string, number>> = {};
  for (const [qid, ranking] of rankings) {
    const values: Record<string, number> = {};
    for (let i = 0; i < metrics.length; i++) {
      const metric = metrics[i]!;
      const value = metric.compute(ranking);
      values[metric.name] = value;
      sums[i]! += value;
    }
    perQuery[qid] = values;
  }
  const aggregate: Record<string, number> = {};
  metrics.forEach((metric, i) => (aggregate[metric.name] = queries === 0 ? 0 : sums[i]! / queries));
  return { queries, aggregate, perQuery };
}

/**
 * Evaluates a run against qrels, both read with readQrelsTable and readRunTable into one shared dictionary,
 * with trec_eval's `-c` semantics: every query in the qrels is evaluated and counted in the mean (a query missing
 * from the run retrieved nothing and scores 0; a query whose judgments are all below grade 1 scores 0); queries
 * only in the run are ignored. Each query is ranked with JudgedRanker (score descending, docno descending).
 */
export function evaluateTrecTables(qrels: TrecTable, run: TrecTable, metrics: readonly RetrievalMetric[]): TrecEvaluation {
  if (qrels.docnos !== run.docnos) throw new Error('evaluateTrecTables: qrels and run must be read with the same ByteDictionary');
  const ranker = new JudgedRanker(qrels.docnos);
  const judgments = new QueryEntries();
  const retrieved = new QueryEntries();
  function* rankings(): Generator<[string, JudgedRanking]> {
    for (const [q, qid] of qrels.qids.entries()) {
      const r = run.queryNumber(qid);
      yield [qid, ranker.judge(qrels.entries(q, judgments), r === undefined ? undefined : run.entries(r, retrieved))];
    }
  }
  return evaluation(metrics, qrels.qids.length, rankings());
}
