import { describe, expect, it } from 'vitest';
import { resolveSettings, type SettingName, type SettingText } from '../../../src/core/catalog/settings.js';
import { compareRuns } from '../../../src/core/compare/compare.js';
import { compareConfig } from '../../../src/core/compare/settings.js';
import type { CompareConfig, UsageTest } from '../../../src/core/compare/types.js';
import { uniform53 } from '../../../src/core/stats/multinomial.js';
import { Random } from '../../../src/core/stats/random.js';
import { summarizeRun } from '../../../src/core/scoring/summary.js';
import { questionOutcomes } from '../../helpers/outcomes.js';

/**
 * The latency, tokens and cost gates on simulated pairs: every question's true value drawn once, each run's value
 * that times log-normal noise of 20% (σ = 0.2 on the log scale), head's multiplied by `factor`. At 1.3× the gate
 * fails naming the ratio; at 1.0× it passes in at least 95% of 200 seeded pairs (the test's level is α = 0.05).
 */

const QUESTIONS = 60;
const SIGMA = 0.2;
const ids = Array.from({ length: QUESTIONS }, (_, i) => `q${i}`);
const files = { base: 'base.jsonl', head: 'head.jsonl' };

/** A standard normal draw (Box–Muller on the seeded generator). */
function normal(random: Random): number {
  const u = 1 - uniform53(random);
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * uniform53(random));
}

type Gate = 'latency' | 'tokens' | 'cost';
const COLUMNS: Record<Gate, string> = { latency: 'latency_ms', tokens: 'tokens', cost: 'cost_usd' };
/** Each question's true value: latencies of 0.3 to 3 s, 500 to 5,000 tokens, $0.0005 to $0.005. */
const SCALE: Record<Gate, number> = { latency: 300, tokens: 500, cost: 0.0005 };

function configWith(values: Partial<Record<SettingName, string>>): CompareConfig {
  const layer = new Map<SettingName, SettingText>(
    Object.entries(values).map(([name, text]) => [name as SettingName, { text: text!, origin: { kind: 'flag', flag: `--${name}` } }]),
  );
  return compareConfig(resolveSettings([layer], (problem) => problem.message).settings, []);
}

const configFor = (gate: Gate) => configWith({ 'fail-on': gate });

/** One seeded pair of runs of `gate`'s column, head `factor` times base, each value with its own noise. */
function pair(gate: Gate, factor: number, seed: number) {
  const random = new Random(`${gate}-${seed}`);
  const truth = ids.map(() => SCALE[gate] * 10 ** uniform53(random));
  const noisy = (value: number) => {
    const drawn = value * Math.exp(SIGMA * normal(random));
    return gate === 'tokens' ? Math.round(drawn) : drawn;
  };
  const run = (times: number) =>
    questionOutcomes({
      ids,
      columns: new Map([
        [COLUMNS[gate], Float64Array.from(truth, (value) => noisy(value * times))],
        ['answerable', new Float64Array(QUESTIONS).fill(1)],
      ]),
    });
  return { base: run(1), head: run(factor) };
}

function compare(gate: Gate, factor: number, seed: number, config = configFor(gate)) {
  const { base, head } = pair(gate, factor, seed);
  const comparison = compareRuns(base, head, summarizeRun(head, config.eval), config, files);
  const test = comparison.tests.find((t): t is UsageTest => t.kind === 'usage' && t.gate === gate);
  return { comparison, test };
}

describe.each(['latency', 'tokens', 'cost'] as const)('the %s gate', (gate) => {
  it('fails a head 1.3× base on every question, naming the ratio and p', () => {
    const { comparison, test } = compare(gate, 1.3, 1);
    expect(comparison.verdict).toBe('fail');
    const rose = comparison.reasons.find((r) => r.kind === 'rose');
    expect(rose).toMatchObject({ kind: 'rose', gate, metric: COLUMNS[gate], tolerance: 0.1, scale: gate === 'latency' ? 'log' : 'plain' });
    expect(rose?.kind === 'rose' && rose.ratio).toBeGreaterThan(1.2);
    expect(rose?.kind === 'rose' && rose.ratio).toBeLessThan(1.4);
    expect(rose?.kind === 'rose' && rose.ratioCi[0]).toBeGreaterThan(1.1);
    expect(rose?.kind === 'rose' && rose.adjustedPValue).toBeLessThan(0.05);
    expect(test?.gateOutcome).toBe('fails');
    expect(test?.quantiles.map((q) => q.q)).toEqual([0.5, 0.9, 0.95]);
    // The rises listed are the largest first.
    const rises = test!.rises.map((r) => (gate === 'latency' ? r.head / r.base : r.head - r.base));
    expect(rises).toEqual([...rises].sort((a, b) => b - a));
  });

  it('only warns on a significant rise within its tolerance', () => {
    const config = { ...configFor(gate), tolerances: { latency: 0.5, tokens: 0.5, cost: 0.5 } };
    const { comparison, test } = compare(gate, 1.3, 1, config);
    expect(comparison.verdict).toBe('pass');
    expect(test?.gateOutcome).toBe('within-tolerance');
    expect(comparison.warnings.map((w) => w.kind)).toContain('rise-within-tolerance');
  });

  it('never fails a fall', () => {
    const { comparison, test } = compare(gate, 1 / 1.3, 1);
    expect(test?.significant).toBe(true);
    expect(test!.ratio).toBeLessThan(1);
    expect(comparison.verdict).toBe('pass');
  });

  it('passes at least 95% of 200 no-change pairs (simulation)', () => {
    const config = configFor(gate);
    let failed = 0;
    for (let seed = 0; seed < 200; seed++) if (compare(gate, 1, seed, config).comparison.verdict === 'fail') failed++;
    expect(failed).toBeLessThanOrEqual(10);
  });
});

describe('budgets as floors', () => {
  it('read p95 latency and cost a question on head', () => {
    const config = configWith({ 'fail-on': '', floors: 'latency_p95<=2500,cost_per_question<=0.002' });
    const run = (latency: number[], cost: number[]) =>
      questionOutcomes({
        ids: ['a', 'b', 'c', 'd', 'e'],
        columns: new Map([
          ['latency_ms', Float64Array.from(latency)],
          ['cost_usd', Float64Array.from(cost)],
        ]),
      });
    const base = run([100, 200, 300, 400, 500], [0.001, 0.001, 0.001, 0.001, 0.001]);
    // p95 of 1000…5000 (type 7): 4000 + 0.8 × 1000 = 4800; the mean cost 0.0018.
    const head = run([1000, 2000, 3000, 4000, 5000], [0.001, 0.002, 0.002, 0.002, 0.002]);
    const comparison = compareRuns(base, head, summarizeRun(head, config.eval), { ...config, minPaired: 1 }, files);
    expect(comparison.floors.map((f) => [f.floor.metric, f.value, f.outcome])).toEqual([
      ['latency_p95', 4800, 'broken'],
      ['cost_per_question', expect.closeTo(0.0018, 12), 'holds'],
    ]);
    expect(comparison.reasons).toEqual([{ kind: 'floor-broken', floor: { metric: 'latency_p95', op: '<=', value: 2500 }, reads: 'latency_p95', value: 4800 }]);
  });

  it('cannot be checked, and fail, on results without the field', () => {
    const config = { ...configWith({ 'fail-on': '', floors: 'latency_p95<=2500' }), minPaired: 1 };
    const run = questionOutcomes({ ids: ['a', 'b'], columns: new Map([['correct', Float64Array.from([1, 1])]]) });
    const comparison = compareRuns(run, run, summarizeRun(run, config.eval), config, files);
    expect(comparison.reasons).toEqual([{ kind: 'floor-unchecked', floor: { metric: 'latency_p95', op: '<=', value: 2500 } }]);
  });
});
