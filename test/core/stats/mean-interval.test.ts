import { describe, expect, it } from 'vitest';
import { bootstrapMeanCIs } from '../../../src/core/stats/bootstrap.js';
import { intervalMethod, meanIntervals, pairedRateInterval, STUDENT_T_BELOW, studentTInterval } from '../../../src/core/stats/mean-interval.js';
import { Random } from '../../../src/core/stats/random.js';
import { uniform53 } from '../../helpers/uniform.js';

describe('studentTInterval', () => {
  it("R's t.test(1:5)$conf.int: 1.036757 4.963243", () => {
    const [lower, upper] = studentTInterval([1, 2, 3, 4, 5]);
    expect(lower).toBeCloseTo(1.036757, 6);
    expect(upper).toBeCloseTo(4.963243, 6);
  });

  it('keeps the bootstrap conventions: none → NaN, all equal → [v, v]', () => {
    expect(studentTInterval([])).toEqual([NaN, NaN]);
    expect(studentTInterval([0.2])).toEqual([0.2, 0.2]);
    expect(studentTInterval([0.1, 0.1, 0.1])).toEqual([0.1, 0.1]);
    expect(() => studentTInterval([1, Infinity])).toThrow('value 1 is not finite: Infinity');
    for (const level of [0, 1, -0.5, Number.NaN]) expect(() => studentTInterval([1, 2], level)).toThrow(`level must be in (0, 1), got ${level}`);
    // Another level moves the quantile: at 80%, 3 ± t(0.9; 4 df) · s/√n = 3 ± 1.533206 · √(2.5/5) = 3 ± 1.084141.
    const [lower, upper] = studentTInterval([1, 2, 3, 4, 5], 0.8);
    expect(lower).toBeCloseTo(1.915859, 6);
    expect(upper).toBeCloseTo(4.084141, 6);
  });
});

describe('meanIntervals: Student t below 100 values, the percentile bootstrap from 100 on', () => {
  it('no samples give no intervals; samples of different lengths are refused in either method', () => {
    expect(meanIntervals([])).toEqual([]);
    expect(() => meanIntervals([[1, 2], [1]])).toThrow('every sample must have 2 values, sample 1 has 1');
    expect(() => meanIntervals([new Float64Array(100), new Float64Array(99)])).toThrow('every sample must have 100 values, sample 1 has 99');
  });

  it('switches at the threshold', () => {
    expect(STUDENT_T_BELOW).toBe(100);
    expect(intervalMethod(99)).toBe('student-t');
    expect(intervalMethod(100)).toBe('percentile-bootstrap');
    const random = new Random('switch');
    const small = Float64Array.from({ length: 99 }, () => uniform53(random) - 0.4);
    expect(meanIntervals([small])).toEqual([{ ci: studentTInterval(small), method: 'student-t' }]);
    const large = Float64Array.from({ length: 100 }, () => uniform53(random) - 0.4);
    expect(meanIntervals([large])).toEqual([{ ci: bootstrapMeanCIs([large])[0], method: 'percentile-bootstrap' }]);
    // A seed given reaches the bootstrap: its interval, not the default seed's.
    const seeded = meanIntervals([large], { seed: 'switch' });
    expect(seeded).toEqual([{ ci: bootstrapMeanCIs([large], { seed: 'switch' })[0], method: 'percentile-bootstrap' }]);
    expect(seeded[0]!.ci).not.toEqual(bootstrapMeanCIs([large])[0]);
  });

  it('a paired rate difference: its interval depends only on the counts', () => {
    const interval = pairedRateInterval(6, 2, 30);
    const shuffled = new Float64Array(30);
    [3, 9, 11, 20, 22, 29].forEach((i) => (shuffled[i] = 1));
    shuffled[0] = -1;
    shuffled[15] = -1;
    expect(interval).toEqual(meanIntervals([shuffled])[0]);
    expect(interval.method).toBe('student-t');
  });
});

/*
 * Coverage at n = 30, the smallest golden set the gate accepts by default. Seeded and deterministic; the
 * scenarios are the shapes of paired differences the comparison meets.
 */
describe('coverage of the 95% interval at n = 30 (simulation)', () => {
  const n = 30;

  /** P(count vector) for a trinomial (fixed, broken, unchanged) at n. */
  function binomialCoefficient(total: number, k: number): number {
    let c = 1;
    for (let i = 0; i < k; i++) c = (c * (total - i)) / (i + 1);
    return c;
  }

  /** Exact coverage for a rate difference: every (fixed, broken) outcome weighted by its trinomial probability. */
  function binaryCoverage(pFixed: number, pBroken: number, interval: (fixed: number, broken: number) => readonly [number, number]): number {
    const truth = pFixed - pBroken;
    let covered = 0;
    for (let fixed = 0; fixed <= n; fixed++) {
      for (let broken = 0; fixed + broken <= n; broken++) {
        const probability =
          binomialCoefficient(n, fixed) *
          binomialCoefficient(n - fixed, broken) *
          pFixed ** fixed *
          pBroken ** broken *
          (1 - pFixed - pBroken) ** (n - fixed - broken);
        const [lower, upper] = interval(fixed, broken);
        if (lower <= truth + 1e-12 && truth - 1e-12 <= upper) covered += probability;
      }
    }
    return covered;
  }

  it.each([
    [0.1, 0.1],
    [0.15, 0.05],
    [0.2, 0.1],
    [0.3, 0.2],
    [0.05, 0.05],
    [0.25, 0.05],
    [0.1, 0.02],
  ])('binary rate difference, P(fixed) = %f, P(broken) = %f: exact coverage ≥ 94%%', (pFixed, pBroken) => {
    expect(binaryCoverage(pFixed, pBroken, (fixed, broken) => pairedRateInterval(fixed, broken, n).ci)).toBeGreaterThanOrEqual(0.94);
  });

  it('the percentile bootstrap it replaces falls short (92.2% at P(fixed) = 0.1, P(broken) = 0.02)', () => {
    const percentile = binaryCoverage(0.1, 0.02, (fixed, broken) => {
      const differences = new Float64Array(n);
      differences.fill(1, 0, fixed).fill(-1, fixed, fixed + broken);
      return bootstrapMeanCIs([differences], { seed: `${fixed},${broken}` })[0]!;
    });
    expect(percentile).toBeLessThan(0.93);
  });

  const u = (random: Random) => uniform53(random);
  const recallLevels = [0, 1 / 3, 2 / 3, 1];
  const scenarios: [string, (random: Random) => number][] = [
    // recall@5 with three relevant documents: 60% of questions unchanged, head a little better on the rest.
    ['recall@k, three relevant', (r) => (u(r) < 0.6 ? 0 : recallLevels[Math.min(3, r.nextBelow(4) + (u(r) < 0.2 ? 1 : 0))]! - recallLevels[r.nextBelow(4)]!)],
    // recall@5 with two relevant documents: 70% unchanged, no true difference.
    ['recall@k, two relevant', (r) => (u(r) < 0.7 ? 0 : [0, 0.5, 1][r.nextBelow(3)]! - [0, 0.5, 1][r.nextBelow(3)]!)],
    // nDCG@10: 55% unchanged, the rest a new skewed score minus the old one.
    ['ndcg@k', (r) => (u(r) < 0.55 ? 0 : Math.min(1, u(r) ** 0.6) - u(r) ** 0.7)],
  ];

  it.each(scenarios)('%s: simulated coverage ≥ 94%% (2,000 golden sets)', (_, draw) => {
    // The true mean, from a large sample of the same generator.
    const truthRandom = new Random('truth');
    let sum = 0;
    const large = 400_000;
    for (let i = 0; i < large; i++) sum += draw(truthRandom);
    const truth = sum / large;
    const random = new Random('coverage');
    const reps = 2000;
    let covered = 0;
    for (let rep = 0; rep < reps; rep++) {
      const sample = Float64Array.from({ length: n }, () => draw(random));
      const { ci } = meanIntervals([sample])[0]!;
      // The truth is itself estimated (standard error < 0.001), far inside the intervals' width of about 0.2.
      if (ci[0] <= truth && truth <= ci[1]) covered++;
    }
    expect(covered / reps).toBeGreaterThanOrEqual(0.94);
  });
});
