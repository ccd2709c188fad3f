import type { JudgedRanking } from '../ranking.js';

/**
 * judged@k: the share of the first k retrieved (or of all retrieved, when fewer) that have a line in the qrels,
 * whatever its grade (ir_measures' Judged@k). Low values say the qrels are too sparse to trust the other metrics
 * on this run. 0 when nothing was retrieved.
 */
export function judgedAt(ranking: JudgedRanking, k: number): number {
  const { grades, judgedRanks } = ranking;
  const depth = Math.min(k, grades.length);
  if (depth === 0) return 0;
  let judged = 0;
  while (judged < judgedRanks.length && judgedRanks[judged]! < depth) judged++;
  return judged / depth;
}
