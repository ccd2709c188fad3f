import type { JudgedRanking } from '../ranking.js';
import { firstRelevantRank } from './reciprocal-rank.js';

/** hit@k: 1 when at least one relevant document is among the first k retrieved, else 0 (trec_eval's success_k). */
export function hitAt(ranking: JudgedRanking, k: number): number {
  return firstRelevantRank(ranking) <= k ? 1 : 0;
}
