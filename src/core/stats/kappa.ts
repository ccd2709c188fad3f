/** Cohen's kappa with its parts, so a reader can see why it is low. */
export interface Agreement {
  /** (observed − expected) / (1 − expected); null when expected = 1 (both raters gave every item one and the same label). */
  readonly kappa: number | null;
  /** Share of items where the two raters gave the same label (p_o). */
  readonly observed: number;
  /** Agreement expected by chance from each rater's label shares (p_e). */
  readonly expected: number;
  readonly n: number;
  /** Count of items per (first rater's label, second rater's label). */
  readonly confusion: Record<string, Record<string, number>>;
}

/**
 * Cohen's kappa between two raters over the same items, for any number of label values. Raw agreement
 * flatters a judge when one class dominates; kappa subtracts the agreement chance alone would give.
 */
export function cohensKappa(pairs: readonly (readonly [string, string])[]): Agreement | null {
  const n = pairs.length;
  if (n === 0) return null;
  const firstCounts = new Map<string, number>();
  const secondCounts = new Map<string, number>();
  const confusion: Record<string, Record<string, number>> = {};
  let agree = 0;
  for (const [first, second] of pairs) {
    if (first === second) agree++;
    firstCounts.set(first, (firstCounts.get(first) ?? 0) + 1);
    secondCounts.set(second, (secondCounts.get(second) ?? 0) + 1);
    const row = (confusion[first] ??= {});
    row[second] = (row[second] ?? 0) + 1;
  }
  let expected = 0;
  for (const [label, count] of firstCounts) expected += (count / n) * ((secondCounts.get(label) ?? 0) / n);
  const observed = agree / n;
  const kappa = expected === 1 ? null : (observed - expected) / (1 - expected);
  return { kappa, observed, expected, n, confusion };
}
