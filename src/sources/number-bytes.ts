const PLUS = 0x2b;
const MINUS = 0x2d;
const DOT = 0x2e;
const ZERO = 0x30;

/** 10^0 … 10^15: the divisors of a mantissa of at most 15 digits, each held exactly by a double. */
const EXACT_POWERS_OF_TEN = Float64Array.from({ length: 16 }, (_, k) => Number(`1e${k}`));

/** Up to 15 digits an integer mantissa stays below 10^15 < 2^53, so it is held exactly. */
const MAX_EXACT_DIGITS = 15;

/**
 * Number forms read the same way by JS `Number()` and by C's `strtod` (trec_eval's `atof`): decimals with an
 * optional exponent, and unsigned hexadecimal integers. `0o17`, `0b11` or `1_000` mean something else to one
 * of the two, so they are not numbers here at all, and the reader reports them.
 */
const SHARED_NUMBER_FORM = /^[+-]?(?:(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)$|^0[xX][0-9a-fA-F]+$/;

/** The number the bytes, decoded as UTF-8, denote in a form both readers share; NaN otherwise. */
function numberOfText(bytes: Uint8Array, start: number, end: number): number {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset + start, end - start).toString('utf8');
  return SHARED_NUMBER_FORM.test(text) ? Number(text) : NaN;
}

/**
 * What `Number(text)` gives for the bytes [start, end), without making a string for the common case: a plain
 * decimal (optional sign, digits, optional point and digits) with at most 15 digits is its integer mantissa m
 * divided by 10^k (k ≤ 15). Both are exact doubles, and IEEE division rounds correctly, so m / 10^k is the
 * correctly rounded value, which is what Number() returns. Anything else goes the general way: exponents, long
 * mantissas and hex as Number() reads them, every other form (octal and binary prefixes, "Infinity", stray
 * characters) NaN.
 */
export function parseNumberBytes(bytes: Uint8Array, start: number, end: number): number {
  let i = start;
  const sign = bytes[i];
  const negative = sign === MINUS;
  if (negative || sign === PLUS) i++;
  let mantissa = 0;
  const integerStart = i;
  for (; i < end; i++) {
    const digit = bytes[i]! - ZERO;
    if (digit < 0 || digit > 9) break;
    mantissa = mantissa * 10 + digit;
  }
  let digits = i - integerStart;
  let decimals = 0;
  if (i < end && bytes[i] === DOT) {
    const fractionStart = ++i;
    for (; i < end; i++) {
      const digit = bytes[i]! - ZERO;
      if (digit < 0 || digit > 9) break;
      mantissa = mantissa * 10 + digit;
    }
    decimals = i - fractionStart;
    digits += decimals;
  }
  if (i !== end || digits === 0 || digits > MAX_EXACT_DIGITS) return numberOfText(bytes, start, end);
  const magnitude = decimals === 0 ? mantissa : mantissa / EXACT_POWERS_OF_TEN[decimals]!;
  return negative ? -magnitude : magnitude;
}

/**
 * A relevance grade: the integer that `[+-]?digits` denotes, or NaN when the bytes are anything else, such as
 * "1.5", "high" or "", or an integer too large to hold exactly (beyond 2^53 − 1).
 */
export function parseIntegerBytes(bytes: Uint8Array, start: number, end: number): number {
  let i = start;
  const sign = bytes[i];
  const negative = sign === MINUS;
  if (negative || sign === PLUS) i++;
  if (i === end) return NaN;
  let value = 0;
  for (let j = i; j < end; j++) {
    const digit = bytes[j]! - ZERO;
    if (digit < 0 || digit > 9) return NaN;
    value = value * 10 + digit;
  }
  if (end - i > MAX_EXACT_DIGITS) {
    const exact = numberOfText(bytes, start, end);
    return Number.isSafeInteger(exact) ? exact : NaN;
  }
  return negative ? -value : value;
}
