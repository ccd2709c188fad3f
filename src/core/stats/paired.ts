/**
 * Paired per-question values of one metric for the base and head runs, with unusable pairs removed.
 *
 * Convention: a pair is dropped when either value is NaN (the metric is undefined for that question on one
 * side, e.g. no relevant documents). Infinite values are an input error. `differences[i] = head − base`.
 */
export interface PairedValues {
  /** Number of pairs kept. */
  readonly n: number;
  /** Mean of base over the kept pairs (NaN when n = 0). */
  readonly meanBase: number;
  /** Mean of head over the kept pairs (NaN when n = 0). */
  readonly meanHead: number;
  /** head − base for each kept pair, in input order. */
  readonly differences: Float64Array;
}

/** Pair `base[i]` with `head[i]`, drop pairs with a NaN, and return the differences head − base. */
export function pairValues(base: ArrayLike<number>, head: ArrayLike<number>): PairedValues {
  if (base.length !== head.length) {
    throw new RangeError(`base and head must have the same length, got ${base.length} and ${head.length}`);
  }
  const differences = new Float64Array(base.length);
  let n = 0;
  let sumBase = 0;
  let sumHead = 0;
  for (let i = 0; i < base.length; i++) {
    const b = base[i] as number;
    const h = head[i] as number;
    if (Number.isNaN(b) || Number.isNaN(h)) continue;
    if (!Number.isFinite(b) || !Number.isFinite(h)) {
      throw new RangeError(`pair ${i} has an infinite value (base ${b}, head ${h})`);
    }
    differences[n++] = h - b;
    sumBase += b;
    sumHead += h;
  }
  return {
    n,
    meanBase: n === 0 ? NaN : sumBase / n,
    meanHead: n === 0 ? NaN : sumHead / n,
    differences: differences.subarray(0, n),
  };
}
