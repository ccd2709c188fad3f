import { z } from 'zod';
import type { LogField } from '../catalog/log-fields.js';
import { parseTimestamp } from '../catalog/parse/time.js';
import type { Turn } from './turns.js';

/**
 * Other tools' names for the log's fields, read without a field map: OpenTelemetry's `session.id` and GenAI span
 * attributes `gen_ai.prompt` / `gen_ai.completion` (as strings), Langfuse's trace export (`sessionId`, `input`,
 * `output` as strings), and common spellings.
 */
export const LOG_FIELD_ALIASES: ReadonlyMap<string, LogField> = new Map<string, LogField>(
  Object.entries({
    'session.id': 'session_id',
    sessionId: 'session_id',
    conversation_id: 'session_id',
    thread_id: 'session_id',
    time: 'timestamp',
    startTime: 'timestamp',
    start_time: 'timestamp',
    'gen_ai.prompt': 'user_query',
    input: 'user_query',
    query: 'user_query',
    question: 'user_query',
    'gen_ai.completion': 'answer',
    output: 'answer',
    response: 'answer',
  }),
);

const timestamp = z.unknown().transform((value, ctx) => {
  const ms = parseTimestamp(value);
  if (ms === undefined) {
    ctx.addIssue({
      code: 'custom',
      message:
        (value === undefined ? 'is required: ' : 'must be ') +
        'an ISO 8601 time with a time zone (2026-03-01T09:30:00Z) or epoch seconds, milliseconds, microseconds or nanoseconds (a number)',
    });
    return z.NEVER;
  }
  return ms;
});

/** A log line with rag-gate's field names: validated at the boundary, then a Turn. */
export const logRecordSchema = z
  .object({
    session_id: z.union([z.string().trim().min(1, 'must not be empty'), z.number().transform(String)], {
      error: 'is required: a string (or number) naming the conversation',
    }),
    timestamp,
    user_query: z.string({ error: "is required and must be a string: the user's query" }),
    answer: z.string({ error: 'must be a string' }).optional(),
    refused: z.boolean({ error: 'must be true or false' }).optional(),
    embedding: z
      .array(z.number({ error: 'must be a number' }).refine(Number.isFinite, 'must be a finite number'), { error: 'must be a list of numbers' })
      .min(1, 'must not be empty')
      .optional(),
  })
  .superRefine((record, ctx) => {
    if (record.answer === undefined && record.refused === undefined)
      ctx.addIssue({ code: 'custom', path: ['answer'], message: 'is required when refused is absent: the refusal rate needs one or the other' });
  });

export function turnOf(record: z.infer<typeof logRecordSchema>): Turn {
  return {
    session: record.session_id,
    at: record.timestamp,
    query: record.user_query,
    ...(record.answer === undefined ? {} : { answer: record.answer }),
    ...(record.refused === undefined ? {} : { refused: record.refused }),
    ...(record.embedding === undefined ? {} : { embedding: record.embedding }),
  };
}

function isPlainEmbedding(value: unknown): value is number[] {
  if (!Array.isArray(value) || value.length === 0) return false;
  for (let i = 0; i < value.length; i++) if (!Number.isFinite(value[i])) return false;
  return true;
}

/**
 * The turn of a plainly valid record (a string session id, a time parseTimestamp reads, string query and answer, a
 * boolean refused, finite numbers for the embedding), checked by hand as the schema would read it: the schema's
 * parse copies the record and is most of the reading. Undefined for any other record, which the schema reads and
 * words the problems of. `test/core/monitor/log-record.test.ts` holds the two to the same turn.
 */
export function plainTurn(fields: Readonly<Record<string, unknown>>): Turn | undefined {
  const { session_id: session, timestamp, user_query: query, answer, refused, embedding } = fields;
  if (typeof session !== 'string' || typeof query !== 'string') return undefined;
  const trimmed = session.trim();
  if (trimmed === '') return undefined;
  if (answer !== undefined && typeof answer !== 'string') return undefined;
  if (refused !== undefined && typeof refused !== 'boolean') return undefined;
  if (answer === undefined && refused === undefined) return undefined;
  if (embedding !== undefined && !isPlainEmbedding(embedding)) return undefined;
  const at = parseTimestamp(timestamp);
  if (at === undefined) return undefined;
  return turnOf({
    session_id: trimmed,
    timestamp: at,
    user_query: query,
    ...(answer === undefined ? {} : { answer }),
    ...(refused === undefined ? {} : { refused }),
    ...(embedding === undefined ? {} : { embedding: [...embedding] }),
  });
}
