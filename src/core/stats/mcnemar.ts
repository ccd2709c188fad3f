import gammainc from '@stdlib/math-base-special-gammainc';
import binomialCdf from '@stdlib/stats-base-dists-binomial-cdf';

/**
 * Below this many discordant pairs (fixed + broken) the exact binomial p-value decides; from it on, the χ² one.
 */
export const MCNEMAR_EXACT_THRESHOLD = 25;

/** Which p-value decided a McNemar test. */
export type McNemarDecidedBy = 'exact' | 'chi2';

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
  /** The deciding p-value: `exactPValue` when discordant < {@link MCNEMAR_EXACT_THRESHOLD}, else `chi2PValue`. */
  readonly pValue: number;
  readonly decidedBy: McNemarDecidedBy;
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
 * - pValue is exactPValue when fixed + broken < 25 (χ² is poor with few discordant pairs), else chi2PValue.
 * - fixed + broken = 0: chi2 = 0 and every p-value is 1.
 * Counts must be non-negative integers.
 */
export function mcnemar(fixed: number, broken: number, bothRight = 0, bothWrong = 0): McNemarResult {
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
  const decidedBy: McNemarDecidedBy = mcnemarUsesExact(discordant) ? 'exact' : 'chi2';
  if (discordant === 0) {
    return { fixed, broken, bothRight, bothWrong, discordant, chi2: 0, chi2PValue: 1, exactPValue: 1, pValue: 1, decidedBy };
  }
  const corrected = Math.max(0, Math.abs(fixed - broken) - 1);
  const chi2 = (corrected * corrected) / discordant;
  const chi2PValue = chi2 === 0 ? 1 : gammainc(chi2 / 2, 0.5, true, true);
  const exactPValue = Math.min(1, 2 * binomialCdf(Math.min(fixed, broken), discordant, 0.5));
  const pValue = decidedBy === 'exact' ? exactPValue : chi2PValue;
  return { fixed, broken, bothRight, bothWrong, discordant, chi2, chi2PValue, exactPValue, pValue, decidedBy };
}
