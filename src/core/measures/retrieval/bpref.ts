import { type JudgedRanking, relevantCount } from '../ranking.js';

/**
 * bpref (Buckley and Voorhees, SIGIR 2004), as trec_eval computes it: for each relevant document retrieved,
 * 1 − (judged non-relevant documents ranked above it, at most R) / min(judged non-relevant, R), summed and
 * divided by R. Unjudged documents (and negative grades) are skipped, so bpref needs only the judged part of a
 * ranking. 0 when nothing is relevant.
 */
export function bpref(ranking: JudgedRanking): number {
  const total = relevantCount(ranking);
  if (total === 0) return 0;
  const { grades, judgedRanks, judgedGrades } = ranking;
  const level = ranking.judging.relevanceLevel;
  const nonrelevantCap = Math.min(judgedGrades.length - total, total);
  let nonrelevantAbove = 0;
  let sum = 0;
  for (let j = 0; j < judgedRanks.length; j++) {
    const grade = grades[judgedRanks[j]!]!;
    if (grade < 0) continue;
    if (grade < level) nonrelevantAbove++;
    else sum += nonrelevantAbove > 0 ? 1 - Math.min(nonrelevantAbove, total) / nonrelevantCap : 1;
  }
  return sum / total;
}
