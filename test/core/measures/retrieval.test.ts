import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { judgeRanking, relevantCount } from '../../../src/core/measures/ranking.js';
import { defaultRetrievalMetrics, parseRetrievalMetric } from '../../../src/core/catalog/retrieval-metrics.js';
import { averagePrecisionAt } from '../../../src/core/measures/retrieval/average-precision.js';
import { hitAt } from '../../../src/core/measures/retrieval/hit.js';
import { exponentialGain, linearGain, ndcgAt } from '../../../src/core/measures/retrieval/ndcg.js';
import { precisionAt } from '../../../src/core/measures/retrieval/precision.js';
import { rPrecision } from '../../../src/core/measures/retrieval/r-precision.js';
import { recallAt } from '../../../src/core/measures/retrieval/recall.js';
import { firstRelevantRank, reciprocalRankAt } from '../../../src/core/measures/retrieval/reciprocal-rank.js';
import { evaluateTrec } from '../../helpers/trec-reference.js';

/** A ranked list of `length` filler ids with the given ids placed at the given 1-based ranks. */
function rankedWith(length: number, placed: Record<number, string>): string[] {
  return Array.from({ length }, (_, i) => placed[i + 1] ?? `filler-${i + 1}`);
}

const grades = (entries: Record<string, number>) => new Map(Object.entries(entries));
const binary = (...ids: string[]) => new Map(ids.map((id) => [id, 1]));

describe('worked numbers from the reference articles', () => {
  // Third article: grades [2, 0, 3, 1, 0] at ranks 1-5.
  const ndcgExample = () => judgeRanking(['a', 'b', 'c', 'd', 'e'], grades({ a: 2, c: 3, d: 1 }));

  it('nDCG@5 = 0.825 for grades [2,0,3,1,0] with linear gain (DCG 3.9307, IDCG 4.7619)', () => {
    // DCG = 2/1 + 0 + 3/log2(4) + 1/log2(5) + 0 = 2 + 1.5 + 0.4307 = 3.9307
    // IDCG (ideal [3,2,1,0,0]) = 3/1 + 2/log2(3) + 1/log2(4) = 3 + 1.2619 + 0.5 = 4.7619
    const value = ndcgAt(ndcgExample(), 5, linearGain);
    expect(value.toFixed(3)).toBe('0.825');
    expect(value).toBeCloseTo(3.930676558 / 4.761859507, 9);
    expect(parseRetrievalMetric('ndcg@5').compute(ndcgExample())).toBe(value);
  });

  it('ndcg_exp@5 = 0.7379 for the same grades (gain 2^grade − 1)', () => {
    // Gains [3, 0, 7, 1, 0]:  DCG = 3/1 + 7/log2(4) + 1/log2(5) = 3 + 3.5 + 0.430677 = 6.930677
    // Ideal gains [7, 3, 1]:  IDCG = 7/1 + 3/log2(3) + 1/log2(4) = 7 + 1.892789 + 0.5 = 9.392789
    // ndcg_exp@5 = 6.930677 / 9.392789 = 0.737872: the article's warning that the two variants differ.
    const value = ndcgAt(ndcgExample(), 5, exponentialGain);
    expect(value).toBeCloseTo(0.737872, 6);
    expect(parseRetrievalMetric('ndcg_exp@5').compute(ndcgExample())).toBe(value);
  });

  // Third article: d17, d42, d88 relevant, retrieved at ranks 1, 3 and 12.
  const threeRelevant = () => judgeRanking(rankedWith(15, { 1: 'd17', 3: 'd42', 12: 'd88' }), binary('d17', 'd42', 'd88'));

  it('AP = 0.639 for relevant documents at ranks 1, 3 and 12 of 3 relevant', () => {
    // (1/1 + 2/3 + 3/12) / 3 = (1 + 0.6667 + 0.25) / 3 = 1.9167 / 3 = 0.6389
    const ap = averagePrecisionAt(threeRelevant(), Infinity);
    expect(ap).toBeCloseTo((1 + 2 / 3 + 3 / 12) / 3, 12);
    expect(ap.toFixed(3)).toBe('0.639');
  });

  it('AP = 0.450 for relevant documents at ranks 2 and 5 of 2 relevant, MAP of the two = 0.544', () => {
    const second = judgeRanking(rankedWith(10, { 2: 'x', 5: 'y' }), binary('x', 'y'));
    const ap2 = averagePrecisionAt(second, Infinity);
    expect(ap2).toBeCloseTo(0.45, 12); // (1/2 + 2/5) / 2
    const map = (averagePrecisionAt(threeRelevant(), Infinity) + ap2) / 2;
    expect(map.toFixed(3)).toBe('0.544');
  });

  it('MRR = 0.4375 over first-relevant ranks 1, 4, 2 and none in the top 10', () => {
    const rankings = [
      judgeRanking(rankedWith(10, { 1: 'r' }), binary('r')),
      judgeRanking(rankedWith(10, { 4: 'r' }), binary('r')),
      judgeRanking(rankedWith(10, { 2: 'r' }), binary('r')),
      judgeRanking(rankedWith(10, {}), binary('r')),
    ];
    const rrs = rankings.map((ranking) => reciprocalRankAt(ranking, Infinity));
    expect(rrs).toEqual([1, 0.25, 0.5, 0]);
    expect(rrs.reduce((a, b) => a + b, 0) / rrs.length).toBe(0.4375);
    const rrs10 = rankings.map((ranking) => reciprocalRankAt(ranking, 10));
    expect(rrs10.reduce((a, b) => a + b, 0) / 4).toBe(0.4375);
  });

  it('mrr@10 counts a first relevant document at rank 11 as not found', () => {
    const ranking = judgeRanking(rankedWith(12, { 11: 'r' }), binary('r'));
    expect(firstRelevantRank(ranking)).toBe(11);
    expect(reciprocalRankAt(ranking, 10)).toBe(0);
    expect(reciprocalRankAt(ranking, Infinity)).toBeCloseTo(1 / 11, 15);
  });

  it('mrr@k counts a first relevant document at exactly rank k (trec_eval recip_rank with -M k)', () => {
    const atTen = judgeRanking(rankedWith(12, { 10: 'r', 11: 's' }), binary('r', 's'));
    expect(reciprocalRankAt(atTen, 10)).toBe(0.1);
    expect(reciprocalRankAt(atTen, 9)).toBe(0);
    expect(parseRetrievalMetric('mrr@10').compute(atTen)).toBe(0.1);
    expect(parseRetrievalMetric('mrr@9').compute(atTen)).toBe(0);
    const atOne = judgeRanking(['r'], binary('r'));
    expect(reciprocalRankAt(atOne, 1)).toBe(1);
  });

  // Precision falls, recall rises (third article's table, computed by hand):
  //   k   relevant in top k   P@k          recall@k
  //   1   1 (d17)             1/1  = 1     1/3
  //   3   2 (d17, d42)        2/3          2/3
  //   5   2                   2/5  = 0.4   2/3
  //  10   2                   2/10 = 0.2   2/3
  //  12   3 (+ d88)           3/12 = 0.25  3/3 = 1
  it.each([
    [1, 1, 1 / 3],
    [3, 2 / 3, 2 / 3],
    [5, 0.4, 2 / 3],
    [10, 0.2, 2 / 3],
    [12, 0.25, 1],
  ])('precision/recall table for d17, d42, d88 at ranks 1, 3, 12: P@%i and recall@k', (k, precision, recall) => {
    expect(precisionAt(threeRelevant(), k)).toBeCloseTo(precision, 12);
    expect(recallAt(threeRelevant(), k)).toBeCloseTo(recall, 12);
  });
});

describe('trec_eval conventions on a JudgedRanking', () => {
  it('P@k divides by k even when fewer than k documents were retrieved', () => {
    const ranking = judgeRanking(['a', 'b'], binary('a', 'b'));
    expect(precisionAt(ranking, 2)).toBe(1);
    expect(precisionAt(ranking, 5)).toBe(0.4);
    expect(precisionAt(ranking, 10)).toBe(0.2);
  });

  it('recall@k divides by all relevant documents, retrieved or not', () => {
    const ranking = judgeRanking(['a', 'x'], binary('a', 'b', 'c', 'd'));
    expect(recallAt(ranking, 10)).toBe(0.25);
  });

  it('Rprec divides by R even when fewer than R documents were retrieved', () => {
    // R = 4; only 2 documents retrieved, both relevant: 2 / 4.
    const ranking = judgeRanking(['a', 'b'], binary('a', 'b', 'c', 'd'));
    expect(rPrecision(ranking)).toBe(0.5);
    // R = 2: precision at rank 2, whatever comes later.
    const later = judgeRanking(['x', 'a', 'b'], binary('a', 'b'));
    expect(rPrecision(later)).toBe(0.5);
  });

  it('map divides by all relevant documents, also those never retrieved', () => {
    const ranking = judgeRanking(['a'], binary('a', 'b', 'c', 'd'));
    expect(averagePrecisionAt(ranking, Infinity)).toBe(0.25);
    expect(averagePrecisionAt(ranking, 1)).toBe(0.25);
  });

  it('map@k stops summing precision at rank k', () => {
    const ranking = judgeRanking(['a', 'x', 'b'], binary('a', 'b'));
    expect(averagePrecisionAt(ranking, 2)).toBe(0.5);
    expect(averagePrecisionAt(ranking, 3)).toBeCloseTo((1 + 2 / 3) / 2, 15);
  });

  it('nDCG ideal is built from every judged relevant document, not just the retrieved ones', () => {
    // Retrieved only "a" (grade 1); "b" (grade 3) is judged but never retrieved.
    const ranking = judgeRanking(['a', 'x'], grades({ a: 1, b: 3, z: 0 }));
    expect(Array.from(ranking.judgedGrades)).toEqual([3, 1, 0]);
    // DCG = 1/1; IDCG = 3/1 + 1/log2(3).
    expect(ndcgAt(ranking, 10)).toBeCloseTo(1 / (3 + 1 / Math.log2(3)), 12);
    // Cut at 1: IDCG@1 = 3.
    expect(ndcgAt(ranking, 1)).toBeCloseTo(1 / 3, 12);
  });

  it('grade 0 and negative grades are not relevant and earn no gain', () => {
    const ranking = judgeRanking(['a', 'b', 'c'], grades({ a: 0, b: -1, c: 2 }));
    expect(relevantCount(ranking)).toBe(1);
    expect(hitAt(ranking, 2)).toBe(0);
    expect(hitAt(ranking, 3)).toBe(1);
    expect(ndcgAt(ranking, 3)).toBeCloseTo(2 / 2 / 2, 12); // DCG = 2/log2(4) = 1; IDCG = 2.
  });

  it('a ranking with no relevant document scores 0 on every metric (trec mode), never NaN', () => {
    const ranking = judgeRanking(['a', 'b'], grades({ a: 0 }));
    for (const metric of defaultRetrievalMetrics([1, 3, 5, 10])) {
      const value = metric.compute(ranking);
      expect(value, metric.name).toBe(0);
    }
  });

  it('evaluateTrec scores a no-relevant query 0 and keeps it in the mean; a query missing from the run scores 0', () => {
    const qrels = new Map([
      ['q1', grades({ d1: 1 })],
      ['q2', grades({ d1: 0 })],
      ['q3', grades({ d5: 1 })],
    ]);
    const run = new Map([
      ['q1', ['d1']],
      ['q2', ['d1']],
      ['q9', ['d1']], // only in the run: ignored
    ]);
    const metrics = ['map', 'mrr', 'precision@1', 'ndcg'].map(parseRetrievalMetric);
    const result = evaluateTrec(qrels, run, metrics);
    expect(result.queries).toBe(3);
    expect(Object.keys(result.perQuery)).toEqual(['q1', 'q2', 'q3']);
    expect(result.perQuery.q2).toEqual({ map: 0, mrr: 0, 'precision@1': 0, ndcg: 0 });
    expect(result.perQuery.q3).toEqual({ map: 0, mrr: 0, 'precision@1': 0, ndcg: 0 });
    expect(result.aggregate.map).toBeCloseTo(1 / 3, 15);
    expect(result.aggregate['precision@1']).toBeCloseTo(1 / 3, 15);
  });
});

describe('metric names', () => {
  it('parses cut-offs and full-depth names', () => {
    expect(parseRetrievalMetric('ndcg@10')).toMatchObject({ name: 'ndcg@10', family: 'ndcg', k: 10, binary: false });
    expect(parseRetrievalMetric(' map ')).toMatchObject({ name: 'map', family: 'map', k: Infinity });
    expect(parseRetrievalMetric('hit@5')).toMatchObject({ name: 'hit@5', binary: true });
    expect(parseRetrievalMetric('r_precision')).toMatchObject({ name: 'r_precision', k: Infinity });
    expect(parseRetrievalMetric('iprec@0.50')).toMatchObject({ name: 'iprec@0.5', family: 'iprec', k: 0.5, total: false });
    expect(parseRetrievalMetric('iprec@1')).toMatchObject({ name: 'iprec@1', k: 1 });
    expect(parseRetrievalMetric('11pt_avg')).toMatchObject({ name: '11pt_avg', k: Infinity });
    expect(parseRetrievalMetric('num_rel_ret')).toMatchObject({ name: 'num_rel_ret', total: true });
  });

  it.each([
    ['foo@3', /unknown retrieval metric "foo@3"; use one of precision@k, recall\[@k\]/],
    ['precision', /needs a cut-off, for example "precision@10"/],
    ['hit', /needs a cut-off/],
    ['r_precision@5', /takes no cut-off; write "r_precision"/],
    ['ndcg@0', /cut-off must be a whole number of at least 1/],
    ['ndcg@2.5', /cut-off must be a whole number of at least 1/],
    ['iprec', /needs a recall level from 0 to 1, for example "iprec@0.5"/],
    ['iprec@1.5', /needs a recall level from 0 to 1/],
    ['bpref@10', /takes no cut-off; write "bpref"/],
    ['judged', /needs a cut-off, for example "judged@10"/],
    ['NDCG@10', /unknown retrieval metric/],
    ['ndcg@-1', /unknown retrieval metric/],
    // A known name at the end of an unknown one is still unknown.
    ['my-ndcg@5', /unknown retrieval metric "my-ndcg@5"/],
  ])('rejects %s with a helpful message', (name, message) => {
    expect(() => parseRetrievalMetric(name)).toThrow(message);
  });

  it('the default report has every family at every cut-off, then the full-depth metrics', () => {
    const names = defaultRetrievalMetrics([1, 5]).map((metric) => metric.name);
    expect(names).toEqual([
      'precision@1',
      'precision@5',
      'recall@1',
      'recall@5',
      'hit@1',
      'hit@5',
      'mrr@1',
      'mrr@5',
      'ndcg@1',
      'ndcg@5',
      'ndcg_exp@1',
      'ndcg_exp@5',
      'map@1',
      'map@5',
      'mrr',
      'map',
      'ndcg',
      'ndcg_exp',
      'r_precision',
    ]);
  });
});

describe('the judged ranking and ndcg, against their definitions', () => {
  it("holds the judgments' grades 0 and up in the order of Float64Array's sort, reversed: -0 after 0 (property)", () => {
    // Few ids, so that short and long judgment lists alike hold repeated grades; -0 and negative grades among them.
    const grade = fc.constantFrom(-0, 0, 1, 2, 3, -1, 7, 1e300);
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.string({ maxLength: 3 }), grade), { maxLength: 30 }), (judgments) => {
        const relevance = new Map(judgments);
        const expected = Float64Array.from([...relevance.values()].filter((g) => g >= 0))
          .sort()
          .reverse();
        const { judgedGrades } = judgeRanking(['a', 'b'], relevance);
        expect(Array.from(judgedGrades).map((g) => Object.is(g, -0))).toEqual(Array.from(expected).map((g) => Object.is(g, -0)));
        expect(Array.from(judgedGrades)).toEqual(Array.from(expected));
      }),
      { numRuns: 2000 },
    );
  });

  it('ndcg@k is the DCG of the ranking over that of the ideal one, with discount 1/log2(rank + 1) at any depth (property)', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.nat(1500), { minLength: 1, maxLength: 6 }), fc.constantFrom(1, 5, 10, 1100, Infinity), (ranks, k) => {
        const placed = Object.fromEntries(ranks.map((rank, i) => [rank + 1, `r${i}`]));
        const relevance = new Map(ranks.map((_, i) => [`r${i}`, (i % 3) + 1]));
        const retrieved = rankedWith(1501, placed);
        const dcg = (gradesInOrder: number[]) =>
          gradesInOrder.slice(0, Math.min(k, gradesInOrder.length)).reduce((sum, g, i) => (g > 0 ? sum + g / Math.log2(i + 2) : sum), 0);
        const ideal = dcg([...relevance.values()].sort((a, b) => b - a));
        const expected = dcg(retrieved.map((id) => relevance.get(id) ?? 0)) / ideal;
        expect(ndcgAt(judgeRanking(retrieved, relevance), k)).toBe(expected);
      }),
      { numRuns: 300 },
    );
  });
});
