import betaQuantile from '@stdlib/stats-base-dists-beta-quantile';
import { DEFAULT_RESAMPLES } from './bootstrap.js';
import { DEFAULT_SEED, Random, type Seed } from './random.js';

/**
 * Quantiles and their intervals, for what a question cost (latency, tokens, dollars): the sample quantile, the
 * bootstrap interval of one quantile, and the paired bootstrap of head/base ratios of quantiles and of means.
 */

/** The q-quantile of ascending values, type 7 (R's and numpy's default): linear between order statistics at (n − 1)·q. */
export function quantileSorted(sorted: ArrayLike<number>, q: number): number {
  const n = sorted.length;
  if (n === 0) return NaN;
  const position = (n - 1) * q;
  const below = Math.floor(position);
  const above = Math.min(below + 1, n - 1);
  return sorted[below]! + (position - below) * (sorted[above]! - sorted[below]!);
}

/**
 * The percentile bootstrap interval of the r-th smallest value (1-based) of ascending `sorted`, exactly: in a
 * resample of n draws, the r-th smallest is at most sorted[j − 1] when at least r draws fall on the j smallest
 * values, so P(X*₍ᵣ₎ ≤ x₍ⱼ₎) = P(Binomial(n, j/n) ≥ r) = I_{j/n}(r, n − r + 1), the Beta(r, n − r + 1) distribution
 * function. Its tail quantiles are read from the Beta quantile function: no resampling, no Monte Carlo error.
 */
function orderStatisticInterval(sorted: ArrayLike<number>, rank: number, tail: number): [number, number] {
  const n = sorted.length;
  const at = (p: number) => {
    // The smallest j with I_{j/n} ≥ p; the 1e-9 keeps a j/n the Beta quantile hits up to rounding.
    const j = Math.ceil(n * betaQuantile(p, rank, n - rank + 1) - 1e-9);
    return sorted[Math.min(n, Math.max(1, j)) - 1]!;
  };
  return [at(tail), at(1 - tail)];
}

/**
 * The 95% (by `level`) percentile bootstrap interval of the type-7 q-quantile of ascending values: the exact
 * bootstrap interval of each of the two order statistics it interpolates between, interpolated with the same
 * weight. n = 0 → [NaN, NaN]; one value, or all equal → [v, v].
 */
export function quantileInterval(sorted: ArrayLike<number>, q: number, level = 0.95): [number, number] {
  const n = sorted.length;
  if (n === 0) return [NaN, NaN];
  if (sorted[0] === sorted[n - 1]) return [sorted[0]!, sorted[0]!];
  const tail = (1 - level) / 2;
  const position = (n - 1) * q;
  const below = Math.floor(position);
  const weight = position - below;
  const lower = orderStatisticInterval(sorted, below + 1, tail);
  if (weight === 0) return lower;
  const upper = orderStatisticInterval(sorted, Math.min(below + 2, n), tail);
  return [lower[0] + weight * (upper[0] - lower[0]), lower[1] + weight * (upper[1] - lower[1])];
}

/** A head/base ratio and its 95% interval. */
export interface RatioInterval {
  readonly base: number;
  readonly head: number;
  /** head / base; NaN when base is 0. */
  readonly ratio: number;
  readonly ci: readonly [number, number];
}

/** At most this many draws in all (resamples × pairs): above it, fewer resamples, never below {@link MIN_RESAMPLES}. */
const DRAW_BUDGET = 40_000_000;
const MIN_RESAMPLES = 400;

/**
 * Paired percentile bootstrap of head/base ratios: of each q-quantile of `qs`, and of the means. Each resample
 * draws n questions with replacement (both sides of a pair together, so the pairing's correlation is kept) and
 * takes the ratio of the resample's head and base quantiles (type 7) and means; the interval is the 2.5% and 97.5%
 * quantiles of those ratios. `base` and `head` are the paired values, no NaN. Seeded: the same pairs always give
 * the same intervals. The resamples are cut (to at least 400) when n is so large that 2,000 would cost more than
 * 40 million draws.
 */
export function pairedRatioIntervals(
  base: ArrayLike<number>,
  head: ArrayLike<number>,
  qs: readonly number[],
  options: { readonly resamples?: number; readonly seed?: Seed } = {},
): { quantiles: RatioInterval[]; mean: RatioInterval } {
  const n = base.length;
  const sortedBase = Float64Array.from(base).sort();
  const sortedHead = Float64Array.from(head).sort();
  let sumBase = 0;
  let sumHead = 0;
  for (let i = 0; i < n; i++) {
    sumBase += base[i]!;
    sumHead += head[i]!;
  }
  const point = (b: number, h: number) => ({ base: b, head: h, ratio: b === 0 ? NaN : h / b });
  const quantilePoints = qs.map((q) => point(quantileSorted(sortedBase, q), quantileSorted(sortedHead, q)));
  const meanPoint = point(sumBase / n, sumHead / n);
  if (n < 2)
    return { quantiles: quantilePoints.map((p) => ({ ...p, ci: [p.ratio, p.ratio] })), mean: { ...meanPoint, ci: [meanPoint.ratio, meanPoint.ratio] } };

  const resamples = Math.max(MIN_RESAMPLES, Math.min(options.resamples ?? DEFAULT_RESAMPLES, Math.floor(DRAW_BUDGET / n)));
  const random = new Random(options.seed ?? DEFAULT_SEED);
  const orderBase = order(base);
  const orderHead = order(head);
  const counts = new Int32Array(n);
  const ratios = qs.map(() => new Float64Array(resamples));
  const meanRatios = new Float64Array(resamples);
  const positions = qs.map((q) => (n - 1) * q);
  for (let r = 0; r < resamples; r++) {
    counts.fill(0);
    let b = 0;
    let h = 0;
    for (let d = 0; d < n; d++) {
      const i = random.nextBelow(n);
      counts[i]!++;
      b += base[i]!;
      h += head[i]!;
    }
    meanRatios[r] = h / b;
    const baseQuantiles = resampledQuantiles(orderBase, base, counts, positions);
    const headQuantiles = resampledQuantiles(orderHead, head, counts, positions);
    for (let k = 0; k < qs.length; k++) ratios[k]![r] = headQuantiles[k]! / baseQuantiles[k]!;
  }
  const interval = (values: Float64Array): [number, number] => {
    const finite = values.filter((v) => !Number.isNaN(v)).sort();
    return finite.length === 0 ? [NaN, NaN] : [quantileSorted(finite, 0.025), quantileSorted(finite, 0.975)];
  };
  return {
    quantiles: quantilePoints.map((p, k) => ({ ...p, ci: interval(ratios[k]!) })),
    mean: { ...meanPoint, ci: interval(meanRatios) },
  };
}

/** The indices of `values` in ascending order of value. */
function order(values: ArrayLike<number>): Int32Array {
  const indices = Int32Array.from({ length: values.length }, (_, i) => i);
  return indices.sort((a, b) => values[a]! - values[b]!);
}

/**
 * Type-7 quantiles of a resample given as draw counts per unit, walking the units in value order once: the values
 * at 0-based ranks ⌊position⌋ and ⌊position⌋ + 1 of the n draws, interpolated. `positions` ascend.
 */
function resampledQuantiles(sortedIndex: Int32Array, values: ArrayLike<number>, counts: Int32Array, positions: readonly number[]): number[] {
  const out: number[] = [];
  let seen = 0;
  let unit = 0;
  for (const position of positions) {
    const below = Math.floor(position);
    while (seen + counts[sortedIndex[unit]!]! <= below) seen += counts[sortedIndex[unit++]!]!;
    const low = values[sortedIndex[unit]!]!;
    const weight = position - below;
    out.push(weight === 0 ? low : low + weight * (peek(sortedIndex, values, counts, unit, seen, below + 1) - low));
  }
  return out;
}

/** The value at 0-based rank `rank` of the resample, walking on from `unit` with `seen` draws before it. */
function peek(sortedIndex: Int32Array, values: ArrayLike<number>, counts: Int32Array, unit: number, seen: number, rank: number): number {
  while (seen + counts[sortedIndex[unit]!]! <= rank) seen += counts[sortedIndex[unit++]!]!;
  return values[sortedIndex[unit]!]!;
}
