import { type JudgedRanking, relevantCount } from '../ranking.js';

/**
 * map@k (map with k = Infinity): average precision cut at k. Sums precision@i at every rank i ≤ k that
 * holds a relevant document, and divides by all relevant documents in the gold labels, retrieved or not
 * (trec_eval's map and map_cut_k). 0 when nothing is relevant.
 */
export function averagePrecisionAt(ranking: JudgedRanking, k: number): number {
  const total = relevantCount(ranking);
  if (total === 0) return 0;
  const { grades, judgedRanks } = ranking;
  const level = ranking.judging.relevanceLevel;
  let found = 0;
  let sum = 0;
  for (let j = 0; j < judgedRanks.length && judgedRanks[j]! < k; j++) {
    const i = judgedRanks[j]!;
    if (grades[i]! >= level) {
      found++;
      sum += found / (i + 1);
    }
  }
  return sum / total;
}
