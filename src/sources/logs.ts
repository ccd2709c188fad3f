import { InputError, ProblemCollector } from '../core/errors.js';
import { LOG_FIELDS, type LogField } from '../core/catalog/log-fields.js';
import { LOG_FIELD_ALIASES, logRecordSchema, plainTurn, turnOf } from '../core/monitor/log-record.js';
import { type Turn, type TurnColumns, TurnColumnsBuilder } from '../core/monitor/turns.js';
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
  /** OpenTelemetry spans without a user query (retrieval, tool and other spans of a trace), passed over. */
  readonly spansWithoutQuery: number;
}

/** Where each turn is, to read it again: its file, line, the line's bytes, and which of the line's turns it is. */
interface TurnPlaces {
  readonly files: readonly string[];
  readonly file: Int32Array;
  readonly line: Float64Array;
  readonly offset: Float64Array;
  readonly byteLength: Float64Array;
  /** Which of its line's turns (an OTLP line holds a span a turn); 0 for a JSON Lines turn. */
  readonly nth: Int32Array;
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
export async function readLogs(files: readonly string[], fieldMap: LogFieldMap): Promise<ReadLogs> {
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
  for (const [fileIndex, file] of files.entries()) {
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
  };
  return {
    turns: builder.build(),
    location: (index) => ({ file: files[fileOf[index]!]!, line: lineOf[index]! }),
    turnsAt: (indexes) => readTurnsAt(places, fieldMap, indexes),
    spansWithoutQuery: spans.withoutQuery,
  };
}

async function readTurnsAt(places: TurnPlaces, fieldMap: LogFieldMap, indexes: readonly number[]): Promise<Map<number, Turn>> {
  const wanted = [...new Set(indexes)].sort((a, b) => places.file[a]! - places.file[b]! || places.offset[a]! - places.offset[b]! || a - b);
  const turns = new Map<number, Turn>();
  const nameOf = logFieldNamer(fieldMap);
  for (let first = 0; first < wanted.length;) {
    const fileIndex = places.file[wanted[first]!]!;
    const file = places.files[fileIndex]!;
    let last = first;
    while (last + 1 < wanted.length && places.file[wanted[last + 1]!] === fileIndex) last++;
    const ofFile = wanted.slice(first, last + 1);
    // The lines of the file's wanted turns, each once (an OTLP line holds several turns).
    const lines: LinePlace[] = [];
    for (const index of ofFile) {
      const offset = places.offset[index]!;
      if (lines.at(-1)?.offset !== offset) lines.push({ line: places.line[index]!, offset, byteLength: places.byteLength[index]! });
    }
    const changed = () => new Error(`${file} is not what it was when it was first read; was it changed meanwhile?`);
    const problems = new ProblemCollector();
    const byOffset = new Map<number, Turn[]>();
    try {
      for await (const { text, line, offset } of readLinesAt(file, lines, problems)) {
        byOffset.set(offset!, lineTurns(file, line, text, nameOf, problems, { withoutQuery: 0 }));
      }
    } catch (error) {
      throw readFailure(file, error);
    }
    if (problems.count > 0) throw changed();
    for (const index of ofFile) {
      const turn = byOffset.get(places.offset[index]!)?.[places.nth[index]!];
      if (turn === undefined) throw changed();
      turns.set(index, turn);
    }
    first = last + 1;
  }
  return turns;
}
