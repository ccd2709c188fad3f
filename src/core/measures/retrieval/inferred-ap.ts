import { type JudgedRanking, relevantCount } from '../ranking.js';

/** trec_eval's INFAP_EPSILON: keeps the estimate defined when nothing judged lies above a relevant document. */
const EPSILON = 0.00001;

/**
 * infAP (Yilmaz and Aslam, CIKM 2006), as trec_eval computes it: average precision estimated from a sampled pool.
 * The qrels mark pooled documents that were not sampled with a negative grade; documents not in the qrels at all
 * are outside the pool and skipped. With complete judgments it equals map. 0 when nothing is relevant.
 */
export function inferredAveragePrecision(ranking: JudgedRanking): number {
  const total = relevantCount(ranking);
  if (total === 0) return 0;
  const { grades, judgedRanks } = ranking;
  const level = ranking.judging.relevanceLevel;
  let relevantAbove = 0;
  let nonrelevantAbove = 0;
  let unsampledAbove = 0;
  let sum = 0;
  for (let r = 0; r < judgedRanks.length; r++) {
    const j = judgedRanks[r]!;
    const grade = grades[j]!;
    if (grade < 0) {
      unsampledAbove++;
      continue;
    }
    if (grade < level) {
      nonrelevantAbove++;
      continue;
    }
    if (j === 0) sum += 1;
    else {
      const judgedAbove = relevantAbove + nonrelevantAbove;
      sum += 1 / (j + 1) + (j / (j + 1)) * ((judgedAbove + unsampledAbove) / j) * ((relevantAbove + EPSILON) / (judgedAbove + 2 * EPSILON));
    }
    relevantAbove++;
  }
  return sum / total;
}
