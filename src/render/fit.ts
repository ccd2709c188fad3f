/** What `largestFitting` found: the count with its render, or, when not even 0 fits, the render of 0. */
export type Fitted = { readonly fits: true; readonly count: number; readonly text: string } | { readonly fits: false; readonly textAtZero: string };

/**
 * The largest count below `shown` whose render fits in `maxLength` (a render of `shown` is known not to). Renders
 * grow with the count, so a bisection finds it; `guess` only decides where the search starts (the answer does not
 * depend on it): from the guess it gallops towards the answer, so a good guess costs two renders.
 */
export function largestFitting(shown: number, render: (count: number) => string, maxLength: number, guess = 0): Fitted {
  let fitting: { count: number; text: string } | undefined;
  let over = { count: shown, text: '' };
  const tryCount = (count: number) => {
    const text = render(count);
    if (text.length <= maxLength) fitting = { count, text };
    else over = { count, text };
    return text.length <= maxLength;
  };
  const start = Math.min(Math.max(guess, 0), shown - 1);
  if (tryCount(start)) {
    for (let step = 1; start + step < over.count && tryCount(start + step); step *= 2);
  } else {
    for (let step = 1; start - step >= 0 && !tryCount(start - step); step *= 2);
    if (fitting === undefined && (over.count === 0 || !tryCount(0))) return { fits: false, textAtZero: over.text };
  }
  let lo = fitting!;
  while (over.count - lo.count > 1) {
    const mid = Math.floor((lo.count + over.count) / 2);
    if (tryCount(mid)) lo = fitting!;
  }
  return { fits: true, count: lo.count, text: lo.text };
}

export interface ListRenders<K extends string> {
  render: (limits: Readonly<Record<K, number>>) => string;
  /**
   * A lower bound on the length of `render(limits)` that grows with every count; it is only compared with
   * `maxLength`, so it may stop adding once it is over.
   */
  atLeast: (limits: Readonly<Record<K, number>>) => number;
  /** A first guess at the count of list `key` to search from (see {@link largestFitting}). */
  guess: (key: K, shown: number, excess: number) => number | undefined;
}

/**
 * The render of `limits` if it fits in `maxLength`; otherwise the lists are cut in `order`, each to the most rows
 * that fit with the lists before it emptied and those after it at their limits, until a render fits (or every list
 * is emptied). Counts whose lower bound is over the budget are never rendered, so rows that cannot be shown are
 * never serialised; the result is the same as without the bound.
 */
export function fitLists<K extends string>(order: readonly K[], limits: Readonly<Record<K, number>>, maxLength: number, renders: ListRenders<K>): string {
  const { render, atLeast, guess } = renders;
  let best = limits;
  // The render of `best` if it was made; it is over the budget from here on (or its bound is, when it was not).
  let rendered = atLeast(best) > maxLength ? undefined : render(best);
  if (rendered !== undefined && rendered.length <= maxLength) return rendered;
  for (const key of order) {
    const at = (count: number) => ({ ...best, [key]: count });
    let shown = best[key];
    while (shown > 0 && atLeast(at(shown - 1)) > maxLength) shown--;
    if (shown < best[key] || rendered === undefined) {
      // `at(shown)` is over the budget by its bound alone: try the largest count that is not.
      rendered = shown > 0 ? render(at(--shown)) : undefined;
      if (rendered !== undefined && rendered.length <= maxLength) return rendered;
    }
    if (rendered !== undefined && shown > 0) {
      const fitted = largestFitting(shown, (count) => render(at(count)), maxLength, guess(key, shown, rendered.length - maxLength));
      if (fitted.fits) return fitted.text;
      rendered = fitted.textAtZero;
    }
    best = at(0);
  }
  return rendered ?? render(best);
}
