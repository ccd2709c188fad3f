/**
 * Edit distance with adjacent transpositions (optimal string alignment), for "did you mean" hints: `user_inptu`
 * is one slip from `user_input`, as a typist makes it.
 */
function distance(a: string, b: string): number {
  let before: number[] = [];
  let previous: number[] = [];
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    [before, previous, row] = [previous, row, [i]];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(previous[j]! + 1, row[j - 1]! + 1, previous[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, before[j - 2]! + 1);
      row[j] = d;
    }
  }
  return row[b.length]!;
}

/** The candidate nearest to `word` within two edits (a typo), if any. */
export function closestName(word: string, candidates: Iterable<string>): string | undefined {
  let best: string | undefined;
  let bestDistance = 3;
  for (const candidate of candidates) {
    const d = distance(word.toLowerCase(), candidate);
    if (d < bestDistance) [best, bestDistance] = [candidate, d];
  }
  return best;
}

/** A name without case, separators or camelCase humps: `userInput`, `User-Input` and `user_input` all read `userinput`. */
function bareName(name: string): string {
  return name.toLowerCase().replace(/[\s_-]+/g, '');
}

/**
 * How far a field name is from `known` when the two differ only in case, separators (`-`, `_`, space, camelCase)
 * or at most two slips; undefined when they are further apart.
 */
export function nearNameDistance(name: string, known: string): number | undefined {
  const d = distance(bareName(name), bareName(known));
  return d <= 2 ? d : undefined;
}
