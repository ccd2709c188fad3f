/**
 * Seeded pseudo-random numbers for the resampling tests (randomization, bootstrap).
 *
 * Generator: xoshiro128** 1.0 (Blackman & Vigna), 128 bits of state, period 2^128 − 1, written with 32-bit
 * integer operations only (`Math.imul`, shifts, xor), so the stream is bit-for-bit identical on every
 * JavaScript engine and Node version (no `Math.random`, no floating point in the state update).
 *
 * Seeding convention:
 * - a string seed is hashed with cyrb128 (four 32-bit words) over its UTF-16 code units;
 * - a number seed is hashed the same way over `"\u0000number:" + String(seed)` (`String` of a number is
 *   fully specified by ECMAScript, so this is engine independent; `0` and `-0` give the same stream);
 * - an all-zero state (the generator's one forbidden state) is replaced by `[1, 0, 0, 0]`.
 * The same seed therefore always gives the same stream.
 */

/** A seed for {@link Random}: any string, or any finite number. */
export type Seed = string | number;

/** cyrb128: a fast non-cryptographic 128-bit string hash, returned as four unsigned 32-bit words. */
function cyrb128(text: string): [number, number, number, number] {
  let h1 = 1779033703;
  let h2 = 3144134277;
  let h3 = 1013904242;
  let h4 = 2773480762;
  for (let i = 0; i < text.length; i++) {
    const k = text.charCodeAt(i);
    h1 = h2 ^ Math.imul(h1 ^ k, 597399067);
    h2 = h3 ^ Math.imul(h2 ^ k, 2869860233);
    h3 = h4 ^ Math.imul(h3 ^ k, 951274213);
    h4 = h1 ^ Math.imul(h4 ^ k, 2716044179);
  }
  h1 = Math.imul(h3 ^ (h1 >>> 18), 597399067);
  h2 = Math.imul(h4 ^ (h2 >>> 22), 2869860233);
  h3 = Math.imul(h1 ^ (h3 >>> 17), 951274213);
  h4 = Math.imul(h2 ^ (h4 >>> 19), 2716044179);
  h1 ^= h2 ^ h3 ^ h4;
  h2 ^= h1;
  h3 ^= h1;
  h4 ^= h1;
  return [h1 >>> 0, h2 >>> 0, h3 >>> 0, h4 >>> 0];
}

function seedWords(seed: Seed): [number, number, number, number] {
  if (typeof seed === 'number') {
    if (!Number.isFinite(seed)) throw new RangeError(`seed must be a finite number or a string, got ${seed}`);
    return cyrb128(`\u0000number:${String(seed)}`);
  }
  return cyrb128(seed);
}

/** The generator state for four seed words: the words as int32, the forbidden all-zero state replaced by [1, 0, 0, 0]. */
export function startState([a, b, c, d]: readonly [number, number, number, number]): [number, number, number, number] {
  return (a | b | c | d) === 0 ? [1, 0, 0, 0] : [a | 0, b | 0, c | 0, d | 0];
}

const TWO_POW_32 = 4294967296;
/** Largest bound for which word·bound stays below 2^53, so the multiply-and-reject index draw is exact in doubles. */
const LEMIRE_MAX_BOUND = 2097152;

/** Seeded xoshiro128** generator. Not for cryptography. */
export class Random {
  private s0: number;
  private s1: number;
  private s2: number;
  private s3: number;

  constructor(seed: Seed) {
    [this.s0, this.s1, this.s2, this.s3] = startState(seedWords(seed));
  }

  /** Next 32 random bits as an unsigned integer in [0, 2^32). */
  nextUint32(): number {
    const s1 = this.s1;
    const result = Math.imul(rotl(Math.imul(s1, 5), 7), 9);
    const t = s1 << 9;
    this.s2 ^= this.s0;
    this.s3 ^= s1;
    this.s1 = s1 ^ this.s2;
    this.s0 ^= this.s3;
    this.s2 ^= t;
    this.s3 = rotl(this.s3, 11);
    return result >>> 0;
  }

  /**
   * Uniform integer in [0, bound), without modulo bias, for 1 ≤ bound ≤ 2^32.
   * Lemire's multiply-and-reject (exact in doubles while bound ≤ 2^21), otherwise classic threshold rejection.
   */
  nextBelow(bound: number): number {
    if (!Number.isInteger(bound) || bound < 1 || bound > TWO_POW_32) {
      throw new RangeError(`bound must be an integer in [1, 2^32], got ${bound}`);
    }
    if (bound <= LEMIRE_MAX_BOUND) {
      let product = this.nextUint32() * bound; // < 2^53: exact
      let high = Math.floor(product / TWO_POW_32);
      if (product - high * TWO_POW_32 < bound) {
        const threshold = TWO_POW_32 % bound;
        while (product - high * TWO_POW_32 < threshold) {
          product = this.nextUint32() * bound;
          high = Math.floor(product / TWO_POW_32);
        }
      }
      return high;
    }
    const limit = TWO_POW_32 - (TWO_POW_32 % bound);
    let word = this.nextUint32();
    while (word >= limit) word = this.nextUint32();
    return word % bound;
  }

  /**
   * The sum of `draws` values of `values` drawn uniformly with replacement, in draw order.
   *
   * Up to 2^21 values, index j is ⌊w_j·n / 2^32⌋ for the next `draws` words w_j of the stream (exact in doubles),
   * and a word whose low part w_j·n mod 2^32 falls below 2^32 mod n is redrawn, from the words after the batch,
   * so every index is exactly equally likely (Lemire's multiply-and-reject); beyond 2^21 values, each index is
   * {@link nextBelow}. The generator runs inside the loop (fillUint32's step, written out again): no word is stored
   * unless a redraw needs the batch's remaining words first (a chance of at most draws·n / 2^32).
   */
  sumOfDraws(values: Float64Array, draws: number): number {
    const n = values.length;
    let sum = 0;
    if (n > LEMIRE_MAX_BOUND) {
      for (let i = 0; i < draws; i++) sum += values[this.nextBelow(n)]!;
      return sum;
    }
    const rejectBelow = TWO_POW_32 % n;
    let s0 = this.s0;
    let s1 = this.s1;
    let s2 = this.s2;
    let s3 = this.s3;
    let i = 0;
    for (; i < draws; i++) {
      const product = (Math.imul(rotl(Math.imul(s1, 5), 7), 9) >>> 0) * n;
      const t = s1 << 9;
      s2 ^= s0;
      s3 ^= s1;
      s1 ^= s2;
      s0 ^= s3;
      s2 ^= t;
      s3 = rotl(s3, 11);
      const index = Math.floor(product / TWO_POW_32);
      if (product - index * TWO_POW_32 < rejectBelow) break;
      sum += values[index]!;
    }
    this.s0 = s0;
    this.s1 = s1;
    this.s2 = s2;
    this.s3 = s3;
    if (i === draws) return sum;
    // Word i was rejected: the batch's remaining words come first in the stream, then the redraws, in order.
    const rest = new Uint32Array(draws - i - 1);
    this.fillUint32(rest);
    sum += values[this.acceptedIndex(this.nextUint32() * n, n, rejectBelow)]!;
    for (const word of rest) sum += values[this.acceptedIndex(word * n, n, rejectBelow)]!;
    return sum;
  }

  /** ⌊product / 2^32⌋ for product = word·n, the word redrawn from the stream while the low part is below `rejectBelow`. */
  private acceptedIndex(product: number, n: number, rejectBelow: number): number {
    let index = Math.floor(product / TWO_POW_32);
    while (product - index * TWO_POW_32 < rejectBelow) {
      product = this.nextUint32() * n;
      index = Math.floor(product / TWO_POW_32);
    }
    return index;
  }

  /** Fill `target` with random 32-bit words (same stream as repeated {@link nextUint32} calls). */
  fillUint32(target: Uint32Array): void {
    let s0 = this.s0;
    let s1 = this.s1;
    let s2 = this.s2;
    let s3 = this.s3;
    for (let i = 0; i < target.length; i++) {
      target[i] = Math.imul(rotl(Math.imul(s1, 5), 7), 9);
      const t = s1 << 9;
      s2 ^= s0;
      s3 ^= s1;
      s1 ^= s2;
      s0 ^= s3;
      s2 ^= t;
      s3 = rotl(s3, 11);
    }
    this.s0 = s0;
    this.s1 = s1;
    this.s2 = s2;
    this.s3 = s3;
  }
}

function rotl(x: number, k: number): number {
  return (x << k) | (x >>> (32 - k));
}

/**
 * Seed used by the resampling tests when the caller gives none. A fixed constant, so the same inputs always
 * give the same p-value and interval, run after run and machine after machine.
 */
export const DEFAULT_SEED = 'rag-gate';
