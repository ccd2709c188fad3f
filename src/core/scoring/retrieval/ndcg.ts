import type { JudgedRanking } from '../ranking.js';

/** Maps a relevance grade to the gain it earns at rank 1. */
export type Gain = (grade: number) => number;

/** Linear gain: a document earns its grade (trec_eval's default ndcg gains). */
export const linearGain: Gain = (grade) => (grade > 0 ? grade : 0);

/** Exponential gain 2^grade − 1 (trec_eval ndcg with gains 0=0,1=1,2=3,3=7). */
export const exponentialGain: Gain = (grade) => (grade > 0 ? 2 ** grade - 1 : 0);

function discountedGain(grades: ArrayLike<number>, k: number, gain: Gain): number {
  const depth = Math.min(k, grades.length);
  let sum = 0;
  for (let i = 0; i < depth; i++) {
    const g = gain(grades[i]!);
    if (g !== 0) sum += g / Math.log2(i + 2);
  }
  return sum;
}

/**
 * ndcg@k (ndcg with k = Infinity): DCG of the first k retrieved, with discount 1/log2(rank + 1), divided by
 * the DCG of the ideal ranking of all judged relevant documents cut at k (trec_eval's ndcg_cut_k and ndcg).
 * 0 when nothing is relevant.
 */
export function ndcgAt(ranking: JudgedRanking, k: number, gain: Gain = linearGain): number {
  const ideal = discountedGain(ranking.idealGrades, k, gain);
  return ideal === 0 ? 0 : discountedGain(ranking.grades, k, gain) / ideal;
}
