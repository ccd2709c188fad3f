import { InputError } from '../errors.js';
import type { QuestionOutcomes } from '../scoring/outcomes.js';

/** Base and head questions matched by id; only `baseRows[i]` ↔ `headRows[i]` enter paired tests. */
export interface Pairing {
  readonly baseRows: Int32Array;
  readonly headRows: Int32Array;
  /** Ids only in head, in head order. */
  readonly added: readonly string[];
  /** Ids only in base, in base order. */
  readonly removed: readonly string[];
  /** Ids in both whose gold labels differ (relevant ids, expected answer or answerable): a test across them compares nothing. */
  readonly labelsChanged: readonly string[];
}

/**
 * Pairs base and head questions by id, in head order. Throws InputError when the two share no question with
 * the same gold labels, since then there is nothing to compare.
 */
export function pairQuestions(base: QuestionOutcomes, head: QuestionOutcomes, files: { base: string; head: string }): Pairing {
  const baseRowOf = new Map<string, number>();
  base.ids.forEach((id, row) => baseRowOf.set(id, row));
  const baseRows: number[] = [];
  const headRows: number[] = [];
  const added: string[] = [];
  const labelsChanged: string[] = [];
  const inHead = new Set<string>();
  head.ids.forEach((id, headRow) => {
    inHead.add(id);
    const baseRow = baseRowOf.get(id);
    if (baseRow === undefined) added.push(id);
    else if (base.goldKeys[baseRow] !== head.goldKeys[headRow]) labelsChanged.push(id);
    else {
      baseRows.push(baseRow);
      headRows.push(headRow);
    }
  });
  const removed = base.ids.filter((id) => !inHead.has(id));
  if (baseRows.length === 0) {
    const why =
      labelsChanged.length > 0
        ? `the ${labelsChanged.length} shared question ids all have different gold labels`
        : 'no question id appears in both files';
    throw InputError.single({ file: files.head, message: `nothing to compare with ${files.base}: ${why}` });
  }
  return { baseRows: Int32Array.from(baseRows), headRows: Int32Array.from(headRows), added, removed, labelsChanged };
}

/** The values of `column` at `rows`. */
export function gather(column: Float64Array, rows: Int32Array): Float64Array {
  const out = new Float64Array(rows.length);
  for (let i = 0; i < rows.length; i++) out[i] = column[rows[i]!]!;
  return out;
}
