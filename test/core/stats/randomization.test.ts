import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SEED, Random } from '../../../src/core/stats/random.js';
import {
  DEFAULT_PERMUTATIONS,
  MAX_PERMUTATIONS,
  pairedRandomizationTest,
  type RandomizationOptions,
  signFlipPValue,
  signFlipTailBound,
  UNDECIDED_WITHIN_SE,
} from '../../../src/core/stats/randomization.js';
import { pairValues } from '../../../src/core/stats/paired.js';
import { uniform32, uniform53 } from '../../helpers/uniform.js';

/** The test on two columns, paired as compare pairs them. */
const randomize = (base: ArrayLike<number>, head: ArrayLike<number>, options?: RandomizationOptions) =>
  pairedRandomizationTest(pairValues(base, head), options);

/** Deterministic test data: `n` values uniform in [low, high). */
function uniform(random: Random, n: number, low: number, high: number): Float64Array {
  return Float64Array.from({ length: n }, () => low + (high - low) * uniform53(random));
}

/**
 * Exact two-sided sign-flip p-value by enumerating all 2^n sign patterns of integer differences (exact integer
 * arithmetic, so ties are exact): #{patterns with |Σ sᵢdᵢ| ≥ |Σ dᵢ|} / 2^n.
 */
function exactSignFlipP(integerDifferences: readonly number[]): number {
  const n = integerDifferences.length;
  const observed = Math.abs(integerDifferences.reduce((sum, d) => sum + d, 0));
  let extreme = 0;
  for (let mask = 0; mask < 2 ** n; mask++) {
    let sum = 0;
    integerDifferences.forEach((d, i) => {
      sum += (mask >> i) & 1 ? -d : d;
    });
    if (Math.abs(sum) >= observed) extreme++;
  }
  return extreme / 2 ** n;
}

/** xoshiro128** transcribed from the C reference (prng.di.unimi.it/xoshiro128starstar.c), started from `state`. */
function referenceXoshiro128(state: readonly [number, number, number, number]): () => number {
  let [s0, s1, s2, s3] = state;
  const rotl = (x: number, k: number) => (x << k) | (x >>> (32 - k));
  return () => {
    const result = Math.imul(rotl(Math.imul(s1, 5), 7), 9) >>> 0;
    const t = s1 << 9;
    s2 ^= s0;
    s3 ^= s1;
    s1 ^= s2;
    s0 ^= s3;
    s2 ^= t;
    s3 = rotl(s3, 11);
    return result;
  };
}

describe('Random (xoshiro128**)', () => {
  it('matches the C reference implementation (prng.di.unimi.it/xoshiro128starstar.c) from the hashed seed', () => {
    // Output of the reference C code compiled with gcc, state {1, 2, 3, 4}.
    expect(Array.from({ length: 8 }, referenceXoshiro128([1, 2, 3, 4]))).toEqual([11520, 0, 5927040, 70819200, 2031721883, 1637235492, 1287239034, 3734860849]);
    // State {0x9E3779B9, 0xDEADBEEF, 0x01234567, 0xFFFFFFFF}.
    expect(Array.from({ length: 8 }, referenceXoshiro128([0x9e3779b9, 0xdeadbeef, 0x01234567, 0xffffffff]))).toEqual([
      1162347276, 3455143876, 4030867362, 1305335628, 96195844, 1709856328, 1003566784, 3023661209,
    ]);
    // cyrb128("rag-gate") is {0x6A9FE877, 0x8AE30976, 0x3EECAA0D, 0x0B589721}.
    const reference = referenceXoshiro128([0x6a9fe877, 0x8ae30976, 0x3eecaa0d, 0x0b589721]);
    const seeded = new Random(DEFAULT_SEED);
    expect(Array.from({ length: 100 }, () => seeded.nextUint32())).toEqual(Array.from({ length: 100 }, reference));
  });

  it('is pinned for string and number seeds (a change here changes every published p-value)', () => {
    const fromDefault = new Random(DEFAULT_SEED);
    expect(DEFAULT_SEED).toBe('rag-gate');
    expect(Array.from({ length: 4 }, () => fromDefault.nextUint32())).toEqual([4099203635, 2929233804, 1165168699, 846788234]);
    const fromNumber = new Random(42);
    expect(Array.from({ length: 4 }, () => fromNumber.nextUint32())).toEqual([588573134, 3309539119, 2506702303, 2183796308]);
  });

  it('fillUint32 continues the same stream as nextUint32', () => {
    const a = new Random('stream');
    const b = new Random('stream');
    const words = new Uint32Array(37);
    a.fillUint32(words);
    expect(Array.from(words)).toEqual(Array.from({ length: 37 }, () => b.nextUint32()));
    expect(a.nextUint32()).toBe(b.nextUint32());
  });

  it('nextBelow lies in [0, bound), and different seeds give different streams', () => {
    const random = new Random('ranges');
    for (let i = 0; i < 10_000; i++) {
      const k = random.nextBelow(7);
      expect(Number.isInteger(k) && k >= 0 && k < 7).toBe(true);
      const big = random.nextBelow(3_000_000_000);
      expect(Number.isInteger(big) && big >= 0 && big < 3_000_000_000).toBe(true);
    }
    expect(new Random('a').nextUint32()).not.toBe(new Random('b').nextUint32());
    expect(new Random(1).nextUint32()).not.toBe(new Random(2).nextUint32());
    expect(() => new Random(Number.NaN)).toThrow(RangeError);
    expect(() => random.nextBelow(0)).toThrow(RangeError);
  });

  it('nextBelow is uniform (χ² over 10 cells, 100,000 draws)', () => {
    const random = new Random('uniform');
    const cells = new Array<number>(10).fill(0);
    for (let i = 0; i < 100_000; i++) cells[random.nextBelow(10)]!++;
    const chi2 = cells.reduce((sum, c) => sum + (c - 10_000) ** 2 / 10_000, 0);
    expect(chi2).toBeLessThan(27.88); // χ²₉ 0.999 quantile
  });
});

/** 10,000 arrangements of the 32 differences below, seed 'zeros': 5018 as extreme as the observed sum 0.7, plus itself. */
const PINNED_ZEROS_P = 5019 / 10_001;

describe('pairedRandomizationTest', () => {
  it('reports means, delta and the default permutation count', () => {
    const result = randomize(new Float64Array([0.5, 0.25, 1]), new Float64Array([0.75, 0.25, 0.5]));
    expect(result.n).toBe(3);
    expect(result.meanBase).toBeCloseTo(1.75 / 3, 15);
    expect(result.meanHead).toBeCloseTo(1.5 / 3, 15);
    expect(result.delta).toBeCloseTo(-0.25 / 3, 15);
    expect(result.permutations).toBe(DEFAULT_PERMUTATIONS);
    expect(DEFAULT_PERMUTATIONS).toBe(10_000);
  });

  it('is reproducible: the same inputs give the identical p-value (pinned)', () => {
    const base = Float64Array.from({ length: 40 }, (_, i) => ((i * 37) % 11) / 10);
    const head = Float64Array.from({ length: 40 }, (_, i) => ((i * 37) % 11) / 10 + (((i * 53) % 7) - 2.6) / 20);
    const first = randomize(base, head);
    expect(randomize(base, head)).toEqual(first);
    expect(randomize(Array.from(base), Array.from(head))).toEqual(first);
    expect(first.pValue).toBe(3200 / 10_001);
  });

  it('zero differences are left out wherever they stand, also before 32 non-zero ones (one word of signs)', () => {
    // 32 non-zero differences fill exactly one 32-bit word of signs; the largest stands last.
    const nonZero = Array.from({ length: 32 }, (_, i) => (i === 31 ? 3 : ((i * 7) % 5) - 2 || 1) / 10);
    const plain = signFlipPValue(nonZero, { seed: 'zeros' });
    expect(signFlipPValue([0, ...nonZero], { seed: 'zeros' })).toEqual(plain);
    expect(signFlipPValue([0, 0, ...nonZero.slice(0, 16), 0, ...nonZero.slice(16), 0], { seed: 'zeros' })).toEqual(plain);
    // Without its last (largest) difference the p-value is another one: the comparison above can tell.
    expect(signFlipPValue(nonZero.slice(0, 31), { seed: 'zeros' }).pValue).not.toBe(plain.pValue);
    expect(plain.pValue).toBe(PINNED_ZEROS_P);
  });

  it('a different seed gives a different but close p-value', () => {
    const random = new Random('seed-data');
    const base = uniform(random, 60, 0, 1);
    const head = base.map((b) => b + (uniform32(random) - 0.48) * 0.4);
    const a = randomize(base, head, { seed: 'one' });
    const b = randomize(base, head, { seed: 2 });
    expect(a.pValue).not.toBe(b.pValue);
    expect(a.pValue).toBeGreaterThan(0.05);
    expect(Math.abs(a.pValue - b.pValue)).toBeLessThan(0.03); // Monte Carlo SE ≈ 0.005 each
  });

  it("a clear shift (n = 200, d ≈ 0.1 ± 0.02) is decided by Hoeffding's bound, below the smallest p sampling gives, without drawing", () => {
    const random = new Random('shift');
    const base = uniform(random, 200, 0.2, 0.8);
    const head = base.map((b) => b + 0.1 + (uniform32(random) - 0.5) * 0.04);
    const result = randomize(base, head);
    const differences = head.map((h, i) => h - base[i]!);
    const sum = differences.reduce((total, d) => total + d, 0);
    const squares = differences.reduce((total, d) => total + d * d, 0);
    const t = Math.abs(sum) - 1e-9 * differences.reduce((total, d) => total + Math.abs(d), 0);
    expect(result).toMatchObject({ tailBound: true, permutations: 0, monteCarloSE: 0 });
    expect(result.pValue / (2 * Math.exp(-(t * t) / (2 * squares)))).toBeCloseTo(1, 9);
    expect(result.pValue).toBeLessThan(1 / (1 + DEFAULT_PERMUTATIONS));
    expect(result.pValue).toBeGreaterThan(0);
    expect(result.delta).toBeCloseTo(0.1, 2);
    // Fewer permutations only make the bound decide sooner; an alpha below the bound needs the draws.
    expect(randomize(base, head, { permutations: 100 })).toEqual(result);
    const sampled = randomize(base, head, { permutations: 1000, alpha: result.pValue / 2 });
    expect(sampled).toMatchObject({ tailBound: false, permutations: MAX_PERMUTATIONS, pValue: 1 / (1 + MAX_PERMUTATIONS) });
  });

  it('the bound is at least the exact p-value (full enumeration), and does not depend on the scale of the differences (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: -9, max: 9 }), { minLength: 1, maxLength: 12 }), (integers) => {
        const bound = signFlipTailBound(integers);
        expect(bound).toBeGreaterThanOrEqual(exactSignFlipP(integers));
        expect(bound).toBeLessThanOrEqual(1);
        // Powers of two scale exactly; 2^-1074 is the smallest subnormal, whose squares would underflow to 0.
        for (const scale of [2 ** -1000, 2 ** -1074, 2 ** 1000]) expect(signFlipTailBound(integers.map((k) => k * scale))).toBe(bound);
      }),
      { numRuns: 300 },
    );
  });

  it('the bound never reaches 0: beyond 38 standard deviations it is the smallest positive double', () => {
    expect(signFlipTailBound(new Array<number>(10_000).fill(1))).toBe(Number.MIN_VALUE);
    expect(signFlipPValue(new Array<number>(10_000).fill(0.25))).toEqual({ pValue: Number.MIN_VALUE, permutations: 0, monteCarloSE: 0, tailBound: true });
    expect(signFlipTailBound([0, 0])).toBe(1);
  });

  it('pure symmetric noise gives a large p; exactly balanced differences give p = 1', () => {
    const random = new Random('noise');
    const base = uniform(random, 300, 0, 1);
    const head = base.map((b) => b + (uniform32(random) - 0.5) * 0.2);
    expect(randomize(base, head).pValue).toBeGreaterThan(0.1);
    // Differences ±0.3, ±0.1, ±0.7: the observed sum is 0 up to rounding, so every arrangement is as extreme.
    const balancedBase = new Float64Array([0.1, 0.4, 0.5, 0.2, 0.9, 0.0]);
    const balancedHead = new Float64Array([0.4, 0.1, 0.6, 0.1, 0.2, 0.7]);
    expect(randomize(balancedBase, balancedHead).pValue).toBe(1);
  });

  it.each([
    ['distinct tenths', [31, -12, 45, 8, 27, -5, 19, 22]],
    ['many ties (0.1 + 0.2 ≠ 0.3 in floating point)', [1, 2, 3, -1, 2, 1, -3, 3]],
    ['a borderline case', [5, -3, 2, 7, -1, 4, -6, 3]],
  ])('n = 8 (%s): Monte Carlo p with 20,000 permutations is within 0.02 of full enumeration', (_, integers) => {
    const exact = exactSignFlipP(integers);
    const base = new Float64Array(8).fill(0.5);
    const head = Float64Array.from(integers, (k, i) => (base[i] as number) + k / 10);
    const result = randomize(base, head, { permutations: 20_000 });
    expect(Math.abs(result.pValue - exact)).toBeLessThan(0.02);
  });

  it('the p-value does not depend on the scale of the differences, down to subnormal ones where the tie tolerance underflows to 0', () => {
    // Integers: sums and ties are exact. Scaled by 1e-6 the tolerance (1e-9 of Σ|d|) must stay far below the sums;
    // by 1e6, above their rounding; by 5e-324 (the smallest subnormal) every sum is still exact and the tolerance
    // is 0, so an arrangement exactly as extreme as the observed one must count as such by itself.
    const integers = [5, -3, 2, 7, -1, 4, -6, 3, 2, 5, -2, 4];
    const options = { permutations: 3000, seed: 'scale' };
    const unscaled = signFlipPValue(integers, options);
    expect(Math.abs(unscaled.pValue - exactSignFlipP(integers))).toBeLessThan(4 * unscaled.monteCarloSE);
    for (const scale of [1e-6, 1e6, 5e-324]) {
      expect(
        signFlipPValue(
          integers.map((k) => k * scale),
          options,
        ),
        `scale ${scale}`,
      ).toEqual(unscaled);
    }
    // Four equal subnormal differences: only the two arrangements of equal signs reach the observed |sum|, 2 of 16.
    const tiny = signFlipPValue(new Array<number>(4).fill(5e-324), options);
    expect(tiny).toEqual(signFlipPValue([1, 1, 1, 1], options));
    expect(Math.abs(tiny.pValue - 2 / 16)).toBeLessThan(4 * tiny.monteCarloSE);
  });

  it('drops pairs where either side is NaN; n counts the rest', () => {
    const base = [0.1, Number.NaN, 0.3, 0.4, 0.9];
    const head = [0.2, 0.5, Number.NaN, 0.8, 0.7];
    const result = randomize(base, head, { seed: 'nan' });
    expect(result).toEqual(randomize([0.1, 0.4, 0.9], [0.2, 0.8, 0.7], { seed: 'nan' }));
    expect(result.n).toBe(3);
    expect(result.meanBase).toBeCloseTo(1.4 / 3, 15);
  });

  it('all differences 0, or no pairs left: p = 1 without sampling', () => {
    const same = randomize([0.2, 0.4, 0.6], [0.2, 0.4, 0.6]);
    expect(same).toMatchObject({ n: 3, delta: 0, pValue: 1, permutations: 0 });
    const empty = randomize([Number.NaN], [0.3]);
    expect(empty.n).toBe(0);
    expect(empty.pValue).toBe(1);
    expect(empty.delta).toBeNaN();
  });

  it('rejects bad input', () => {
    expect(() => randomize([1, 2], [1])).toThrow('base and head must have the same length, got 2 and 1');
    expect(() => randomize([1], [Infinity])).toThrow('pair 0 has an infinite value (base 1, head Infinity)');
    expect(() => randomize([1], [2], { permutations: 0 })).toThrow('permutations must be a positive integer, got 0');
    expect(() => randomize([1], [2], { permutations: 1.5 })).toThrow('permutations must be a positive integer, got 1.5');
    expect(() => signFlipPValue([0.5, Number.NaN])).toThrow('difference 1 is not finite: NaN');
    // One permutation is allowed: with one difference either sign is as extreme, so p = (1 + 1) / (1 + 1).
    expect(randomize([1], [2], { permutations: 1 })).toMatchObject({ pValue: 1, permutations: 1 });
  });

  it('properties: p in [1/(1+P), 1]; swapping base and head gives the same p and the opposite delta', () => {
    const value = fc.double({ min: 0, max: 1, noNaN: true });
    fc.assert(
      fc.property(fc.array(fc.tuple(value, value), { minLength: 1, maxLength: 70 }), fc.integer({ min: 1, max: 300 }), (pairs, permutations) => {
        const base = pairs.map(([b]) => b);
        const head = pairs.map(([, h]) => h);
        const forward = randomize(base, head, { permutations, seed: 'prop' });
        const backward = randomize(head, base, { permutations, seed: 'prop' });
        if (forward.tailBound) expect(forward).toMatchObject({ pValue: signFlipTailBound(head.map((h, i) => h - base[i]!)), permutations: 0 });
        else expect(forward.pValue).toBeGreaterThanOrEqual(1 / (1 + permutations));
        expect(forward.pValue).toBeLessThan(forward.tailBound ? 1 / (1 + permutations) : 1 + 1e-15);
        expect(backward.pValue).toBe(forward.pValue);
        expect(backward.delta).toBeCloseTo(-forward.delta, 12);
      }),
      { numRuns: 200 },
    );
  });
});

describe('Monte Carlo standard error, and more arrangements when p is too close to alpha', () => {
  const integers = [5, -3, 2, 7, -1, 4, -6, 3, 2, 5, -2, 4];
  const differences = integers.map((k) => k / 10);
  const exact = exactSignFlipP(integers);

  it('reports √(p(1 − p)/permutations); without alpha it draws exactly the permutations asked for', () => {
    const result = signFlipPValue(differences, { permutations: 5000 });
    expect(result.permutations).toBe(5000);
    expect(result.monteCarloSE).toBe(Math.sqrt((result.pValue * (1 - result.pValue)) / 5000));
    expect(signFlipPValue([0, 0])).toEqual({ pValue: 1, permutations: 0, monteCarloSE: 0, tailBound: false });
  });

  it('a p-value far from alpha is left as it is', () => {
    const plain = signFlipPValue(differences);
    expect(signFlipPValue(differences, { alpha: 0.5 })).toEqual(plain);
    expect(Math.abs(plain.pValue - 0.5)).toBeGreaterThan(UNDECIDED_WITHIN_SE * plain.monteCarloSE);
  });

  it('a p-value within 3 standard errors of alpha draws more (same stream) until it is clear of it', () => {
    // The exact p is 754/4096 ≈ 0.184; alpha 0.006 above it is inside 3 SE at 10,000 arrangements (3 SE ≈ 0.012).
    expect(exact).toBe(754 / 4096);
    const alpha = exact + 0.006;
    const first = signFlipPValue(differences);
    expect(Math.abs(first.pValue - alpha)).toBeLessThanOrEqual(UNDECIDED_WITHIN_SE * first.monteCarloSE);
    const extended = signFlipPValue(differences, { alpha });
    expect(extended.permutations).toBeGreaterThan(DEFAULT_PERMUTATIONS);
    expect(extended.permutations).toBeLessThan(MAX_PERMUTATIONS);
    expect(Math.abs(extended.pValue - alpha)).toBeGreaterThan(UNDECIDED_WITHIN_SE * extended.monteCarloSE);
    expect(extended.pValue).toBeLessThan(alpha);
    expect(Math.abs(extended.pValue - exact)).toBeLessThan(3 * extended.monteCarloSE);
    // Doubling: the count is 10,000 · 2^k.
    expect(Math.log2(extended.permutations / DEFAULT_PERMUTATIONS) % 1).toBe(0);
  });

  it('an alpha exactly 3 standard errors from p is still too close to call: more are drawn', () => {
    // Found by trying the doubles next to p ± 3 SE at 400 arrangements: this one is exactly 3 SE above p.
    const alpha = 0.24272708110402294;
    const first = signFlipPValue(differences, { permutations: 400 });
    expect(Math.abs(first.pValue - alpha)).toBe(UNDECIDED_WITHIN_SE * first.monteCarloSE);
    expect(signFlipPValue(differences, { permutations: 400, alpha }).permutations).toBeGreaterThan(400);
  });

  it('stops at the cap when p sits on alpha', () => {
    const capped = signFlipPValue(differences, { alpha: exact });
    expect(capped.permutations).toBe(MAX_PERMUTATIONS);
    expect(capped.monteCarloSE).toBeLessThan(0.0004);
  });

  it('rejects an alpha outside (0, 1)', () => {
    for (const alpha of [0, 1, -0.1, Number.NaN]) {
      expect(() => signFlipPValue(differences, { alpha })).toThrow(`alpha must be in (0, 1), got ${alpha}`);
    }
  });
});
