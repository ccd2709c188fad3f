import type { JudgedRanking } from '../ranking.js';

/** Rank (from 1) of the first relevant retrieved document, or Infinity when none was retrieved. */
export function firstRelevantRank(ranking: JudgedRanking): number {
  const { grades, judgedRanks } = ranking;
  const level = ranking.judging.relevanceLevel;
  for (let j = 0; j < judgedRanks.length; j++) if (grades[judgedRanks[j]!]! >= level) return judgedRanks[j]! + 1;
  return Infinity;
}

/**
 * mrr@k (mrr with k = Infinity): 1 / rank of the first relevant document when it is within the first k,
 * else 0. Averaged over questions it is the mean reciprocal rank (trec_eval's recip_rank; the cut-off
 * matches recip_rank run with `-M k`).
 */
export function reciprocalRankAt(ranking: JudgedRanking, k: number): number {
  const rank = firstRelevantRank(ranking);
  return rank <= k ? 1 / rank : 0;
}
