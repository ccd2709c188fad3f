import { DEFAULT_SEED, Random, type Seed } from './random.js';

/** Default number of bootstrap resamples. */
export const DEFAULT_RESAMPLES = 2000;

const TWO_POW_32 = 4294967296;
/** Largest n for which word·n stays below 2^53, so the multiply-and-reject index draw is exact in doubles. */
const LEMIRE_MAX_BOUND = 2097152;

export interface BootstrapOptions {
  /** Number of resamples (default {@link DEFAULT_RESAMPLES}). */
  readonly resamples?: number;
  /** Two-sided confidence level in (0, 1) (default 0.95). */
  readonly level?: number;
  /** PRNG seed (default {@link DEFAULT_SEED}, a constant: the same inputs always give the same interval). */
  readonly seed?: Seed;
}

/**
 * Percentile bootstrap confidence intervals for the mean of each sample (e.g. a metric's paired differences).
 *
 * Definition, per sample: draw `resamples` samples of size n with replacement (indices from seeded xoshiro128**, unbiased),
 * take each sample's mean, and return the (1 − level)/2 and (1 + level)/2 quantiles of those means, using
 * linear interpolation between order statistics (quantile type 7, R's default: position h = (B − 1)·q).
 *
 * Conventions: n = 0 → [NaN, NaN]; all values equal (including n = 1) → [v, v] exactly. Memory: buffers allocated
 * once (the `resamples` means, n indices and counts, the non-zero values), nothing allocated per resample.
 *
 * Several samples over the same n units (say, four retrieval metrics on the same questions) share each
 * resample's draw, so its cost is paid once; each interval equals the one its sample would get alone with the
 * same seed.
 */
export function bootstrapMeanCIs(samples: readonly ArrayLike<number>[], options: BootstrapOptions = {}): [number, number][] {
  const resamples = options.resamples ?? DEFAULT_RESAMPLES;
  const level = options.level ?? 0.95;
  if (!Number.isInteger(resamples) || resamples < 1) {
    throw new RangeError(`resamples must be a positive integer, got ${resamples}`);
  }
  if (!(level > 0 && level < 1)) throw new RangeError(`level must be in (0, 1), got ${level}`);
  const n = samples[0]?.length ?? 0;
  const intervals: [number, number][] = samples.map(() => [NaN, NaN]);
  if (n === 0) return intervals;
  // Each sample keeps only its non-zero values: a resample's sum is Σ count_j · value_j over them, and paired
  // differences are mostly zero (unchanged questions), so this is far less work than summing n draws per sample.
  const varying: { index: number; at: Int32Array; values: Float64Array; means: Float64Array }[] = [];
  samples.forEach((values, index) => {
    if (values.length !== n) throw new RangeError(`every sample must have ${n} values, sample ${index} has ${values.length}`);
    const first = values[0] as number;
    let allEqual = true;
    let nonZero = 0;
    for (let i = 0; i < n; i++) {
      const v = values[i] as number;
      if (!Number.isFinite(v)) throw new RangeError(`value ${i} is not finite: ${v}`);
      if (v !== first) allEqual = false;
      if (v !== 0) nonZero++;
    }
    if (allEqual) {
      intervals[index] = [first, first];
      return;
    }
    const at = new Int32Array(nonZero);
    const kept = new Float64Array(nonZero);
    for (let i = 0, j = 0; i < n; i++) {
      const v = values[i] as number;
      if (v !== 0) {
        at[j] = i;
        kept[j++] = v;
      }
    }
    varying.push({ index, at, values: kept, means: new Float64Array(resamples) });
  });
  if (varying.length === 0) return intervals;

  const random = new Random(options.seed ?? DEFAULT_SEED);
  const words = new Uint32Array(n);
  const counts = new Int32Array(n);
  for (let r = 0; r < resamples; r++) {
    drawCounts(random, words, counts);
    for (const sample of varying) sample.means[r] = weightedSum(counts, sample.at, sample.values) / n;
  }
  const tail = (1 - level) / 2;
  for (const { index, means } of varying) {
    means.sort();
    intervals[index] = [quantileSorted(means, tail), quantileSorted(means, 1 - tail)];
  }
  return intervals;
}

/** Σ counts[at[j]] · values[j]: a resample's sum over the non-zero values. */
function weightedSum(counts: Int32Array, at: Int32Array, values: Float64Array): number {
  let sum = 0;
  for (let j = 0; j < at.length; j++) sum += counts[at[j]!]! * values[j]!;
  return sum;
}

/**
 * One resample: `counts[j]` becomes how many of n independent uniform draws from 0 … n − 1 fell on j. `words` is
 * a scratch buffer of n random words.
 */
function drawCounts(random: Random, words: Uint32Array, counts: Int32Array): void {
  const n = counts.length;
  counts.fill(0);
  if (n > LEMIRE_MAX_BOUND) {
    for (let i = 0; i < n; i++) counts[random.nextBelow(n)]!++;
    return;
  }
  // Lemire's multiply-and-reject: index = ⌊word·n / 2^32⌋, and the rare words whose low part falls below
  // 2^32 mod n are redrawn, so every index is exactly equally likely.
  random.fillUint32(words);
  const rejectBelow = TWO_POW_32 % n;
  for (let i = 0; i < n; i++) {
    let product = words[i]! * n;
    let index = Math.floor(product / TWO_POW_32);
    while (product - index * TWO_POW_32 < rejectBelow) {
      product = random.nextUint32() * n;
      index = Math.floor(product / TWO_POW_32);
    }
    counts[index]!++;
  }
}

/** Type-7 quantile of an ascending array: linear interpolation at position (length − 1)·q. */
function quantileSorted(sorted: Float64Array, q: number): number {
  const position = (sorted.length - 1) * q;
  const below = Math.floor(position);
  const above = Math.min(below + 1, sorted.length - 1);
  const lower = sorted[below] as number;
  const upper = sorted[above] as number;
  return lower + (position - below) * (upper - lower);
}
