import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Comparison, QuestionChange, RegressionCause } from '../../src/core/compare/types.js';
import { commentRenders, CUT_ORDER, type Limits, renderComment } from '../../src/render/markdown.js';
import { change, countByTag, makeComparison, retrievalRegression } from './comparison-fixture.js';
import { missingQuestion } from './comparison-variants.js';

/**
 * renderComment against the definition of its fit, by rendering and checking the size: the whole comment if it
 * fits; else the lists cut in order, each to the most rows whose render fits (the lists before it emptied, those
 * after it whole), until one fits or every list is empty. Whatever renderComment does to render less (the length
 * bound, lists built as far as asked, texts kept between renders), the comment must be this one.
 */
function fitByRendering(comparison: Comparison, maxLength: number): string {
  const { render, limits } = commentRenders(comparison, { retrievalOk: 'hit@5', reportLink: 'the `report-json` output' });
  let best: Limits = limits;
  const whole = render(best);
  if (whole.length <= maxLength) return whole;
  for (const key of CUT_ORDER) {
    for (let count = best[key] - 1; count >= 0; count--) {
      const text = render({ ...best, [key]: count });
      if (text.length <= maxLength) return text;
    }
    best = { ...best, [key]: 0 };
  }
  return render(best);
}

const WORDS = ['refund', 'window', 'enterprise', 'plan', 'audit', 'log', 'S3', 'region', 'token', 'rotate', 'key'];
const words = fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 25 }).map((list) => list.join(' '));
const cause = fc.constantFrom<RegressionCause>('retrieval', 'generation', 'unknown');
/** A changed question: a short or long question, and answers side by side on some. */
const changed = (from: number) =>
  fc.array(fc.tuple(cause, words, fc.option(fc.tuple(words, words, words), { nil: undefined })), { maxLength: 14 }).map((items) =>
    items.map(([why, question, answers], k): QuestionChange => {
      const evidence = answers === undefined ? undefined : { expectedAnswer: answers[0], base: { answer: answers[1] }, head: { answer: answers[2] } };
      return change(from + k, why, { question: `${question}?`, ...(evidence === undefined ? {} : { evidence }) });
    }),
  );

const comparisons = fc
  .record({
    regressions: changed(0),
    fixed: changed(100),
    rescued: fc.nat(10),
    missing: fc.nat(6),
  })
  .map(({ regressions, fixed, rescued, missing }) =>
    makeComparison({
      regressions,
      fixed,
      retrievalRegressions: [
        ...regressions.filter((r) => r.cause === 'retrieval').map((r) => retrievalRegression(r, false)),
        ...Array.from({ length: rescued }, (_, k) => retrievalRegression(change(200 + k, 'retrieval'), k % 3 !== 0)),
      ],
      missing: Array.from({ length: missing }, (_, k) => missingQuestion(k, k % 2 === 0, null)),
      regressionsByTag: countByTag(regressions),
    }),
  );

describe('renderComment: the fit to the budget', () => {
  it('is the comment that rendering and checking the size finds, at any budget (property)', () => {
    fc.assert(
      fc.property(comparisons, fc.integer({ min: -50, max: 1_050 }), (comparison, permille) => {
        const options = { retrievalOk: 'hit@5', reportLink: 'the `report-json` output' };
        // Budgets from below the comment without rows to above the whole comment.
        const { render, limits } = commentRenders(structuredClone(comparison), options);
        const [least, most] = [render({ missing: 0, main: 0, extra: 0, fixed: 0, tags: 0 }).length, render(limits).length];
        const maxLength = Math.round(least + ((most - least) * permille) / 1_000);
        // Each on its own copy: neither finds what the other kept.
        expect(renderComment(structuredClone(comparison), { ...options, maxLength })).toBe(fitByRendering(structuredClone(comparison), maxLength));
      }),
      { numRuns: 60 },
    );
  });
});
