import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { detectRefusal, REFUSAL_PHRASES, REFUSAL_PREFIX_CHARS } from '../../../src/core/measures/refusal.js';
import { isRefusal } from '../../../src/core/monitor/turns.js';

describe('the text refusal detector', () => {
  it.each([
    "I'm sorry, but I couldn't find that in the documentation.",
    'I don’t know the answer based on the provided context.',
    'The context does not contain information about refunds.',
    '   ',
    'Unfortunately I am unable to answer that question.',
  ])('reads %j as a refusal', (answer) => expect(detectRefusal(answer)).toBe(true));

  it.each([
    'Open Settings, then Billing; the refund window is 30 days.',
    "You don't have to restart: the change applies at once.",
    `${'Step by step: open Settings and choose Security. '.repeat(7)}If that fails, I don't know what else to try.`,
  ])('reads %j as an answer', (answer) => expect(detectRefusal(answer)).toBe(false));

  it("gives way to the log's refused field", () => {
    expect(isRefusal({ session: 's', at: 0, query: 'q', answer: "I don't know", refused: false })).toBe(false);
    expect(isRefusal({ session: 's', at: 0, query: 'q', answer: 'Yes.', refused: true })).toBe(true);
    expect(isRefusal({ session: 's', at: 0, query: 'q', refused: true })).toBe(true);
  });
});

describe('the refusal detector reading only the head of an ASCII answer', () => {
  // The rule as written: the whole answer normalized, lower-cased and trimmed, then its first 300 characters.
  const byTheRule = (answer: string) => {
    const pattern = new RegExp(`(?:^|[^\\p{L}\\p{N}])(?:${REFUSAL_PHRASES.map((phrase) => phrase.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})`, 'u');
    const head = answer
      .normalize('NFKC')
      .toLowerCase()
      .replace(/[\u2018\u2019]/g, "'")
      .trim()
      .slice(0, REFUSAL_PREFIX_CHARS);
    return head === '' || pattern.test(head);
  };
  // Pieces that matter at the head's edges: phrases, spaces that trim drops or keeps, marks that compose with the
  // character before them, letters NFKC or lower case change the length of, curly apostrophes, astral characters.
  const piece = () =>
    fc.oneof(
      fc.constantFrom(
        ...REFUSAL_PHRASES.map((phrase) => phrase.toUpperCase()),
        'I DON\u2019T KNOW',
        ' ',
        '\t',
        '\n',
        '\u000b',
        '\u00a0',
        '\u3000',
        '\ufeff',
        '\u001c',
      ),
      fc.constantFrom('\u0301', '\u0338', '\u1161', '\ufb03', '\u0130', '\u03a3', '\u2163', '\ud835\udc00', '\ud800', 'e', 'I', 'x', '.', ','),
      fc.string({ unit: 'binary', maxLength: 3 }),
      fc.string({ maxLength: 40 }),
    );
  const answer = () =>
    fc.tuple(fc.integer({ min: 0, max: 320 }), fc.array(piece(), { maxLength: 12 })).map(([filler, pieces]) => {
      const text = pieces.join('');
      const at = Math.min(filler, text.length);
      return `${text.slice(0, at)}${'a b '.repeat(filler >> 2)}${text.slice(at)}`;
    });

  it('agrees with the rule as written on every answer', () => {
    fc.assert(
      fc.property(answer(), (text) => detectRefusal(text) === byTheRule(text)),
      { numRuns: 3000 },
    );
  });

  it("agrees at the head's last character: a phrase ending there, one short of it or past it, and what follows", () => {
    // A phrase ending at the head's last character (shift 0) or near it, then a mark that would join its last letter,
    // a space, or more words.
    const edge = fc
      .record({
        lead: fc.constantFrom('', ' ', '\t\n ', '\r', '\u000b\f', '\u001c', '\u00a0'),
        phrase: fc.constantFrom(...REFUSAL_PHRASES).chain((phrase) => fc.constantFrom(phrase, phrase.toUpperCase())),
        shift: fc.integer({ min: -2, max: 2 }),
        after: fc.constantFrom('', '\u0301', '\u0338', ' ', '  \n', 'x', '.', '\u2019', '\ud835\udc00'),
        rest: fc.constantFrom('', ' more words', ' '.repeat(30)),
      })
      .map(({ lead, phrase, shift, after, rest }) => `${lead}${'x'.repeat(REFUSAL_PREFIX_CHARS - phrase.length - 1 + shift)} ${phrase}${after}${rest}`);
    fc.assert(
      fc.property(edge, (text) => detectRefusal(text) === byTheRule(text)),
      { numRuns: 2000 },
    );
    // A refusal said first, a long answer after it; the same phrase past the head is no refusal.
    expect(detectRefusal(`I don't know. ${'More words here. '.repeat(40)}`)).toBe(true);
    expect(detectRefusal(`${'More words here. '.repeat(40)}I don't know.`)).toBe(false);
  });
});
