import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { normalizeText } from '../../src/core/derived-ids.js';

describe('normalizeText', () => {
  it('is NFC with every run of white space one space and none at either end (property)', () => {
    const unit = fc.constantFrom('a', 'B', ' ', '  ', '\t', '\n', '\r\n', '\u00a0', '\u2028', '\u3000', 'e\u0301', 'é', '😀', '.');
    fc.assert(
      fc.property(fc.string({ unit, maxLength: 12 }), (text) => {
        expect(normalizeText(text)).toBe(text.normalize('NFC').replace(/\s+/gu, ' ').trim());
      }),
      { numRuns: 2_000 },
    );
  });

  it('leaves printable ASCII spaced once as it is, and normalises any other ASCII as NFC and the collapse do (property)', () => {
    const ascii = fc.oneof(
      fc.string(),
      fc.string({ unit: 'binary-ascii' }),
      fc.string({ unit: fc.constantFrom('a', ' ', '\t', '\u000b', '\u001c', '~', '\u007f') }),
    );
    fc.assert(
      fc.property(ascii, (text) => {
        expect(normalizeText(text)).toBe(text.normalize('NFC').replace(/\s+/gu, ' ').trim());
      }),
      { numRuns: 2_000 },
    );
  });

  it('composes, collapses and trims', () => {
    expect(normalizeText('  Caf\u0065\u0301\t au\u00a0 lait \n')).toBe('Café au lait');
    expect(normalizeText('one two')).toBe('one two');
    expect([normalizeText(' x'), normalizeText('x '), normalizeText('a\tb'), normalizeText('')]).toEqual(['x', 'x', 'a b', '']);
  });
});
