/**
 * context_utilisation: retrieved ids the answer cites / retrieved ids sent to the generator.
 * Cited ids that were not retrieved do not count. Undefined when nothing was retrieved.
 */
export function contextUtilisation(retrieved: readonly string[], cited: readonly string[]): number | undefined {
  if (retrieved.length === 0) return undefined;
  const citedSet = new Set(cited);
  let used = 0;
  for (const id of retrieved) if (citedSet.has(id)) used++;
  return used / retrieved.length;
}
