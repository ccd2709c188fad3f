import type { Floor } from './parse/floor.js';

/**
 * How a pull request's value of a setting that decides pass or fail compares with its base branch's: `tighter`
 * applies at once; `looser`, and `changed` (a rule with no order, such as another retrieval-ok metric), need a
 * maintainer's approval.
 */
export type PolicyDirection = 'same' | 'tighter' | 'looser' | 'changed';

/** A settings catalog row's order on its values, for the rows that are policy. */
export type PolicyOrder<T> = (base: T, head: T) => PolicyDirection;

/** A number where a higher value fails more (alpha, min-coverage). */
export const higherIsTighter: PolicyOrder<number> = (base, head) => (head === base ? 'same' : head > base ? 'tighter' : 'looser');

/** A number where a lower value fails more (min-effect). */
export const lowerIsTighter: PolicyOrder<number> = (base, head) => (head === base ? 'same' : head < base ? 'tighter' : 'looser');

/** Values from the one that fails least to the one that fails most; a value off the list is a change with no order. */
export function strictestLast<T>(...values: readonly T[]): PolicyOrder<T> {
  return (base, head) => {
    if (base === head) return 'same';
    const from = values.indexOf(base);
    const to = values.indexOf(head);
    if (from < 0 || to < 0) return 'changed';
    return to > from ? 'tighter' : 'looser';
  };
}

/** A value with no order: any change needs approval. */
export const unordered: PolicyOrder<unknown> = (base, head) => (canonicalText(base) === canonicalText(head) ? 'same' : 'changed');

/** Directions of two containments: each side contains the other, only head contains base, and so on. */
function byContainment(headHoldsBase: boolean, baseHoldsHead: boolean): PolicyDirection {
  if (headHoldsBase && baseHoldsHead) return 'same';
  if (headHoldsBase) return 'tighter';
  return baseHoldsHead ? 'looser' : 'changed';
}

/** A set of gates: more gates fail more. */
export const moreIsTighter: PolicyOrder<ReadonlySet<string>> = (base, head) =>
  byContainment(
    [...base].every((item) => head.has(item)),
    [...head].every((item) => base.has(item)),
  );

/** Whether every floor of `outer` is met by a floor of `inner` on the same metric and side that is as strict or stricter. */
function floorsHeld(outer: readonly Floor[], inner: readonly Floor[]): boolean {
  return outer.every((floor) =>
    inner.some(
      (other) => other.metric === floor.metric && other.op === floor.op && (floor.op === '>=' ? other.value >= floor.value : other.value <= floor.value),
    ),
  );
}

/** Floors: a head that keeps every base floor, as high or higher (a ceiling as low or lower), is tighter. */
export const floorsOrder: PolicyOrder<readonly Floor[]> = (base, head) => byContainment(floorsHeld(base, head), floorsHeld(head, base));

/** A parsed setting as canonical text, for equality: sets and maps sorted, object keys sorted, functions left out. */
export function canonicalText(value: unknown): string {
  return JSON.stringify(canonical(value)) ?? 'undefined';
}

function canonical(value: unknown): unknown {
  if (value instanceof Set) return [...value].map(canonical).sort(byJson);
  if (value instanceof Map) return [...value].map(([key, item]) => [canonical(key), canonical(item)]).sort(byJson);
  if (Array.isArray(value)) return value.map(canonical);
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value)
      .filter(([, item]) => typeof item !== 'function')
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return Object.fromEntries(entries.map(([key, item]) => [key, canonical(item)]));
  }
  return value;
}

function byJson(a: unknown, b: unknown): number {
  const x = JSON.stringify(a);
  const y = JSON.stringify(b);
  return x < y ? -1 : x > y ? 1 : 0;
}
