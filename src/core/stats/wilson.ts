/** Two-sided 95% standard normal quantile, z(0.975). */
const Z95 = 1.959963984540054;

/**
 * Wilson score 95% interval for a proportion of `successes` out of `n`. Unlike the normal (Wald) interval
 * it stays inside [0, 1] and is honest at 0/n and n/n, which small golden sets hit often.
 */
export function wilsonInterval(successes: number, n: number, z = Z95): [number, number] {
  if (n === 0) return [0, 1];
  const p = successes / n;
  const z2 = z * z;
  const centre = (p + z2 / (2 * n)) / (1 + z2 / n);
  const halfWidth = (z / (1 + z2 / n)) * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  // At 0/n and n/n the bound is exactly 0 (or 1); the float formula can land one ulp inside.
  const lower = successes === 0 ? 0 : Math.max(0, centre - halfWidth);
  const upper = successes === n ? 1 : Math.min(1, centre + halfWidth);
  return [lower, upper];
}
