import { describe, expect, it } from 'vitest';
import { resolveSettings } from '../../../src/core/catalog/settings.js';
import { compareRuns } from '../../../src/core/compare/compare.js';
import { compareConfig } from '../../../src/core/compare/settings.js';
import type { QuestionOutcomes } from '../../../src/core/scoring/outcomes.js';
import { summarizeRun } from '../../../src/core/scoring/summary.js';
import { Random } from '../../../src/core/stats/random.js';
import { questionOutcomes } from '../../helpers/outcomes.js';

const QUESTIONS = 300;
const REPEATS = 5;
const ALPHA = 0.05;
const config = { ...compareConfig(resolveSettings([], (p) => p.message).settings, []), permutations: 2000 };
const files = { base: 'base.jsonl', head: 'head.jsonl' };
const ids = Array.from({ length: QUESTIONS }, (_, i) => `q${i}`);

const uniform = (random: Random) => random.nextUint32() / 4294967296;

/**
 * Per-question pass probabilities as a temperature > 0 pipeline has them: most questions nearly always right or
 * nearly always wrong, a third genuinely flaky.
 */
function probabilities(random: Random): Float64Array {
  return Float64Array.from(ids, () => {
    const u = uniform(random);
    return u < 0.5 ? 0.9 + 0.1 * uniform(random) : u < 0.67 ? 0.1 * uniform(random) : 0.2 + 0.6 * uniform(random);
  });
}

/** One run: each question's pass rate over REPEATS Bernoulli draws, as the reader builds it from records. */
function run(random: Random, p: ArrayLike<number>): QuestionOutcomes {
  const rates = Float64Array.from(ids, (_, i) => {
    let passes = 0;
    for (let r = 0; r < REPEATS; r++) if (uniform(random) < p[i]!) passes++;
    return passes / REPEATS;
  });
  const runs = new Float64Array(QUESTIONS).fill(REPEATS);
  return questionOutcomes({
    ids,
    columns: new Map([
      ['correct', rates],
      ['answerable', new Float64Array(QUESTIONS).fill(1)],
    ]),
    repeats: {
      runs,
      counts: new Map([
        ['correct', runs],
        ['answerable', runs],
      ]),
      binary: new Set(['correct', 'answerable']),
    },
  });
}

/** Runs base and head `seeds` times, head's probabilities shifted down by `shift`; the share of significant and failing comparisons. */
function simulate(seeds: number, shift: number) {
  let significant = 0;
  let failed = 0;
  let noiseBroken = 0;
  let broken = 0;
  for (let seed = 0; seed < seeds; seed++) {
    const random = new Random(`repeats-simulation-${shift}-${seed}`);
    const p = probabilities(random);
    const base = run(random, p);
    const head = run(
      random,
      p.map((value) => Math.max(0, value - shift)),
    );
    const comparison = compareRuns(base, head, summarizeRun(head, config.eval), config, files);
    const correct = comparison.tests.find((test) => test.metric === 'correct')!;
    if (correct.pValue < ALPHA) significant++;
    if (comparison.verdict === 'fail') failed++;
    if (correct.kind === 'randomization') {
      noiseBroken += correct.rates!.noise!.broken;
      broken += correct.rates!.broken;
    }
  }
  return { significant: significant / seeds, failed: failed / seeds, noiseBroken: noiseBroken / seeds, broken: broken / seeds };
}

describe('repeated runs: the simulation the gate must pass', () => {
  it('no change (head drawn from base’s per-question probabilities): false positives ≤ α within sampling error', () => {
    const seeds = 300;
    const { significant, failed, noiseBroken, broken } = simulate(seeds, 0);
    const samplingError = Math.sqrt((ALPHA * (1 - ALPHA)) / seeds);
    // The test is two-sided: its rejections stay within α; the gate fails on drops only, about half of them.
    expect(significant).toBeLessThanOrEqual(ALPHA + 3 * samplingError);
    expect(failed).toBeLessThanOrEqual(ALPHA / 2 + 3 * samplingError);
    // Under no change many questions still fall between two runs, and the noise floor says how many: on average it
    // equals the observed count (69.4 against 69.3 of 300 questions here, where base's rate plugged in gave 45.3).
    // It misses only questions steady on both sides with different outcomes, which 5 runs a side make rare.
    expect(broken).toBeGreaterThan(50);
    expect(Math.abs(noiseBroken - broken) / broken).toBeLessThan(0.03);
  });

  it('a real 5-point drop is detected most of the time', () => {
    const seeds = 60;
    const { failed } = simulate(seeds, 0.05);
    // With these seeds the gate fails 57 of 60 times (power 0.95 on 100 seeds).
    expect(failed).toBeGreaterThan(0.8);
  });
});

describe('one run per question', () => {
  it('the sign-flip test on pass-rate differences reaches McNemar’s verdict', async () => {
    const { mcnemar } = await import('../../../src/core/stats/mcnemar.js');
    const { signFlipPValue } = await import('../../../src/core/stats/randomization.js');
    for (const [fixed, broken] of [
      [3, 12],
      [10, 11],
      [20, 36],
      [40, 41],
      [5, 30],
    ] as const) {
      const differences = [...Array<number>(fixed).fill(1), ...Array<number>(broken).fill(-1), ...Array<number>(200).fill(0)];
      const rates = signFlipPValue(differences, { seed: 'one-repeat', alpha: ALPHA });
      const exact = mcnemar(fixed, broken, 100, 100, { smallSample: 'exact' });
      expect(rates.pValue < ALPHA).toBe(exact.pValue < ALPHA);
      expect(rates.pValue).toBeCloseTo(exact.pValue, 1);
    }
  });
});
