import { type JudgedRanking, relevantCount, relevantRetrieved } from '../ranking.js';

/** set_precision: relevant retrieved / retrieved, over the whole retrieved set (trec_eval's set_P). 0 when nothing was retrieved. */
export function setPrecision(ranking: JudgedRanking): number {
  const retrieved = ranking.grades.length;
  return retrieved === 0 ? 0 : relevantRetrieved(ranking, Infinity) / retrieved;
}

/**
 * set_f1: the harmonic mean of set precision and set recall (trec_eval's set_F with its default β = 1, written
 * (β + 1)·P·R / (β·P + R) as trec_eval computes it). 0 when no relevant document was retrieved.
 */
export function setF1(ranking: JudgedRanking): number {
  const found = relevantRetrieved(ranking, Infinity);
  if (found === 0) return 0;
  const precision = found / ranking.grades.length;
  const recall = found / relevantCount(ranking);
  const beta = 1;
  return ((beta + 1) * precision * recall) / (beta * precision + recall);
}
