import type { RecordFields } from '../core/record.js';
import { ListCellError, parseListCell } from './formats/list-cell.js';

/**
 * A spreadsheet cell is text; what it holds depends on the field it fills. This table says, for every field of a
 * record, how its cell is read, so that a CSV row becomes the record a JSON line would have been. A list may be a
 * JSON array or a Python list literal (as pandas writes a list column); an object is JSON.
 */
type CellKind = 'text' | 'id' | 'list' | 'list-or-object' | 'object' | 'boolean' | 'number' | 'label';

const CELL_KINDS = {
  id: 'id',
  question: 'text',
  retrieved_ids: 'list',
  relevant_ids: 'list-or-object',
  answer: 'text',
  expected_answer: 'text',
  correct: 'boolean',
  retrieval_ok: 'boolean',
  answerable: 'boolean',
  refused: 'boolean',
  claims: 'list',
  cited_ids: 'list',
  answer_relevance: 'number',
  human_label: 'label',
  judge_label: 'label',
  closed_book_correct: 'boolean',
  tags: 'list',
  judged_by: 'object',
  judge_errors: 'list',
  retrieved_contexts: 'list',
  reference_contexts: 'list',
  scores: 'object',
  trace_url: 'text',
  latency_ms: 'number',
  retrieval_latency_ms: 'number',
  generation_latency_ms: 'number',
  prompt_tokens: 'number',
  completion_tokens: 'number',
  total_tokens: 'number',
  cost_usd: 'number',
  run: 'number',
} as const satisfies Record<keyof RecordFields, CellKind>;

const TRUE = /^true$/i;
const FALSE = /^false$/i;
/** How pandas and spreadsheets write a missing number. */
const MISSING = /^(nan|null|none|n\/a)$/i;

function booleanOf(cell: string): boolean | undefined {
  return TRUE.test(cell) ? true : FALSE.test(cell) ? false : undefined;
}

/** A number as a spreadsheet writes one; undefined for anything else (so that a text answer "42" stays text). */
function numberOf(cell: string): number | undefined {
  if (!/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(cell.trim())) return undefined;
  const value = Number(cell);
  return Number.isFinite(value) ? value : undefined;
}

/** A cell that is malformed for its field: the message says what was expected. */
export class CellError extends Error {}

function jsonOf(cell: string, what: string): unknown {
  try {
    return JSON.parse(cell);
  } catch {
    throw new CellError(`must be ${what} written as JSON`);
  }
}

function listOf(cell: string): unknown {
  try {
    // A cell that is no list at all is left as text, for the schema to say what the field must be.
    return parseListCell(cell) ?? cell;
  } catch (error) {
    if (error instanceof ListCellError) throw new CellError(`is not a readable list: ${error.message}`);
    throw error;
  }
}

/**
 * The value of one cell for the field `canonical` (undefined when the field is not rag-gate's): an empty cell or a
 * written-out missing value is absent; an unknown field's cell is a number or true/false when it reads as one (a
 * score), else text. Throws CellError when the cell cannot be what its field needs.
 */
export function cellValue(canonical: string, cell: string): unknown {
  if (cell === '') return undefined;
  const kind: CellKind | undefined = Object.hasOwn(CELL_KINDS, canonical) ? CELL_KINDS[canonical as keyof typeof CELL_KINDS] : undefined;
  switch (kind) {
    case 'text':
    case 'id':
      return cell;
    case 'list':
      return listOf(cell);
    case 'list-or-object':
      return cell.trimStart().startsWith('{') ? jsonOf(cell, 'an object of grades such as {"d17": 3}') : listOf(cell);
    case 'object':
      return jsonOf(cell, 'an object');
    case 'boolean':
      return booleanOf(cell) ?? cell;
    case 'number':
      return MISSING.test(cell) ? undefined : (numberOf(cell) ?? cell);
    case 'label':
      return booleanOf(cell) ?? cell;
    case undefined:
      return MISSING.test(cell) ? undefined : (numberOf(cell) ?? booleanOf(cell) ?? cell);
  }
}
