/**
 * The record's text with `set` fields written and `remove` fields deleted, as one JSON line. When every set
 * field is new and nothing is removed, a JSON Lines record keeps its exact text and the fields are appended;
 * otherwise the record is re-serialised (same fields and values, key order kept, JSON's own formatting).
 */
export function rewriteRecord(text: string, jsonLines: boolean, set: ReadonlyMap<string, unknown>, remove: ReadonlySet<string>): string {
  const object = JSON.parse(text) as Record<string, unknown>;
  const removing = [...remove].filter((key) => Object.hasOwn(object, key));
  if (set.size === 0 && removing.length === 0) return jsonLines ? text : JSON.stringify(object);
  const allNew = [...set.keys()].every((key) => !Object.hasOwn(object, key));
  const trimmed = text.trimEnd();
  if (jsonLines && allNew && removing.length === 0 && trimmed.endsWith('}')) {
    // Follow the line's own style: `"key": value, ` when its first field is written so, else compact.
    const spaced = /^\s*\{\s*"(?:[^"\\]|\\.)*"\s*:\s/.test(trimmed);
    const [colon, comma] = spaced ? [': ', ', '] : [':', ','];
    const appended = [...set].map(([key, value]) => `${JSON.stringify(key)}${colon}${JSON.stringify(value)}`).join(comma);
    return `${trimmed.slice(0, -1).trimEnd()}${comma}${appended}}`;
  }
  for (const key of removing) delete object[key];
  for (const [key, value] of set) object[key] = value;
  return JSON.stringify(object);
}
