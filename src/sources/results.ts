import { type InputProblem, InputError, ProblemCollector } from '../core/errors.js';
import { JsonArrayShapeError, jsonArrayElements } from './json-array.js';
import { parseRecordJson } from './record-json.js';
import { DuplicateKeyError } from './unique-keys.js';
import { type NumberedLine, type ReadProgress, readLines } from './lines.js';
import { FIELD_ALIASES, KNOWN_FIELDS, type ResultRecord, resultRecordSchema, suggestField } from '../core/record.js';

/** What a read found besides the records: fields nobody reads, so a typo such as `retreived_ids` is visible. */
export interface ReadSummary {
  /** JSON Lines (each record's text is one line), or one JSON array (a record's text may span lines). */
  readonly format: 'jsonl' | 'array';
  readonly warnings: readonly string[];
  /** Each unknown field with the number of records that carry it. */
  readonly unknownFields: ReadonlyMap<string, number>;
}

/** Formats a field path the way a user writes it: `claims[2].verdict`, `relevant_ids["d17"]`. */
export function formatFieldPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else if (out === '') out = String(key);
    else if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(String(key))) out += `.${String(key)}`;
    else out += `[${JSON.stringify(String(key))}]`;
  }
  return out;
}

const BARE_NON_FINITE = /"([^"\\]+)"\s*:\s*(-?Infinity|NaN)\b/;

/** Explains why a record's text is not JSON, naming the field when the cause is NaN or Infinity. */
function notJsonProblem(file: string, line: number, text: string, error: unknown): InputProblem {
  const nonFinite = BARE_NON_FINITE.exec(text);
  if (nonFinite) {
    return { file, line, field: nonFinite[1], message: `${nonFinite[2]} is not a number in JSON; write a finite number or leave the field out` };
  }
  const detail = error instanceof Error ? error.message : String(error);
  return { file, line, message: `not valid JSON (${detail}); each line must hold one complete JSON object` };
}

/** A key given twice in one object of the text that starts on `line`. */
export function duplicateKeyProblem(file: string, line: number, error: DuplicateKeyError): InputProblem {
  return { file, line: line + error.lineInText, field: formatFieldPath(error.path), message: error.message };
}

/** Renames Ragas-style fields to canonical ones, remembering the user's spelling for error messages. */
function canonicalize(raw: Record<string, unknown>, file: string, line: number, problems: ProblemCollector) {
  const spelling = new Map<string, string>();
  const record: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(raw)) {
    const canonical = FIELD_ALIASES[key] ?? key;
    if (spelling.has(canonical)) {
      problems.add({ file, line, field: key, message: `gives "${canonical}" twice (as "${spelling.get(canonical)}" and "${key}"); keep one` });
      continue;
    }
    spelling.set(canonical, key);
    record[canonical] = value;
  }
  return { record, spelling };
}

/**
 * Reads a results file (JSON Lines, or one JSON array) record by record, validating each against the schema
 * and handing valid records to `onRecord` in file order. Reads to the end even after a problem, so that up
 * to 20 problems are reported together; then throws an InputError naming file, line and field for each.
 * `onRecord` sees only records of a file that is valid so far, with their source text; callers keep nothing if
 * the read throws.
 * `seenIds`, shared across the shards of one run, makes an id repeated in another shard an error too.
 */
export async function readResults(
  file: string,
  onRecord: (record: ResultRecord, line: number, text: string) => void,
  seenIds: Map<string, { file: string; line: number }> = new Map(),
  onProgress?: ReadProgress,
): Promise<ReadSummary> {
  const problems = new ProblemCollector();
  const unknownFields = new Map<string, number>();
  let records = 0;
  const shape: { format: 'jsonl' | 'array' } = { format: 'jsonl' };

  const handle = ({ text, line, notUtf8 }: NumberedLine) => {
    if (notUtf8) return;
    let raw: unknown;
    try {
      raw = parseRecordJson(text);
    } catch (error) {
      problems.add(error instanceof DuplicateKeyError ? duplicateKeyProblem(file, line, error) : notJsonProblem(file, line, text, error));
      return;
    }
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
      problems.add({ file, line, message: 'a record must be a JSON object such as {"id": "q1", "question": "…"}' });
      return;
    }
    const { record, spelling } = canonicalize(raw as Record<string, unknown>, file, line, problems);
    for (const key of Object.keys(raw)) if (!KNOWN_FIELDS.has(key)) unknownFields.set(key, (unknownFields.get(key) ?? 0) + 1);
    const parsed = resultRecordSchema.safeParse(record);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        const [head, ...rest] = issue.path;
        const field = formatFieldPath([spelling.get(String(head)) ?? String(head ?? ''), ...rest]);
        problems.add({ file, line, field: field || undefined, message: issue.message });
      }
      return;
    }
    const { id } = parsed.data;
    const first = seenIds.get(id);
    if (first !== undefined) {
      const where = first.file === file ? `line ${first.line}` : `${first.file}:${first.line}`;
      problems.add({ file, line, field: spelling.get('id') ?? 'id', message: `duplicate id "${id}" (first on ${where})` });
      return;
    }
    seenIds.set(id, { file, line });
    records++;
    if (problems.count === 0) onRecord(parsed.data, line, text);
  };

  try {
    for await (const element of recordTexts(file, problems, onProgress, shape)) handle(element);
  } catch (error) {
    if (error instanceof JsonArrayShapeError) problems.add({ file, line: error.line, message: error.message });
    else throw readFailure(file, error);
  }
  if (records === 0 && problems.count === 0) {
    problems.add({ file, message: 'the file holds no records; expected JSON Lines or a JSON array of result objects' });
  }
  problems.throwIfAny();
  const warnings = [...unknownFields].map(([key, count]) => {
    const hint = suggestField(key);
    return `${file}: unknown field "${key}" in ${count} record${count === 1 ? '' : 's'} is ignored (${hint === undefined ? 'check its spelling against the results format' : `did you mean "${hint}"?`})`;
  });
  return { format: shape.format, warnings, unknownFields };
}

/** The text of each record with its line: non-blank lines of JSON Lines, or the elements of a JSON array. */
async function* recordTexts(
  file: string,
  problems: ProblemCollector,
  onProgress: ReadProgress | undefined,
  shape: { format: 'jsonl' | 'array' },
): AsyncGenerator<NumberedLine> {
  const lines = readLines(file, problems, onProgress);
  let first = await lines.next();
  while (!first.done && first.value.text.trim() === '') first = await lines.next();
  if (first.done) return;
  const firstLine = first.value;
  if (firstLine.text.trimStart().startsWith('[')) {
    shape.format = 'array';
    yield* jsonArrayElements(prepend(firstLine, lines));
    return;
  }
  yield firstLine;
  for await (const line of lines) if (line.text.trim() !== '') yield line;
}

async function* prepend<T>(head: T, rest: AsyncIterable<T>): AsyncGenerator<T> {
  yield head;
  yield* rest;
}

/** Turns a file-system failure into an input error a user can act on. */
export function readFailure(file: string, error: unknown): InputError {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === undefined) throw error;
  const reason =
    code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'is a directory, not a file' : code === 'EACCES' ? 'permission denied' : String(error);
  return InputError.single({ file, message: `cannot read: ${reason}` });
}
