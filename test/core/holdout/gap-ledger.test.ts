import { describe, expect, it } from 'vitest';
import { evalConfig } from '../../../src/core/compare/settings.js';
import { evaluateHoldout, readGap } from '../../../src/core/holdout/gap.js';
import { ledgerStatus, type LedgerEntry } from '../../../src/core/holdout/ledger.js';
import { OutcomeBuilder, withoutQuestions } from '../../../src/core/scoring/outcomes.js';
import { parseRetrievalOkRule } from '../../../src/core/catalog/parse/retrieval-ok.js';
import { newcombeInterval, twoProportionTest } from '../../../src/core/stats/two-proportions.js';

const config = evalConfig({ k: [5], 'retrieval-ok': parseRetrievalOkRule('hit@5'), correct: { kind: 'exact' }, 'relevance-level': 1, 'ndcg-gains': new Map() });

/** A run: `dev` development questions of which `devRight` are correct, and likewise for the holdout. */
function run(dev: number, devRight: number, held: number, heldRight: number) {
  const builder = new OutcomeBuilder(config);
  for (let i = 0; i < dev; i++)
    builder.add({ id: `d${i}`, question: 'q', correct: i < devRight, retrieved_ids: ['a'], relevant_ids: [i < devRight ? 'a' : 'b'] });
  for (let i = 0; i < held; i++)
    builder.add({ id: `h${i}`, question: 'q', correct: i < heldRight, retrieved_ids: ['a'], relevant_ids: [i < heldRight ? 'a' : 'b'] });
  const split = {
    holdout: new Set(Array.from({ length: held }, (_, i) => `h${i}`)),
    development: new Set(Array.from({ length: dev }, (_, i) => `d${i}`)),
  };
  return { outcomes: builder.build(), split };
}

describe('two proportions', () => {
  it("gives Newcombe's method-10 interval for 56/70 − 48/80: 0.0524 to 0.3339 (Newcombe 1998, table II)", () => {
    const [low, high] = newcombeInterval({ count1: 56, n1: 70, count2: 48, n2: 80 });
    expect(low).toBeCloseTo(0.0524, 4);
    expect(high).toBeCloseTo(0.3339, 4);
  });

  it('gives the pooled z test of statsmodels proportions_ztest([15, 25], [50, 50]): z −2.0412, p 0.04123', () => {
    const test = twoProportionTest({ count1: 15, n1: 50, count2: 25, n2: 50 });
    expect(test.z).toBeCloseTo(-2.0412, 4);
    expect(test.pValue).toBeCloseTo(0.04123, 5);
    expect(test.upperPValue).toBeCloseTo(1 - 0.04123 / 2, 5);
    expect(twoProportionTest({ count1: 25, n1: 50, count2: 15, n2: 50 }).upperPValue).toBeCloseTo(0.04123 / 2, 5);
  });
});

describe('evaluateHoldout', () => {
  it('measures the gap development − holdout with its interval, and reads 5 points as expected', () => {
    // 70% of 700 development questions right, 65% of 300 holdout questions.
    const { outcomes, split } = run(700, 490, 300, 195);
    const evaluation = evaluateHoldout(outcomes, split, []);
    expect(evaluation.development).toBe(700);
    expect(evaluation.holdout).toBe(300);
    expect(evaluation.headline?.metric).toBe('correct');
    expect(evaluation.headline?.gap).toBeCloseTo(0.05, 12);
    expect(evaluation.headline?.ci).toEqual(newcombeInterval({ count1: 490, n1: 700, count2: 195, n2: 300 }));
    expect(evaluation.reading).toEqual({ kind: 'expected', certain: false });
    expect(evaluation.metrics.map((metric) => metric.metric)).toEqual(['correct', 'retrieval_ok']);
  });

  it('reads a 15-point drop as overfitting, certain when the whole interval lies above 8 points', () => {
    const { outcomes, split } = run(2000, 1600, 2000, 1300);
    const evaluation = evaluateHoldout(outcomes, split, []);
    expect(evaluation.headline?.gap).toBeCloseTo(0.15, 12);
    expect(evaluation.reading).toEqual({ kind: 'overfit', certain: true });
  });

  it('names results questions the split does not know and holdout questions the results lack', () => {
    const { outcomes } = run(10, 5, 10, 5);
    const evaluation = evaluateHoldout(outcomes, { holdout: new Set(['h0', 'h1', 'gone']), development: new Set(['d0']) }, []);
    expect(evaluation.holdoutMissing).toEqual(['gone']);
    expect(evaluation.unassigned).toHaveLength(17);
    expect(evaluation.holdout).toBe(2);
    expect(evaluation.development).toBe(1);
  });

  it('bands a gap by the reference: below 3 points small, 3 to 8 expected, above 8 overfit', () => {
    expect(readGap(0.01, [-0.02, 0.025])).toEqual({ kind: 'small', certain: true });
    expect(readGap(-0.04, [-0.09, 0.01])).toEqual({ kind: 'small', certain: true });
    expect(readGap(0.06, [0.035, 0.075])).toEqual({ kind: 'expected', certain: true });
    expect(readGap(0.09, [0.02, 0.16])).toEqual({ kind: 'overfit', certain: false });
  });
});

describe('withoutQuestions', () => {
  it('leaves the given questions out of every column and names them', () => {
    const { outcomes } = run(3, 1, 2, 2);
    const { outcomes: kept, leftOut } = withoutQuestions(outcomes, new Set(['h0', 'h1', 'absent']));
    expect(leftOut).toEqual(['h0', 'h1']);
    expect(kept.ids).toEqual(['d0', 'd1', 'd2']);
    expect([...kept.columns.get('correct')!]).toEqual([1, 0, 0]);
  });
});

describe('ledgerStatus', () => {
  const entry = (commit: string | null, holdout = 'f1'): LedgerEntry => ({ holdout, commit, date: '2026-01-01T00:00:00.000Z', by: 'ci', gap: 0.05 });

  it('is clean on the first look and when the same commit is evaluated again (a re-run)', () => {
    expect(ledgerStatus([], { holdout: 'f1', commit: 'abc' })).toMatchObject({ looks: 1, clean: true });
    expect(ledgerStatus([entry('abc')], { holdout: 'f1', commit: 'abc' })).toMatchObject({ looks: 1, clean: true });
  });

  it('flags a look for a second commit, counts every commit, and ignores looks at another holdout', () => {
    const status = ledgerStatus([entry('abc'), entry('def'), entry('zzz', 'f0')], { holdout: 'f1', commit: 'ghi' });
    expect(status).toMatchObject({ looks: 3, clean: false });
    expect(status.earlier.map((e) => e.commit)).toEqual(['abc', 'def']);
  });

  it('counts a look without a commit as a look of its own (fail closed)', () => {
    expect(ledgerStatus([entry(null)], { holdout: 'f1', commit: null })).toMatchObject({ looks: 2, clean: false });
  });
});
