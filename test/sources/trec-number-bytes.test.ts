import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseIntegerBytes, parseNumberBytes } from '../../src/sources/number-bytes.js';

/** The text's UTF-8 bytes placed between other bytes, so that the parser must respect start and end. */
function embedded(text: string): { bytes: Buffer; start: number; end: number } {
  const inner = Buffer.from(text, 'utf8');
  return { bytes: Buffer.concat([Buffer.from('9 '), inner, Buffer.from(' 7')]), start: 2, end: 2 + inner.length };
}

function parseNumber(text: string): number {
  const { bytes, start, end } = embedded(text);
  return parseNumberBytes(bytes, start, end);
}

function parseInteger(text: string): number {
  const { bytes, start, end } = embedded(text);
  return parseIntegerBytes(bytes, start, end);
}

const digits = (maxLength: number) => fc.string({ unit: fc.constantFrom(...'0123456789'), maxLength });

/** Decimal-looking text: sign, integer digits (leading zeros too), point, fraction digits, sometimes an exponent. */
const decimalText = fc
  .tuple(
    fc.constantFrom('', '', '+', '-'),
    digits(25),
    fc.constantFrom('', '.', '.'),
    digits(30),
    fc.oneof(
      { weight: 5, arbitrary: fc.constant('') },
      fc.tuple(fc.constantFrom('e', 'E'), fc.constantFrom('', '+', '-'), digits(4)).map((parts) => parts.join('')),
    ),
  )
  .map((parts) => parts.join(''));

/** Scores as runs write them: an optional minus, up to five integer digits, a point and up to 17 decimals. */
const typicalScore = fc
  .tuple(fc.constantFrom('', '-'), fc.integer({ min: 0, max: 99999 }), digits(17))
  .map(([sign, whole, fraction]) => `${sign}${whole}.${fraction}`);

const EDGE_CASES = [
  '0',
  '-0',
  '+0',
  '0.0',
  '-0.0',
  '00',
  '.5',
  '5.',
  '-.5',
  '+.5',
  '.',
  '-',
  '+',
  '-.',
  '',
  '1e5',
  '1E-5',
  '1e+5',
  '1e',
  'e5',
  '1e400',
  '-1e400',
  '1e-400',
  'Infinity',
  '-Infinity',
  '+Infinity',
  'inf',
  'nan',
  'NaN',
  'abc',
  '0x1A',
  '0X1a',
  '0b11',
  '0o17',
  '-0x1A',
  '1_000',
  '1..2',
  '1.2.3',
  '--1',
  '+-1',
  '1-',
  '1+1',
  ' 1',
  '1 ',
  '\u00a01',
  '1\u00a0',
  '١', // a no-break space around a digit; an Arabic-Indic digit
  '9007199254740991',
  '9007199254740992',
  '9007199254740993',
  '123456789012345',
  '1234567890123456',
  '999999999999999.9',
  '0.1',
  '0.2',
  '0.3',
  '0.30000000000000004',
  '2.675',
  '1.005',
  '4.35',
  '0.1234567890123456789',
  '0.0000000000000000000001',
  '0.00000000000000000000001',
  '1.0000000000000000000000',
  '000000000000000000000000001.5',
  '100000000000000000000000',
  '1797693134862315708145274237317043567981e269',
  '4.9406564584124654e-324',
];

/** What both Number() and C's strtod read the same way (decimals, exponents, unsigned hex); NaN for the rest. */
const SHARED = /^[+-]?(?:(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)$|^0[xX][0-9a-fA-F]+$/;
const expectedNumber = (text: string) => (SHARED.test(text) ? Number(text) : NaN);

describe('parseNumberBytes', () => {
  it.each(EDGE_CASES)('reads %j exactly as Number() does, when C strtod reads it alike', (text) => {
    expect(Object.is(parseNumber(text), expectedNumber(text))).toBe(true);
  });

  it.each(['0o17', '0b11', '1_000', 'Infinity', '-0x1A'])('refuses %j, which Number() and trec_eval read differently', (text) => {
    expect(parseNumber(text)).toBeNaN();
  });

  it('agrees with Number() on random decimal text (property)', () => {
    fc.assert(
      fc.property(decimalText, (text) => {
        expect(Object.is(parseNumber(text), expectedNumber(text))).toBe(true);
      }),
      { numRuns: 20_000 },
    );
  });

  it('agrees with Number() on typical scores (property)', () => {
    fc.assert(
      fc.property(typicalScore, (text) => {
        expect(Object.is(parseNumber(text), expectedNumber(text))).toBe(true);
      }),
      { numRuns: 20_000 },
    );
  });

  it('agrees with Number() on random doubles written by String() and by toFixed() (property)', () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true }), fc.integer({ min: 0, max: 20 }), (value, decimals) => {
        for (const text of [String(value), value.toFixed(decimals)]) expect(Object.is(parseNumber(text), expectedNumber(text))).toBe(true);
      }),
      { numRuns: 20_000 },
    );
  });
});

describe('parseIntegerBytes', () => {
  const expected = (text: string) => (/^[+-]?\d+$/.test(text) && Number.isSafeInteger(Number(text)) ? Number(text) : NaN);

  it.each([
    '0',
    '-0',
    '+3',
    '-1',
    '12',
    '007',
    '',
    '+',
    '-',
    '1.5',
    '1.0',
    'high',
    '1e3',
    '0x10',
    ' 1',
    '123456789012345',
    '1234567890123456',
    '99999999999999999999',
    '9'.repeat(400),
  ])('reads %j as the pattern [+-]?digits would, when it fits a double exactly', (text) => {
    expect(Object.is(parseInteger(text), expected(text))).toBe(true);
  });

  it('agrees with the pattern and Number() on random text (property)', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          decimalText,
          fc.tuple(fc.constantFrom('', '+', '-'), digits(20)).map((parts) => parts.join('')),
        ),
        (text) => {
          expect(Object.is(parseInteger(text), expected(text))).toBe(true);
        },
      ),
      { numRuns: 10_000 },
    );
  });
});
