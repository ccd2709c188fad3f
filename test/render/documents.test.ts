import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { contextId, questionId } from '../../src/core/derived-ids.js';
import { documentLabel, idFromText } from '../../src/render/documents.js';
import { inertFirstWords, inertText } from '../../src/render/untrusted.js';
import { change, makeComparison } from './comparison-fixture.js';
import { renderBody } from './comparison-variants.js';

describe('inertFirstWords', () => {
  it('keeps at most the words and code points asked for, ending with … when the text goes on', () => {
    expect(inertFirstWords('Refunds are issued within 30 days.', 8, 60)).toBe('Refunds are issued within 30 days.');
    expect(inertFirstWords('one two three four five six seven eight nine', 8, 60)).toBe('one two three four five six seven eight…');
    // 59 code points and the ellipsis: words of 9 letters fit six times (54 and 5 spaces), a seventh would not.
    expect(inertFirstWords(Array.from({ length: 8 }, () => 'a'.repeat(9)).join(' '), 8, 60)).toBe(
      `${Array.from({ length: 6 }, () => 'a'.repeat(9)).join(' ')}…`,
    );
    expect(inertFirstWords('x'.repeat(100), 8, 60)).toBe(`${'x'.repeat(59)}…`);
    expect(inertFirstWords('  spaced \n\t out  ', 8, 60)).toBe('spaced out');
    expect(inertFirstWords('', 8, 60)).toBe('');
  });

  it('is a prefix of the inert text, bounded, for any text (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 300 }), fc.integer({ min: 1, max: 12 }), fc.integer({ min: 2, max: 80 }), (value, words, max) => {
        const label = inertFirstWords(value, words, max);
        const flat = inertText(value, 10_000);
        expect(Array.from(label).length).toBeLessThanOrEqual(max);
        const kept = label.endsWith('…') && label !== flat ? label.slice(0, -1) : label;
        expect(flat.startsWith(kept)).toBe(true);
        expect(kept.split(' ').filter(Boolean).length).toBeLessThanOrEqual(words);
      }),
    );
  });
});

describe('documentLabel and idFromText', () => {
  it("labels a document by either side's text for its id, and nothing else", () => {
    const evidence = { base: { documentTexts: { 'text-a': 'Alpha passage' } }, head: { documentTexts: { 'text-b': 'Beta passage' } } };
    expect(documentLabel('text-a', evidence)).toBe('Alpha passage');
    expect(documentLabel('text-b', evidence)).toBe('Beta passage');
    expect(documentLabel('auth-0007', evidence)).toBeNull();
    // An id named like an Object property is no key of the texts.
    expect(documentLabel('constructor', evidence)).toBeNull();
    expect(documentLabel('text-a', undefined)).toBeNull();
  });

  it("tells a question's id derived from its text from one given", () => {
    expect(idFromText({ id: questionId('How long is the trial?'), question: 'How long is the trial?' })).toBe(true);
    expect(idFromText({ id: questionId('How long is the trial?'), question: 'How long is the  trial? ' })).toBe(true);
    expect(idFromText({ id: 'q-0022', question: 'How long is the trial?' })).toBe(false);
    expect(idFromText({ id: questionId('Another question'), question: 'How long is the trial?' })).toBe(false);
  });

  it('agrees with comparing the id to the hash of the question, whatever the id (property)', () => {
    const question = fc.string({ unit: fc.constantFrom('a', 'B', ' ', '\t', 'é', 'e\u0301', '?'), maxLength: 8 });
    // Ids of the derived shape or near it: the question's own, another's, re-cased, cut, lengthened, or any.
    const id = (text: string) =>
      fc.oneof(
        fc.constant(questionId(text)),
        question.map(questionId),
        fc.constant(questionId(text).toUpperCase()),
        fc.constant(questionId(text).slice(0, -1)),
        fc.constant(`${questionId(text)}0`),
        fc.constant(`Q-${questionId(text).slice(2)}`),
        fc.string({ maxLength: 20 }),
        fc.string({ unit: fc.constantFrom(...'0123456789abcdefA'), minLength: 15, maxLength: 17 }).map((hex) => `q-${hex}`),
      );
    fc.assert(
      fc.property(
        question.chain((text) => fc.tuple(fc.constant(text), id(text))),
        ([text, given]) => {
          expect(idFromText({ id: given, question: text })).toBe(given.startsWith('q-') && given === questionId(text));
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe('renderComment: questions and documents without ids', () => {
  it('shows a question by its text when its id is its hash, and a document by its first words when its id is', () => {
    const question = 'How long can a new workspace try the Team plan for free?';
    const lost = contextId('New workspaces can try the Team plan free for 14 days, and the first charge is on the day it ends.');
    const newcomer = contextId('Starter has no minimum number of members.');
    const regression = {
      ...change(0, 'retrieval', { lostDocuments: [lost] }),
      id: questionId(question),
      question,
      evidence: {
        base: { top: [lost], documentTexts: { [lost]: 'New workspaces can try the Team plan free for 14 days, and the first charge is on the day it ends.' } },
        head: { top: [newcomer], documentTexts: { [newcomer]: 'Starter has no minimum number of members.' } },
      },
    };
    const markdown = renderBody(makeComparison({ regressions: [regression] }));
    expect(markdown).toContain(`| ${question}<br>lost “New workspaces can try the Team plan free…” · in its place “Starter has no minimum number of members.”`);
    expect(markdown).not.toContain(regression.id);
    expect(markdown).not.toContain(lost);
  });
});
