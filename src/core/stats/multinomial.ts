import gammaln from '@stdlib/math-base-special-gammaln';
import type { Random } from './random.js';

/** Expected count from which a binomial is drawn by searching outward from its mode rather than up from 0. */
const MODE_SEARCH_FROM = 16;

/** A uniform double in [0, 1) with 53 random bits, from two words of the stream. */
export function uniform53(random: Random): number {
  const high = random.nextUint32() >>> 5;
  const low = random.nextUint32() >>> 6;
  return (high * 67108864 + low) / 9007199254740992;
}

/**
 * Binomial draws by inversion: a uniform u is compared with the cumulative probabilities of the outcomes taken in a
 * fixed order. Below {@link MODE_SEARCH_FROM} expected successes the order is 0, 1, 2, … (expected cost 1 +
 * trials·p steps); from it on, the mode first and then alternately below and above it (expected cost of the order
 * of the standard deviation), the mode's probability from log-gamma. Probabilities above ½ are drawn as trials
 * minus the failures. Exact up to floating-point rounding of the probabilities; a u beyond their rounded total
 * (below 1e-12 of the time) is drawn again.
 */
export class BinomialSampler {
  /** ln k! for k up to the largest number of trials, each computed when first needed. */
  private readonly logFactorials: Float64Array;

  constructor(
    private readonly random: Random,
    maxTrials: number,
  ) {
    this.logFactorials = new Float64Array(maxTrials + 1).fill(NaN);
  }

  private logFactorial(k: number): number {
    let value = this.logFactorials[k]!;
    if (Number.isNaN(value)) this.logFactorials[k] = value = gammaln(k + 1);
    return value;
  }

  /** One draw from Binomial(trials, p), for 0 ≤ trials ≤ maxTrials and 0 ≤ p ≤ 1. */
  draw(trials: number, p: number): number {
    if (trials === 0 || p === 0) return 0;
    if (p === 1) return trials;
    if (p > 0.5) return trials - this.draw(trials, 1 - p);
    const random = this.random;
    const odds = p / (1 - p);
    if (trials * p < MODE_SEARCH_FROM) {
      const start = Math.exp(trials * Math.log1p(-p));
      for (;;) {
        let u = uniform53(random);
        let probability = start;
        for (let k = 0; k <= trials; k++) {
          if (u < probability) return k;
          u -= probability;
          probability *= ((trials - k) / (k + 1)) * odds;
        }
      }
    }
    const mode = Math.floor((trials + 1) * p);
    const atMode = Math.exp(
      this.logFactorial(trials) - this.logFactorial(mode) - this.logFactorial(trials - mode) + mode * Math.log(p) + (trials - mode) * Math.log1p(-p),
    );
    for (;;) {
      let u = uniform53(random);
      if (u < atMode) return mode;
      u -= atMode;
      let below = mode;
      let above = mode;
      let belowProbability = atMode;
      let aboveProbability = atMode;
      while (below > 0 || above < trials) {
        if (below > 0) {
          belowProbability *= below / (trials - below + 1) / odds;
          below--;
          if (u < belowProbability) return below;
          u -= belowProbability;
        }
        if (above < trials) {
          aboveProbability *= ((trials - above) / (above + 1)) * odds;
          above++;
          if (u < aboveProbability) return above;
          u -= aboveProbability;
        }
      }
    }
  }
}

/**
 * One draw of a multinomial: `trials` draws, each of one unit chosen uniformly among the units of some categories
 * (`sizes[j]` units in category j) and `rest` further units. `out[j]` becomes how many fell in category j; the
 * return value is how many fell on the rest. Drawn as a chain of binomials, each category given the trials the ones
 * before it left, with probability its units over the units not yet passed; so the counts have exactly the
 * distribution of `trials` uniform unit draws tallied by category.
 */
export function drawMultinomial(binomial: BinomialSampler, trials: number, sizes: ArrayLike<number>, rest: number, out: Int32Array): number {
  let units = rest;
  for (let j = 0; j < sizes.length; j++) units += sizes[j]!;
  let left = trials;
  for (let j = 0; j < sizes.length; j++) {
    const size = sizes[j]!;
    const count = left === 0 ? 0 : size === units ? left : binomial.draw(left, size / units);
    out[j] = count;
    left -= count;
    units -= size;
  }
  return left;
}
