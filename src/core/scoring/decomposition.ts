/**
 * The decomposition e2e = r·gGood + (1 − r)·gBad of end-to-end correctness over the answerable questions
 * that carry both a retrieval outcome and a correctness outcome (README: The decomposition). Every rate is
 * null when its subset is empty.
 */
export interface Decomposition {
  /** Questions in the decomposition. */
  readonly n: number;
  /** P(retrieval ok). */
  readonly r: number | null;
  /** P(correct | retrieval ok), over nGood questions. */
  readonly gGood: number | null;
  readonly nGood: number;
  /** P(correct | retrieval failed), over nBad questions: answers right from wrong context. */
  readonly gBad: number | null;
  readonly nBad: number;
  /** Measured end-to-end correctness on the same questions. */
  readonly e2e: number | null;
  /** r·gGood + (1 − r)·gBad: the identity, equal to e2e up to rounding because all three terms share its slice. */
  readonly e2eCheck: number | null;
  /** e2e / r: generation quality as the product model (gBad = 0) infers it. */
  readonly productModelG: number | null;
  /** productModelG − gGood = (1 − r)·gBad / r: how much the product model flatters generation. */
  readonly productModelBias: number | null;
  /** r + (1 − r)·gBad: end-to-end with perfect generation on good context. */
  readonly ceiling: number | null;
  /** (e2e − gBad) / (1 − gBad), at least 0: the lowest r that can give this e2e, since gGood ≤ 1. */
  readonly rLowerBound: number | null;
  /** Closed-book accuracy (no context at all) beside gBad (wrong context), when `closed_book_correct` is given. */
  readonly closedBook: ClosedBookComparison | null;
  readonly warnings: readonly DecompositionWarning[];
}

/** What makes the decomposition hard to read; words are the renderers'. */
export type DecompositionWarning =
  /**
   * e2e / r > 1: more questions were answered right with retrieval failed than wrong with it ok, so the product
   * model e2e = r·g cannot hold. The counts are sums of pass rates when questions were run several times.
   */
  | { readonly kind: 'right-without-retrieval'; readonly productModelG: number; readonly rightWithoutRetrieval: number; readonly wrongWithRetrieval: number }
  /** A conditional rate resting on fewer than {@link SMALL_SPLIT} questions. */
  | { readonly kind: 'small-split'; readonly split: 'good' | 'bad'; readonly n: number };

export interface ClosedBookComparison {
  /** Closed-book accuracy on the retrieval-failed questions that carry it: the like-for-like number beside gBad. */
  readonly onFailed: number | null;
  readonly nFailed: number;
  /** Closed-book accuracy on every decomposed question that carries it. */
  readonly all: number | null;
  readonly n: number;
}

const ratio = (part: number, whole: number) => (whole === 0 ? null : part / whole);

/** Below this many questions a conditional rate is too noisy to read alone. */
const SMALL_SPLIT = 10;

/**
 * Decomposes end-to-end correctness. Inputs are per-question columns (1/0, NaN when absent) of equal length.
 */
export function decompose(
  retrievalOk: ArrayLike<number>,
  correct: ArrayLike<number>,
  answerable: ArrayLike<number>,
  closedBookCorrect: ArrayLike<number>,
): Decomposition {
  let nGood = 0;
  let correctGood = 0;
  let nBad = 0;
  let correctBad = 0;
  let closedAll = 0;
  let closedAllRight = 0;
  let closedFailed = 0;
  let closedFailedRight = 0;
  for (let i = 0; i < correct.length; i++) {
    const ok = retrievalOk[i]!;
    const right = correct[i]!;
    if (answerable[i] === 0 || Number.isNaN(ok) || Number.isNaN(right)) continue;
    if (ok === 1) {
      nGood++;
      correctGood += right;
    } else {
      nBad++;
      correctBad += right;
    }
    const closed = closedBookCorrect[i]!;
    if (!Number.isNaN(closed)) {
      closedAll++;
      closedAllRight += closed;
      if (ok === 0) {
        closedFailed++;
        closedFailedRight += closed;
      }
    }
  }
  const n = nGood + nBad;
  const r = ratio(nGood, n);
  const gGood = ratio(correctGood, nGood);
  const gBad = ratio(correctBad, nBad);
  const e2e = ratio(correctGood + correctBad, n);
  const warnings: DecompositionWarning[] = [];
  let e2eCheck: number | null = null;
  let ceiling: number | null = null;
  let productModelG: number | null = null;
  let productModelBias: number | null = null;
  if (r !== null) {
    // e2e is defined with r (both need a question); a side without questions weighs 0.
    const bad = (1 - r) * (gBad ?? 0);
    e2eCheck = r * (gGood ?? 0) + bad;
    ceiling = r + bad;
    if (r > 0) {
      productModelG = e2e! / r;
      productModelBias = bad / r;
      // e2e > r ⇔ (1 − r)·gBad > r·(1 − gGood): the right answers without good context outnumber the wrong ones with it.
      if (productModelG > 1) {
        warnings.push({ kind: 'right-without-retrieval', productModelG, rightWithoutRetrieval: correctBad, wrongWithRetrieval: nGood - correctGood });
      }
    }
  }
  // gBad is defined only when some question was decomposed, so e2e is too.
  const rLowerBound = gBad === null || gBad === 1 ? null : Math.max(0, (e2e! - gBad) / (1 - gBad));
  const closedBook =
    closedAll === 0 ? null : { onFailed: ratio(closedFailedRight, closedFailed), nFailed: closedFailed, all: ratio(closedAllRight, closedAll), n: closedAll };
  if (nBad > 0 && nBad < SMALL_SPLIT) warnings.push({ kind: 'small-split', split: 'bad', n: nBad });
  if (nGood > 0 && nGood < SMALL_SPLIT) warnings.push({ kind: 'small-split', split: 'good', n: nGood });
  return { n, r, gGood, nGood, gBad, nBad, e2e, e2eCheck, productModelG, productModelBias, ceiling, rLowerBound, closedBook, warnings };
}
