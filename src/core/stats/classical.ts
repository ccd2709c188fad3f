import normalCdf from '@stdlib/stats-base-dists-normal-cdf';
import tCdf from '@stdlib/stats-base-dists-t-cdf';

/**
 * The classical paired tests IR papers report beside a randomization test: the paired t-test and the Wilcoxon
 * signed-rank test, two-sided, on the differences head − base. Each equals scipy.stats with its defaults
 * (`ttest_rel(head, base)`, `wilcoxon(head, base)`).
 */

export interface PairedTTest {
  readonly kind: 't';
  /** t = mean(d) / (sd(d) / √n), sd with divisor n − 1. */
  readonly statistic: number;
  /** n − 1. */
  readonly df: number;
  /** 2·P(T_df ≥ |t|). */
  readonly pValue: number;
}

/**
 * Paired t-test (scipy.stats.ttest_rel). Null when it is undefined: fewer than 2 pairs, or differences without
 * spread (scipy then gives ±inf or nan).
 */
export function pairedTTest(differences: ArrayLike<number>): PairedTTest | null {
  const n = differences.length;
  if (n < 2) return null;
  let sum = 0;
  let allEqual = true;
  for (let i = 0; i < n; i++) {
    sum += differences[i] as number;
    if (differences[i] !== differences[0]) allEqual = false;
  }
  // Tested on the values, not the sum of squares, which rounding can leave a hair above 0.
  if (allEqual) return null;
  const mean = sum / n;
  let squares = 0;
  for (let i = 0; i < n; i++) squares += ((differences[i] as number) - mean) ** 2;
  // Differences so small (subnormal) that their squares underflow to 0 have no spread a double can hold.
  if (squares === 0) return null;
  const df = n - 1;
  const statistic = mean / Math.sqrt(squares / df / n);
  // The lower tail at −|t|, doubled: no cancellation for small p-values.
  return { kind: 't', statistic, df, pValue: Math.min(1, 2 * tCdf(-Math.abs(statistic), df)) };
}

/** How the Wilcoxon p-value was computed, as scipy's `method='auto'` picks it. */
export type WilcoxonMethod = 'exact' | 'permutation' | 'normal';

export interface WilcoxonTest {
  readonly kind: 'wilcoxon';
  /** min(R+, R−), the smaller signed-rank sum (scipy's two-sided statistic). */
  readonly statistic: number;
  /** Non-zero differences ranked (zeros are dropped: zero_method 'wilcox'). */
  readonly nonZero: number;
  readonly pValue: number;
  readonly method: WilcoxonMethod;
}

/** Above this many pairs (zeros included) scipy's 'auto' uses the normal approximation. */
const WILCOXON_EXACT_MAX = 50;
/** At most this many pairs (zeros included), ties or zeros make scipy's 'auto' enumerate all 2^n sign flips. */
const WILCOXON_PERMUTATION_MAX = 13;

/**
 * Wilcoxon signed-rank test, two-sided, with scipy.stats.wilcoxon's defaults (zero_method 'wilcox',
 * correction False, method 'auto'). Zero differences are dropped; the others are ranked by |d| with average ranks
 * for ties; R+ sums the ranks of the positive ones. n below counts every pair, zeros included.
 * - n > 50: normal approximation, z = (R+ − m(m+1)/4) / √((m(m+1)(2m+1) − Σ(t³ − t)/2) / 24) over the m non-zero
 *   differences and the tie groups t, p = 2·Φ(−|z|), no continuity correction.
 * - n ≤ 50 without ties or zeros: the exact null distribution of R+ (all 2^m sign patterns equally likely),
 *   p = min(1, 2·min(P(R+ ≤ r), P(R+ ≥ r))).
 * - otherwise n ≤ 13: the same over an enumeration of the 2^m sign patterns with the tied ranks as they are
 *   (scipy's permutation test, exact at this size); n in 14…50: the normal approximation.
 * Null when every difference is 0 (or there are none): scipy gives nan.
 */
export function wilcoxonSignedRank(differences: ArrayLike<number>): WilcoxonTest | null {
  const n = differences.length;
  const nonZero: number[] = [];
  for (let i = 0; i < n; i++) if ((differences[i] as number) !== 0) nonZero.push(differences[i] as number);
  const m = nonZero.length;
  if (m === 0) return null;
  const { ranks, tieTerm } = averageRanks(nonZero.map(Math.abs));
  let rPlus = 0;
  let rankSum = 0;
  for (let i = 0; i < m; i++) {
    rankSum += ranks[i]!;
    if (nonZero[i]! > 0) rPlus += ranks[i]!;
  }
  const statistic = Math.min(rPlus, rankSum - rPlus);
  const tied = tieTerm > 0;
  if (n <= WILCOXON_EXACT_MAX && !tied && m === n) {
    const { lower, upper } = exactTails(m, rPlus);
    return { kind: 'wilcoxon', statistic, nonZero: m, pValue: Math.min(1, 2 * Math.min(lower, upper)), method: 'exact' };
  }
  if (n <= WILCOXON_PERMUTATION_MAX) {
    const { lower, upper } = enumeratedTails(ranks, rPlus);
    return { kind: 'wilcoxon', statistic, nonZero: m, pValue: Math.min(1, 2 * Math.min(lower, upper)), method: 'permutation' };
  }
  const mean = (m * (m + 1)) / 4;
  const sd = Math.sqrt((m * (m + 1) * (2 * m + 1) - tieTerm / 2) / 24);
  const z = (rPlus - mean) / sd;
  return { kind: 'wilcoxon', statistic, nonZero: m, pValue: Math.min(1, 2 * normalCdf(-Math.abs(z), 0, 1)), method: 'normal' };
}

/** Average ranks (1-based) of `values`, and Σ(t³ − t) over the groups of t tied values. */
function averageRanks(values: readonly number[]): { ranks: number[]; tieTerm: number } {
  const order = values.map((_, i) => i).sort((a, b) => values[a]! - values[b]!);
  const ranks = new Array<number>(values.length);
  let tieTerm = 0;
  for (let start = 0; start < order.length;) {
    let end = start + 1;
    while (end < order.length && values[order[end]!] === values[order[start]!]) end++;
    const t = end - start;
    for (let k = start; k < end; k++) ranks[order[k]!] = (start + 1 + end) / 2;
    tieTerm += t * t * t - t;
    start = end;
  }
  return { ranks, tieTerm };
}

/**
 * P(R+ ≤ r) and P(R+ ≥ r) under the null for m untied ranks 1…m: the number of subsets of {1…m} with each sum,
 * counted by dynamic programming (whole numbers below 2^50, exact in doubles), over 2^m.
 */
function exactTails(m: number, rPlus: number): { lower: number; upper: number } {
  const max = (m * (m + 1)) / 2;
  const counts = new Float64Array(max + 1);
  counts[0] = 1;
  for (let rank = 1; rank <= m; rank++) for (let sum = max; sum >= rank; sum--) counts[sum]! += counts[sum - rank]!;
  let lower = 0;
  let upper = 0;
  for (let sum = 0; sum <= max; sum++) {
    if (sum <= rPlus) lower += counts[sum]!;
    if (sum >= rPlus) upper += counts[sum]!;
  }
  const total = 2 ** m;
  return { lower: lower / total, upper: upper / total };
}

/** P(R+ ≤ r) and P(R+ ≥ r) over all 2^m sign patterns of the given (possibly tied) ranks. */
function enumeratedTails(ranks: readonly number[], rPlus: number): { lower: number; upper: number } {
  const m = ranks.length;
  let lower = 0;
  let upper = 0;
  for (let mask = 0; mask < 2 ** m; mask++) {
    let sum = 0;
    for (let i = 0; i < m; i++) if (mask & (1 << i)) sum += ranks[i]!;
    // Ranks are halves at worst, so these sums are exact.
    if (sum <= rPlus) lower++;
    if (sum >= rPlus) upper++;
  }
  return { lower: lower / 2 ** m, upper: upper / 2 ** m };
}
