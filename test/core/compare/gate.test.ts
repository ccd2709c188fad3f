import { describe, expect, it } from 'vitest';
import type { GateName } from '../../../src/core/catalog/gates.js';
import { type Floor, parseFloor } from '../../../src/core/catalog/parse/floor.js';
import { decideGate } from '../../../src/core/compare/gate.js';
import type { CompareConfig, Coverage, PairedTest } from '../../../src/core/compare/types.js';
import type { RunSummary } from '../../../src/core/scoring/summary.js';

describe('parseFloor', () => {
  it.each([
    ['recall@5=0.8', { metric: 'recall@5', op: '>=', value: 0.8 }],
    ['recall@5>=0.8', { metric: 'recall@5', op: '>=', value: 0.8 }],
    ['  hit@10 >= 0.75 ', { metric: 'hit@10', op: '>=', value: 0.75 }],
    ['false_refusal_rate<=0.1', { metric: 'false_refusal_rate', op: '<=', value: 0.1 }],
    ['correct=.5', { metric: 'correct', op: '>=', value: 0.5 }],
    ['score:tone>=3', { metric: 'score:tone', op: '>=', value: 3 }],
    ['tone>=3', { metric: 'score:tone', op: '>=', value: 3 }],
    ['faithfulness>=0.8', { metric: 'faithfulness', op: '>=', value: 0.8 }],
  ] as const)('%j → %o', (text, floor) => {
    expect(parseFloor(text)).toEqual(floor);
  });

  it('names the floor and the shape it must have, or the value that is not a number', () => {
    expect(() => parseFloor('recall@5')).toThrow('floor "recall@5" must look like "recall@5=0.8" (head at least 0.8) or "false_refusal_rate<=0.1"');
    expect(() => parseFloor('recall@5<0.8')).toThrow('must look like');
    expect(() => parseFloor('recall @5=0.8')).toThrow('must look like');
    expect(() => parseFloor('recall@5=0.8 x')).toThrow('must look like');
    expect(() => parseFloor('recall@5=abc')).toThrow('floor "recall@5=abc": "abc" is not a number');
    expect(() => parseFloor('recall@5=Infinity')).toThrow('"Infinity" is not a number');
  });
});

const CONFIG = {
  minPaired: 30,
  minCoverage: 0.9,
  alpha: 0.05,
  failOn: new Set<GateName>(['end-to-end']),
  minEffect: 0.02,
  floors: [] as readonly Floor[],
} as unknown as CompareConfig;

const COVERAGE: Coverage = { paired: 100, missing: 0, lostOutcomes: 0, compared: 100, baseQuestions: 100, share: 1 };

function head(metrics: Record<string, number | null>): RunSummary {
  return {
    metrics: Object.fromEntries(Object.entries(metrics).map(([name, value]) => [name, { value, n: value === null ? 0 : 100 }])),
  } as unknown as RunSummary;
}

/** A gated McNemar test on end-to-end correctness. */
function test(fields: { delta: number; significant: boolean; pValue?: number; adjustedPValue?: number | null }): PairedTest {
  return {
    kind: 'mcnemar',
    metric: 'correct',
    gate: 'end-to-end',
    n: 100,
    base: 0.7,
    head: 0.7 + fields.delta,
    fixed: 5,
    broken: 12,
    pValue: 0.01,
    adjustedPValue: 0.01,
    ...fields,
  } as unknown as PairedTest;
}

describe('decideGate', () => {
  it('a significant drop of at least the minimum effect fails, with the numbers that decided it', () => {
    const { verdict, reasons, outcomes, ungated } = decideGate([test({ delta: -0.02, significant: true })], head({}), CONFIG, COVERAGE);
    expect(verdict).toBe('fail');
    expect(ungated).toBe(false);
    expect(reasons).toEqual([
      {
        kind: 'regressed',
        gate: 'end-to-end',
        metric: 'correct',
        base: 0.7,
        head: 0.7 - 0.02,
        delta: -0.02,
        pValue: 0.01,
        adjustedPValue: 0.01,
        alpha: 0.05,
        broken: 12,
        fixed: 5,
      },
    ]);
    expect(outcomes.get('end-to-end')).toBe('fails');
  });

  it('a drop just below the minimum effect only warns; no adjusted p falls back to the raw one', () => {
    const { verdict, warnings, outcomes } = decideGate(
      [test({ delta: -0.019, significant: true, adjustedPValue: null, pValue: 0.03 })],
      head({}),
      CONFIG,
      COVERAGE,
    );
    expect(verdict).toBe('pass');
    expect(outcomes.get('end-to-end')).toBe('below-minimum-effect');
    expect(warnings).toMatchObject([{ kind: 'drop-below-minimum-effect', minEffect: 0.02, delta: -0.019, pValue: 0.03, adjustedPValue: 0.03 }]);
  });

  it('improvements, no change and drops that are not significant pass without an outcome', () => {
    for (const t of [test({ delta: 0.05, significant: true }), test({ delta: 0, significant: true }), test({ delta: -0.1, significant: false })]) {
      const result = decideGate([t], head({}), CONFIG, COVERAGE);
      expect(result).toMatchObject({ verdict: 'pass', reasons: [], warnings: [] });
      expect(result.outcomes.size).toBe(0);
    }
  });

  it('a drop from an uncalibrated judge warns, naming the field', () => {
    const { verdict, warnings, outcomes } = decideGate(
      [test({ delta: -0.1, significant: true })],
      head({}),
      CONFIG,
      COVERAGE,
      new Map([['correct', 'correct']]),
    );
    expect(verdict).toBe('pass');
    expect(outcomes.get('end-to-end')).toBe('uncalibrated-judge');
    expect(warnings).toMatchObject([{ kind: 'drop-from-uncalibrated-judge', field: 'correct', delta: -0.1 }]);
  });

  it('a randomization test drop carries no fixed and broken counts', () => {
    const graded = { ...test({ delta: -0.05, significant: true }), kind: 'randomization', metric: 'ndcg@10' } as unknown as PairedTest;
    const [reason] = decideGate([graded], head({}), CONFIG, COVERAGE).reasons;
    expect(reason).toMatchObject({ kind: 'regressed', metric: 'ndcg@10', delta: -0.05 });
    expect(reason).not.toHaveProperty('broken');
    expect(reason).not.toHaveProperty('fixed');
  });

  it('a drop in per-question pass rates (repeated runs) carries the counts of questions whose rate fell and rose', () => {
    const rates = { broken: 9, fixed: 2, noise: { broken: 3, fixed: 3, questions: 40 } };
    const repeated = { ...test({ delta: -0.05, significant: true }), kind: 'randomization', rates } as unknown as PairedTest;
    const [reason] = decideGate([repeated], head({}), CONFIG, COVERAGE).reasons;
    expect(reason).toEqual({
      kind: 'regressed',
      gate: 'end-to-end',
      metric: 'correct',
      base: 0.7,
      head: 0.7 - 0.05,
      delta: -0.05,
      pValue: 0.01,
      adjustedPValue: 0.01,
      alpha: 0.05,
      broken: 9,
      fixed: 2,
    });
  });

  it('tests of other gates only: the gate asked for is untestable and the run is ungated', () => {
    const other = { ...test({ delta: -0.1, significant: true }), gate: 'retrieval' } as unknown as PairedTest;
    const result = decideGate([other], head({}), CONFIG, COVERAGE);
    expect(result).toMatchObject({ verdict: 'pass', ungated: true, warnings: [{ kind: 'gate-untestable', gate: 'end-to-end' }] });
  });

  it('a gate without its test warns that it could not be tested, and the run counts as ungated', () => {
    const { verdict, warnings, ungated } = decideGate([], head({}), CONFIG, COVERAGE);
    expect(verdict).toBe('pass');
    expect(ungated).toBe(true);
    expect(warnings).toEqual([{ kind: 'gate-untestable', gate: 'end-to-end' }]);
  });

  it('too few pairs and too small a share of the base fail, each at its boundary', () => {
    expect(decideGate([], head({}), CONFIG, { ...COVERAGE, paired: 30 }).reasons).toEqual([]);
    expect(decideGate([], head({}), CONFIG, { ...COVERAGE, paired: 29 }).reasons).toEqual([{ kind: 'too-few-paired', paired: 29, minPaired: 30 }]);
    expect(decideGate([], head({}), CONFIG, { ...COVERAGE, share: 0.9 }).reasons).toEqual([]);
    const low = { paired: 85, missing: 4, lostOutcomes: 0, compared: 89, baseQuestions: 100, share: 0.89 };
    expect(decideGate([], head({}), CONFIG, low).reasons).toEqual([{ kind: 'low-coverage', compared: 89, baseQuestions: 100, share: 0.89, minCoverage: 0.9 }]);
  });

  it('floors: at the value holds, past it breaks, unmeasured cannot be checked, an uncalibrated judge warns', () => {
    const floors: Floor[] = [
      { metric: 'recall@5', op: '>=', value: 0.8 },
      { metric: 'false_refusal_rate', op: '<=', value: 0.1 },
    ];
    const config = { ...CONFIG, failOn: new Set<GateName>(), floors };
    const holding = decideGate([], head({ 'recall@5': 0.8, false_refusal_rate: 0.1 }), config, COVERAGE);
    expect(holding.verdict).toBe('pass');
    expect(holding.ungated).toBe(false);
    expect(holding.floors.map((f) => f.outcome)).toEqual(['holds', 'holds']);
    const broken = decideGate([], head({ 'recall@5': 0.79, false_refusal_rate: 0.11 }), config, COVERAGE);
    expect(broken.verdict).toBe('fail');
    expect(broken.reasons).toEqual([
      { kind: 'floor-broken', floor: floors[0], reads: 'recall@5', value: 0.79 },
      { kind: 'floor-broken', floor: floors[1], reads: 'false_refusal_rate', value: 0.11 },
    ]);
    const unchecked = decideGate([], head({ 'recall@5': null }), config, COVERAGE);
    expect(unchecked.floors[0]).toEqual({ floor: floors[0], reads: 'recall@5', value: null, outcome: 'unchecked' });
    expect(unchecked.reasons[0]).toEqual({ kind: 'floor-unchecked', floor: floors[0] });
    const judged = decideGate([], head({ 'recall@5': 0.9, false_refusal_rate: 0.5 }), config, COVERAGE, new Map([['false_refusal_rate', 'refused']]));
    expect(judged.verdict).toBe('pass');
    expect(judged.warnings).toEqual([{ kind: 'floor-from-uncalibrated-judge', floor: floors[1], value: 0.5, field: 'refused' }]);
    expect(judged.floors[1]!.outcome).toBe('uncalibrated-judge');
  });

  it("a floor reads another tool's score of its name only when rag-gate's own metric has no value", () => {
    const config = { ...CONFIG, failOn: new Set<GateName>(), floors: [{ metric: 'faithfulness', op: '>=', value: 0.8 }] as Floor[] };
    const scoreOnly = { metrics: { faithfulness: { value: null, n: 0 }, 'score:faithfulness': { value: 0.85, n: 40 } } } as unknown as RunSummary;
    expect(decideGate([], scoreOnly, config, COVERAGE).floors[0]).toMatchObject({ reads: 'score:faithfulness', value: 0.85, outcome: 'holds' });
    const both = { metrics: { faithfulness: { value: 0.7, n: 40 }, 'score:faithfulness': { value: 0.85, n: 40 } } } as unknown as RunSummary;
    expect(decideGate([], both, config, COVERAGE).floors[0]).toMatchObject({ reads: 'faithfulness', value: 0.7, outcome: 'broken' });
    const neither = { metrics: {} } as unknown as RunSummary;
    expect(decideGate([], neither, config, COVERAGE).floors[0]).toMatchObject({ reads: 'faithfulness', value: null, outcome: 'unchecked' });
  });
});
