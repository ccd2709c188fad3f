import gammainc from '@stdlib/math-base-special-gammainc';
import binomialCdf from '@stdlib/stats-base-dists-binomial-cdf';
import { describe, expect, it } from 'vitest';
import { resampleMeans } from '../../../src/core/stats/bootstrap.js';
import { type BinomialAt, binomialAt, BinomialSampler, drawMultinomial, multinomialChain, uniform53 } from '../../../src/core/stats/multinomial.js';
import { Random } from '../../../src/core/stats/random.js';

// Every check below draws from fixed seeds, so it passes or fails the same way on every run; the bounds are set at a
// one-in-a-million tail, so a correct sampler fails them with probability 1e-6 for a given seed, and a sampler off
// by a few percent in any cell fails them for certain at these sample sizes.
const TAIL = 1e-6;

/** Pearson's χ² p-value of observed counts against expected ones, cells pooled from the tails until each expects ≥ 5. */
function chiSquarePValue(observed: readonly number[], expected: readonly number[]): number {
  const cells: { observed: number; expected: number }[] = [];
  let pending = { observed: 0, expected: 0 };
  observed.forEach((count, i) => {
    pending = { observed: pending.observed + count, expected: pending.expected + expected[i]! };
    if (pending.expected >= 5) {
      cells.push(pending);
      pending = { observed: 0, expected: 0 };
    }
  });
  if (pending.expected > 0) {
    const last = cells.pop()!;
    cells.push({ observed: last.observed + pending.observed, expected: last.expected + pending.expected });
  }
  const statistic = cells.reduce((sum, cell) => sum + (cell.observed - cell.expected) ** 2 / cell.expected, 0);
  return gammainc(statistic / 2, (cells.length - 1) / 2, true, true);
}

/** Binomial probabilities from the distribution's CDF (stdlib), an independent computation. */
function binomialPmf(trials: number, p: number): number[] {
  return Array.from({ length: trials + 1 }, (_, k) => binomialCdf(k, trials, p) - (k === 0 ? 0 : binomialCdf(k - 1, trials, p)));
}

/** The largest gap between the empirical distribution functions of two ascending samples. */
function ksDistance(a: Float64Array, b: Float64Array): number {
  let distance = 0;
  for (let i = 0, j = 0; i < a.length || j < b.length;) {
    const x = Math.min(a[i] ?? Infinity, b[j] ?? Infinity);
    while (i < a.length && a[i]! <= x) i++;
    while (j < b.length && b[j]! <= x) j++;
    distance = Math.max(distance, Math.abs(i / a.length - j / b.length));
  }
  return distance;
}

describe('BinomialSampler', () => {
  it.each([
    [20, 0.3, 'inversion from 0'],
    [1000, 0.004, 'inversion from 0, small p'],
    [60, 0.5, 'from the mode, p = ½'],
    [1000, 0.3, 'from the mode'],
    [100_000, 0.45, 'from the mode, many trials'],
    [50, 0.8, 'p above ½: trials minus failures'],
  ])('draws Binomial(%i, %d) (%s): χ² against the exact probabilities (simulation)', (trials, p) => {
    const sampler = new BinomialSampler(new Random(`binomial ${trials} ${p}`), trials);
    const draws = 20_000;
    const pmf = binomialPmf(trials, p);
    const observed = new Array<number>(trials + 1).fill(0);
    let sum = 0;
    for (let i = 0; i < draws; i++) {
      const k = sampler.drawAt(trials, binomialAt(p));
      expect(Number.isInteger(k) && k >= 0 && k <= trials).toBe(true);
      observed[k]!++;
      sum += k;
    }
    // Only the populated middle of a wide distribution is binned cell by cell; the tails pool.
    expect(
      chiSquarePValue(
        observed,
        pmf.map((q) => q * draws),
      ),
    ).toBeGreaterThan(TAIL);
    const mean = trials * p;
    const standardError = Math.sqrt((trials * p * (1 - p)) / draws);
    expect(Math.abs(sum / draws - mean)).toBeLessThan(5 * standardError);
  });

  it('degenerate cases: no trials, p = 0, p = 1', () => {
    const sampler = new BinomialSampler(new Random('edges'), 10);
    expect(sampler.drawAt(0, binomialAt(0.3))).toBe(0);
    expect(sampler.drawAt(10, binomialAt(0))).toBe(0);
    expect(sampler.drawAt(10, binomialAt(1))).toBe(10);
  });
});

/** A stream that returns the given 32-bit words, and counts how many were taken. */
function scripted(words: readonly number[]) {
  let taken = 0;
  const random = {
    nextUint32: () => {
      if (taken >= words.length) throw new Error('the scripted stream ran out');
      return words[taken++]!;
    },
  } as unknown as Random;
  return { random, taken: () => taken };
}

/** The two words from which uniform53 makes `u` (rounded down to a multiple of 2^-53). */
function wordsFor(u: number): [number, number] {
  const bits = Math.floor(u * 2 ** 53);
  return [Math.floor(bits / 2 ** 26) * 32, (bits % 2 ** 26) * 64];
}

/** ln Binomial(trials, p) probabilities from sums of logs, an independent computation. */
function binomialProbabilities(trials: number, p: number): number[] {
  const logFactorial = [0];
  for (let k = 1; k <= trials; k++) logFactorial.push(logFactorial[k - 1]! + Math.log(k));
  return Array.from({ length: trials + 1 }, (_, k) =>
    Math.exp(logFactorial[trials]! - logFactorial[k]! - logFactorial[trials - k]! + k * Math.log(p) + (trials - k) * Math.log1p(-p)),
  );
}

/** The order in which inversion takes the outcomes: 0, 1, 2, … for a small mean; else the mode, then below, above, …. */
function inversionOrder(trials: number, p: number): number[] {
  if (trials * p < 16) return Array.from({ length: trials + 1 }, (_, k) => k);
  const mode = Math.floor((trials + 1) * p);
  const order = [mode];
  for (let step = 1; mode - step >= 0 || mode + step <= trials; step++) {
    if (mode - step >= 0) order.push(mode - step);
    if (mode + step <= trials) order.push(mode + step);
  }
  return order;
}

describe('uniform53', () => {
  it('takes the high 27 bits of the first word and the high 26 of the second, over 2^53', () => {
    expect(uniform53(scripted([0, 0]).random)).toBe(0);
    expect(uniform53(scripted([0xffffffff, 0xffffffff]).random)).toBe((2 ** 53 - 1) / 2 ** 53);
    expect(uniform53(scripted([32, 0]).random)).toBe(2 ** -27);
    expect(uniform53(scripted([31, 63]).random)).toBe(0);
    expect(uniform53(scripted([0, 64]).random)).toBe(2 ** -53);
    expect(uniform53(scripted([0x80000000, 0x80000000]).random)).toBe(0.5 + 2 ** -28);
  });
});

describe('BinomialSampler: the outcome each uniform draws', () => {
  it.each([
    [20, 0.3],
    [1000, 0.004],
    [60, 0.5],
    [1000, 0.3],
    [200, 0.08],
    [10, 0.05],
    [3, 0.5],
  ])('Binomial(%i, %d): each outcome is drawn by the uniforms in its interval of the inversion order', (trials, p) => {
    const probabilities = binomialProbabilities(trials, p);
    let before = 0;
    let checked = 0;
    for (const k of inversionOrder(trials, p)) {
      const probability = probabilities[k]!;
      // Points well inside each interval, away from rounding at its ends.
      if (probability > 1e-9) {
        for (const at of [0.02, 0.5, 0.98]) {
          const stream = scripted(wordsFor(before + at * probability));
          expect(new BinomialSampler(stream.random, trials).drawAt(trials, binomialAt(p))).toBe(k);
          expect(stream.taken()).toBe(2);
          checked++;
        }
      }
      before += probability;
    }
    expect(checked).toBeGreaterThan(3);
  });

  it('takes each interval as half-open: a uniform on the boundary draws the outcome after it', () => {
    // Binomial(1, ½) from 0: P(0) = (1 − ½)^1 = ½ exactly, so u = ½ is the boundary between 0 and 1.
    expect(new BinomialSampler(scripted(wordsFor(0.5)).random, 1).drawAt(1, binomialAt(0.5))).toBe(1);
    expect(new BinomialSampler(scripted(wordsFor(0.5 - 2 ** -53)).random, 1).drawAt(1, binomialAt(0.5))).toBe(0);
  });

  it('goes on below the mode after the outcomes above it run out', () => {
    // Binomial(33, ½) from its mode 17: the 16 outcomes above end before the 17 below, and 0 comes last, drawn by
    // the last 2^-33 of the uniforms.
    const trials = 33;
    const stream = scripted(wordsFor(1 - 2 ** -34));
    expect(new BinomialSampler(stream.random, trials).drawAt(trials, binomialAt(0.5))).toBe(0);
    expect(stream.taken()).toBe(2);
  });

  it('draws p above ½ as the trials less a draw of the failures, from the same uniform', () => {
    for (const [trials, p] of [
      [50, 0.8],
      [30, 0.9],
      [400, 0.7],
    ] as const) {
      for (const u of [0.01, 0.3, 0.77, 0.999]) {
        const above = new BinomialSampler(scripted(wordsFor(u)).random, trials).drawAt(trials, binomialAt(p));
        const failures = new BinomialSampler(scripted(wordsFor(u)).random, trials).drawAt(trials, binomialAt(1 - p));
        expect(above).toBe(trials - failures);
      }
    }
  });

  it('takes no uniform when the outcome is certain', () => {
    const stream = scripted([]);
    const sampler = new BinomialSampler(stream.random, 10);
    expect(sampler.drawAt(0, binomialAt(0.3))).toBe(0);
    expect(sampler.drawAt(10, binomialAt(0))).toBe(0);
    expect(sampler.drawAt(10, binomialAt(1))).toBe(10);
    expect(stream.taken()).toBe(0);
  });

  it('draws from its kept log-factorials as a fresh sampler does: the same uniform gives the same outcome', () => {
    const words = [...wordsFor(0.25), ...wordsFor(0.25), ...wordsFor(0.9), ...wordsFor(0.9)];
    const sampler = new BinomialSampler(scripted(words).random, 1000);
    const first = sampler.drawAt(1000, binomialAt(0.3));
    expect(sampler.drawAt(1000, binomialAt(0.3))).toBe(first);
    const later = sampler.drawAt(900, binomialAt(0.3));
    expect(sampler.drawAt(900, binomialAt(0.3))).toBe(later);
    expect([first, later]).toEqual([
      new BinomialSampler(scripted(wordsFor(0.25)).random, 1000).drawAt(1000, binomialAt(0.3)),
      new BinomialSampler(scripted(wordsFor(0.9)).random, 900).drawAt(900, binomialAt(0.3)),
    ]);
  });
});

describe('drawMultinomial', () => {
  /** A binomial that returns scripted counts and records each (trials, p) it was asked for. */
  function recordingBinomial(counts: readonly number[]) {
    const calls: [number, number][] = [];
    let next = 0;
    const binomial = {
      drawAt: (trials: number, at: BinomialAt) => {
        calls.push([trials, at.p]);
        return counts[next++]!;
      },
    } as unknown as BinomialSampler;
    return { binomial, calls };
  }

  it('draws each category from the trials left, with its units over the units not yet passed', () => {
    const { binomial, calls } = recordingBinomial([40, 35, 20]);
    const out = new Int32Array(3);
    expect(drawMultinomial(binomial, 100, multinomialChain([50, 30, 15], 5), out)).toBe(5);
    expect([...out]).toEqual([40, 35, 20]);
    expect(calls).toEqual([
      [100, 50 / 100],
      [60, 30 / 50],
      [25, 15 / 20],
    ]);
  });

  it('gives the last category what is left when no rest follows it, and draws nothing once no trials are left', () => {
    const { binomial, calls } = recordingBinomial([7]);
    const out = new Int32Array(3).fill(-1);
    expect(drawMultinomial(binomial, 10, multinomialChain([4, 6], 0), out)).toBe(0);
    expect([...out.subarray(0, 2)]).toEqual([7, 3]);
    expect(calls).toEqual([[10, 4 / 10]]);

    const spent = recordingBinomial([5]);
    const counts = new Int32Array(3).fill(-1);
    expect(drawMultinomial(spent.binomial, 5, multinomialChain([2, 3, 4], 1), counts)).toBe(0);
    expect([...counts]).toEqual([5, 0, 0]);
    expect(spent.calls).toEqual([[5, 2 / 10]]);
  });
});

describe('drawMultinomial (simulation)', () => {
  it('tallies trials among categories and the rest; the counts add up', () => {
    const sampler = new BinomialSampler(new Random('tally'), 100);
    const out = new Int32Array(3);
    for (let i = 0; i < 200; i++) {
      const rest = drawMultinomial(sampler, 100, multinomialChain([50, 30, 15], 5), out);
      expect(out[0]! + out[1]! + out[2]! + rest).toBe(100);
    }
    // No rest: the last category takes what is left.
    expect(drawMultinomial(sampler, 100, multinomialChain([60, 40], 0), out)).toBe(0);
    expect(out[0]! + out[1]!).toBe(100);
  });
});

describe('resampleMeans: the distribution of the plain index bootstrap', () => {
  it('a 0/±1 sample (counted and unit-drawn values together): χ² against the exact multinomial distribution of the mean (simulation)', () => {
    // 25 zeros and nine +1 are counted by binomials; the six −1 are drawn unit by unit.
    const sample = [...new Array<number>(25).fill(0), ...new Array<number>(9).fill(1), ...new Array<number>(6).fill(-1)];
    const n = sample.length;
    // Exact: the resample sum is N₊ − N₋ with (N₀, N₊, N₋) ~ Multinomial(n; 25/n, 9/n, 6/n).
    const logFactorial = (k: number) => Array.from({ length: k }, (_, i) => Math.log(i + 1)).reduce((a, b) => a + b, 0);
    const exact = new Map<number, number>();
    for (let plus = 0; plus <= n; plus++) {
      for (let minus = 0; plus + minus <= n; minus++) {
        const zero = n - plus - minus;
        const log =
          logFactorial(n) -
          logFactorial(plus) -
          logFactorial(minus) -
          logFactorial(zero) +
          plus * Math.log(9 / n) +
          minus * Math.log(6 / n) +
          zero * Math.log(25 / n);
        exact.set(plus - minus, (exact.get(plus - minus) ?? 0) + Math.exp(log));
      }
    }
    const resamples = 20_000;
    const observed = new Map<number, number>();
    for (const mean of resampleMeans(sample, resamples, 'exact')) {
      const sum = Math.round(mean * n);
      expect(mean * n).toBeCloseTo(sum, 9);
      observed.set(sum, (observed.get(sum) ?? 0) + 1);
    }
    const sums = [...exact.keys()].sort((a, b) => a - b);
    expect([...observed.keys()].every((sum) => exact.has(sum))).toBe(true);
    expect(
      chiSquarePValue(
        sums.map((sum) => observed.get(sum) ?? 0),
        sums.map((sum) => exact.get(sum)! * resamples),
      ),
    ).toBeGreaterThan(TAIL);
  });

  it('a graded sample (many zeros, repeated and unique values): two-sample Kolmogorov–Smirnov against the plain index bootstrap (simulation)', () => {
    const random = new Random('graded');
    const n = 400;
    const sample = Array.from({ length: n }, (_, i) => {
      if (i % 2 === 0) return 0;
      if (i % 5 === 1) return 0.25;
      if (i % 7 === 3) return -0.5;
      return Math.round((random.nextUint32() / 2 ** 32 - 0.45) * 1e6) / 1e6;
    });
    const resamples = 20_000;
    const ours = Float64Array.from(resampleMeans(sample, resamples, 'ks')).sort();
    // The definition itself: n uniform indices per resample from another stream, the mean of the values drawn.
    const plain = new Float64Array(resamples);
    const other = new Random('plain');
    for (let r = 0; r < resamples; r++) {
      let sum = 0;
      for (let i = 0; i < n; i++) sum += sample[other.nextBelow(n)]!;
      plain[r] = sum / n;
    }
    plain.sort();
    const bound = Math.sqrt(-Math.log(TAIL / 2) / 2) * Math.sqrt(2 / resamples); // two-sample KS at level TAIL
    expect(ksDistance(ours, plain)).toBeLessThan(bound);
    // The check can see a wrong sampler: the same means shifted by a tenth of their spread (±1 sd) fail it.
    const spread = plain[Math.floor(0.84 * resamples)]! - plain[Math.floor(0.16 * resamples)]!;
    expect(
      ksDistance(
        ours.map((mean) => mean + spread / 10),
        plain,
      ),
    ).toBeGreaterThan(bound);
  });
});

describe('resampleMeans pinned for a seed (a change here changes every published interval)', () => {
  it('draws the chain as the build before it was prepared once did, on every path of the binomial draw', () => {
    // Counted values: 0 (250 of 400 units: p above ½, drawn as failures, from the mode), 0.25 and −0.5 (from the
    // mode), 1 (12 units: from 0); 48 rare values drawn unit by unit. The means are those of e0ab28a, which took each
    // binomial's logarithms in every draw.
    const rare = Array.from({ length: 48 }, (_, i) => Math.round(Math.sin(i + 1) * 1000) / 1000);
    const sample = [
      ...new Array<number>(250).fill(0),
      ...new Array<number>(60).fill(0.25),
      ...new Array<number>(30).fill(-0.5),
      ...new Array<number>(12).fill(1),
      ...rare,
    ];
    expect([...resampleMeans(sample, 8, 'pinned chain')]).toEqual([
      0.0200575, 0.0197025, 0.043835, 0.07001, 0.0222675, 0.019330000000000003, 0.025135, 0.025912500000000005,
    ]);
  });
});
