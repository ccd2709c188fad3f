import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decompose } from '../../../src/core/scoring/decomposition.js';
import { judgeRanking } from '../../../src/core/measures/ranking.js';
import { defaultRetrievalMetrics, parseRetrievalMetric, type RetrievalMetric } from '../../../src/core/catalog/retrieval-metrics.js';
import { cohensKappa } from '../../../src/core/stats/kappa.js';
import { wilsonInterval } from '../../../src/core/stats/wilson.js';

const RUNS = { numRuns: 300 };

/** Judged documents d0..d29 with grades −1..4 (later entries win); unjudged docs u0..u9 never relevant. */
const qrelsArb = fc
  .array(fc.tuple(fc.integer({ min: 0, max: 29 }), fc.integer({ min: -1, max: 4 })), { maxLength: 25, size: 'medium' })
  .map((entries) => new Map(entries.map(([doc, grade]) => [`d${doc}`, grade] as const)));

/** A ranked list without repeats over judged and unjudged documents. */
const rankingArb = fc.uniqueArray(
  fc.oneof(
    fc.integer({ min: 0, max: 29 }).map((i) => `d${i}`),
    fc.integer({ min: 0, max: 9 }).map((i) => `u${i}`),
  ),
  {
    maxLength: 30,
    size: 'medium',
  },
);

const CUTOFFS = [1, 2, 3, 5, 10, 20];
/** Every metric at several cut-offs plus the full-depth ones. */
const ALL_METRICS: RetrievalMetric[] = defaultRetrievalMetrics(CUTOFFS);
const CUT_METRICS = ALL_METRICS.filter((metric) => Number.isFinite(metric.k));
const FULL_METRICS = ALL_METRICS.filter((metric) => !Number.isFinite(metric.k));

/** Documents that are not relevant for `qrels` and not in `retrieved`: unjudged n0.. or judged with grade ≤ 0. */
function nonRelevantExtras(qrels: Map<string, number>, retrieved: readonly string[], count: number): string[] {
  const used = new Set(retrieved);
  const judgedNonRelevant = [...qrels].filter(([doc, grade]) => grade < 1 && !used.has(doc)).map(([doc]) => doc);
  const fresh = Array.from({ length: count }, (_, i) => `n${i}`);
  return [...judgedNonRelevant, ...fresh].slice(0, count);
}

describe('judgeRanking', () => {
  // Code units 32 apart share judgeRanking's bit, so many unjudged ids pass its filter and must still be looked up.
  const id = fc.string({ unit: fc.constantFrom('a', 'A', '!', 'é', '\uD83D', '\uDE00', '\u0100'), maxLength: 3 });
  it('grades every retrieved id by a plain look-up in the judgments (property)', () => {
    fc.assert(
      fc.property(fc.uniqueArray(id, { maxLength: 30 }), fc.array(fc.tuple(id, fc.integer({ min: -1, max: 3 })), { maxLength: 12 }), (retrieved, judged) => {
        const relevance = new Map(judged);
        const { grades } = judgeRanking(retrieved, relevance);
        expect(Array.from(grades)).toEqual(retrieved.map((doc) => relevance.get(doc) ?? -Infinity));
      }),
      { numRuns: 2000 },
    );
  });
});

describe('retrieval metric properties', () => {
  it('every retrieval metric is in [0, 1] (and finite) for random rankings and graded qrels', () => {
    fc.assert(
      fc.property(rankingArb, qrelsArb, (retrieved, qrels) => {
        const ranking = judgeRanking(retrieved, qrels);
        for (const metric of ALL_METRICS) {
          const value = metric.compute(ranking);
          expect(Number.isFinite(value), metric.name).toBe(true);
          expect(value, metric.name).toBeGreaterThanOrEqual(0);
          expect(value, metric.name).toBeLessThanOrEqual(1 + 1e-12);
        }
      }),
      RUNS,
    );
  });

  it('@k metrics are unchanged by appending non-relevant documents', () => {
    fc.assert(
      fc.property(rankingArb, qrelsArb, fc.integer({ min: 1, max: 15 }), (retrieved, qrels, extra) => {
        const before = judgeRanking(retrieved, qrels);
        const after = judgeRanking([...retrieved, ...nonRelevantExtras(qrels, retrieved, extra)], qrels);
        for (const metric of CUT_METRICS) expect(metric.compute(after), metric.name).toBe(metric.compute(before));
      }),
      RUNS,
    );
  });

  it('@k metrics are unchanged by whatever comes after rank k, relevant or not', () => {
    const families = ['precision', 'recall', 'hit', 'mrr', 'ndcg', 'ndcg_exp', 'map'];
    fc.assert(
      fc.property(rankingArb, rankingArb, qrelsArb, fc.nat(), (head, tail, qrels, seed) => {
        fc.pre(head.length > 0);
        const k = 1 + (seed % head.length);
        const prefix = head.slice(0, k);
        const rest = tail.filter((doc) => !prefix.includes(doc));
        const short = judgeRanking(prefix, qrels);
        const long = judgeRanking([...prefix, ...rest], qrels);
        for (const metric of families.map((family) => parseRetrievalMetric(`${family}@${k}`))) {
          expect(metric.compute(long), metric.name).toBe(metric.compute(short));
        }
      }),
      RUNS,
    );
  });

  it('full-depth metrics are unchanged by appending non-relevant documents at the end', () => {
    fc.assert(
      fc.property(rankingArb, qrelsArb, fc.integer({ min: 1, max: 15 }), (retrieved, qrels, extra) => {
        const before = judgeRanking(retrieved, qrels);
        const after = judgeRanking([...retrieved, ...nonRelevantExtras(qrels, retrieved, extra)], qrels);
        for (const metric of FULL_METRICS) expect(metric.compute(after), metric.name).toBe(metric.compute(before));
      }),
      RUNS,
    );
  });

  it('hit@k and recall@k never fall as k grows; full-depth recall bounds them', () => {
    const hits = Array.from({ length: 31 }, (_, i) => parseRetrievalMetric(`hit@${i + 1}`));
    const recalls = Array.from({ length: 31 }, (_, i) => parseRetrievalMetric(`recall@${i + 1}`));
    const fullRecall = parseRetrievalMetric('recall');
    fc.assert(
      fc.property(rankingArb, qrelsArb, (retrieved, qrels) => {
        const ranking = judgeRanking(retrieved, qrels);
        for (let i = 1; i < hits.length; i++) {
          expect(hits[i]!.compute(ranking)).toBeGreaterThanOrEqual(hits[i - 1]!.compute(ranking));
          expect(recalls[i]!.compute(ranking)).toBeGreaterThanOrEqual(recalls[i - 1]!.compute(ranking));
        }
        expect(fullRecall.compute(ranking)).toBe(recalls[30]!.compute(ranking));
      }),
      RUNS,
    );
  });

  it('a perfect ranking of all relevant documents scores 1 on ndcg, map, mrr, r_precision and recall', () => {
    fc.assert(
      fc.property(qrelsArb, (qrels) => {
        const ideal = [...qrels]
          .filter(([, grade]) => grade >= 1)
          .sort((a, b) => b[1] - a[1])
          .map(([doc]) => doc);
        fc.pre(ideal.length > 0);
        const ranking = judgeRanking(ideal, qrels);
        for (const name of ['ndcg', 'ndcg_exp', 'map', 'mrr', 'r_precision', 'recall']) {
          expect(parseRetrievalMetric(name).compute(ranking), name).toBeCloseTo(1, 12);
        }
      }),
      RUNS,
    );
  });
});

/** A 0/1 column value or NaN (the question lacks that input). */
const bitOrMissing = fc.constantFrom(0, 1, NaN);

const decompositionInputArb = fc
  .array(fc.tuple(bitOrMissing, bitOrMissing, fc.constantFrom(0, 1, 1, 1), bitOrMissing), { maxLength: 200, size: 'medium' })
  .map((rows) => ({
    retrievalOk: Float64Array.from(rows.map((row) => row[0])),
    correct: Float64Array.from(rows.map((row) => row[1])),
    answerable: Float64Array.from(rows.map((row) => row[2])),
    closedBook: Float64Array.from(rows.map((row) => row[3])),
  }));

describe('decomposition properties', () => {
  it('e2eCheck equals e2e (within 1e-12) for any data, and e2e is the share correct on the decomposed slice', () => {
    fc.assert(
      fc.property(decompositionInputArb, ({ retrievalOk, correct, answerable, closedBook }) => {
        const d = decompose(retrievalOk, correct, answerable, closedBook);
        // Brute force, independently: answerable rows carrying both inputs.
        let n = 0;
        let right = 0;
        let good = 0;
        for (let i = 0; i < correct.length; i++) {
          if (answerable[i] === 1 && !Number.isNaN(retrievalOk[i]!) && !Number.isNaN(correct[i]!)) {
            n++;
            right += correct[i]!;
            good += retrievalOk[i]!;
          }
        }
        expect(d.n).toBe(n);
        expect(d.nGood).toBe(good);
        expect(d.nBad).toBe(n - good);
        if (n === 0) {
          expect(d.e2e).toBeNull();
          expect(d.e2eCheck).toBeNull();
          return;
        }
        expect(d.e2e).toBe(right / n);
        expect(d.e2eCheck).not.toBeNull();
        expect(Math.abs(d.e2eCheck! - d.e2e!)).toBeLessThanOrEqual(1e-12);
      }),
      RUNS,
    );
  });

  it('productModelG − gGood = productModelBias, ceiling ≥ e2e, r ≥ rLowerBound, all rates in [0, 1]', () => {
    fc.assert(
      fc.property(decompositionInputArb, ({ retrievalOk, correct, answerable, closedBook }) => {
        const d = decompose(retrievalOk, correct, answerable, closedBook);
        for (const rate of [d.r, d.gGood, d.gBad, d.e2e, d.ceiling, d.rLowerBound]) {
          if (rate !== null) {
            expect(rate).toBeGreaterThanOrEqual(0);
            expect(rate).toBeLessThanOrEqual(1 + 1e-12);
          }
        }
        if (d.r !== null && d.r > 0 && (d.nBad > 0 || d.gBad !== null)) {
          expect(d.productModelG! - d.gGood!).toBeCloseTo(d.productModelBias!, 12);
        }
        if (d.r !== null && d.r > 0) {
          // With no failed question the bias is 0 and the product model is exact.
          if (d.nBad === 0) expect(d.productModelBias).toBe(0);
          const warning = d.warnings.find((w) => w.kind === 'right-without-retrieval');
          expect(d.productModelG! > 1).toBe(warning !== undefined);
          // e2e > r exactly when the right answers with retrieval failed outnumber the wrong ones with it ok.
          if (warning !== undefined) expect(warning.rightWithoutRetrieval).toBeGreaterThan(warning.wrongWithRetrieval);
        }
        if (d.e2e !== null) expect(d.ceiling! + 1e-12).toBeGreaterThanOrEqual(d.e2e);
        if (d.rLowerBound !== null) expect(d.r! + 1e-12).toBeGreaterThanOrEqual(d.rLowerBound);
      }),
      RUNS,
    );
  });
});

describe('kappa and Wilson properties', () => {
  it('kappa equals the count form (n·agree − Σ rowᵢ·colᵢ) / (n² − Σ rowᵢ·colᵢ), is symmetric in the raters and at most 1', () => {
    const labels = ['SUPPORTED', 'NOT_SUPPORTED', 'PARTIAL', 'true'] as const;
    const label = fc.constantFrom(...labels);
    fc.assert(
      fc.property(fc.array(fc.tuple(label, label), { minLength: 1, maxLength: 60 }), (pairs) => {
        const agreement = cohensKappa(pairs)!;
        const n = pairs.length;
        // Counts, written independently of the code: agreements, and each label's count per rater.
        const agree = pairs.filter(([a, b]) => a === b).length;
        const chance = labels.reduce((sum, l) => sum + pairs.filter(([a]) => a === l).length * pairs.filter(([, b]) => b === l).length, 0);
        expect(agreement.n).toBe(n);
        expect(agreement.observed).toBe(agree / n);
        expect(agreement.expected).toBeCloseTo(chance / (n * n), 12);
        if (chance === n * n) expect(agreement.kappa).toBeNull();
        else {
          expect(agreement.kappa).toBeCloseTo((n * agree - chance) / (n * n - chance), 12);
          expect(agreement.kappa!).toBeLessThanOrEqual(1);
        }
        const swapped = cohensKappa(pairs.map(([a, b]) => [b, a] as const))!;
        if (agreement.kappa === null) expect(swapped.kappa).toBeNull();
        else expect(swapped.kappa).toBeCloseTo(agreement.kappa, 12);
        // The confusion table holds every pair once, rows by the first rater.
        const cells = Object.values(agreement.confusion).flatMap((row) => Object.values(row));
        expect(cells.reduce((a, b) => a + b, 0)).toBe(n);
        for (const l of labels) {
          const row = Object.values(agreement.confusion[l] ?? {}).reduce((a, b) => a + b, 0);
          expect(row).toBe(pairs.filter(([a]) => a === l).length);
        }
      }),
      RUNS,
    );
  });

  it('the Wilson interval lies in [0, 1] and strictly contains p for 0 < successes < n', () => {
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 5000 }), fc.double({ min: 0, max: 1, noNaN: true }), (n, share) => {
        const successes = Math.min(n - 1, Math.max(1, Math.round(share * n)));
        const [lo, hi] = wilsonInterval(successes, n);
        expect(lo).toBeGreaterThan(0);
        expect(hi).toBeLessThan(1);
        expect(lo).toBeLessThan(successes / n);
        expect(hi).toBeGreaterThan(successes / n);
      }),
      RUNS,
    );
  });
});
