import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type CorrectnessRule,
  exactMatch,
  judgeCorrect,
  numbersAgree,
  parseCorrectnessRule,
  tokenF1,
} from '../../../src/core/measures/generation/correctness.js';
import { answerNumbers } from '../../../src/core/measures/generation/text.js';

const RULES: readonly CorrectnessRule[] = ['contains', 'exact', 'f1:0.5', 'f1:0.75', 'f1:1'].map(parseCorrectnessRule);
const judge = (rule: string, answer: string, expected: string) => judgeCorrect(parseCorrectnessRule(rule), answer, expected);
const verdicts = (answer: string, expected: string) => RULES.map((rule) => judgeCorrect(rule, answer, expected));

describe('which tokens are numbers', () => {
  it('runs of digits, with commas only between groups of three and one decimal point, compared by value', () => {
    expect(answerNumbers('1,000 requests, or 1000; 1,000.50 and 1,2345')).toEqual(['1000', '1000', '1000.5', '1', '2345']);
    expect(answerNumbers('3,5 and 1.000 and 2.50 and 007 and 0.0 and 000')).toEqual(['3', '5', '1', '2.5', '7', '0', '0']);
    // One decimal point: a third part is a number of its own, and a sentence's full stop is no decimal point.
    expect(answerNumbers('version 1.2.3 shipped on day 30.')).toEqual(['1.2', '3', '30']);
  });

  it('what surrounds the digits is not part of the number: signs, units, percent signs, ordinals, names', () => {
    expect(answerNumbers('-5 °C, 24%, the 24th, $12, HMAC-SHA256, 5-10 days, 2024-01-05')).toEqual(['5', '24', '24', '12', '256', '5', '10', '2024', '1', '5']);
  });

  it('number words are words, and a text without digits has no numbers', () => {
    expect(answerNumbers('two hours, a dozen times')).toEqual([]);
    expect(answerNumbers('')).toEqual([]);
  });
});

describe('an answer must keep every number of the expected answer', () => {
  it('every 2 hours against every 24 hours: F1 0.67 passes f1:0.6 lexically, and the changed number makes it wrong', () => {
    expect(tokenF1('every 2 hours', 'every 24 hours')).toBeCloseTo(2 / 3, 12);
    expect(judge('f1:0.6', 'every 2 hours', 'every 24 hours')).toBe(0);
    expect(verdicts('every 2 hours', 'every 24 hours')).toEqual([0, 0, 0, 0, 0]);
  });

  it('a number added is not wrong by itself: the lexical rule decides', () => {
    expect(numbersAgree('every 24 hours (1 day)', 'every 24 hours')).toBe(1);
    expect(judge('contains', 'every 24 hours (1 day)', 'every 24 hours')).toBe(1);
    // A hedge keeps the expected number; contains still finds "every 24 hours" nowhere in it.
    expect(judge('contains', 'every 2 or 24 hours', 'every 24 hours')).toBe(0);
    expect(judge('f1:0.7', 'every 2 or 24 hours', 'every 24 hours')).toBe(1); // F1 0.75
  });

  it('exact: the same number written with or without thousands commas agrees; 2.5 and 25 do not', () => {
    expect(judge('exact', '1000 requests per minute', '1,000 requests per minute')).toBe(1);
    // Normalisation deletes the point, so exact match alone reads both as "25 gb".
    expect(exactMatch('25 GB', '2.5 GB')).toBe(1);
    expect(judge('exact', '25 GB', '2.5 GB')).toBe(0);
  });

  it('an ordinal is its number: the 4th is not the 24th', () => {
    expect(tokenF1('renews on the 4th', 'renews on the 24th')).toBeCloseTo(2 / 3, 12);
    expect(judge('f1:0.6', 'renews on the 4th', 'renews on the 24th')).toBe(0);
    expect(judge('contains', 'It renews on the 24th of each month.', 'renews on the 24th')).toBe(1);
  });

  it('numbers are counted with multiplicity: one 5 where the expected answer has two is wrong', () => {
    expect(tokenF1('5 members and 50 guests', '5 members and 5 guests')).toBeCloseTo(0.8, 12);
    expect(judge('f1:0.75', '5 members and 50 guests', '5 members and 5 guests')).toBe(0);
    expect(numbersAgree('5 guests and 5 members', '5 members and 5 guests')).toBe(1);
  });

  it('a number word does not stand for the number', () => {
    expect(verdicts('two hours', '2 hours')).toEqual([0, 0, 0, 0, 0]);
    // An expected answer with no digits asks for no number; "2" against "two" is then a lexical question.
    expect(numbersAgree('2 hours', 'two hours')).toBe(1);
    expect(judge('f1:0.5', '2 hours', 'two hours')).toBe(1); // F1 0.5
  });

  it('signs, units and percent signs do not tell numbers apart', () => {
    expect(judge('contains', 'Set it to -5 °C.', '5 C')).toBe(1);
    expect(judge('exact', '24 %', '24%')).toBe(1);
    expect(judge('contains', 'Uptime is 99.9% each month.', 'uptime is 99.95%')).toBe(0);
  });
});

/** Text of words, numbers in the forms the reader knows, and separators: what answers are made of. */
const answerText = fc
  .array(
    fc.oneof(
      fc.constantFrom('every', 'hours', 'the', 'a', 'GB', 'days', 'two', 'SHA', 'th', 'per', 'member'),
      fc.nat({ max: 100_000 }).map(String),
      fc.nat({ max: 9_999_999 }).map((n) => n.toLocaleString('en-US')),
      fc.tuple(fc.nat({ max: 999 }), fc.stringMatching(/^\d{1,3}$/)).map(([whole, fraction]) => `${whole}.${fraction}`),
      fc.nat({ max: 99 }).map((n) => `0${n}`),
      fc.nat({ max: 40 }).map((n) => `${n}th`),
    ),
    { maxLength: 8 },
  )
  .chain((parts) =>
    fc
      .array(fc.constantFrom(' ', ', ', '. ', '-', '% ', ' $', ','), { minLength: parts.length, maxLength: parts.length })
      .map((separators) => parts.map((part, i) => part + separators[i]).join('')),
  );

describe('properties', () => {
  it('an answer equal to the expected answer is right under every rule', () => {
    fc.assert(fc.property(fc.oneof(answerText, fc.string({ unit: 'grapheme' })), (text) => verdicts(text, text).every((verdict) => verdict === 1)));
  });

  it('changing one digit of an otherwise identical answer makes it wrong under every rule', () => {
    const withDigit = answerText.filter((text) => /\d/.test(text));
    fc.assert(
      fc.property(withDigit, fc.nat(), fc.integer({ min: 1, max: 9 }), (expected, pick, step) => {
        const digits = [...expected.matchAll(/\d/g)].map((match) => match.index);
        const at = digits[pick % digits.length]!;
        const answer = expected.slice(0, at) + String((Number(expected[at]) + step) % 10) + expected.slice(at + 1);
        return verdicts(answer, expected).every((verdict) => verdict === 0);
      }),
    );
  });

  it('adding a number to an answer leaves its numbers agreeing', () => {
    fc.assert(fc.property(answerText, fc.nat(), (expected, added) => numbersAgree(`${expected} ${added}`, expected) === 1));
  });
});
