/**
 * Orders strings by their UTF-16 code units, as `<` does: the same order on every machine and in every locale, which
 * localeCompare does not promise. Ids, tags and sessions are sorted so, to make fingerprints and reports stable.
 */
export function byCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Orders [key, value] entries by their keys, with byCodeUnits. */
export function byKey(a: readonly [string, unknown], b: readonly [string, unknown]): number {
  return byCodeUnits(a[0], b[0]);
}

/** The longest list `sortByCodeUnits` sorts itself; longer ones go to Array.prototype.sort. */
const INSERTION_SORT_MAX = 16;

/**
 * Sorts `values` in place by byCodeUnits, as `values.sort(byCodeUnits)` does: a short list (a record's few relevant
 * ids) by insertion, which allocates nothing where Array.prototype.sort allocates its work arrays on every call.
 */
export function sortByCodeUnits(values: string[]): string[] {
  if (values.length > INSERTION_SORT_MAX) return values.sort(byCodeUnits);
  for (let i = 1; i < values.length; i++) {
    const value = values[i]!;
    let j = i;
    for (; j > 0 && values[j - 1]! > value; j--) values[j] = values[j - 1]!;
    values[j] = value;
  }
  return values;
}
