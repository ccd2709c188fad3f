import { describe, expect, it } from 'vitest';
import { decompose } from '../../../src/core/scoring/decomposition.js';

/**
 * Per-question columns for a population: `nGood` questions where retrieval succeeded (`correctGood` of
 * them answered correctly) and `nBad` where it failed (`correctBad` correct). All answerable.
 */
function population(nGood: number, correctGood: number, nBad: number, correctBad: number, closedBookOnFailed?: number) {
  const n = nGood + nBad;
  const retrievalOk = new Float64Array(n);
  const correct = new Float64Array(n);
  const answerable = new Float64Array(n).fill(1);
  const closedBook = new Float64Array(n).fill(NaN);
  for (let i = 0; i < nGood; i++) {
    retrievalOk[i] = 1;
    correct[i] = i < correctGood ? 1 : 0;
  }
  for (let j = 0; j < nBad; j++) {
    const i = nGood + j;
    retrievalOk[i] = 0;
    correct[i] = j < correctBad ? 1 : 0;
    if (closedBookOnFailed !== undefined) closedBook[i] = j < closedBookOnFailed ? 1 : 0;
  }
  return decompose(retrievalOk, correct, answerable, closedBook);
}

/** First article: r = 0.72, gGood = 0.88, on 2500 questions: 1800 retrieved well (1584 correct), 700 failed. */
const sweep = (correctBad: number) => population(1800, 1584, 700, correctBad);

describe('decomposition: the first article, r = 0.72 and gGood = 0.88', () => {
  //   gBad   correct of 700   e2e      e2e / r (productModelG)   bias = (1 − r)·gBad / r
  it.each([
    [0.0, 0, 0.6336, 0.88, 0.0],
    [0.05, 35, 0.6476, 0.8994, 0.0194],
    [0.1, 70, 0.6616, 0.9189, 0.0389],
    [0.2, 140, 0.6896, 0.9578, 0.0778],
    [0.3, 210, 0.7176, 0.9967, 0.1167],
    [0.4, 280, 0.7456, 1.0356, 0.1556],
  ])('gBad %f (%i of 700 failed questions correct): e2e %f, productModelG %f, bias %f', (gBad, correctBad, e2e, g, bias) => {
    const d = sweep(correctBad);
    expect(d.n).toBe(2500);
    expect(d.nGood).toBe(1800);
    expect(d.nBad).toBe(700);
    expect(d.r).toBeCloseTo(0.72, 12);
    expect(d.gGood).toBeCloseTo(0.88, 12);
    expect(d.gBad).toBeCloseTo(gBad, 12);
    expect(d.e2e).toBeCloseTo(e2e, 12);
    expect(Math.abs(d.e2eCheck! - d.e2e!)).toBeLessThan(1e-12);
    expect(d.productModelG!.toFixed(4)).toBe(g.toFixed(4));
    expect(d.productModelBias!.toFixed(4)).toBe(bias.toFixed(4));
    expect(d.productModelG! - d.gGood!).toBeCloseTo(d.productModelBias!, 12);
  });

  it('warns when e2e / r exceeds 1 (gBad 0.40: 1.0356) and not below (gBad 0.30: 0.9967)', () => {
    // 280 right with retrieval failed outnumber the 216 wrong with it ok; 210 do not.
    const high = sweep(280);
    expect(high.warnings).toEqual([
      { kind: 'right-without-retrieval', productModelG: high.productModelG, rightWithoutRetrieval: 280, wrongWithRetrieval: 216 },
    ]);
    expect(high.productModelG!.toFixed(4)).toBe('1.0356');
    const below = sweep(210);
    expect(below.warnings).toEqual([]);
  });

  it('rLowerBound = (e2e − gBad) / (1 − gBad) = 0.612 for e2e 0.6896 and gBad 0.2', () => {
    const d = sweep(140);
    expect(d.rLowerBound).toBeCloseTo(0.612, 12);
    expect(d.r!).toBeGreaterThanOrEqual(d.rLowerBound!);
  });

  it('rLowerBound is clamped at 0 when e2e is below gBad, and undefined when gBad = 1', () => {
    expect(population(10, 0, 10, 5).rLowerBound).toBe(0);
    expect(population(10, 5, 10, 10).rLowerBound).toBeNull();
  });

  it('misattribution: retrieval drops to 0.60 with generation untouched, and a stale r of 0.72 blames the generator', () => {
    const before = sweep(140); // r 0.72
    const after = population(1500, 1320, 1000, 200); // r 0.60, gGood 0.88, gBad 0.20
    expect(after.r).toBeCloseTo(0.6, 12);
    expect(after.gGood).toBeCloseTo(0.88, 12);
    expect(after.gBad).toBeCloseTo(0.2, 12);
    expect(after.e2e).toBeCloseTo(0.608, 12);
    // End to end falls 8.16 points ...
    expect((before.e2e! - after.e2e!) * 100).toBeCloseTo(8.16, 9);
    // ... and dividing both by the stale r = 0.72 shows a generation drop of 11.33 points that never happened.
    const staleBefore = before.e2e! / 0.72;
    const staleAfter = after.e2e! / 0.72;
    expect(staleBefore.toFixed(4)).toBe('0.9578');
    expect(staleAfter.toFixed(4)).toBe('0.8444');
    expect(((staleBefore - staleAfter) * 100).toFixed(2)).toBe('11.33');
    // The decomposition, measured on the same day, shows gGood unchanged.
    expect(after.gGood! - before.gGood!).toBeCloseTo(0, 12);
    // With the fresh r, the product model overshoots 1 (0.608 / 0.6 = 1.0133) and says so.
    expect(after.productModelG).toBeCloseTo(0.608 / 0.6, 12);
    expect(after.warnings.map((w) => w.kind)).toEqual(['right-without-retrieval']);
  });

  it.each([
    // r, questions: [nGood, correctGood, nBad, correctBad] with gBad 0.2; the ceiling is r + (1 − r)·0.2
    [0.6, [1500, 1320, 1000, 200], 0.68],
    [0.72, [1800, 1584, 700, 140], 0.776],
    [0.85, [85, 70, 15, 3], 0.88],
  ] as const)('ceiling at r = %f and gBad 0.2 is %f', (r, [nGood, correctGood, nBad, correctBad], ceiling) => {
    const d = population(nGood, correctGood, nBad, correctBad);
    expect(d.r).toBeCloseTo(r, 12);
    expect(d.gBad).toBeCloseTo(0.2, 12);
    expect(d.ceiling).toBeCloseTo(ceiling, 12);
    expect(d.ceiling!).toBeGreaterThanOrEqual(d.e2e!);
  });
});

describe('decomposition: the third article\'s "92% accurate" team', () => {
  it('184 of 200 retrieved, 138 of them correct, gBad 0: r 0.92, gGood 0.75, e2e 0.69', () => {
    const d = population(184, 138, 16, 0);
    expect(d.r).toBeCloseTo(0.92, 12);
    expect(d.gGood).toBeCloseTo(0.75, 12);
    expect(d.gBad).toBe(0);
    expect(d.e2e).toBeCloseTo(0.69, 12);
    expect(d.e2eCheck).toBeCloseTo(0.69, 12);
    // With gBad = 0 the product model is exact: e2e / r = gGood, no bias.
    expect(d.productModelG).toBeCloseTo(0.75, 12);
    expect(d.productModelBias).toBe(0);
    expect(d.ceiling).toBeCloseTo(0.92, 12);
  });
});

describe('decomposition: closed-book accuracy beside gBad', () => {
  it('reports closed-book accuracy on the retrieval-failed questions next to gBad', () => {
    // 700 failed questions, 140 right with wrong context (gBad 0.20), 245 right with no context (0.35).
    const d = population(1800, 1584, 700, 140, 245);
    expect(d.gBad).toBeCloseTo(0.2, 12);
    expect(d.closedBook).not.toBeNull();
    expect(d.closedBook!.nFailed).toBe(700);
    expect(d.closedBook!.onFailed).toBeCloseTo(0.35, 12);
    expect(d.closedBook!.n).toBe(700);
    expect(d.closedBook!.all).toBeCloseTo(0.35, 12);
    // Plugging the closed-book rate in for gBad gives the article's wrong bias 0.1361 against a true 0.0778.
    const r = d.r!;
    expect((((1 - r) * d.closedBook!.onFailed!) / r).toFixed(4)).toBe('0.1361');
    expect(d.productModelBias!.toFixed(4)).toBe('0.0778');
  });

  it('closed-book values on retrieval-ok questions count in "all" only, not beside gBad', () => {
    // 4 retrieved well (closed book right on 3 of them), 4 failed (closed book right on 1, missing on 1).
    const retrievalOk = Float64Array.from([1, 1, 1, 1, 0, 0, 0, 0]);
    const correct = Float64Array.from([1, 1, 1, 0, 1, 0, 0, 0]);
    const closedBook = Float64Array.from([1, 1, 1, 0, 1, 0, 0, NaN]);
    const d = decompose(retrievalOk, correct, new Float64Array(8).fill(1), closedBook);
    expect(d.closedBook).toEqual({ onFailed: 1 / 3, nFailed: 3, all: 4 / 7, n: 7 });
    // An unanswerable question's closed-book value counts nowhere.
    const answerable = Float64Array.from([1, 1, 1, 1, 1, 1, 1, 0]);
    const withUnanswerable = decompose(retrievalOk, correct, answerable, Float64Array.from([1, 1, 1, 0, 1, 0, 0, 1]));
    expect(withUnanswerable.closedBook).toEqual({ onFailed: 1 / 3, nFailed: 3, all: 4 / 7, n: 7 });
    // Closed-book values only on retrieval-ok questions: nothing to set beside gBad.
    const onlyGood = decompose(retrievalOk, correct, new Float64Array(8).fill(1), Float64Array.from([1, 0, NaN, NaN, NaN, NaN, NaN, NaN]));
    expect(onlyGood.closedBook).toEqual({ onFailed: null, nFailed: 0, all: 0.5, n: 2 });
  });

  it('is null when no question carries closed_book_correct', () => {
    expect(sweep(140).closedBook).toBeNull();
  });
});

describe('decomposition: slices and edge cases', () => {
  it('leaves out unanswerable questions and questions missing either input, in every term', () => {
    const retrievalOk = Float64Array.from([1, 1, 0, 0, 1, NaN, 1, 0]);
    const correct = Float64Array.from([1, 0, 1, 0, NaN, 1, 1, 1]);
    const answerable = Float64Array.from([1, 1, 1, 1, 1, 1, 0, 0]);
    const d = decompose(retrievalOk, correct, answerable, new Float64Array(8).fill(NaN));
    // Kept: rows 0-3. r = 2/4, gGood = 1/2, gBad = 1/2, e2e = 2/4.
    expect(d).toMatchObject({ n: 4, nGood: 2, nBad: 2, r: 0.5, gGood: 0.5, gBad: 0.5, e2e: 0.5, e2eCheck: 0.5, rLowerBound: 0, ceiling: 0.75 });
  });

  it('with no question at all every rate is null', () => {
    const empty = new Float64Array(0);
    const d = decompose(empty, empty, empty, empty);
    expect(d).toMatchObject({
      n: 0,
      r: null,
      gGood: null,
      gBad: null,
      e2e: null,
      e2eCheck: null,
      productModelG: null,
      productModelBias: null,
      ceiling: null,
      rLowerBound: null,
      closedBook: null,
    });
    expect(d.warnings).toEqual([]);
  });

  it('all retrieval failed: r 0, gGood null, e2eCheck = gBad, no product model', () => {
    const d = population(0, 0, 20, 5);
    expect(d).toMatchObject({
      r: 0,
      gGood: null,
      nGood: 0,
      gBad: 0.25,
      e2e: 0.25,
      e2eCheck: 0.25,
      productModelG: null,
      productModelBias: null,
      ceiling: 0.25,
      rLowerBound: 0,
    });
  });

  it('all retrieval succeeded: gBad null, bias 0, ceiling 1', () => {
    const d = population(20, 15, 0, 0);
    expect(d).toMatchObject({
      r: 1,
      gGood: 0.75,
      gBad: null,
      nBad: 0,
      e2e: 0.75,
      e2eCheck: 0.75,
      productModelG: 0.75,
      productModelBias: 0,
      ceiling: 1,
      rLowerBound: null,
    });
    expect(d.warnings).toEqual([]);
  });

  it('warns that a split of fewer than 10 questions is a rough figure', () => {
    const d = population(20, 15, 3, 1);
    expect(d.warnings).toContainEqual({ kind: 'small-split', split: 'bad', n: 3 });
    expect(population(1, 1, 20, 1).warnings).toContainEqual({ kind: 'small-split', split: 'good', n: 1 });
  });

  it('the small-split warning stops at 10 questions, on either side', () => {
    expect(population(20, 15, 9, 1).warnings).toEqual([{ kind: 'small-split', split: 'bad', n: 9 }]);
    expect(population(20, 15, 10, 1).warnings).toEqual([]);
    expect(population(20, 15, 1, 0).warnings).toEqual([{ kind: 'small-split', split: 'bad', n: 1 }]);
    expect(population(9, 5, 20, 1).warnings).toEqual([{ kind: 'small-split', split: 'good', n: 9 }]);
    expect(population(10, 5, 20, 1).warnings).toEqual([]);
  });

  it('e2e / r of exactly 1 is not warned about (8 of 10 and 2 of 10: e2e 0.5 = r)', () => {
    const d = population(10, 8, 10, 2);
    expect(d.productModelG).toBe(1);
    expect(d.warnings).toEqual([]);
  });
});
