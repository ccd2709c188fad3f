import { type JudgedRanking, relevantCount, relevantRetrieved } from '../ranking.js';

/**
 * recall@k (full depth with k = Infinity): relevant documents among the first k retrieved, divided by all
 * relevant documents in the gold labels, retrieved or not (trec_eval's recall_k). 0 when nothing is relevant.
 */
export function recallAt(ranking: JudgedRanking, k: number): number {
  const total = relevantCount(ranking);
  return total === 0 ? 0 : relevantRetrieved(ranking, k) / total;
}
