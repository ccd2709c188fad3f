import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { parseRetrievalMetric } from '../../../src/core/catalog/retrieval-metrics.js';
import { type JudgedRanking, judgeRanking, relevantCount, UNJUDGED } from '../../../src/core/measures/ranking.js';
import { exponentialGain, type Gain, tableGain } from '../../../src/core/measures/retrieval/ndcg.js';
import { evaluateTrecTables, DEFAULT_TREC_EVAL_OPTIONS } from '../../../src/core/scoring/trec-eval.js';
import { readQrelsTable, readRunTable } from '../../../src/sources/trec.js';
import { scratchDir } from '../../helpers/cli.js';

const scratch = scratchDir();
afterAll(() => scratch.cleanup());

/**
 * The metrics that visit only a ranking's judged ranks, against the loops over every rank they replaced (copied
 * here as they were): the same terms in the same order, so the same numbers to the last bit.
 */
const everyRank = {
  relevantRetrieved(ranking: JudgedRanking, k: number): number {
    const { grades } = ranking;
    const depth = Math.min(k, grades.length);
    let found = 0;
    for (let i = 0; i < depth; i++) if (grades[i]! >= ranking.judging.relevanceLevel) found++;
    return found;
  },
  firstRelevantRank(ranking: JudgedRanking): number {
    for (let i = 0; i < ranking.grades.length; i++) if (ranking.grades[i]! >= ranking.judging.relevanceLevel) return i + 1;
    return Infinity;
  },
  averagePrecisionAt(ranking: JudgedRanking, k: number): number {
    const total = relevantCount(ranking);
    if (total === 0) return 0;
    const { grades } = ranking;
    const depth = Math.min(k, grades.length);
    let found = 0;
    let sum = 0;
    for (let i = 0; i < depth; i++) {
      if (grades[i]! >= ranking.judging.relevanceLevel) {
        found++;
        sum += found / (i + 1);
      }
    }
    return sum / total;
  },
  discountedGain(grades: ArrayLike<number>, k: number, gain: Gain): number {
    const depth = Math.min(k, grades.length);
    let sum = 0;
    for (let i = 0; i < depth; i++) {
      const g = gain(grades[i]!);
      if (g !== 0) sum += g / Math.log2(i + 2);
    }
    return sum;
  },
  ndcgAt(ranking: JudgedRanking, k: number, gain: Gain, monotone: boolean): number {
    let ideal: number;
    if (monotone) ideal = everyRank.discountedGain(ranking.judgedGrades, k, gain);
    else {
      const gains = Array.from(ranking.judgedGrades, gain)
        .filter((g) => g > 0)
        .sort((a, b) => b - a);
      ideal = everyRank.discountedGain(gains, k, (g) => g);
    }
    return ideal > 0 ? everyRank.discountedGain(ranking.grades, k, gain) / ideal : 0;
  },
  judgedAt(ranking: JudgedRanking, k: number): number {
    const depth = Math.min(k, ranking.grades.length);
    if (depth === 0) return 0;
    let judged = 0;
    for (let i = 0; i < depth; i++) if (ranking.grades[i] !== UNJUDGED) judged++;
    return judged / depth;
  },
  bpref(ranking: JudgedRanking): number {
    const total = relevantCount(ranking);
    if (total === 0) return 0;
    const nonrelevantCap = Math.min(ranking.judgedGrades.length - total, total);
    let nonrelevantAbove = 0;
    let sum = 0;
    for (const grade of Array.from(ranking.grades)) {
      if (grade < 0) continue;
      if (grade < ranking.judging.relevanceLevel) nonrelevantAbove++;
      else sum += nonrelevantAbove > 0 ? 1 - Math.min(nonrelevantAbove, total) / nonrelevantCap : 1;
    }
    return sum / total;
  },
  infap(ranking: JudgedRanking): number {
    const total = relevantCount(ranking);
    if (total === 0) return 0;
    const { grades } = ranking;
    let relevantAbove = 0;
    let nonrelevantAbove = 0;
    let unsampledAbove = 0;
    let sum = 0;
    for (let j = 0; j < grades.length; j++) {
      const grade = grades[j]!;
      if (grade === UNJUDGED) continue;
      if (grade < 0) {
        unsampledAbove++;
        continue;
      }
      if (grade < ranking.judging.relevanceLevel) {
        nonrelevantAbove++;
        continue;
      }
      if (j === 0) sum += 1;
      else {
        const judgedAbove = relevantAbove + nonrelevantAbove;
        sum += 1 / (j + 1) + (j / (j + 1)) * ((judgedAbove + unsampledAbove) / j) * ((relevantAbove + 0.00001) / (judgedAbove + 2 * 0.00001));
      }
      relevantAbove++;
    }
    return sum / total;
  },
};

/** Every metric that reads the judged ranks, by name, with what it was before. */
function before(name: string, ranking: JudgedRanking, k: number): number {
  const r = everyRank;
  const total = relevantCount(ranking);
  const n = ranking.grades.length;
  switch (name) {
    case 'precision':
      return r.relevantRetrieved(ranking, k) / k;
    case 'recall':
      return total === 0 ? 0 : r.relevantRetrieved(ranking, k) / total;
    case 'hit':
      return r.firstRelevantRank(ranking) <= k ? 1 : 0;
    case 'mrr':
      return r.firstRelevantRank(ranking) <= k ? 1 / r.firstRelevantRank(ranking) : 0;
    case 'map':
      return r.averagePrecisionAt(ranking, k);
    case 'ndcg':
      return r.ndcgAt(ranking, k, tableGain(ranking.judging), ranking.judging.ndcgGains.size === 0);
    case 'ndcg_exp':
      return r.ndcgAt(ranking, k, exponentialGain, true);
    case 'judged':
      return r.judgedAt(ranking, k);
    case 'r_precision':
      return total === 0 ? 0 : r.relevantRetrieved(ranking, total) / total;
    case 'bpref':
      return r.bpref(ranking);
    case 'infap':
      return r.infap(ranking);
    case 'set_precision':
      return n === 0 ? 0 : r.relevantRetrieved(ranking, Infinity) / n;
    case 'num_rel_ret':
      return r.relevantRetrieved(ranking, Infinity);
    default:
      throw new Error(name);
  }
}

const WITH_CUTOFF = ['precision', 'recall', 'hit', 'mrr', 'map', 'ndcg', 'ndcg_exp', 'judged'];
const WITHOUT = ['r_precision', 'bpref', 'infap', 'set_precision', 'num_rel_ret'];
const CUTOFF_REQUIRED = new Set(['precision', 'hit', 'judged']);

// Grades from "in the pool, not judged" (negative) to highly relevant; ids that share a last character or not.
const documents = ['a', 'b', 'c', 'd', 'e', 'f', 'ab', 'ba', 'x1', 'y1', 'z'];
const rankingArb = fc.record({
  retrieved: fc.uniqueArray(fc.constantFrom(...documents), { maxLength: 11 }),
  relevance: fc.dictionary(fc.constantFrom(...documents), fc.constantFrom(-1, 0, 1, 2, 3, 0.5), { maxKeys: 8 }),
  relevanceLevel: fc.constantFrom(1, 2),
  gains: fc.constantFrom<[number, number][]>(
    [],
    [
      [1, 3],
      [2, 9],
    ],
    [
      [0, 1],
      [3, 0.5],
    ],
  ),
  k: fc.constantFrom(1, 2, 3, 5, 10, 20, Infinity),
});

describe('metrics that visit only the judged ranks', () => {
  it('give, to the last bit, what the loops over every rank gave (property)', () => {
    fc.assert(
      fc.property(rankingArb, ({ retrieved, relevance, relevanceLevel, gains, k }) => {
        const ranking = judgeRanking(retrieved, new Map(Object.entries(relevance)), { relevanceLevel, ndcgGains: new Map(gains) });
        expect(Array.from(ranking.judgedRanks)).toEqual(retrieved.flatMap((id, rank) => (Object.hasOwn(relevance, id) ? [rank] : [])));
        for (const family of WITH_CUTOFF) {
          // Past the longest ranking where a cut-off is required, the whole ranking where it is not.
          const name = k !== Infinity ? `${family}@${k}` : CUTOFF_REQUIRED.has(family) ? `${family}@1000` : family;
          const metric = parseRetrievalMetric(name);
          expect(Object.is(metric.compute(ranking), before(family, ranking, metric.k)), metric.name).toBe(true);
        }
        for (const family of WITHOUT) expect(Object.is(parseRetrievalMetric(family).compute(ranking), before(family, ranking, Infinity)), family).toBe(true);
      }),
      { numRuns: 3000 },
    );
  });

  it('see the ranks a cut-off (-M) and judged documents only (-J) leave, in trec mode', async () => {
    const qrelsFile = scratch.file('judged-ranks.qrels', 'q1 0 d2 1\nq1 0 d4 0\nq1 0 d5 2\nq1 0 d9 -1\n');
    const runFile = scratch.file(
      'judged-ranks.run',
      ['d1', 'd2', 'd3', 'd4', 'd5', 'd9'].map((docno, i) => `q1 Q0 ${docno} ${i + 1} ${6 - i} r`).join('\n') + '\n',
    );
    const [qrels, run] = [await readQrelsTable(qrelsFile), await readRunTable(runFile)];
    const metrics = ['map', 'mrr', 'judged@5'].map(parseRetrievalMetric);
    const evaluate = (maxRetrieved: number, judgedOnly: boolean) =>
      evaluateTrecTables(qrels, run, metrics, { ...DEFAULT_TREC_EVAL_OPTIONS, maxRetrieved, judgedOnly }).aggregate;
    // Relevant: d2 (rank 2) and d5 (rank 5); d4 judged not relevant (rank 4); d9 in the pool, unjudged (rank 6).
    expect(evaluate(Infinity, false)).toEqual({ map: (1 / 2 + 2 / 5) / 2, mrr: 1 / 2, 'judged@5': 3 / 5 });
    // Cut at 4: d5 is gone.
    expect(evaluate(4, false)).toEqual({ map: 1 / 2 / 2, mrr: 1 / 2, 'judged@5': 2 / 4 });
    // Judged only (d1 and d3 dropped, and d9, whose grade is below 0): d2, d4, d5 at ranks 1–3.
    expect(evaluate(Infinity, true)).toEqual({ map: (1 + 2 / 3) / 2, mrr: 1, 'judged@5': 1 });
  });
});
