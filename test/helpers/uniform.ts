import type { Random } from '../../src/core/stats/random.js';

/** Test data from the resampling generator's stream: uniform in [0, 1), one 32-bit word. */
export function uniform32(random: Random): number {
  return random.nextUint32() / 4294967296;
}

/** Uniform in [0, 1) with 53 bits, from two words (27 high bits, then 26 low). */
export function uniform53(random: Random): number {
  const high = random.nextUint32() >>> 5;
  const low = random.nextUint32() >>> 6;
  return (high * 67108864 + low) / 9007199254740992;
}
