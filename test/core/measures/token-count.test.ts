import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { answerTokens, textCounts } from '../../../src/core/measures/generation/text.js';

/** The definitions the counts must agree with: answerTokens' list, and a split at \s+ of the trimmed text. */
const wordsBySplit = (text: string) => (text.trim() === '' ? 0 : text.trim().split(/\s+/u).length);

// Text made of the characters the counts treat specially: ASCII letters of both cases (articles among the words),
// every kind of ASCII whitespace, punctuation and symbols, control characters, and a few non-ASCII ones.
const pieces = fc.constantFrom(
  'a',
  'A',
  'an',
  'An',
  'the',
  'THE',
  'then',
  'tHe',
  'x',
  'Paris',
  '42',
  'U.S.A.',
  'a.',
  '(the)',
  "don't",
  'e-mail',
  ' ',
  '  ',
  '\t',
  '\n',
  '\r\n',
  '\v',
  '\f',
  '\u001c',
  '\u0000',
  '\u007f',
  '!',
  '"',
  '#',
  '$',
  '%',
  '&',
  "'",
  '*',
  '+',
  ',',
  '-',
  '.',
  '/',
  ':',
  ';',
  '<',
  '=',
  '>',
  '?',
  '@',
  '[',
  '\\',
  ']',
  '^',
  '_',
  '`',
  '{',
  '|',
  '}',
  '~',
  '\u00a0',
  'É',
  'ça',
  '—',
  '’',
  '\u2003',
  'Ünïcode',
  '😀',
);
const texts = fc.array(pieces, { maxLength: 40 }).map((parts) => parts.join(''));
// Printable ASCII only (spaces the only white space), which is counted a word at a time between spaces.
const printable = fc.oneof(
  fc
    .array(
      pieces.filter((piece) => /^[ -~]*$/.test(piece)),
      { maxLength: 40 },
    )
    .map((parts) => parts.join('')),
  fc.string(),
);

describe('textCounts counts as the regular-expression definitions do', () => {
  it('textCounts(text).tokens = answerTokens(text).length (property)', () => {
    fc.assert(
      fc.property(texts, (text) => textCounts(text).tokens === answerTokens(text).length),
      { numRuns: 2000 },
    );
  });

  it('textCounts(text).words = the number of \\s+-separated words of the trimmed text (property)', () => {
    fc.assert(
      fc.property(texts, (text) => textCounts(text).words === wordsBySplit(text)),
      { numRuns: 2000 },
    );
  });

  it('counts printable ASCII as the definitions do (property)', () => {
    fc.assert(
      fc.property(printable, (text) => {
        expect(textCounts(text)).toEqual({ words: wordsBySplit(text), tokens: answerTokens(text).length });
      }),
      { numRuns: 3000 },
    );
  });

  it.each<[string, number]>([
    ['The answer is a U.S.A. thing, an odd one.', 6],
    ['  the  A an THE ', 0],
    ['then anne theme', 3],
    ['a-b c', 2],
    ['ça va', 2],
  ])('%j has %i tokens', (text, tokens) => {
    expect(textCounts(text).tokens).toBe(tokens);
    expect(answerTokens(text)).toHaveLength(tokens);
  });
});
