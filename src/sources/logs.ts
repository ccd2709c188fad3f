import { InputError, ProblemCollector } from '../core/errors.js';
import { LOG_FIELDS, type LogField } from '../core/catalog/log-fields.js';
import { LOG_FIELD_ALIASES, logRecordSchema, turnOf } from '../core/monitor/log-record.js';
import type { Turn } from '../core/monitor/turns.js';
import { readLines } from './lines.js';
import { formatFieldPath, readFailure } from './read-problems.js';

/** Your log's field names for rag-gate's: yours → ours. */
export type LogFieldMap = ReadonlyMap<string, LogField>;

export interface LogLocation {
  readonly file: string;
  readonly line: number;
}

export interface ReadLogs {
  readonly turns: Turn[];
  /** Where each turn was read, aligned with `turns`. */
  readonly locations: LogLocation[];
  /** OpenTelemetry spans without a user query (retrieval, tool and other spans of a trace), passed over. */
  readonly spansWithoutQuery: number;
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

/**
 * The object under rag-gate's field names: the field map first, then rag-gate's own names, then the known aliases.
 * A field given twice (by two names) is a problem; every other field is read past.
 */
function renamed(object: Record<string, unknown>, fieldMap: LogFieldMap): { fields: Record<string, unknown>; names: Map<string, string>; clash?: string } {
  const fields: Record<string, unknown> = {};
  const names = new Map<string, string>();
  const mappedAway = new Set(fieldMap.values());
  for (const [key, value] of Object.entries(object)) {
    const alias = LOG_FIELD_ALIASES.get(key);
    const ours =
      fieldMap.get(key) ??
      ((LOG_FIELDS as readonly string[]).includes(key) && !mappedAway.has(key as LogField) ? (key as LogField) : undefined) ??
      (alias !== undefined && !mappedAway.has(alias) ? alias : undefined);
    if (ours === undefined) continue;
    if (names.has(ours))
      return { fields, names, clash: `both "${names.get(ours)}" and "${key}" give ${ours}; keep one, or name yours with --log-field ${ours}=NAME` };
    names.set(ours, key);
    fields[ours] = value;
  }
  return { fields, names };
}

/**
 * Reads conversation logs (JSON Lines: one turn per line, or OTLP JSON export lines of spans) into turns. Every
 * problem names its file, line and field in your spelling; up to 20 are listed and nothing is returned when there
 * is one.
 */
export async function readLogs(files: readonly string[], fieldMap: LogFieldMap): Promise<ReadLogs> {
  const problems = new ProblemCollector();
  const turns: Turn[] = [];
  const locations: LogLocation[] = [];
  let spansWithoutQuery = 0;
  for (const file of files) {
    try {
      for await (const { text, line, notUtf8 } of readLines(file, problems)) {
        if (notUtf8 || text.trim() === '') continue;
        let value: unknown;
        try {
          value = JSON.parse(text);
        } catch (error) {
          problems.add({ file, line, message: `not valid JSON (${error instanceof Error ? error.message : String(error)})` });
          continue;
        }
        if (typeof value !== 'object' || value === null || Array.isArray(value)) {
          problems.add({ file, line, message: 'must be a JSON object: one conversation turn per line' });
          continue;
        }
        const otlp = 'resourceSpans' in value;
        for (const object of otlp ? otlpSpans(value) : [value as Record<string, unknown>]) {
          const { fields, names, clash } = renamed(object, fieldMap);
          if (clash !== undefined) {
            problems.add({ file, line, message: clash });
            continue;
          }
          if (otlp && fields.user_query === undefined) {
            spansWithoutQuery++;
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
          locations.push({ file, line });
        }
      }
    } catch (error) {
      if (error instanceof InputError) throw error;
      throw readFailure(file, error);
    }
  }
  problems.throwIfAny();
  if (turns.length === 0) throw InputError.single({ file: files.join(', '), message: 'no conversation turns: the logs hold no line with a user query' });
  return { turns, locations, spansWithoutQuery };
}
