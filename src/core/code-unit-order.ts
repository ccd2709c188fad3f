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
