import { describe, expect, it } from 'vitest';
import { decompose } from '../../../src/core/scoring/decomposition.js';

/** n answerable questions, all on one side of retrieval, `right` of them answered right; no closed-book run. */
function oneSided(retrievalOk: 0 | 1, n: number, right: number) {
  const ok = new Float64Array(n).fill(retrievalOk);
  const correct = new Float64Array(n).fill(0).fill(1, 0, right);
  return decompose(ok, correct, new Float64Array(n).fill(1), new Float64Array(n).fill(NaN));
}

describe('a decomposition with every question on one side of retrieval', () => {
  it('all failed: no warning about the empty good side, and no product model', () => {
    const d = oneSided(0, 12, 3);
    expect(d).toMatchObject({ n: 12, r: 0, nGood: 0, gGood: null, nBad: 12, gBad: 0.25, e2e: 0.25, e2eCheck: 0.25, ceiling: 0.25 });
    expect(d.productModelG).toBeNull();
    expect(d.productModelBias).toBeNull();
    expect(d.warnings).toEqual([]);
  });

  it('all ok: no warning about the empty failed side; g is e2e and nothing is biased', () => {
    const d = oneSided(1, 12, 9);
    expect(d).toMatchObject({ n: 12, r: 1, nGood: 12, gGood: 0.75, nBad: 0, gBad: null, e2e: 0.75, e2eCheck: 0.75, ceiling: 1 });
    expect(d).toMatchObject({ productModelG: 0.75, productModelBias: 0, rLowerBound: null });
    expect(d.warnings).toEqual([]);
  });
});
