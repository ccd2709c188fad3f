import { InputError } from '../errors.js';
import type { QuestionOutcomes } from '../scoring/outcomes.js';

/** Base and head questions matched by id; only `baseRows[i]` ↔ `headRows[i]` enter paired tests. */
export interface Pairing {
  readonly baseRows: Int32Array;
  readonly headRows: Int32Array;
  /** Base rows of questions the head results lack that count as failed in head (still in the golden set). */
  readonly missingRows: Int32Array;
  /** Ids only in head, in head order. */
  readonly added: readonly string[];
  /** Ids only in base that are no longer in the head's golden set: removed on purpose, left out. */
  readonly removed: readonly string[];
  /** Ids only in base, still in the golden set, left out because `missing` is `exclude`. */
  readonly excluded: readonly string[];
  /** Ids in both whose gold labels differ (relevant ids, expected answer or answerable): a test across them compares nothing. */
  readonly labelsChanged: readonly string[];
}

/** What a base question the head lacks counts as, and the head's golden set when known. */
export interface CoverageRules {
  readonly missing: 'fail' | 'exclude';
  /** Ids of the head's golden set: a base question outside it was removed on purpose. */
  readonly golden?: ReadonlySet<string>;
}

/**
 * Pairs base and head questions by id, in head order. A base question the head lacks counts as failed unless it
 * left the golden set or `missing` is `exclude`. Throws InputError when the two share no question with the same
 * gold labels, since then there is nothing to compare.
 */
export function pairQuestions(base: QuestionOutcomes, head: QuestionOutcomes, files: { base: string; head: string }, rules: CoverageRules): Pairing {
  const baseRowOf = rowsIn(head.ids, base.ids);
  const baseRows: number[] = [];
  const headRows: number[] = [];
  const added: string[] = [];
  const labelsChanged: string[] = [];
  const inHead = new Uint8Array(base.ids.length);
  head.ids.forEach((id, headRow) => {
    const baseRow = baseRowOf[headRow]!;
    if (baseRow < 0) {
      added.push(id);
      return;
    }
    inHead[baseRow] = 1;
    if (base.goldKeys[baseRow] !== head.goldKeys[headRow]) labelsChanged.push(id);
    else {
      baseRows.push(baseRow);
      headRows.push(headRow);
    }
  });
  const removed: string[] = [];
  const excluded: string[] = [];
  const missingRows: number[] = [];
  base.ids.forEach((id, row) => {
    if (inHead[row] === 1) return;
    if (rules.golden !== undefined && !rules.golden.has(id)) removed.push(id);
    else if (rules.missing === 'fail') missingRows.push(row);
    else excluded.push(id);
  });
  if (baseRows.length === 0) {
    const why =
      labelsChanged.length > 0 ? `the ${labelsChanged.length} shared question ids all have different gold labels` : 'no question id appears in both files';
    throw InputError.single({ file: files.head, message: `nothing to compare with ${files.base}: ${why}` });
  }
  return {
    baseRows: Int32Array.from(baseRows),
    headRows: Int32Array.from(headRows),
    missingRows: Int32Array.from(missingRows),
    added,
    removed,
    excluded,
    labelsChanged,
  };
}

/** The values of `column` at `rows`. */
export function gather(column: Float64Array, rows: Int32Array): Float64Array {
  const out = new Float64Array(rows.length);
  for (let i = 0; i < rows.length; i++) out[i] = column[rows[i]!]!;
  return out;
}

/**
 * Where each of `ids` is in `other` (its row there, or −1), each list without repeats. Two runs of one golden set
 * usually list their questions in the same order: the rows where both lists agree are matched without hashing an
 * id (a map of 100,000 ids took about 0.1 s to build and look up); a map holds only the rest.
 */
export function rowsIn(ids: readonly string[], other: readonly string[]): Int32Array {
  const rows = new Int32Array(ids.length).fill(-1);
  const shared = Math.min(ids.length, other.length);
  let aligned = 0;
  while (aligned < shared && ids[aligned] === other[aligned]) {
    rows[aligned] = aligned;
    aligned++;
  }
  if (aligned === ids.length) return rows;
  // other[0 … aligned) are ids[0 … aligned), which no later id repeats: only the rest of `other` can match.
  const rowOf = new Map<string, number>();
  for (let row = aligned; row < other.length; row++) rowOf.set(other[row]!, row);
  for (let row = aligned; row < ids.length; row++) rows[row] = rowOf.get(ids[row]!) ?? -1;
  return rows;
}
