import { describe, expect, it } from 'vitest';
import { parseRetrievalMetric } from '../../../src/core/catalog/retrieval-metrics.js';
import { parseNdcgGains, parseRelevanceLevel } from '../../../src/core/catalog/settings.js';
import { type Judging, judgeRanking } from '../../../src/core/measures/ranking.js';

const level = (relevanceLevel: number, ndcgGains: ReadonlyMap<number, number> = new Map()): Judging => ({ relevanceLevel, ndcgGains });
const value = (name: string, retrieved: string[], judgments: Record<string, number>, judging = level(1)) =>
  parseRetrievalMetric(name).compute(judgeRanking(retrieved, new Map(Object.entries(judgments)), judging));

// Ranked: r1 (2), n1 (0), u (unjudged), r2 (1), n2 (0), p (−1: pooled, not sampled); r3 (3) and n3 (0) not retrieved.
const RETRIEVED = ['r1', 'n1', 'u', 'r2', 'n2', 'p'];
const JUDGMENTS = { r1: 2, n1: 0, r2: 1, n2: 0, p: -1, r3: 3, n3: 0 };

describe('trec_eval measures, worked by hand', () => {
  it('bpref: each relevant retrieved loses the judged non-relevant above it over min(N, R)', () => {
    // R = 3, N = 3: r1 has none above (1), r2 has n1 above (1 − 1/3); r3 is not retrieved (0).
    expect(value('bpref', RETRIEVED, JUDGMENTS)).toBeCloseTo((1 + 2 / 3) / 3, 15);
    // At level 2 only r1 and r3 are relevant (R = 2); r2 joins the non-relevant (N = 4): r1 scores 1.
    expect(value('bpref', RETRIEVED, JUDGMENTS, level(2))).toBeCloseTo(1 / 2, 15);
    // N counts grades 0 up to the level, as trec_eval's rel_levels: a pooled −1 is not one. N = 1 < R = 2, so n1
    // above r1 and r2 costs each all of min(N, R) = 1.
    expect(value('bpref', ['n1', 'r1', 'r2'], { r1: 1, r2: 1, n1: 0, p: -1 })).toBe(0);
  });

  it('judged@k counts documents with any qrels line, the pooled −1 included, over min(k, retrieved)', () => {
    expect(value('judged@3', RETRIEVED, JUDGMENTS)).toBeCloseTo(2 / 3, 15);
    expect(value('judged@10', RETRIEVED, JUDGMENTS)).toBeCloseTo(5 / 6, 15);
    expect(value('judged@10', [], JUDGMENTS)).toBe(0);
  });

  it('counts, set precision and set F1', () => {
    expect(value('num_ret', RETRIEVED, JUDGMENTS)).toBe(6);
    expect(value('num_rel', RETRIEVED, JUDGMENTS)).toBe(3);
    expect(value('num_rel_ret', RETRIEVED, JUDGMENTS)).toBe(2);
    expect(value('num_rel', RETRIEVED, JUDGMENTS, level(2))).toBe(2);
    expect(value('set_precision', RETRIEVED, JUDGMENTS)).toBeCloseTo(2 / 6, 15);
    const [p, r] = [2 / 6, 2 / 3];
    expect(value('set_f1', RETRIEVED, JUDGMENTS)).toBeCloseTo((2 * p * r) / (p + r), 15);
  });

  it('set measures at their edges: nothing retrieved, nothing relevant found, and P + R other than 1', () => {
    expect(value('set_precision', [], { r1: 1 })).toBe(0);
    expect(value('set_f1', ['n1', 'x'], { n1: 0, r1: 1 })).toBe(0);
    // P = 1/2 (r1 of r1, n1), R = 1/3: 2PR / (P + R) = (1/3) / (5/6) = 0.4.
    expect(value('set_f1', ['r1', 'n1'], { r1: 1, r2: 1, r3: 1, n1: 0 })).toBeCloseTo(0.4, 15);
  });

  it('interpolated precision: the best precision at or after round(r·R) relevant documents', () => {
    // Relevant at ranks 1 and 4 of 6: precision 1 at rank 1, 2/4 at rank 4; R = 3.
    expect(value('iprec@0', RETRIEVED, JUDGMENTS)).toBe(1);
    expect(value('iprec@0.3', RETRIEVED, JUDGMENTS)).toBe(1); // round(0.9) = 1 relevant
    expect(value('iprec@0.5', RETRIEVED, JUDGMENTS)).toBe(0.5); // round(1.5) = 2 relevant
    expect(value('iprec@1', RETRIEVED, JUDGMENTS)).toBe(0); // 3 relevant never retrieved
    // Levels 0–0.1 → 1 relevant (1); 0.2 → round(0.6) = 1 (1); 0.3–0.8 → 1 or 2 relevant; 0.9, 1 → 3 (0).
    const levels = [0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1].map((r) => value(`iprec@${r}`, RETRIEVED, JUDGMENTS));
    expect(value('11pt_avg', RETRIEVED, JUDGMENTS)).toBeCloseTo(levels.reduce((a, b) => a + b, 0) / 11, 15);
  });

  it('infAP equals AP when every retrieved document is judged, and estimates a pooled unsampled one as half relevant', () => {
    const complete = { a: 1, b: 0, c: 1, d: 0, e: 1 };
    const ranked = ['a', 'b', 'c', 'd'];
    expect(value('infap', ranked, complete)).toBeCloseTo(value('map', ranked, complete), 4);
    // Outside the pool (no qrels line) above the relevant one: like a non-relevant document, AP = 1/2.
    expect(value('infap', ['x', 'a'], { a: 1 })).toBeCloseTo(1 / 2, 15);
    // In the pool but not sampled (−1): 1/2 + 1/2 · 1 · (ε / 2ε) = 3/4.
    expect(value('infap', ['p', 'a'], { p: -1, a: 1 })).toBeCloseTo(3 / 4, 15);
  });

  it('ndcg ignores the relevance level; its gains come from the ndcg-gains table, unlisted grades gaining their value', () => {
    const gains = parseNdcgGains('0=0,1=5,2=1');
    // Gains: r1 (2) → 1, r2 (1) → 5, r3 (3) → 3 (unlisted); ideal order 5, 3, 1.
    const dcg = 1 + 5 / Math.log2(5);
    const ideal = 5 + 3 / Math.log2(3) + 1 / 2;
    expect(value('ndcg', RETRIEVED, JUDGMENTS, level(1, gains))).toBeCloseTo(dcg / ideal, 15);
    expect(value('ndcg', RETRIEVED, JUDGMENTS, level(3, gains))).toBeCloseTo(dcg / ideal, 15);
    expect(value('ndcg', RETRIEVED, JUDGMENTS, level(3))).toBeCloseTo(value('ndcg', RETRIEVED, JUDGMENTS), 15);
    // A negative gain costs the ranking that retrieves it, and the ideal ranking stops before it, as trec_eval's
    // stops at its first gain that is not positive: a, then b (gain −1), against the ideal a alone.
    const negative = parseNdcgGains('1=-1,2=3');
    expect(value('ndcg', ['a', 'b'], { a: 2, b: 1 }, level(1, negative))).toBeCloseTo((3 - 1 / Math.log2(3)) / 3, 15);
    expect(value('ndcg', ['a'], { a: 2, b: 1 }, level(1, negative))).toBe(1);
    // A gain for grade 0 makes judged non-relevant documents count, retrieved or ideal.
    const zero = parseNdcgGains('0=1');
    expect(value('ndcg@1', ['n1'], { n1: 0, r: 1 }, level(1, zero))).toBe(1);
  });
});

describe('relevance-level and ndcg-gains settings', () => {
  it('parse whole levels from 1 and grade=gain lists', () => {
    expect(parseRelevanceLevel('2')).toBe(2);
    for (const bad of ['0', '-1', '1.5', '', 'two']) expect(() => parseRelevanceLevel(bad)).toThrow(/whole number of at least 1/);
    expect([...parseNdcgGains(' 0=0, 1=1 ,2=3,3=-0.5')]).toEqual([
      [0, 0],
      [1, 1],
      [2, 3],
      [3, -0.5],
    ]);
    expect(parseNdcgGains('').size).toBe(0);
    expect(() => parseNdcgGains('1=2,1=3')).toThrow(/grade 1 has two gains/);
    for (const bad of ['-1=2', '1.5=2', '1=x', '1', '=2']) expect(() => parseNdcgGains(bad)).toThrow(/grade=gain/);
  });
});
