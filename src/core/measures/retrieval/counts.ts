import { type JudgedRanking, relevantCount, relevantRetrieved } from '../ranking.js';

/** num_ret: documents retrieved (after `max-retrieved` and `judged-only`). */
export function retrievedCount(ranking: JudgedRanking): number {
  return ranking.grades.length;
}

/** num_rel: relevant documents in the gold labels (R). */
export function relevantJudgedCount(ranking: JudgedRanking): number {
  return relevantCount(ranking);
}

/** num_rel_ret: relevant documents retrieved. */
export function relevantRetrievedCount(ranking: JudgedRanking): number {
  return relevantRetrieved(ranking, Infinity);
}
