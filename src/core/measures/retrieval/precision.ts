import { type JudgedRanking, relevantRetrieved } from '../ranking.js';

/**
 * precision@k: relevant documents among the first k retrieved, divided by k.
 * Divides by k even when fewer than k were retrieved, as trec_eval's P_k does.
 */
export function precisionAt(ranking: JudgedRanking, k: number): number {
  return relevantRetrieved(ranking, k) / k;
}
