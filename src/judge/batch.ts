import { createHash } from 'node:crypto';
import { readFile, rm } from 'node:fs/promises';
import { basename } from 'node:path';
import { z } from 'zod';
import { InputError } from '../core/errors.js';
import { writeFileAtomic } from '../sources/write.js';
import type { JudgeClient } from './client.js';
import { JudgeCallError, JudgeSetupError } from './errors.js';
import { type JudgeRunOptions, type JudgeRunResult, type PlannedChat, judgeFile, plannedChats } from './run.js';

/**
 * `judge --batch`: the chat requests of a results file go to the provider's Batch API (OpenAI's, which many
 * OpenAI-compatible providers implement) as one JSON Lines file, at half the price and outside the rate limits.
 * The replies are validated and stored in the judge cache, and the judged copy is then written by the ordinary
 * judging pass, which finds them there: the output is the one a synchronous run writes. A state file records the
 * batch, so that a run may submit and exit and a later one collect, and a killed run loses nothing.
 */

/** The batch API's endpoint for chat completions, as an input line's `url` and the batch's `endpoint` name it. */
const CHAT_ENDPOINT = '/v1/chat/completions';
/** OpenAI's only completion window. */
const COMPLETION_WINDOW = '24h';
/** The first poll's interval; each next one doubles, up to POLL_MAX_MS. `RAG_GATE_JUDGE_BATCH_POLL_MS` overrides it. */
export const DEFAULT_POLL_MS = 5000;
const POLL_MAX_MS = 60_000;
const STATE_FORMAT = 'rag-gate-judge-batch-v1';

const BATCH_STATUSES = ['validating', 'in_progress', 'finalizing', 'completed', 'failed', 'expired', 'cancelling', 'cancelled'] as const;
export type BatchStatus = (typeof BATCH_STATUSES)[number];
const FINAL_STATUSES: ReadonlySet<BatchStatus> = new Set(['completed', 'failed', 'expired', 'cancelled']);

/** OpenAI's file object, as far as rag-gate reads it. */
const fileObject = z.object({ id: z.string().min(1), object: z.literal('file') });

const requestCounts = z.object({ total: z.number(), completed: z.number(), failed: z.number() });

/** OpenAI's batch object, as far as rag-gate reads it. */
const batchObject = z.object({
  id: z.string().min(1),
  object: z.literal('batch'),
  endpoint: z.string(),
  input_file_id: z.string(),
  completion_window: z.string(),
  status: z.enum(BATCH_STATUSES),
  output_file_id: z.string().nullish(),
  error_file_id: z.string().nullish(),
  created_at: z.number(),
  request_counts: requestCounts.nullish(),
  errors: z.object({ data: z.array(z.object({ code: z.string().nullish(), message: z.string().nullish(), line: z.number().nullish() })).nullish() }).nullish(),
});
type BatchObject = z.infer<typeof batchObject>;
/** A page of the batch list (GET /v1/batches), newest first. */
const batchList = z.object({ object: z.literal('list'), data: z.array(z.unknown()) });

/** A line of an output or error file: the response to one request, or why there is none. */
const outputLine = z.object({
  id: z.string().nullish(),
  custom_id: z.string(),
  response: z.object({ status_code: z.number(), request_id: z.string().nullish(), body: z.unknown() }).nullish(),
  error: z.object({ code: z.string().nullish(), message: z.string().nullish() }).nullish(),
});

const stateSchema = z.object({
  format: z.literal(STATE_FORMAT),
  /** The results file the batch judges, as given, and the sha256 of its bytes. */
  results: z.string(),
  resultsSha256: z.string(),
  model: z.string(),
  /** The sha256 of the uploaded input file. */
  inputSha256: z.string(),
  inputFileId: z.string(),
  /** Absent while the batch is not created yet (a run stopped between the upload and the creation). */
  batchId: z.string().optional(),
  submittedAt: z.string(),
  customIds: z.array(z.string()),
});
type BatchState = z.infer<typeof stateSchema>;

export interface BatchSettings {
  /** The state file. */
  readonly state: string;
  /** How long to wait for the batch to finish; 0: submit (or look once) and return. */
  readonly waitMs: number;
  readonly fallback: 'sync' | 'none';
  /** The first poll's interval (default DEFAULT_POLL_MS). */
  readonly pollMs?: number;
  /** Told each status polled. */
  readonly onStatus?: (batch: BatchProgress) => void;
}

export interface BatchProgress {
  readonly batchId: string;
  readonly status: BatchStatus;
  readonly counts?: z.infer<typeof requestCounts>;
}

/** What the batch of a run did, for the summary. */
export interface BatchReport {
  /** Undefined when nothing had to be asked (every reply in the cache). */
  readonly batchId?: string;
  readonly status?: BatchStatus;
  /** Whether this run took the batch over from the state file (submitted by an earlier run). */
  readonly resumed: boolean;
  /** Requests in the batch. */
  readonly requests: number;
  /** Chat requests of the run already in the cache, not asked again. */
  readonly cached: number;
  readonly answered: number;
  /** Requests the batch did not answer usably, by reason (expired, failed, an error status, an invalid reply). */
  readonly unanswered: Readonly<Record<string, number>>;
  readonly fallback: 'sync' | 'none';
  readonly promptTokens: number;
  readonly completionTokens: number;
  readonly totalTokens: number;
}

export type BatchOutcome =
  | { readonly kind: 'submitted'; readonly batchId: string; readonly requests: number; readonly state: string; readonly readWarnings: readonly string[] }
  | {
      readonly kind: 'pending';
      readonly batch: BatchProgress;
      readonly requests: number;
      readonly state: string;
      readonly waitedMs: number;
      /** The wait the run was allowed (`--batch-wait`); 0: submit or look once, never wait. */
      readonly waitLimitMs: number;
      readonly readWarnings: readonly string[];
    }
  | { readonly kind: 'collected'; readonly result: JudgeRunResult; readonly batch: BatchReport };

const sha256 = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');

/** `index:id:metric:prompt-version`: unique within the batch (the line index), and readable. */
function customId(chat: PlannedChat): string {
  return `${chat.index}:${chat.id}:${chat.metric}:${chat.request.promptVersion}`;
}

async function readState(file: string): Promise<BatchState | undefined> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw InputError.single({ file, message: `cannot read the batch state: ${(error as Error).message}` });
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw InputError.single({ file, message: 'is not a batch state file (not JSON); delete it to submit a new batch' });
  }
  const parsed = stateSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw InputError.single({
      file,
      field: issue.path.join('.') || undefined,
      message: `is not a batch state file of this rag-gate (${issue.message}); delete it to submit a new batch`,
    });
  }
  return parsed.data;
}

const writeState = (file: string, state: BatchState) => writeFileAtomic(file, `${JSON.stringify(state, null, 2)}\n`);

/** A reply of the batch API checked against the documented object (`noun`); anything else stops the run. */
function parseReply<T>(schema: z.ZodType<T>, text: string, what: string, noun: string): T {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new JudgeSetupError(`the batch API's reply to ${what} is not JSON`);
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new JudgeSetupError(`the batch API's reply to ${what} is not ${noun} (${issue.path.join('.') || '(root)'}: ${issue.message})`);
  }
  return parsed.data;
}

/** The words for a request the batch did not answer, from its line (or its absence) and the batch's status. */
function unansweredReason(line: z.infer<typeof outputLine> | undefined, batch: BatchObject): string {
  if (line?.error?.code === 'batch_expired' || (line === undefined && batch.status === 'expired')) return 'the batch expired before it ran the request';
  if (line?.response && line.response.status_code !== 200) {
    const body = line.response.body as { error?: { message?: unknown } } | undefined;
    const message = typeof body?.error?.message === 'string' ? `: ${body.error.message}` : '';
    return `the batch answered HTTP ${line.response.status_code}${message}`;
  }
  if (line?.error) return `the batch's error ${line.error.code ?? ''}${line.error.message ? `: ${line.error.message}` : ''}`.trim();
  if (batch.status === 'failed') {
    const first = batch.errors?.data?.[0];
    return `the batch failed${first?.message ? ` (${first.code ?? 'error'}: ${first.message})` : ''}`;
  }
  if (batch.status === 'cancelled') return 'the batch was cancelled';
  return 'the batch returned nothing for the request';
}

/** The lines of a batch file, each parsed; an unreadable line is skipped (its request counts as unanswered). */
function fileLines(text: string): z.infer<typeof outputLine>[] {
  const lines: z.infer<typeof outputLine>[] = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    try {
      const parsed = outputLine.safeParse(JSON.parse(line));
      if (parsed.success) lines.push(parsed.data);
    } catch {
      // not JSON: its request stays unanswered
    }
  }
  return lines;
}

/**
 * Judges a results file through the batch API (see the module's comment) and writes the judged copy to `out`, or
 * submits the batch and returns (`waitMs` 0, or a batch not finished in time). Errors: a state file that belongs
 * to another results file or model is an InputError naming both; the batch API missing, a JudgeSetupError.
 */
export async function judgeFileBatch(client: JudgeClient, options: JudgeRunOptions & { readonly out: string }, settings: BatchSettings): Promise<BatchOutcome> {
  const resultsSha256 = sha256(await readFile(options.results).catch(() => Buffer.alloc(0)));
  const { chats, readWarnings } = await plannedChats(options);
  const planned = new Map<string, PlannedChat>();
  for (const chat of chats) planned.set(customId(chat), chat);

  let state = await readState(settings.state);
  if (state !== undefined) {
    const other = state.resultsSha256 !== resultsSha256 || state.model !== client.model || state.customIds.some((id) => !planned.has(id));
    if (other) {
      throw InputError.single({
        file: settings.state,
        message:
          `records batch ${state.batchId ?? '(not created)'} of ${state.results} judged by ${state.model} (sha256 ${state.resultsSha256.slice(0, 12)}…), ` +
          `which does not match ${options.results} judged by ${client.model} with these metrics as it is now (sha256 ${resultsSha256.slice(0, 12)}…); ` +
          'collect that batch with the file it was submitted for, or delete the state file to submit a new one',
      });
    }
  }

  // A batch submitted (or its input uploaded) by an earlier run.
  const resumed = state !== undefined;
  let asked: string[];
  let cached = 0;
  if (state === undefined) {
    // The same request for several records (equal texts) is asked once; replies already in the cache not at all.
    const byKey = new Map<string, string>();
    asked = [];
    for (const [id, chat] of planned) {
      const key = client.chatCacheKey(chat.request);
      if (byKey.has(key)) continue;
      byKey.set(key, id);
      if (await client.hasChatReply(chat.request)) cached++;
      else asked.push(id);
    }
    if (asked.length === 0) {
      const result = await judgeFile(client, options);
      return { kind: 'collected', result, batch: emptyReport(settings.fallback, cached) };
    }
    const input = asked
      .map((id) => `${JSON.stringify({ custom_id: id, method: 'POST', url: CHAT_ENDPOINT, body: client.chatBody(planned.get(id)!.request) })}\n`)
      .join('');
    const form = new FormData();
    form.append('purpose', 'batch');
    form.append('file', new Blob([input], { type: 'application/jsonl' }), `rag-gate-${basename(options.results)}.batch.jsonl`);
    const file = parseReply(fileObject, await client.batchRequest('POST', '/files', { form }), 'the file upload', 'a file object');
    state = {
      format: STATE_FORMAT,
      results: options.results,
      resultsSha256,
      model: client.model,
      inputSha256: sha256(input),
      inputFileId: file.id,
      submittedAt: new Date(client.clock.now()).toISOString(),
      customIds: asked,
    };
    // Written before the batch is created, so that a run stopped in between creates it from the same upload.
    await writeState(settings.state, state);
  } else {
    asked = state.customIds;
  }

  let batch: BatchObject;
  if (state.batchId === undefined) {
    // A run stopped after asking for the batch but before it recorded the id: the batch may exist, made from the upload.
    const existing = resumed ? await batchOfUpload(client, state.inputFileId) : undefined;
    if (existing === undefined) {
      const created = await client.batchRequest('POST', '/batches', {
        json: { input_file_id: state.inputFileId, endpoint: CHAT_ENDPOINT, completion_window: COMPLETION_WINDOW, metadata: { source: 'rag-gate judge' } },
      });
      batch = parseReply(batchObject, created, 'the batch creation', 'a batch object');
    } else {
      batch = existing;
    }
    state = { ...state, batchId: batch.id };
    await writeState(settings.state, state);
    settings.onStatus?.(progressOf(batch));
    if (settings.waitMs === 0) return { kind: 'submitted', batchId: batch.id, requests: asked.length, state: settings.state, readWarnings };
  } else {
    batch = await poll(client, state.batchId, settings);
  }

  // Polls until the batch ends or the wait is over; a batch just taken over from the state file was polled above.
  const started = client.clock.now();
  let interval = settings.pollMs ?? DEFAULT_POLL_MS;
  while (!FINAL_STATUSES.has(batch.status)) {
    const left = started + settings.waitMs - client.clock.now();
    if (left <= 0) {
      return {
        kind: 'pending',
        batch: progressOf(batch),
        requests: asked.length,
        state: settings.state,
        waitedMs: client.clock.now() - started,
        waitLimitMs: settings.waitMs,
        readWarnings,
      };
    }
    await client.clock.sleep(Math.min(interval, left));
    interval = Math.min(POLL_MAX_MS, interval * 2);
    batch = await poll(client, batch.id, settings);
  }

  const report = await collect(client, batch, asked, planned, settings.fallback, resumed, cached);
  const result = await judgeFile(client, options);
  // Collected and written: the next run with this state file submits anew.
  await rm(settings.state, { force: true });
  return { kind: 'collected', result, batch: report };
}

function emptyReport(fallback: 'sync' | 'none', cached: number): BatchReport {
  return { resumed: false, requests: 0, cached, answered: 0, unanswered: {}, fallback, promptTokens: 0, completionTokens: 0, totalTokens: 0 };
}

const progressOf = (batch: BatchObject): BatchProgress => ({
  batchId: batch.id,
  status: batch.status,
  ...(batch.request_counts ? { counts: batch.request_counts } : {}),
});

/** The newest batch made from `inputFileId`, among the most recent hundred the list gives. */
async function batchOfUpload(client: JudgeClient, inputFileId: string): Promise<BatchObject | undefined> {
  const list = parseReply(batchList, await client.batchRequest('GET', '/batches?limit=100'), 'the batch list', 'a list');
  for (const item of list.data) {
    const batch = batchObject.safeParse(item);
    if (batch.success && batch.data.input_file_id === inputFileId) return batch.data;
  }
  return undefined;
}

async function poll(client: JudgeClient, batchId: string, settings: BatchSettings): Promise<BatchObject> {
  const batch = parseReply(batchObject, await client.batchRequest('GET', `/batches/${encodeURIComponent(batchId)}`), `batch ${batchId}`, 'a batch object');
  settings.onStatus?.(progressOf(batch));
  return batch;
}

/**
 * Reads a finished batch's output and error files: each usable reply goes into the cache; what is left is judged
 * synchronously by the judging pass (fallback sync) or refused there with its reason (fallback none).
 */
async function collect(
  client: JudgeClient,
  batch: BatchObject,
  asked: readonly string[],
  planned: ReadonlyMap<string, PlannedChat>,
  fallback: 'sync' | 'none',
  resumed: boolean,
  cached: number,
): Promise<BatchReport> {
  const lines = new Map<string, z.infer<typeof outputLine>>();
  for (const fileId of [batch.error_file_id, batch.output_file_id]) {
    if (fileId === undefined || fileId === null) continue;
    // The output file last: a request in both (retried by the provider) counts as answered.
    for (const line of fileLines(await client.batchRequest('GET', `/files/${encodeURIComponent(fileId)}/content`))) lines.set(line.custom_id, line);
  }
  const unanswered: Record<string, number> = {};
  const reasons = new Map<string, string>();
  let answered = 0;
  let promptTokens = 0;
  let completionTokens = 0;
  let totalTokens = 0;
  for (const id of asked) {
    const chat = planned.get(id)!;
    const line = lines.get(id);
    let reason: string;
    if (line?.response?.status_code === 200) {
      try {
        const usage = await client.storeBatchReply(chat.request, line.response.body);
        promptTokens += usage?.prompt_tokens ?? 0;
        completionTokens += usage?.completion_tokens ?? 0;
        totalTokens += usage?.total_tokens ?? (usage?.prompt_tokens ?? 0) + (usage?.completion_tokens ?? 0);
        answered++;
        continue;
      } catch (error) {
        if (!(error instanceof JudgeCallError)) throw error;
        reason = `the batch's reply is unusable (${error.message})`;
      }
    } else {
      reason = unansweredReason(line, batch);
    }
    const kind = reason.replace(/ \(.*$|: .*$/, '');
    unanswered[kind] = (unanswered[kind] ?? 0) + 1;
    reasons.set(client.chatCacheKey(chat.request), `${reason} (batch ${batch.id}, ${id})`);
  }
  if (fallback === 'none') client.refuseChatCalls(reasons);
  return {
    batchId: batch.id,
    status: batch.status,
    resumed,
    requests: asked.length,
    cached,
    answered,
    unanswered,
    fallback,
    promptTokens,
    completionTokens,
    totalTokens,
  };
}
