import type { PairedValues } from './paired.js';
import { DEFAULT_SEED, Random, type Seed } from './random.js';

/** Default number of random sign-flip arrangements. */
export const DEFAULT_PERMUTATIONS = 10_000;

/** Most arrangements drawn when a p-value near α asks for more (see {@link RandomizationOptions.alpha}). */
export const MAX_PERMUTATIONS = 1_000_000;

/** A p-value within this many Monte Carlo standard errors of α is too close to call: more arrangements are drawn. */
export const UNDECIDED_WITHIN_SE = 3;

/**
 * Relative tolerance for ties: a permuted sum counts as "at least as extreme" when
 * |permuted| ≥ |observed| − TIE_TOLERANCE · Σ|dᵢ|, so arrangements that equal the observed one up to
 * floating-point rounding are counted (the worst-case rounding error of the sums is far below this).
 */
const TIE_TOLERANCE = 1e-9;

export interface RandomizationOptions {
  /** Number of random sign-flip arrangements drawn (default {@link DEFAULT_PERMUTATIONS}). */
  readonly permutations?: number;
  /** PRNG seed (default {@link DEFAULT_SEED}, a constant: the same inputs always give the same p-value). */
  readonly seed?: Seed;
  /**
   * The significance level the p-value will be compared with. Given, the test keeps drawing (doubling the
   * arrangements, same stream) while |p − alpha| ≤ {@link UNDECIDED_WITHIN_SE} · monteCarloSE, up to
   * {@link MAX_PERMUTATIONS}, so that which side of alpha p falls on is not Monte Carlo noise.
   */
  readonly alpha?: number;
}

/** A sign-flip p-value with its Monte Carlo precision. */
export interface SignFlipPValue {
  /** Two-sided p-value, (1 + extreme) / (1 + permutations), or the tail bound (see `tailBound`). */
  readonly pValue: number;
  /** Random arrangements actually drawn: 0 when none was (n = 0, all differences 0, or `tailBound`). */
  readonly permutations: number;
  /** Monte Carlo standard error of pValue, √(p(1 − p) / permutations); 0 when nothing was drawn. */
  readonly monteCarloSE: number;
  /**
   * pValue is Hoeffding's bound on the sign-flip tail ({@link signFlipTailBound}), which was already below
   * 1 / (1 + permutations), the smallest p the permutations could give, and below alpha: no arrangement was drawn.
   */
  readonly tailBound: boolean;
}

export interface RandomizationResult extends SignFlipPValue {
  /** Pairs used (pairs with a NaN on either side are dropped). */
  readonly n: number;
  readonly meanBase: number;
  readonly meanHead: number;
  /** Mean of head − base over the kept pairs (NaN when n = 0). */
  readonly delta: number;
}

/**
 * Paired two-sided randomization (sign-flip) test of "head and base have the same mean" on one metric.
 *
 * Definition: with dᵢ = headᵢ − baseᵢ over the n kept pairs (see pairValues: a pair with a NaN is dropped), under
 * the null hypothesis each dᵢ is as likely to be +|dᵢ| as −|dᵢ|. The test draws `permutations` random sign
 * vectors sᵢ ∈ {+1, −1} (one random bit per pair, 32 pairs per random 32-bit word, seeded xoshiro128**) and counts
 * the arrangements with |Σ sᵢdᵢ| ≥ |Σ dᵢ| (up to a {@link TIE_TOLERANCE} for float ties).
 *
 * Convention: p = (1 + count) / (1 + permutations) — the observed arrangement is itself one of the equally
 * likely arrangements, so it counts, and p is never 0 (the smallest p sampling gives is 1 / (1 + permutations)).
 * This keeps the test valid (P(p ≤ α) ≤ α under the null) despite Monte Carlo sampling. When every difference is
 * 0, or n = 0, p = 1 without sampling; when Hoeffding's bound on the tail is below 1 / (1 + permutations) (and
 * α), p is that bound, without sampling (see {@link signFlipPValue}).
 */
export function pairedRandomizationTest(paired: PairedValues, options: RandomizationOptions = {}): RandomizationResult {
  const { n, meanBase, meanHead, differences } = paired;
  let sum = 0;
  for (let i = 0; i < n; i++) sum += differences[i] as number;
  const delta = n === 0 ? NaN : sum / n;
  return { n, meanBase, meanHead, delta, ...signFlipPValue(differences, options) };
}

/**
 * Hoeffding's inequality for a sum of random signs: each sᵢdᵢ lies in [−|dᵢ|, |dᵢ|], so
 * P(|Σ sᵢdᵢ| ≥ t) ≤ 2·exp(−t² / (2·Σdᵢ²)) for t > 0. With t the observed |Σ dᵢ| (less the tie tolerance) it is at
 * least the exact sign-flip p-value, so a valid p-value itself. Computed on the differences divided by the largest
 * |dᵢ|, which changes nothing but keeps the squares from underflowing or overflowing; never below the smallest
 * positive double (the bound underflows beyond about 38 standard deviations, and a p-value is never 0).
 */
export function signFlipTailBound(differences: ArrayLike<number>): number {
  let largest = 0;
  for (let i = 0; i < differences.length; i++) largest = Math.max(largest, Math.abs(differences[i] as number));
  if (largest === 0) return 1;
  let sum = 0;
  let absoluteSum = 0;
  let squares = 0;
  for (let i = 0; i < differences.length; i++) {
    const d = (differences[i] as number) / largest;
    sum += d;
    absoluteSum += Math.abs(d);
    squares += d * d;
  }
  const t = Math.abs(sum) - TIE_TOLERANCE * absoluteSum;
  return t > 0 ? Math.min(1, Math.max(Number.MIN_VALUE, 2 * Math.exp(-(t * t) / (2 * squares)))) : 1;
}

/**
 * The sign-flip p-value of {@link pairedRandomizationTest} for differences already computed (no NaN allowed).
 *
 * A difference so clear that {@link signFlipTailBound} is already below 1 / (1 + permutations), the smallest p the
 * permutations could give, and below alpha, is not sampled: the bound is its p-value (`tailBound`), smaller than
 * what sampling would report and still at least the exact one.
 *
 * Implementation: zero differences are dropped (flipping 0 changes nothing), the rest are padded with zeros to a
 * multiple of 32, and for every group of 4 pairs a 16-entry table of the signed sums under each sign pattern is
 * built once. A permutation then costs one random word and 8 table look-ups per 32 pairs, with no allocation.
 */
export function signFlipPValue(differences: ArrayLike<number>, options: RandomizationOptions = {}): SignFlipPValue {
  const permutations = options.permutations ?? DEFAULT_PERMUTATIONS;
  if (!Number.isInteger(permutations) || permutations < 1) {
    throw new RangeError(`permutations must be a positive integer, got ${permutations}`);
  }
  const alpha = options.alpha;
  if (alpha !== undefined && !(alpha > 0 && alpha < 1)) throw new RangeError(`alpha must be in (0, 1), got ${alpha}`);
  let nonZero = 0;
  for (let i = 0; i < differences.length; i++) {
    const d = differences[i] as number;
    if (!Number.isFinite(d)) throw new RangeError(`difference ${i} is not finite: ${d}`);
    if (d !== 0) nonZero++;
  }
  if (nonZero === 0) return { pValue: 1, permutations: 0, monteCarloSE: 0, tailBound: false };
  const bound = signFlipTailBound(differences);
  if (bound < 1 / (1 + permutations) && (alpha === undefined || bound < alpha)) return { pValue: bound, permutations: 0, monteCarloSE: 0, tailBound: true };

  const words = Math.ceil(nonZero / 32);
  const padded = new Float64Array(words * 32);
  let absoluteSum = 0;
  for (let i = 0, k = 0; i < differences.length; i++) {
    const d = differences[i] as number;
    if (d !== 0) {
      padded[k++] = d;
      absoluteSum += Math.abs(d);
    }
  }
  // table[g·16 + mask] = Σ_{j<4} (bit j of mask ? −d : +d) for the pairs 4g … 4g+3.
  const table = new Float64Array(words * 8 * 16);
  for (let group = 0; group < words * 8; group++) {
    const d0 = padded[group * 4] as number;
    const d1 = padded[group * 4 + 1] as number;
    const d2 = padded[group * 4 + 2] as number;
    const d3 = padded[group * 4 + 3] as number;
    for (let mask = 0; mask < 16; mask++) {
      table[group * 16 + mask] = (mask & 1 ? -d0 : d0) + (mask & 2 ? -d1 : d1) + (mask & 4 ? -d2 : d2) + (mask & 8 ? -d3 : d3);
    }
  }

  const signs = new Uint32Array(words);
  const observed = Math.abs(signedSum(table, signs)); // all-zero bits: no flips
  const threshold = observed - TIE_TOLERANCE * absoluteSum;
  const random = new Random(options.seed ?? DEFAULT_SEED);
  let extreme = 0;
  let drawn = 0;
  const draw = (count: number) => {
    for (let p = 0; p < count; p++) {
      random.fillUint32(signs);
      if (Math.abs(signedSum(table, signs)) >= threshold) extreme++;
    }
    drawn += count;
  };
  const result = (): SignFlipPValue => {
    const pValue = (1 + extreme) / (1 + drawn);
    return { pValue, permutations: drawn, monteCarloSE: Math.sqrt((pValue * (1 - pValue)) / drawn), tailBound: false };
  };
  draw(permutations);
  let current = result();
  while (alpha !== undefined && Math.abs(current.pValue - alpha) <= UNDECIDED_WITHIN_SE * current.monteCarloSE && drawn < MAX_PERMUTATIONS) {
    draw(Math.min(drawn, MAX_PERMUTATIONS - drawn));
    current = result();
  }
  return current;
}

/** Σ over all pairs of ±dᵢ, the sign of pair 32w + j being bit j of signs[w] (1 = flipped). */
function signedSum(table: Float64Array, signs: Uint32Array): number {
  let low = 0;
  let high = 0;
  for (let w = 0; w < signs.length; w++) {
    const bits = signs[w] as number;
    const o = w * 128;
    low +=
      (table[o + (bits & 15)] as number) +
      (table[o + 16 + ((bits >>> 4) & 15)] as number) +
      (table[o + 32 + ((bits >>> 8) & 15)] as number) +
      (table[o + 48 + ((bits >>> 12) & 15)] as number);
    high +=
      (table[o + 64 + ((bits >>> 16) & 15)] as number) +
      (table[o + 80 + ((bits >>> 20) & 15)] as number) +
      (table[o + 96 + ((bits >>> 24) & 15)] as number) +
      (table[o + 112 + (bits >>> 28)] as number);
  }
  return low + high;
}
