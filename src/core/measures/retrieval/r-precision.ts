import { type JudgedRanking, relevantCount, relevantRetrieved } from '../ranking.js';

/**
 * r_precision: precision at rank R, where R is the number of relevant documents in the gold labels.
 * Divides by R even when fewer than R were retrieved (trec_eval's Rprec). 0 when nothing is relevant.
 */
export function rPrecision(ranking: JudgedRanking): number {
  const total = relevantCount(ranking);
  return total === 0 ? 0 : relevantRetrieved(ranking, total) / total;
}
