/**
 * Holm–Bonferroni step-down adjusted p-values, returned in the input order.
 *
 * Definition: sort the m p-values ascending, p(1) ≤ … ≤ p(m); the adjusted value of p(i) is
 * max_{j ≤ i} min(1, (m − j + 1)·p(j)). Rejecting every hypothesis whose adjusted p < α (as the gate does) controls the
 * family-wise error rate at α under any dependence between the tests.
 *
 * Conventions: adjusted values are monotone in the raw ones and clamped to 1; tied raw p-values get the same
 * adjusted value whatever their order; [] → []; a single p-value is returned unchanged. Every input must be a
 * number in [0, 1] (NaN is rejected rather than silently propagated).
 */
export function holmAdjust(pValues: readonly number[]): number[] {
  const m = pValues.length;
  pValues.forEach((p, i) => {
    if (!(p >= 0 && p <= 1)) throw new RangeError(`p-value ${i} must be in [0, 1], got ${p}`);
  });
  const order = pValues.map((_, i) => i).sort((a, b) => (pValues[a] as number) - (pValues[b] as number));
  const adjusted = new Array<number>(m);
  let running = 0;
  order.forEach((index, rank) => {
    running = Math.max(running, Math.min(1, (m - rank) * (pValues[index] as number)));
    adjusted[index] = running;
  });
  return adjusted;
}
