import { stat } from 'node:fs/promises';
import { InputError, ProblemCollector } from '../core/errors.js';
import { LOG_FIELDS, type LogField } from '../core/catalog/log-fields.js';
import { LOG_FIELD_ALIASES, logRecordSchema, plainTurn, turnOf } from '../core/monitor/log-record.js';
import { type CandidatePair, type Turn, type TurnColumns, TurnColumnsBuilder } from '../core/monitor/turns.js';
import { grownFloat64, grownInt32 } from '../core/scoring/query-entries.js';
import { type LinePlace, readLines, readLinesAt } from './lines.js';
import { formatFieldPath, readFailure } from './read-problems.js';

/** Your log's field names for rag-gate's: yours → ours. */
export type LogFieldMap = ReadonlyMap<string, LogField>;

export interface LogLocation {
  readonly file: string;
  readonly line: number;
}

export interface ReadLogs {
  /** The turns' columns, in the order read (file by file). */
  readonly turns: TurnColumns;
  /** Where turn i was read. */
  location(index: number): LogLocation;
  /**
   * The turns at these indexes whole (answers and all), read again where they are and nothing else of the files.
   * Fails when a file no longer holds the turn it held.
   */
  turnsAt(indexes: readonly number[]): Promise<Map<number, Turn>>;
  /**
   * The embeddings of the pairs' turns, which the columns do not keep: read again from their lines, in batches of
   * consecutive pairs whose lines hold at most `budgetBytes` (a turn of two pairs may be read twice). Fails as
   * turnsAt does, and when a turn of a file that cannot be read again (a pipe) was not kept.
   */
  pairEmbeddings(pairs: readonly CandidatePair[], budgetBytes?: number): AsyncGenerator<EmbeddingBatch>;
  /** OpenTelemetry spans without a user query (retrieval, tool and other spans of a trace), passed over. */
  readonly spansWithoutQuery: number;
}

/** The embeddings of pairs `start` up to (not including) `end`. */
export interface EmbeddingBatch {
  readonly start: number;
  readonly end: number;
  /** The embedding of a turn of these pairs. */
  embedding(index: number): readonly number[];
}

/** The bytes of the lines one batch of pairEmbeddings reads again: the batch's turns, parsed, take about three times this. */
export const PAIR_READ_BYTES = 8 << 20;

/**
 * A pipe cannot be read again by place: its turns' embeddings are kept from the first read up to this many bytes
 * (as doubles), and its pairs refused beyond it.
 */
export const PIPE_EMBEDDING_BYTES = 64 << 20;

/** Where each turn is, to read it again: its file, line, the line's bytes, and which of the line's turns it is. */
interface TurnPlaces {
  readonly files: readonly string[];
  readonly file: Int32Array;
  readonly line: Float64Array;
  readonly offset: Float64Array;
  readonly byteLength: Float64Array;
  /** Which of its line's turns (an OTLP line holds a span a turn); 0 for a JSON Lines turn. */
  readonly nth: Int32Array;
  /** Per file: false for a pipe or other file that cannot be read again by place. */
  readonly rereadable: readonly boolean[];
}

/** An OTLP JSON attribute value (`{"stringValue": …}` and its kin) as a plain value. */
function otlpValue(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return undefined;
  const v = value as Record<string, unknown>;
  if ('stringValue' in v) return v.stringValue;
  if ('boolValue' in v) return v.boolValue;
  if ('intValue' in v) return Number(v.intValue);
  if ('doubleValue' in v) return v.doubleValue;
  if ('arrayValue' in v) return ((v.arrayValue as { values?: unknown[] } | undefined)?.values ?? []).map(otlpValue);
  return undefined;
}

/**
 * The spans of an OTLP JSON export line (`{"resourceSpans": [{"scopeSpans": [{"spans": [...]}]}]}`, as the
 * OpenTelemetry Collector's file exporter writes): each span as a flat object of its attributes, with its start
 * time as `timestamp` unless an attribute gives one. Resource attributes (such as `session.id` set for the
 * process) are the span's defaults.
 */
function otlpSpans(line: { resourceSpans?: unknown }): Record<string, unknown>[] {
  const attributes = (list: unknown) =>
    Object.fromEntries(
      (Array.isArray(list) ? list : []).flatMap((a: { key?: unknown; value?: unknown }) => (typeof a?.key === 'string' ? [[a.key, otlpValue(a.value)]] : [])),
    );
  const spans: Record<string, unknown>[] = [];
  for (const resource of Array.isArray(line.resourceSpans) ? line.resourceSpans : []) {
    const base = attributes((resource as { resource?: { attributes?: unknown } })?.resource?.attributes);
    for (const scope of (resource as { scopeSpans?: unknown[] })?.scopeSpans ?? []) {
      for (const span of (scope as { spans?: unknown[] })?.spans ?? []) {
        const s = span as { startTimeUnixNano?: unknown; attributes?: unknown };
        spans.push({ ...base, timestamp: s.startTimeUnixNano, ...attributes(s.attributes) });
      }
    }
  }
  return spans;
}

/** The log field a key names: the field map first, then rag-gate's own names, then the known aliases. */
function logFieldNamer(fieldMap: LogFieldMap): (key: string) => LogField | undefined {
  const mappedAway = new Set(fieldMap.values());
  const own = new Set<string>(LOG_FIELDS.filter((field) => !mappedAway.has(field)));
  return (key) => {
    const mapped = fieldMap.get(key);
    if (mapped !== undefined) return mapped;
    if (own.has(key)) return key as LogField;
    const alias = LOG_FIELD_ALIASES.get(key);
    return alias !== undefined && !mappedAway.has(alias) ? alias : undefined;
  };
}

const LOG_FIELD_NAMES: ReadonlySet<string> = new Set(LOG_FIELDS);
/** No field renamed: each of rag-gate's fields under its own name. */
const OWN_NAMES: ReadonlyMap<string, string> = new Map();

/**
 * The object under rag-gate's field names (the object itself when it uses them already) and your name of each field.
 * A field given twice (by two names) is a problem; every other field is read past.
 */
function renamed(
  object: Record<string, unknown>,
  nameOf: (key: string) => LogField | undefined,
): { fields: Record<string, unknown>; names: ReadonlyMap<string, string>; clash?: string } {
  let own = true;
  for (const key in object) {
    const ours = nameOf(key);
    if (ours === undefined ? LOG_FIELD_NAMES.has(key) : ours !== key) {
      own = false;
      break;
    }
  }
  if (own) return { fields: object, names: OWN_NAMES };
  const fields: Record<string, unknown> = {};
  const names = new Map<string, string>();
  for (const key in object) {
    const ours = nameOf(key);
    if (ours === undefined) continue;
    if (names.has(ours))
      return { fields, names, clash: `both "${names.get(ours)}" and "${key}" give ${ours}; keep one, or name yours with --log-field ${ours}=NAME` };
    names.set(ours, key);
    fields[ours] = object[key];
  }
  return { fields, names };
}

/** The turns of a line (none when it has problems, added to `problems`, or is blank). */
function lineTurns(
  file: string,
  line: number,
  text: string,
  nameOf: (key: string) => LogField | undefined,
  problems: ProblemCollector,
  spans: { withoutQuery: number },
): Turn[] {
  if (text.trim() === '') return [];
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    problems.add({ file, line, message: `not valid JSON (${error instanceof Error ? error.message : String(error)})` });
    return [];
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    problems.add({ file, line, message: 'must be a JSON object: one conversation turn per line' });
    return [];
  }
  const otlp = 'resourceSpans' in value;
  const turns: Turn[] = [];
  for (const object of otlp ? otlpSpans(value) : [value as Record<string, unknown>]) {
    const { fields, names, clash } = renamed(object, nameOf);
    if (clash !== undefined) {
      problems.add({ file, line, message: clash });
      continue;
    }
    if (otlp && fields.user_query === undefined) {
      spans.withoutQuery++;
      continue;
    }
    const plain = plainTurn(fields);
    if (plain !== undefined) {
      turns.push(plain);
      continue;
    }
    const parsed = logRecordSchema.safeParse(fields);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        const [first, ...rest] = issue.path;
        const field = first === undefined ? undefined : formatFieldPath([names.get(String(first)) ?? String(first), ...rest]);
        problems.add({ file, line, ...(field === undefined ? {} : { field }), message: issue.message });
      }
      continue;
    }
    turns.push(turnOf(parsed.data));
  }
  return turns;
}

/**
 * Reads conversation logs (JSON Lines: one turn per line, or OTLP JSON export lines of spans) into turns, streamed:
 * each turn is kept as the monitor's columns and where it was read, its answer only as its refusal. Every problem
 * names its file, line and field in your spelling; up to 20 are listed and nothing is returned when there is one.
 */
export async function readLogs(files: readonly string[], fieldMap: LogFieldMap, pipeEmbeddingBytes: number = PIPE_EMBEDDING_BYTES): Promise<ReadLogs> {
  const problems = new ProblemCollector();
  const builder = new TurnColumnsBuilder();
  let size = 0;
  let fileOf: Int32Array = new Int32Array(1024);
  let lineOf: Float64Array = new Float64Array(1024);
  let offsetOf: Float64Array = new Float64Array(1024);
  let lengthOf: Float64Array = new Float64Array(1024);
  let nthOf: Int32Array = new Int32Array(1024);
  const spans = { withoutQuery: 0 };
  const nameOf = logFieldNamer(fieldMap);
  const rereadable: boolean[] = [];
  // The embeddings of turns read from pipes, while they fit in pipeEmbeddingBytes (undefined beyond).
  let piped: Map<number, readonly number[]> | undefined = new Map();
  let pipedBytes = 0;
  for (const [fileIndex, file] of files.entries()) {
    // A file that cannot be stat'ed is reported by the read below, in its words.
    rereadable.push(
      await stat(file).then(
        (status) => status.isFile(),
        () => true,
      ),
    );
    try {
      for await (const { text, line, notUtf8, offset, byteLength } of readLines(file, problems)) {
        if (notUtf8) continue;
        const turns = lineTurns(file, line, text, nameOf, problems, spans);
        for (const [nth, turn] of turns.entries()) {
          builder.add(turn);
          const index = size++;
          fileOf = grownInt32(fileOf, size);
          lineOf = grownFloat64(lineOf, size);
          offsetOf = grownFloat64(offsetOf, size);
          lengthOf = grownFloat64(lengthOf, size);
          nthOf = grownInt32(nthOf, size);
          fileOf[index] = fileIndex;
          lineOf[index] = line;
          offsetOf[index] = offset!;
          lengthOf[index] = byteLength!;
          nthOf[index] = nth;
          if (!rereadable[fileIndex] && turn.embedding !== undefined && piped !== undefined) {
            pipedBytes += 8 * turn.embedding.length;
            if (pipedBytes <= pipeEmbeddingBytes) piped.set(index, turn.embedding);
            else piped = undefined;
          }
        }
      }
    } catch (error) {
      if (error instanceof InputError) throw error;
      throw readFailure(file, error);
    }
  }
  problems.throwIfAny();
  if (size === 0) throw InputError.single({ file: files.join(', '), message: 'no conversation turns: the logs hold no line with a user query' });
  const places: TurnPlaces = {
    files,
    file: fileOf.subarray(0, size),
    line: lineOf.subarray(0, size),
    offset: offsetOf.subarray(0, size),
    byteLength: lengthOf.subarray(0, size),
    nth: nthOf.subarray(0, size),
    rereadable,
  };
  const turns = builder.build();
  const check = (index: number, turn: Turn) => turn.query === turns.query[index];
  const turnsAt = (indexes: readonly number[]) => readTurnsAt(places, fieldMap, indexes, check);
  return {
    turns,
    location: (index) => ({ file: files[fileOf[index]!]!, line: lineOf[index]! }),
    turnsAt,
    pairEmbeddings: (pairs, budgetBytes = PAIR_READ_BYTES) =>
      pairEmbeddings(places, piped === undefined ? { overBytes: pipeEmbeddingBytes } : { kept: piped }, turnsAt, pairs, budgetBytes),
    spansWithoutQuery: spans.withoutQuery,
  };
}

/** What the first read kept of piped turns' embeddings: all of them by turn, or none, once they passed `overBytes`. */
type PipedEmbeddings = { readonly kept: ReadonlyMap<number, readonly number[]> } | { readonly overBytes: number };

async function* pairEmbeddings(
  places: TurnPlaces,
  piped: PipedEmbeddings,
  turnsAt: (indexes: readonly number[]) => Promise<Map<number, Turn>>,
  pairs: readonly CandidatePair[],
  budgetBytes: number,
): AsyncGenerator<EmbeddingBatch> {
  const reread = (index: number) => places.rereadable[places.file[index]!]!;
  if ('overBytes' in piped) {
    const pair = pairs.find(({ first, next }) => !reread(first) || !reread(next));
    if (pair !== undefined)
      throw InputError.single({
        file: places.files[places.file[reread(pair.first) ? pair.next : pair.first]!]!,
        message:
          `is not a regular file (a pipe?), so its turns cannot be read again, and their embeddings are more than ` +
          `${Math.ceil(piped.overBytes / (1 << 20))} MiB to keep: write the log to a file and monitor that, or set similarity to lexical`,
      });
  }
  const lines = new Set<number>();
  const wanted: number[] = [];
  for (let start = 0; start < pairs.length;) {
    lines.clear();
    wanted.length = 0;
    let bytes = 0;
    let end = start;
    for (; end < pairs.length; end++) {
      const { first, next } = pairs[end]!;
      // A line is named by the index of its first turn.
      const firstLine = reread(first) ? first - places.nth[first]! : -1;
      const nextLine = reread(next) ? next - places.nth[next]! : -1;
      let added = 0;
      if (firstLine >= 0 && !lines.has(firstLine)) added += places.byteLength[first]!;
      if (nextLine >= 0 && nextLine !== firstLine && !lines.has(nextLine)) added += places.byteLength[next]!;
      // Every batch holds at least one pair, however long its lines.
      if (end > start && bytes + added > budgetBytes) break;
      bytes += added;
      if (firstLine >= 0) {
        lines.add(firstLine);
        wanted.push(first);
      }
      if (nextLine >= 0) {
        lines.add(nextLine);
        wanted.push(next);
      }
    }
    const turns = await turnsAt(wanted);
    const embedding = (index: number) => {
      const kept = reread(index) ? turns.get(index)?.embedding : 'kept' in piped ? piped.kept.get(index) : undefined;
      if (kept === undefined) throw changed(places.files[places.file[index]!]!);
      return kept;
    };
    yield { start, end, embedding };
    start = end;
  }
}

const changed = (file: string) => InputError.single({ file, message: 'is not what it was when it was first read; was it changed meanwhile?' });

/** `check` tells whether a turn read again is the one first read there (as far as the columns tell). */
async function readTurnsAt(
  places: TurnPlaces,
  fieldMap: LogFieldMap,
  indexes: readonly number[],
  check: (index: number, turn: Turn) => boolean,
): Promise<Map<number, Turn>> {
  const wanted = [...new Set(indexes)].sort((a, b) => places.file[a]! - places.file[b]! || places.offset[a]! - places.offset[b]! || a - b);
  const turns = new Map<number, Turn>();
  const nameOf = logFieldNamer(fieldMap);
  for (let first = 0; first < wanted.length;) {
    const fileIndex = places.file[wanted[first]!]!;
    const file = places.files[fileIndex]!;
    let last = first;
    while (last + 1 < wanted.length && places.file[wanted[last + 1]!] === fileIndex) last++;
    const ofFile = wanted.slice(first, last + 1);
    // Opened again, a pipe would wait for a writer that never comes.
    if (!places.rereadable[fileIndex])
      throw InputError.single({ file, message: 'is not a regular file (a pipe?), so its turns cannot be read again: write the log to a file first' });
    // The lines of the file's wanted turns, each once (an OTLP line holds several turns).
    const lines: LinePlace[] = [];
    for (const index of ofFile) {
      const offset = places.offset[index]!;
      if (lines.at(-1)?.offset !== offset) lines.push({ line: places.line[index]!, offset, byteLength: places.byteLength[index]! });
    }
    const problems = new ProblemCollector();
    const byOffset = new Map<number, Turn[]>();
    try {
      for await (const { text, line, offset } of readLinesAt(file, lines, problems)) {
        byOffset.set(offset!, lineTurns(file, line, text, nameOf, problems, { withoutQuery: 0 }));
      }
    } catch (error) {
      throw readFailure(file, error);
    }
    if (problems.count > 0) throw changed(file);
    for (const index of ofFile) {
      const turn = byOffset.get(places.offset[index]!)?.[places.nth[index]!];
      if (turn === undefined || !check(index, turn)) throw changed(file);
      turns.set(index, turn);
    }
    first = last + 1;
  }
  return turns;
}
