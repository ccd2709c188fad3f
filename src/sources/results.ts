import { open, type FileHandle } from 'node:fs/promises';
import { duplicateKeyProblem, formatFieldPath, readFailure } from './read-problems.js';
import { type InputProblem, InputError, ProblemCollector } from '../core/errors.js';
import { nearScoreName, ResultsProblems } from './name-hints.js';
import { formatDescription, type ResultsFormat } from '../core/catalog/formats.js';
import { CellError, cellValue } from './cells.js';
import { type CsvRow, csvRows } from './formats/csv.js';
import { type DeepEvalSummary, readDeepEvalRun } from './formats/deepeval.js';
import { DETECT_HEAD_BYTES, detectResultsFormat } from './formats/detect.js';
import { JsonArrayShapeError, jsonArrayElements } from './json-array.js';
import { parseRecordJson } from './record-json.js';
import { DuplicateKeyError } from './unique-keys.js';
import { MAX_OTHER_FIELDS, OTHER_FIELDS_MESSAGE } from './read-limits.js';
import type { ByteRange } from './line-chunks.js';
import { type LineBytes, type LinePlace, type NumberedLine, type ReadProgress, readLines, readLinesAt } from './lines.js';
import {
  type Derivation,
  type FieldMap,
  FIELD_ALIASES,
  IGNORED_FIELDS,
  isScoreValue,
  KNOWN_FIELDS,
  type ResultRecord,
  readRecordFields,
  resolveRecord,
  suggestField,
  TOOL_SCORE_NAMES,
} from '../core/record.js';
import type { ContextMatchRule } from '../core/derived-ids.js';

/** A score's type, fixed by the first record that carries it. */
export type ScoreKind = 'number' | 'boolean';

/** What a read found besides the records: what it derived, and fields nobody reads (a typo such as `retreived_ids`). */
export interface ReadSummary {
  /** The reader used: JSON Lines (each record's text is one line), one JSON array (a record's text may span lines), CSV, TSV or DeepEval's test run. */
  readonly format: ResultsFormat;
  readonly warnings: readonly string[];
  /** Each unknown field with the number of records that carry it. */
  readonly unknownFields: ReadonlyMap<string, number>;
  /** Records whose id was derived from the question text. */
  readonly idsFromQuestion: number;
  /** Records whose relevant documents were matched to the retrieved ones by text. */
  readonly retrievalByText: number;
  /** Scores other tools computed (the `scores` object and unknown numeric or true/false fields), by name. */
  readonly scores: ReadonlyMap<string, ScoreKind>;
  /** How many records carry each score. */
  readonly scoreRecords: ReadonlyMap<string, number>;
  /** With `range`, the lines of the range, blank ones included (0 otherwise). */
  readonly lines: number;
  /** What the file says of itself (DeepEval's), before the warnings. */
  readonly notes: readonly string[];
}

export interface ReadOptions {
  /**
   * Shared across the shards of one run, so that an id repeated in another shard is an error too. Keyed by
   * {@link repeatKey}: one record per question and repeat.
   */
  readonly seenIds?: Map<string, { file: string; line: number; fromQuestion: boolean }>;
  readonly onProgress?: ReadProgress;
  /** How retrieved contexts given as text match the gold ones (default exact). */
  readonly contextMatch?: ContextMatchRule;
  /** The file's format; `auto` (the default) detects it from the extension and the content. */
  readonly format?: ResultsFormat | 'auto';
  /** The user's field names for ours (`prompt` → `question`). */
  readonly fields?: FieldMap;
  /** Score kinds seen so far in the run's other shards, so a score keeps one kind across them. */
  readonly scoreKinds?: Map<string, { kind: ScoreKind; file: string; line: number }>;
  /**
   * Only these questions matter to the caller, who read the file in full before and found an id in every record:
   * a JSON record whose id shows in its text without parsing, and is not among them, is passed over unread.
   */
  readonly onlyIds?: ReadonlySet<string>;
  /**
   * Only the records at these places (in file order) matter to the caller, who read the file in full before as
   * JSON Lines: they are read where they are, and nothing else of the file.
   */
  readonly onlyPlaces?: readonly LinePlace[];
  /** Filled with each field name as the file spells it and how many records give it (not null): what `init` maps from. */
  readonly givenFields?: Map<string, number>;
  /**
   * Only the lines of this part of a JSON Lines file (the format is not detected): one of a file's ranges read on
   * several threads. Its lines are numbered from 1 within the range, and a range without records is no problem.
   */
  readonly range?: ByteRange;
}

/** A question's repeat as a key: the id alone for a record without `run` (its only run), so that today's ids keep their keys. */
function repeatKey(record: ResultRecord): string {
  return record.run === undefined || record.run === 1 ? record.id : `${record.id}\u0000${record.run}`;
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

/** The canonical name of a record field as the user spelled it (its `--field`, another tool's name, or itself). */
function canonicalName(key: string, fields: FieldMap): string {
  return fields.get(key) ?? FIELD_ALIASES.get(key) ?? key;
}

/** The user's spelling of field `canonical` in `raw` (the first, when two spell it), for error messages. */
function spellingIn(raw: Record<string, unknown>, fields: FieldMap, canonical: string): string | undefined {
  for (const key in raw) if (raw[key] !== null && canonicalName(key, fields) === canonical) return key;
  return undefined;
}

/** Where `path` (a schema issue's) is in the record as the user wrote it: the field in their spelling. */
function userField(raw: Record<string, unknown>, fields: FieldMap, path: readonly PropertyKey[]): string | undefined {
  const [head, ...rest] = path;
  const field = String(head ?? '');
  return formatFieldPath([spellingIn(raw, fields, field) ?? field, ...rest]) || undefined;
}

/**
 * Renames other tools' fields to canonical ones (`spellingIn` finds the user's spelling again for an error
 * message). A null value is an absent field (pandas writes null for a missing value). An unknown field holding a
 * number or true/false is a score, gathered into `scores`; other unknown fields are counted in `unknown`.
 * A record whose every key is a canonical field with a value is its own canonical form: `raw` itself is returned.
 */
function canonicalize(
  raw: Record<string, unknown>,
  fields: FieldMap,
  file: string,
  line: number,
  problems: ProblemCollector,
  unknown: Map<string, number>,
  others: Set<string>,
) {
  /** The canonical record, made from the first key that needs it; until then, raw's keys are all canonical. */
  let record: Record<string, unknown> | undefined;
  let scores: Record<string, unknown> | undefined;
  // for…in, not Object.entries: no array of pairs per record (JSON.parse's objects have only own keys).
  for (const key in raw) {
    const value = raw[key];
    const canonical = canonicalName(key, fields);
    if (record === undefined) {
      if (value !== null && canonical === key && KNOWN_FIELDS.has(key)) continue;
      record = {};
      for (const before in raw) {
        if (before === key) break;
        record[before] = raw[before];
      }
    }
    if (value === null) continue;
    if (!KNOWN_FIELDS.has(canonical)) {
      others.add(key);
      if (isScoreValue(value)) (scores ??= Object.create(null) as Record<string, unknown>)[key] = value;
      else unknown.set(key, (unknown.get(key) ?? 0) + 1);
      continue;
    }
    if (Object.hasOwn(record, canonical)) {
      problems.add({ file, line, field: key, message: `gives "${canonical}" twice (as "${spellingIn(raw, fields, canonical)}" and "${key}"); keep one` });
      continue;
    }
    record[canonical] = value;
  }
  record ??= raw;
  const given = record.scores;
  if (typeof given === 'object' && given !== null && !Array.isArray(given)) for (const name in given) others.add(name);
  if (scores !== undefined) {
    if (given === undefined) {
      record.scores = scores;
    } else if (typeof given === 'object' && given !== null && !Array.isArray(given)) {
      // One object, so that two spellings of one score name are found by the schema.
      for (const name of Object.keys(scores)) {
        if (Object.hasOwn(given, name)) problems.add({ file, line, field: name, message: 'is also given in scores; keep one' });
      }
      record.scores = { ...given, ...scores };
    }
  }
  return record;
}

/**
 * Reads a results file (JSON Lines, or one JSON array) record by record, validating each against the schema
 * and handing valid records to `onRecord` in file order. Reads to the end even after a problem, so that up
 * to 20 problems are reported together; then throws an InputError naming file, line and field for each.
 * `onRecord` sees only records of a file that is valid so far, with their source text and, in JSON Lines, where
 * their line is in the file; callers keep nothing if the read throws.
 * `seenIds`, shared across the shards of one run, makes an id repeated in another shard an error too.
 */
export async function readResults(
  file: string,
  onRecord: (record: ResultRecord, line: number, text: string, derivation: Derivation, bytes: LineBytes | undefined) => void,
  options: ReadOptions = {},
): Promise<ReadSummary> {
  const { seenIds = new Map(), onProgress, contextMatch = { kind: 'exact' }, scoreKinds = new Map(), fields = new Map() } = options;
  const problems = new ResultsProblems(file, fields);
  const unknownFields = new Map<string, number>();
  /** Every field name not ours seen in the file (unknown fields and scores), bounded by MAX_OTHER_FIELDS. */
  const otherFields = new Set<string>();
  const scores = new Map<string, ScoreKind>();
  /** How many records carry each score, for the warning on a score named near a known one. */
  const scoreRecords = new Map<string, number>();
  let records = 0;
  let idsFromQuestion = 0;
  let retrievalByText = 0;
  const shape: { format: ResultsFormat; lines: number } = { format: 'jsonl', lines: 0 };
  const notes: string[] = [];

  const idKeys = [...(fields.has('id') ? [] : ['id']), ...[...fields].flatMap(([key, canonical]) => (canonical === 'id' ? [key] : []))];
  const handle = (element: NumberedLine) => {
    const { text, line, notUtf8 } = element;
    if (notUtf8) return;
    if (options.onlyIds !== undefined) {
      const id = idInText(text, idKeys);
      if (id !== undefined && !options.onlyIds.has(id)) {
        records++;
        return;
      }
    }
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
    handleObject(raw as Record<string, unknown>, line, text, element.byteLength === undefined ? undefined : (element as LineBytes));
  };

  /** A CSV row as the record a JSON line would have been: each cell read as its field needs. */
  const handleRow = ({ cells, line }: CsvRow) => {
    const raw: Record<string, unknown> = {};
    for (const [key, cell] of Object.entries(cells)) {
      try {
        const value = cellValue(canonicalName(key, fields), cell);
        if (value !== undefined) raw[key] = value;
      } catch (error) {
        if (!(error instanceof CellError)) throw error;
        problems.add({ file, line, field: key, message: error.message });
        return;
      }
    }
    handleObject(raw, line, JSON.stringify(raw));
  };

  const { givenFields } = options;
  const handleObject = (raw: Record<string, unknown>, line: number, text: string, bytes?: LineBytes) => {
    problems.countRecord();
    if (givenFields !== undefined) for (const key in raw) if (raw[key] !== null) givenFields.set(key, (givenFields.get(key) ?? 0) + 1);
    const given = canonicalize(raw, fields, file, line, problems, unknownFields, otherFields);
    if (otherFields.size > MAX_OTHER_FIELDS) {
      problems.add({ file, line, message: OTHER_FIELDS_MESSAGE });
      problems.throwIfAny();
    }
    const parsed = readRecordFields(given);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        const problem = { file, line, field: userField(raw, fields, issue.path), message: issue.message };
        const [field] = issue.path;
        // Only a required field has an issue when absent; the fields not read as ours may hold it misspelt.
        if (issue.path.length === 1 && typeof field === 'string' && !Object.hasOwn(given, field)) {
          const unread = Object.keys(raw).filter((key) => raw[key] !== null && !KNOWN_FIELDS.has(canonicalName(key, fields)));
          problems.addMissing(field, problem, line, unread);
        } else problems.add(problem);
      }
      return;
    }
    const recordScores = parsed.data.scores;
    // for…in, not Object.entries: no pairs for a record without scores (a plain object, its keys score names).
    if (recordScores !== undefined)
      for (const name in recordScores) {
        const value = recordScores[name];
        const kind: ScoreKind = typeof value === 'boolean' ? 'boolean' : 'number';
        const first = scoreKinds.get(name);
        if (first === undefined) scoreKinds.set(name, { kind, file, line });
        else if (first.kind !== kind) {
          const where = first.file === file ? `line ${first.line}` : `${first.file}:${first.line}`;
          problems.add({
            file,
            line,
            field: name,
            message: `is ${kind === 'boolean' ? 'true/false' : 'a number'} here but ${first.kind === 'boolean' ? 'true/false' : 'a number'} on ${where}; a score keeps one type`,
          });
        }
        scores.set(name, scoreKinds.get(name)!.kind);
        scoreRecords.set(name, (scoreRecords.get(name) ?? 0) + 1);
      }
    const resolved = resolveRecord(parsed.data, contextMatch);
    if ('problem' in resolved) {
      problems.add({ file, line, field: userField(raw, fields, resolved.problem.path), message: resolved.problem.message });
      return;
    }
    const { record, derivation } = resolved;
    const key = repeatKey(record);
    const first = seenIds.get(key);
    if (first !== undefined) {
      const where = first.file === file ? `line ${first.line}` : `${first.file}:${first.line}`;
      const repeat = record.run === undefined ? '' : ` in run ${record.run}`;
      const message =
        derivation.idFromQuestion && first.fromQuestion
          ? `the same question as ${where}${repeat} (records without an id are told apart by their question text); give each an id, or remove the repeat`
          : record.run === undefined
            ? `duplicate id ${JSON.stringify(record.id)} (first on ${where})`
            : `duplicate id ${JSON.stringify(record.id)} in run ${record.run} (first on ${where}); each repeat of a question needs its own run number`;
      const idField = derivation.idFromQuestion ? 'question' : 'id';
      problems.add({ file, line, field: spellingIn(raw, fields, idField) ?? idField, message });
      return;
    }
    seenIds.set(key, { file, line, fromQuestion: derivation.idFromQuestion });
    records++;
    if (derivation.idFromQuestion) idsFromQuestion++;
    if (derivation.retrievalByText) retrievalByText++;
    if (problems.count === 0) onRecord(record, line, text, derivation, bytes);
  };

  shape.format = options.range !== undefined ? 'jsonl' : options.format === undefined || options.format === 'auto' ? await detectFormat(file) : options.format;
  try {
    if (shape.format === 'csv' || shape.format === 'tsv') {
      for await (const row of csvRows(file, problems, onProgress, shape.format === 'tsv' ? { delimiter: '\t' } : {})) handleRow(row);
    } else if (shape.format === 'deepeval') {
      const run = await readDeepEvalRun(file, problems);
      for (const row of run.rows) handleObject(row.record, row.line, JSON.stringify(row.record));
      notes.push(...deepEvalNotes(file, run.summary));
    } else {
      // Lines are handled as they come from the reader, not through a generator of records around it: every
      // generator a record passes through costs it a promise and a result object of its own.
      if (options.onlyPlaces !== undefined) {
        for await (const line of readLinesAt(file, options.onlyPlaces, problems)) handle(line);
      } else if (options.range !== undefined) {
        // Every line of the range is counted, blank ones too.
        for await (const line of readLines(file, problems, undefined, options.range)) {
          shape.lines = line.line;
          if (line.text.trim() !== '') handle(line);
        }
      } else {
        // JSON Lines, or one JSON array when the first line that is not blank opens with `[`.
        const lines = readLines(file, problems, onProgress);
        let first = await lines.next();
        while (!first.done && first.value.text.trim() === '') first = await lines.next();
        if (!first.done && first.value.text.trimStart().startsWith('[')) {
          shape.format = 'json-array';
          for await (const element of jsonArrayElements(prepend(first.value, lines))) handle(element);
        } else if (!first.done) {
          handle(first.value);
          for await (const line of lines) if (line.text.trim() !== '') handle(line);
        }
      }
    }
  } catch (error) {
    if (error instanceof JsonArrayShapeError) problems.add({ file, line: error.line, message: error.message });
    else if (error instanceof InputError) throw error;
    else throw readFailure(file, error);
  }
  if (records === 0 && problems.count === 0 && options.range === undefined) {
    const expected =
      shape.format === 'jsonl' || shape.format === 'json-array'
        ? 'expected JSON Lines or a JSON array of result objects'
        : `read as ${formatDescription(shape.format)}`;
    problems.add({ file, message: `the file holds no records; ${expected}` });
  }
  problems.throwIfAny();
  return {
    format: shape.format,
    warnings: fileWarnings(file, notes, unknownFields, scores, scoreRecords),
    unknownFields,
    idsFromQuestion,
    retrievalByText,
    scores,
    scoreRecords,
    lines: shape.lines,
    notes,
  };
}

/**
 * A file's warnings: what it says of itself (`notes`), then each unknown field and each score named near a field or
 * a known score. From the whole file's counts, so that a file read in ranges warns as one read whole.
 */
export function fileWarnings(
  file: string,
  notes: readonly string[],
  unknownFields: ReadonlyMap<string, number>,
  scores: ReadonlyMap<string, ScoreKind>,
  scoreRecords: ReadonlyMap<string, number>,
): string[] {
  const records_ = (count: number) => `${count} record${count === 1 ? '' : 's'}`;
  const warnings = [...unknownFields].map(([key, count]) => {
    const ignored = IGNORED_FIELDS.get(key);
    if (ignored !== undefined) return `${file}: field "${key}" in ${records_(count)} is not used (${ignored})`;
    const hint = suggestField(key);
    return `${file}: unknown field "${key}" in ${records_(count)} is ignored (${hint === undefined ? 'check its spelling against the results format' : `did you mean "${hint}"?`})`;
  });
  for (const name of scores.keys()) {
    const hint = TOOL_SCORE_NAMES.has(name) ? undefined : suggestField(name);
    if (hint !== undefined) warnings.push(`${file}: "${name}" is read as a score, not as the field "${hint}"; rename it if you meant the field`);
    else {
      const known = nearScoreName(name);
      if (known !== undefined) {
        warnings.push(
          `${file}: "${name}" in ${records_(scoreRecords.get(name)!)} is read as a new score, score:${name}; did you mean "${known}"? Rename it if so`,
        );
      }
    }
  }
  return [...notes, ...warnings];
}

// Measured 2026-12-02: `compare` of the bench's 10,000 questions as JSON arrays, one core, 9 runs each: 2.03 s CPU with it, 2.22 s without (9%).
/**
 * A record's id read from its JSON text without parsing it: the value of its one id key, when the text has no
 * escape sequence (so every `"` delimits a string, and a quoted name followed by a colon is a key) and that key
 * appears once with a plain string or a whole number as its value. Undefined otherwise.
 */
export function idInText(text: string, idKeys: readonly string[]): string | undefined {
  if (text.includes('\\')) return undefined;
  let id: string | undefined;
  for (const key of idKeys) {
    const quoted = `"${key}"`;
    for (let at = text.indexOf(quoted); at >= 0; at = text.indexOf(quoted, at + quoted.length)) {
      const value = /^\s*:\s*(?:"([^"]*)"|(-?\d+)\s*[,}])/.exec(text.slice(at + quoted.length, at + quoted.length + 4096));
      if (value === null) {
        if (/^\s*:/.test(text.slice(at + quoted.length))) return undefined;
        continue;
      }
      if (id !== undefined) return undefined;
      id = value[1] ?? String(Number(value[2]));
    }
  }
  return id;
}

/** The first bytes of a results file, decoded. */
async function fileHead(file: string): Promise<string> {
  let handle: FileHandle | undefined;
  try {
    handle = await open(file, 'r');
    const buffer = Buffer.alloc(DETECT_HEAD_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, DETECT_HEAD_BYTES, 0);
    return new TextDecoder().decode(buffer.subarray(0, bytesRead));
  } catch (error) {
    throw readFailure(file, error);
  } finally {
    await handle?.close();
  }
}

/** The format of a results file, from its extension and its first bytes. */
async function detectFormat(file: string): Promise<ResultsFormat> {
  return detectResultsFormat(file, await fileHead(file));
}

/**
 * Whether a results file may be read in byte ranges: JSON Lines whose first record opens with `{`, so that each
 * line is one record and a range's records start at its line ends. A JSON array's element, a CSV row's quoted
 * cell and DeepEval's run may span lines, and where one starts cannot be told without reading from the start of
 * the file: those are read whole. False for a file that cannot be read (its reader says why).
 */
export async function readableInRanges(file: string, format: ResultsFormat | 'auto'): Promise<boolean> {
  if (format !== 'auto' && format !== 'jsonl') return false;
  let head: string;
  try {
    head = await fileHead(file);
  } catch {
    return false;
  }
  const first = /\S/.exec(head.startsWith('\uFEFF') ? head.slice(1) : head);
  return first?.[0] === '{' && (format === 'jsonl' || detectResultsFormat(file, head) === 'jsonl');
}

/** What a DeepEval run says about itself that the report should: where ids came from, which metrics errored. */
function deepEvalNotes(file: string, summary: DeepEvalSummary): string[] {
  const notes: string[] = [];
  if (summary.ids.from === 'none') {
    const why = {
      'missing-names': 'not every test case has a name',
      'positional-names': `names such as "${summary.ids.example}" number the test cases by position`,
      'repeated-names': `the name "${summary.ids.example}" is given twice`,
    }[summary.ids.reason];
    notes.push(`${file}: DeepEval test cases are told apart by their input text, not their names: ${why}`);
  }
  for (const [metric, count] of summary.erroredMetrics) {
    notes.push(`${file}: DeepEval's metric "${metric}" has no score on ${count} test case${count === 1 ? '' : 's'} (it errored); those are left out of its n`);
  }
  return notes;
}

async function* prepend<T>(head: T, rest: AsyncIterable<T>): AsyncGenerator<T> {
  yield head;
  yield* rest;
}
