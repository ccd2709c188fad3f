import normalQuantile from '@stdlib/stats-base-dists-normal-quantile';

/** Standard normal quantile z(q). */
function z(q: number): number {
  return normalQuantile(q, 0, 1);
}

function checkAlphaPower(alpha: number, power: number): void {
  if (!(alpha > 0 && alpha < 1)) throw new RangeError(`alpha must be in (0, 1), got ${alpha}`);
  if (!(power > 0 && power < 1)) throw new RangeError(`power must be in (0, 1), got ${power}`);
}

export interface McNemarSampleSizeInput {
  /** Share of all pairs that are fixed (wrong in base, right in head), in [0, 1]. */
  readonly pFixed: number;
  /** Share of all pairs that are broken (right in base, wrong in head), in [0, 1]. */
  readonly pBroken: number;
  /** Two-sided significance level (default 0.05). */
  readonly alpha?: number;
  /** Desired power (default 0.8). */
  readonly power?: number;
}

/**
 * Number of paired questions needed for McNemar's test to detect the given discordant proportions.
 *
 * Definition (Connor 1987, after Miettinen 1968), with ψ = pFixed + pBroken (the discordant share of all pairs)
 * and δ = pFixed − pBroken:
 *   n = (z_{1−α/2}·√ψ + z_{power}·√(ψ − δ²))² / δ²,
 * rounded up. Two-sided test. Returns Infinity when δ = 0 (no difference to detect). The result counts all
 * paired questions (concordant ones included), not just the discordant ones.
 */
export function mcnemarSampleSize({ pFixed, pBroken, alpha = 0.05, power = 0.8 }: McNemarSampleSizeInput): number {
  checkAlphaPower(alpha, power);
  if (!(pFixed >= 0 && pBroken >= 0 && pFixed + pBroken <= 1)) {
    throw new RangeError(`pFixed and pBroken must be non-negative with sum ≤ 1, got ${pFixed} and ${pBroken}`);
  }
  const psi = pFixed + pBroken;
  const delta = pFixed - pBroken;
  if (delta === 0) return Infinity;
  const root = z(1 - alpha / 2) * Math.sqrt(psi) + z(power) * Math.sqrt(Math.max(0, psi - delta * delta));
  return ceilWithSlack((root * root) / (delta * delta));
}

export interface PairedMeanSampleSizeInput {
  /** Mean paired difference to detect (head − base); the sign does not matter. */
  readonly meanDifference: number;
  /** Standard deviation of the paired differences, ≥ 0. */
  readonly sdDifference: number;
  /** Two-sided significance level (default 0.05). */
  readonly alpha?: number;
  /** Desired power (default 0.8). */
  readonly power?: number;
}

/**
 * Number of pairs needed to detect a mean paired difference (normal approximation for a two-sided paired test):
 *   n = ((z_{1−α/2} + z_{power})·sd / δ)²,
 * rounded up, at least 1. Returns Infinity when δ = 0.
 */
export function pairedMeanSampleSize({ meanDifference, sdDifference, alpha = 0.05, power = 0.8 }: PairedMeanSampleSizeInput): number {
  checkAlphaPower(alpha, power);
  if (!Number.isFinite(meanDifference)) throw new RangeError(`meanDifference must be finite, got ${meanDifference}`);
  if (!(sdDifference >= 0 && Number.isFinite(sdDifference))) {
    throw new RangeError(`sdDifference must be finite and ≥ 0, got ${sdDifference}`);
  }
  if (meanDifference === 0) return Infinity;
  const ratio = ((z(1 - alpha / 2) + z(power)) * sdDifference) / meanDifference;
  return Math.max(1, ceilWithSlack(ratio * ratio));
}

/** Round up, ignoring a rounding excess below 1e-9 (so an exact 405 computed as 405.0000000001 stays 405). */
function ceilWithSlack(x: number): number {
  return Math.ceil(x - 1e-9);
}
