import gammainc from '@stdlib/math-base-special-gammainc';
import betaQuantile from '@stdlib/stats-base-dists-beta-quantile';
import binomialCdf from '@stdlib/stats-base-dists-binomial-cdf';

/**
 * Below this many discordant pairs (fixed + broken) the exact binomial p-value decides; from it on, the χ² one.
 */
export const MCNEMAR_EXACT_THRESHOLD = 25;

/** Which p-value decided a McNemar test. */
export type McNemarDecidedBy = 'exact' | 'mid-p' | 'chi2';

/** The small-sample test: the exact binomial one (the default), or its mid-p version. */
export type McNemarSmallSample = 'exact' | 'mid-p';

export interface McNemarResult {
  /** Pairs wrong in base and right in head. */
  readonly fixed: number;
  /** Pairs right in base and wrong in head. */
  readonly broken: number;
  /** Pairs right on both sides (carry no evidence; reported for the 2×2 table). */
  readonly bothRight: number;
  /** Pairs wrong on both sides (carry no evidence; reported for the 2×2 table). */
  readonly bothWrong: number;
  /** fixed + broken. */
  readonly discordant: number;
  /** Continuity-corrected statistic max(0, |fixed − broken| − 1)² / (fixed + broken); 0 when there are no discordant pairs. */
  readonly chi2: number;
  /** Upper tail of χ² with 1 degree of freedom at `chi2`. */
  readonly chi2PValue: number;
  /** Two-sided exact binomial p-value, min(1, 2·P(X ≤ min(fixed, broken))), X ~ Binomial(fixed + broken, 1/2). */
  readonly exactPValue: number;
  /**
   * Two-sided mid-p value, min(1, 2·(P(X ≤ k) − P(X = k)/2)) with k = min(fixed, broken): the exact one with half
   * the probability of the observed table, so it is less conservative (its size is close to the nominal level).
   */
  readonly midPValue: number;
  /**
   * Conditional odds ratio of the discordant pairs, fixed / broken: above 1 head fixes more than it breaks.
   * Infinity when broken = 0 < fixed; NaN when there is no discordant pair.
   */
  readonly oddsRatio: number;
  /**
   * Exact conditional 95% interval of the odds ratio: the Clopper–Pearson interval [πL, πU] of π = fixed / (fixed +
   * broken) (given the discordant count, fixed ~ Binomial(fixed + broken, π) and OR = π / (1 − π)), mapped through
   * π / (1 − π). πL = 0 when fixed = 0 and πU = 1 when broken = 0, so the bounds are then 0 and Infinity.
   * [NaN, NaN] when there is no discordant pair.
   */
  readonly oddsRatioCI: readonly [number, number];
  /**
   * The deciding p-value: below {@link MCNEMAR_EXACT_THRESHOLD} discordant pairs `exactPValue` (or `midPValue` with
   * the mid-p option), else `chi2PValue`.
   */
  readonly pValue: number;
  readonly decidedBy: McNemarDecidedBy;
}

/** Odds ratio fixed / broken with its exact conditional interval (see {@link McNemarResult.oddsRatioCI}). */
export function discordantOddsRatio(fixed: number, broken: number, level = 0.95): { oddsRatio: number; ci: [number, number] } {
  const discordant = fixed + broken;
  if (discordant === 0) return { oddsRatio: NaN, ci: [NaN, NaN] };
  const tail = (1 - level) / 2;
  const lower = fixed === 0 ? 0 : betaQuantile(tail, fixed, broken + 1);
  const upper = broken === 0 ? 1 : betaQuantile(1 - tail, fixed + 1, broken);
  const odds = (pi: number) => (pi === 1 ? Infinity : pi / (1 - pi));
  return { oddsRatio: broken === 0 ? Infinity : fixed / broken, ci: [odds(lower), odds(upper)] };
}

/** Whether the exact p-value decides for this many discordant pairs. */
export function mcnemarUsesExact(discordant: number): boolean {
  return discordant < MCNEMAR_EXACT_THRESHOLD;
}

/**
 * McNemar's test for paired binary outcomes (base vs head on the same questions), two-sided.
 *
 * Only the discordant pairs carry evidence: under "no change", each of the fixed + broken discordant pairs is
 * equally likely to be a fix or a break.
 * - χ² (with Yates/Edwards continuity correction): chi2 = max(0, |fixed − broken| − 1)² / (fixed + broken).
 *   Convention: the corrected difference is floored at 0, so |fixed − broken| ≤ 1 gives chi2 = 0 (not (0 − 1)² / n).
 *   chi2PValue = Q(1/2, chi2/2), the regularized upper incomplete gamma function (the χ²₁ survival function),
 *   computed directly rather than as 1 − cdf so tiny p-values keep their relative accuracy.
 * - exact: exactPValue = min(1, 2·P(X ≤ min(fixed, broken))) with X ~ Binomial(fixed + broken, 1/2) (the doubled
 *   smaller tail; symmetric in fixed and broken; 1 whenever fixed = broken).
 * - mid-p: midPValue = min(1, 2·(P(X ≤ k) − P(X = k)/2)), k = min(fixed, broken) (1 whenever fixed = broken).
 * - pValue is exactPValue when fixed + broken < 25 (χ² is poor with few discordant pairs), else chi2PValue;
 *   with `smallSample: 'mid-p'` the mid-p value replaces the exact one below 25.
 * - fixed + broken = 0: chi2 = 0 and every p-value is 1.
 * Counts must be non-negative integers.
 */
export function mcnemar(
  fixed: number,
  broken: number,
  bothRight = 0,
  bothWrong = 0,
  options: { readonly smallSample?: McNemarSmallSample } = {},
): McNemarResult {
  for (const [name, value] of [
    ['fixed', fixed],
    ['broken', broken],
    ['bothRight', bothRight],
    ['bothWrong', bothWrong],
  ] as const) {
    if (!Number.isSafeInteger(value) || value < 0) {
      throw new RangeError(`${name} must be a non-negative integer, got ${value}`);
    }
  }
  const discordant = fixed + broken;
  const decidedBy: McNemarDecidedBy = mcnemarUsesExact(discordant) ? (options.smallSample ?? 'exact') : 'chi2';
  const { oddsRatio, ci: oddsRatioCI } = discordantOddsRatio(fixed, broken);
  const counts = { fixed, broken, bothRight, bothWrong, discordant, oddsRatio, oddsRatioCI };
  if (discordant === 0) return { ...counts, chi2: 0, chi2PValue: 1, exactPValue: 1, midPValue: 1, pValue: 1, decidedBy };
  const corrected = Math.max(0, Math.abs(fixed - broken) - 1);
  const chi2 = (corrected * corrected) / discordant;
  const chi2PValue = chi2 === 0 ? 1 : gammainc(chi2 / 2, 0.5, true, true);
  const smaller = Math.min(fixed, broken);
  const lowerTail = binomialCdf(smaller, discordant, 0.5);
  const exactPValue = Math.min(1, 2 * lowerTail);
  // P(X = k) as a difference of two tails of the same distribution: exact enough, and no extra dependency.
  const atSmaller = lowerTail - (smaller === 0 ? 0 : binomialCdf(smaller - 1, discordant, 0.5));
  const midPValue = fixed === broken ? 1 : Math.min(1, 2 * lowerTail - atSmaller);
  const pValue = decidedBy === 'exact' ? exactPValue : decidedBy === 'mid-p' ? midPValue : chi2PValue;
  return { ...counts, chi2, chi2PValue, exactPValue, midPValue, pValue, decidedBy };
}
