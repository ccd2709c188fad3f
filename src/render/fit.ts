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
