const PLUS = 0x2b;
const MINUS = 0x2d;
const DOT = 0x2e;
const ZERO = 0x30;

/** 10^0 … 10^22: every power of ten a double holds exactly. */
const EXACT_POWERS_OF_TEN = Float64Array.from({ length: 23 }, (_, k) => Number(`1e${k}`));

/** Up to 15 significant digits an integer mantissa stays below 10^15 < 2^53, so it is held exactly. */
const MAX_EXACT_DIGITS = 15;

/** `Number()` of the bytes decoded as UTF-8: the general (slower) way, for anything the fast path does not take. */
function numberOfText(bytes: Uint8Array, start: number, end: number): number {
  return Number(Buffer.from(bytes.buffer, bytes.byteOffset + start, end - start).toString('utf8'));
}

/**
 * What `Number(text)` gives for the bytes [start, end), without making a string for the common case: a plain
 * decimal (optional sign, digits, optional point and digits) with at most 15 significant digits and 22
 * decimals is its integer mantissa m divided by 10^k. Both are exact doubles, and IEEE division rounds
 * correctly, so m / 10^k is the correctly rounded value, which is what Number() returns. Anything else
 * (exponents, long mantissas, hex, "Infinity", stray characters) goes through Number() itself.
 */
export function parseNumberBytes(bytes: Uint8Array, start: number, end: number): number {
  let i = start;
  const sign = bytes[i];
  const negative = sign === MINUS;
  if (negative || sign === PLUS) i++;
  let mantissa = 0;
  let digits = 0;
  let significant = 0;
  let decimals = 0;
  let point = false;
  for (; i < end; i++) {
    const byte = bytes[i]!;
    const digit = byte - ZERO;
    if (digit >= 0 && digit <= 9) {
      digits++;
      if (point) decimals++;
      if (significant > 0 || digit !== 0) significant++;
      mantissa = mantissa * 10 + digit;
    } else if (byte === DOT && !point) {
      point = true;
    } else {
      return numberOfText(bytes, start, end);
    }
  }
  if (digits === 0 || significant > MAX_EXACT_DIGITS || decimals >= EXACT_POWERS_OF_TEN.length) return numberOfText(bytes, start, end);
  const magnitude = decimals === 0 ? mantissa : mantissa / EXACT_POWERS_OF_TEN[decimals]!;
  return negative ? -magnitude : magnitude;
}

/**
 * A relevance grade: the integer that `[+-]?digits` denotes (as `Number(text)` reads it), or NaN when the bytes
 * are anything else, such as "1.5", "high" or "".
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
  if (end - i > MAX_EXACT_DIGITS) return numberOfText(bytes, start, end);
  return negative ? -value : value;
}
