import type { JudgedRanking, Judging } from '../ranking.js';

/** Maps a relevance grade to the gain it earns at rank 1. */
export type Gain = (grade: number) => number;

/** Linear gain: a judged document earns its grade (trec_eval's default ndcg gains). */
export const linearGain: Gain = (grade) => (grade > 0 ? grade : 0);

/** Exponential gain 2^grade − 1 (trec_eval ndcg with gains 0=0,1=1,2=3,3=7). */
export const exponentialGain: Gain = (grade) => (grade > 0 ? 2 ** grade - 1 : 0);

/**
 * The `ndcg-gains` table: a listed grade earns its gain (which may be 0 or negative, and grade 0 may earn one), an
 * unlisted grade of 0 or more earns its own value, and an unjudged document or a negative grade earns nothing, as
 * trec_eval's `ndcg.1=3,2=9` does.
 */
export function tableGain(judging: Judging): Gain {
  const gains = judging.ndcgGains;
  if (gains.size === 0) return linearGain;
  return (grade) => (grade >= 0 ? (gains.get(grade) ?? grade) : 0);
}

/** log2(i + 2) for the first ranks, the discount's divisor at rank i + 1: taken from here, the same number without the call. */
const LOG2_OF_RANK_PLUS_ONE = Float64Array.from({ length: 1024 }, (_, i) => Math.log2(i + 2));

const discountDivisor = (i: number): number => (i < LOG2_OF_RANK_PLUS_ONE.length ? LOG2_OF_RANK_PLUS_ONE[i]! : Math.log2(i + 2));

/** The DCG of a ranking at `k`: only judged documents gain anything, so only their ranks are visited. */
function rankingDiscountedGain(ranking: JudgedRanking, k: number, gain: Gain): number {
  const { grades, judgedRanks } = ranking;
  let sum = 0;
  for (let j = 0; j < judgedRanks.length && judgedRanks[j]! < k; j++) {
    const i = judgedRanks[j]!;
    const g = gain(grades[i]!);
    if (g !== 0) sum += g / discountDivisor(i);
  }
  return sum;
}

function discountedGain(grades: ArrayLike<number>, k: number, gain: Gain): number {
  const depth = Math.min(k, grades.length);
  let sum = 0;
  for (let i = 0; i < depth; i++) {
    const g = gain(grades[i]!);
    if (g !== 0) sum += g / discountDivisor(i);
  }
  return sum;
}

/**
 * DCG of the ideal ranking cut at k: every judged document's gain, largest first, as far as gains are positive.
 * Grades come sorted descending, which is already the ideal order when the gain grows with the grade (linear,
 * exponential); a gain table may not, so then the gains are sorted themselves.
 */
function idealDiscountedGain(judgedGrades: ArrayLike<number>, k: number, gain: Gain, monotone: boolean): number {
  if (monotone) return discountedGain(judgedGrades, k, gain);
  const gains: number[] = [];
  for (let i = 0; i < judgedGrades.length; i++) {
    const g = gain(judgedGrades[i]!);
    if (g > 0) gains.push(g);
  }
  gains.sort((a, b) => b - a);
  return discountedGain(gains, k, (g) => g);
}

/**
 * ndcg@k (ndcg with k = Infinity): DCG of the first k retrieved, with discount 1/log2(rank + 1), divided by
 * the DCG of the ideal ranking of all judged documents cut at k (trec_eval's ndcg_cut_k and ndcg; with a gain
 * table, ndcg with those gains). 0 when no judged document has a positive gain. The relevance level plays no
 * part: every grade earns its gain.
 */
export function ndcgAt(ranking: JudgedRanking, k: number, gain: Gain = linearGain, monotone = true): number {
  const ideal = idealDiscountedGain(ranking.judgedGrades, k, gain, monotone);
  return ideal > 0 ? rankingDiscountedGain(ranking, k, gain) / ideal : 0;
}

/** ndcg@k with the `ndcg-gains` table of the ranking's judging (linear gains when it is empty). */
export function tableNdcgAt(ranking: JudgedRanking, k: number): number {
  const { judging } = ranking;
  return ndcgAt(ranking, k, tableGain(judging), judging.ndcgGains.size === 0);
}
