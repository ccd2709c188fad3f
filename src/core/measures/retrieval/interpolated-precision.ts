import { type JudgedRanking, relevantCount, relevantRetrieved } from '../ranking.js';

/** The standard recall levels 0.0, 0.1, … 1.0 of iprec and 11pt_avg. */
export const ELEVEN_RECALL_LEVELS: readonly number[] = [0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1];

/**
 * iprec@r: interpolated precision at recall level r, the highest precision at any rank at or below the one where
 * round(r · R) relevant documents have been retrieved (trec_eval's iprec_at_recall_r, which rounds half away from
 * zero since version 10). 0 when fewer relevant documents were retrieved than the level needs, or nothing was.
 */
export function interpolatedPrecisionAt(ranking: JudgedRanking, recallLevel: number): number {
  const { grades } = ranking;
  const level = ranking.judging.relevanceLevel;
  const needed = Math.round(recallLevel * relevantCount(ranking));
  const found = relevantRetrieved(ranking, Infinity);
  if (needed > found || grades.length === 0) return 0;
  // From the last rank up, as trec_eval: the running maximum of precision is the interpolated precision. The top
  // relevant document is reached at rank 1 at the latest, so the ranks never run out first.
  let best = found / grades.length;
  let relevantSoFar = found;
  for (let i = grades.length; relevantSoFar > 0; i--) {
    const precision = relevantSoFar / i;
    if (best < precision) best = precision;
    if (grades[i - 1]! >= level) {
      if (relevantSoFar === needed) return best;
      relevantSoFar--;
    }
  }
  return best;
}

/** 11pt_avg: iprec averaged over the eleven recall levels 0.0 … 1.0, summed from 1.0 down as trec_eval does. */
export function elevenPointAverage(ranking: JudgedRanking): number {
  let sum = 0;
  for (let i = ELEVEN_RECALL_LEVELS.length - 1; i >= 0; i--) sum += interpolatedPrecisionAt(ranking, ELEVEN_RECALL_LEVELS[i]!);
  return sum / ELEVEN_RECALL_LEVELS.length;
}
