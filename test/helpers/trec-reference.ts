import { readQrelsTable, readRunTable } from '../../src/sources/trec.js';
import { judgeRanking } from '../../src/core/measures/ranking.js';
import type { RetrievalMetric } from '../../src/core/catalog/retrieval-metrics.js';
import type { TrecEvaluation } from '../../src/core/scoring/trec-eval.js';

/**
 * A plain reference for the TREC path, for tests: qrels and runs as maps of strings, each query ranked by a
 * comparator sort (score descending, docno descending by byte order, as trec_eval). The product reads into
 * compact tables and ranks with JudgedRanker; tests compare the two.
 */

/** Judgments: query id → (docno → relevance grade). */
export type Qrels = Map<string, Map<string, number>>;

/** A run: query id → docnos ranked best first. */
export type Run = Map<string, string[]>;

export async function readQrels(file: string): Promise<Qrels> {
  const table = await readQrelsTable(file);
  const qrels: Qrels = new Map();
  for (const [q, qid] of table.qids.entries()) {
    const query = table.entries(q);
    const judged = new Map<string, number>();
    for (let i = 0; i < query.count; i++) judged.set(query.docno(i), query.values[i]!);
    qrels.set(qid, judged);
  }
  return qrels;
}

export async function readRun(file: string): Promise<Run> {
  const table = await readRunTable(file);
  const run: Run = new Map();
  for (const [q, qid] of table.qids.entries()) {
    const query = table.entries(q);
    const scores = query.values;
    const order = Array.from({ length: query.count }, (_, i) => i).sort((a, b) => scores[b]! - scores[a]! || query.compareDocnos(b, a));
    run.set(
      qid,
      order.map((i) => query.docno(i)),
    );
  }
  return run;
}

/** trec_eval -c over the maps: every qrels query counts, a query missing from the run scores 0. */
export function evaluateTrec(qrels: Qrels, run: Run, metrics: readonly RetrievalMetric[]): TrecEvaluation {
  const perQuery: Record<string, Record<string, number>> = {};
  const aggregate: Record<string, number> = Object.fromEntries(metrics.map((metric) => [metric.name, 0]));
  for (const [qid, relevance] of qrels) {
    const ranking = judgeRanking(run.get(qid) ?? [], relevance);
    perQuery[qid] = Object.fromEntries(metrics.map((metric) => [metric.name, metric.compute(ranking)]));
    for (const metric of metrics) aggregate[metric.name]! += perQuery[qid]![metric.name]! / qrels.size;
  }
  return { queries: qrels.size, aggregate, perQuery };
}
