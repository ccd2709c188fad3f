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
 * A probability prepared for binomial draws: what every draw at it needs, computed once. A probability above ½ is
 * drawn as the trials minus a draw of the failures at `q` = 1 − p; `q` is never above ½. A bootstrap draws the same
 * probabilities in every resample (see {@link multinomialChain}), so its logarithms are not taken again for each one.
 */
export interface BinomialAt {
  readonly p: number;
  readonly q: number;
  readonly flipped: boolean;
  readonly logQ: number;
  readonly log1mQ: number;
  readonly odds: number;
}

/** `p` (0 ≤ p ≤ 1) prepared for {@link BinomialSampler.drawAt}. */
export function binomialAt(p: number): BinomialAt {
  const flipped = p > 0.5;
  const q = flipped ? 1 - p : p;
  return { p, q, flipped, logQ: Math.log(q), log1mQ: Math.log1p(-q), odds: q / (1 - q) };
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

  /** One draw from Binomial(trials, at.p), for 0 ≤ trials ≤ maxTrials. */
  drawAt(trials: number, at: BinomialAt): number {
    if (trials === 0 || at.p === 0) return 0;
    if (at.p === 1) return trials;
    const drawn = this.drawAtMostHalf(trials, at);
    return at.flipped ? trials - drawn : drawn;
  }

  /** A draw at `at.q` (0 < q ≤ ½) for trials > 0. */
  private drawAtMostHalf(trials: number, { q: p, logQ, log1mQ, odds }: BinomialAt): number {
    const random = this.random;
    if (trials * p < MODE_SEARCH_FROM) {
      const start = Math.exp(trials * log1mQ);
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
    const atMode = Math.exp(this.logFactorial(trials) - this.logFactorial(mode) - this.logFactorial(trials - mode) + mode * logQ + (trials - mode) * log1mQ);
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
 * The binomials {@link drawMultinomial} draws for categories of `sizes[j]` units and `rest` further units: category
 * j's probability is its units over the units not yet passed, the same in every draw of the chain.
 */
export function multinomialChain(sizes: ArrayLike<number>, rest: number): BinomialAt[] {
  let units = rest;
  for (let j = 0; j < sizes.length; j++) units += sizes[j]!;
  const chain: BinomialAt[] = [];
  for (let j = 0; j < sizes.length; j++) {
    chain.push(binomialAt(sizes[j]! / units));
    units -= sizes[j]!;
  }
  return chain;
}

/**
 * One draw of a multinomial: `trials` draws, each of one unit chosen uniformly among the units of some categories
 * and further units (the `chain` of their sizes, from {@link multinomialChain}). `out[j]` becomes how many fell in
 * category j; the return value is how many fell on the further units. Drawn as a chain of binomials, each category
 * given the trials the ones before it left, with probability its units over the units not yet passed; so the counts
 * have exactly the distribution of `trials` uniform unit draws tallied by category.
 */
export function drawMultinomial(binomial: BinomialSampler, trials: number, chain: readonly BinomialAt[], out: Int32Array): number {
  let left = trials;
  for (let j = 0; j < chain.length; j++) {
    const at = chain[j]!;
    // A category of all the units not yet passed takes what is left.
    const count = left === 0 ? 0 : at.p === 1 ? left : binomial.drawAt(left, at);
    out[j] = count;
    left -= count;
  }
  return left;
}
