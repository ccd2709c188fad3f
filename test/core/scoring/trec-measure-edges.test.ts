import { describe, expect, it } from 'vitest';
import { parseRetrievalMetric } from '../../../src/core/catalog/retrieval-metrics.js';
import { judgeRanking } from '../../../src/core/measures/ranking.js';

const value = (name: string, retrieved: string[], judgments: Record<string, number>) =>
  parseRetrievalMetric(name).compute(judgeRanking(retrieved, new Map(Object.entries(judgments)), { relevanceLevel: 1, ndcgGains: new Map() }));
const MEASURES = ['bpref', 'infap', 'iprec@0', 'iprec@0.5'];
const values = (retrieved: string[], judgments: Record<string, number>) => MEASURES.map((name) => value(name, retrieved, judgments));

// Every expected value is trec_eval's (-c -m bpref -m infAP -m iprec_at_recall.0.00,0.50) on the same query, as 17 digits.
describe('trec_eval measures at their edges', () => {
  it('score 0 when nothing is relevant, or nothing was retrieved', () => {
    expect(values(['n1', 'x'], { n1: 0, n2: 0 })).toEqual([0, 0, 0, 0]);
    expect(values([], { r1: 1 })).toEqual([0, 0, 0, 0]);
  });

  it('bpref: a relevant document with no judged non-relevant one above it scores 1, even when none is judged non-relevant', () => {
    // u (unjudged), r1, r2; R = 2, N = 0.
    expect(values(['u', 'r1', 'r2'], { r1: 1, r2: 1 })).toEqual([1, 0.5833316666999994, 0.6666666666666666, 0.6666666666666666]);
  });

  it('bpref: the judged non-relevant above count up to min(N, R), fewer non-relevant than relevant', () => {
    // R = 3, N = 1: n1, r1, r2: both lose 1/min(1, 3) = 1.
    expect(values(['n1', 'r1', 'r2'], { r1: 1, r2: 1, r3: 1, n1: 0 })).toEqual([0, 0.38889055552222285, 0.6666666666666666, 0.6666666666666666]);
  });

  it('bpref: more non-relevant than relevant', () => {
    // R = 2, N = 3: n1, r1, n2, r2: r1 loses 1/2, r2 loses 2/2.
    expect(values(['n1', 'r1', 'n2', 'r2'], { r1: 1, r2: 1, n1: 0, n2: 0, n3: 0 })).toEqual([0.25, 0.50000291661389, 0.5, 0.5]);
  });

  it('iprec: the running maximum of precision from the bottom up, not the precision where the level is reached', () => {
    // n1, r1, r2 with R = 2: precision 2/3 at rank 3 exceeds 1/2 at rank 2, where recall 0.5 is reached.
    expect(value('iprec@0.5', ['n1', 'r1', 'r2'], { r1: 1, r2: 1, n1: 0 })).toBe(0.6666666666666666);
  });
});
