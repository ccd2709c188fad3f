import { describe, expect, it } from 'vitest';
import { detectRefusal } from '../../../src/core/measures/refusal.js';
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
