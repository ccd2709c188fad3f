/**
 * A count as `toLocaleString('en-US')` writes it ("12,345"), without Intl: the first use of Intl's number format
 * loads its locale data, 0.01 s of every run. Any number but a safe integer (a fraction, −0, NaN, ±∞, a huge
 * one) is left to `toLocaleString`.
 */
export function grouped(n: number): string {
  if (!Number.isSafeInteger(n) || Object.is(n, -0)) return n.toLocaleString('en-US');
  const digits = String(Math.abs(n));
  let out = digits.slice(0, ((digits.length - 1) % 3) + 1);
  for (let i = out.length; i < digits.length; i += 3) out += `,${digits.slice(i, i + 3)}`;
  return n < 0 ? `-${out}` : out;
}
