import { grownFloat64, grownInt32, QueryEntries } from './query-entries.js';
import type { TrecTable } from './trec-table.js';
import { DEFAULT_JUDGING, type JudgedRanking, type Judging, judgedRanksInto } from '../measures/ranking.js';
import type { RetrievalMetric } from '../catalog/retrieval-metrics.js';
import { JudgedRanker } from './trec-rank.js';

/** trec_eval-compatible evaluation: the mean (or, for counts, the total) of each metric over queries, and each query's values. */
export interface TrecEvaluation {
  readonly queries: number;
  readonly aggregate: Record<string, number>;
  readonly perQuery: Record<string, Record<string, number>>;
}

/** How a run is evaluated: trec_eval's `-l` and gains, `-M`, `-J` and `-c`. */
export interface TrecEvalOptions {
  readonly judging: Judging;
  /** Only each query's first this many ranked documents count (trec_eval `-M`); Infinity for all. */
  readonly maxRetrieved: number;
  /** Unjudged documents (and negative grades) are taken out of the ranking before measuring (trec_eval `-J`). */
  readonly judgedOnly: boolean;
  /**
   * Which queries are evaluated and averaged: every query in the qrels, one missing from the run scoring as if it
   * retrieved nothing (trec_eval `-c`), or only the qrels' queries that the run has.
   */
  readonly averageOver: 'qrels' | 'run';
}

export const DEFAULT_TREC_EVAL_OPTIONS: TrecEvalOptions = { judging: DEFAULT_JUDGING, maxRetrieved: Infinity, judgedOnly: false, averageOver: 'qrels' };

/** Accumulates each query's metric values and their sums, in the order queries are added. */
function evaluation(metrics: readonly RetrievalMetric[], rankings: Iterable<[string, JudgedRanking]>): TrecEvaluation {
  const sums = new Float64Array(metrics.length);
  const perQuery: Record<string, Record<string, number>> = {};
  let queries = 0;
  for (const [qid, ranking] of rankings) {
    const values: Record<string, number> = {};
    for (let i = 0; i < metrics.length; i++) {
      const metric = metrics[i]!;
      const value = metric.compute(ranking);
      values[metric.name] = value;
      sums[i]! += value;
    }
    perQuery[qid] = values;
    queries++;
  }
  const aggregate: Record<string, number> = {};
  metrics.forEach((metric, i) => (aggregate[metric.name] = metric.total ? sums[i]! : queries === 0 ? 0 : sums[i]! / queries));
  return { queries, aggregate, perQuery };
}

/** Applies `-M` and `-J` to a ranking, in trec_eval's order (cut first, then drop the unjudged). */
class RankingLimits {
  private kept: Float64Array = new Float64Array(1024);
  private ranks: Int32Array = new Int32Array(1024);

  constructor(private readonly options: TrecEvalOptions) {}

  apply(ranking: JudgedRanking): JudgedRanking {
    const { maxRetrieved, judgedOnly } = this.options;
    if (!judgedOnly && ranking.grades.length <= maxRetrieved) return ranking;
    let grades = (ranking.grades as Float64Array).subarray(0, maxRetrieved);
    if (judgedOnly) {
      this.kept = grownFloat64(this.kept, grades.length);
      let count = 0;
      for (const grade of grades) if (grade >= 0) this.kept[count++] = grade;
      grades = this.kept.subarray(0, count);
    }
    this.ranks = grownInt32(this.ranks, grades.length);
    return { ...ranking, grades, judgedRanks: judgedRanksInto(grades, this.ranks) };
  }
}

/**
 * Evaluates a run against qrels, read with readQrelsTable and readRunTable (a docno of the qrels and one of the
 * run are the same document when their bytes are the same). By
 * default with trec_eval's `-c` semantics: every query in the qrels is evaluated and counted in the mean (a query
 * missing from the run retrieved nothing and scores 0; a query with nothing relevant scores 0); queries only in
 * the run are ignored. Each query is ranked with JudgedRanker (score descending, docno descending).
 */
export function evaluateTrecTables(
  qrels: TrecTable,
  run: TrecTable,
  metrics: readonly RetrievalMetric[],
  options: TrecEvalOptions = DEFAULT_TREC_EVAL_OPTIONS,
): TrecEvaluation {
  const ranker = new JudgedRanker(options.judging);
  const limits = new RankingLimits(options);
  const judgments = new QueryEntries();
  const retrieved = new QueryEntries();
  function* rankings(): Generator<[string, JudgedRanking]> {
    for (const [q, qid] of qrels.qids.entries()) {
      const r = run.queryNumber(qid);
      if (r === undefined && options.averageOver === 'run') continue;
      yield [qid, limits.apply(ranker.judge(qrels.entries(q, judgments), r === undefined ? undefined : run.entries(r, retrieved)))];
    }
  }
  return evaluation(metrics, rankings());
}
