import pLimit, { type LimitFunction } from 'p-limit';
import { z } from 'zod';
import { redactor } from '../core/redact.js';
import { type CacheKeyParts, type JudgeCache, cacheKey } from './cache.js';
import { type BatchMember, EmbeddingBatch } from './embedding-batch.js';
import { type JudgeErrorKind, JudgeCallError, JudgeSetupError } from './errors.js';
import type { StructuredRequest } from './prompts.js';
import { type PacingReport, type Ticket, Pacer } from './pacing.js';
import { type JudgeClock, backoffDelay, retryAfterFromHeaders, sleep } from './retry.js';
import { cosine } from '../core/stats/cosine.js';

export const DEFAULT_BASE_URL = 'https://api.openai.com/v1';
export const DEFAULT_EMBEDDING_MODEL = 'text-embedding-3-small';
/** Base of the exponential backoff; `RAG_GATE_JUDGE_BACKOFF_MS` overrides it (tests use a few ms). */
export const DEFAULT_BACKOFF_MS = 500;
/** A server that asks to wait longer than this is not waited for: the call fails as `unavailable`. */
const DEFAULT_MAX_RETRY_AFTER_MS = 120_000;
const MIB = 1024 * 1024;
/**
 * The most of one reply rag-gate reads: a judge's chat reply is a few kB, and a batch of answer relevance's
 * embeddings (EMBEDDING_BATCH_ANSWERS answers, 4 texts each) under 4.5 MB even at 3,072 dimensions. A longer body is abandoned at this size and the
 * call fails as `invalid_reply`, without a retry: at temperature 0 the same request gets the same reply, and each
 * attempt would download the cap again.
 */
export const MAX_REPLY_BYTES = 8 * MIB;

export type { JudgeClock } from './retry.js';

/**
 * How long one call waits out 429s (rate limited) before they count against its attempts: a rate limit is a "not
 * yet", not a failure, but a server that never lets a call through must not hold the run forever. A time rather
 * than a count of 429s, because how many 429s a call meets depends on how many others compete with it.
 */
const MAX_RATE_LIMIT_WAIT_MS = 15 * 60_000;
/** Characters per token of English text, for the estimate a request is paced by before its usage is known. */
const CHARS_PER_TOKEN = 4;

const SYSTEM_CLOCK: JudgeClock = { now: () => Date.now(), sleep };

export interface JudgeClientOptions {
  /**
   * e.g. https://api.openai.com/v1; `/chat/completions` and `/embeddings` are appended. A `user:password@` in it
   * is taken out of the URL and sent as HTTP Basic authentication instead of the key.
   */
  readonly baseUrl: string;
  /** Sent as `Authorization: Bearer <key>`. */
  readonly apiKey: string;
  readonly model: string;
  readonly embeddingModel: string;
  /** Per HTTP request, reply body included. */
  readonly timeoutMs: number;
  /**
   * Attempts per call, the first included; retried: 408, 409, 429, 5xx, timeouts, broken and refused connections,
   * invalid replies (not one past `maxReplyBytes`).
   */
  readonly maxAttempts: number;
  /** HTTP requests in flight at once (a request waiting out a backoff holds none). */
  readonly concurrency: number;
  readonly backoffMs: number;
  readonly maxRetryAfterMs?: number;
  /** Default MAX_REPLY_BYTES. */
  readonly maxReplyBytes?: number;
  /** Budget of HTTP requests (retries included) for the whole run; undefined = unlimited. */
  readonly maxCalls?: number;
  /**
   * Requests and tokens per minute to pace all calls to; a limit not given is taken from the endpoint's
   * `x-ratelimit-limit-*` reply headers, per model, when it sends them.
   */
  readonly rpm?: number;
  readonly tpm?: number;
  readonly cache?: JudgeCache;
  readonly random?: () => number;
  readonly clock?: JudgeClock;
  /**
   * How requests are sent; default the global fetch (read at each call). Every request of the judge goes through
   * it: createJudgeClient gives src/net/fetch.ts's, through the proxy the environment names.
   */
  readonly fetch?: typeof fetch;
}

/** What one kind of request cost. */
export interface TaskStats {
  /** HTTP requests sent (each retry is one). */
  calls: number;
  /** Replies served from the on-disk cache or shared with an identical call of the same run. */
  cacheHits: number;
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
}

/** What the judge cost, for the end-of-run report. */
export interface JudgeStats extends TaskStats {
  retries: number;
  /** Replies with HTTP 429 (rate limited); each is also a call and a retry. */
  rateLimited: number;
  /** The same, by request task (e.g. `faithfulness.answer`, `answer_relevance.embeddings`). */
  byTask: Record<string, TaskStats>;
}

/**
 * A failure worth another attempt; after the last attempt it becomes a JudgeCallError of the same kind, or, when
 * the endpoint was `unreachable` on every attempt, a JudgeSetupError that stops the run.
 */
class Retryable extends Error {
  constructor(
    readonly kind: JudgeErrorKind,
    message: string,
    readonly retryAfterMs?: number,
    readonly unreachable = false,
    readonly rateLimited = false,
  ) {
    super(message);
  }
}

const usageSchema = z
  .object({ prompt_tokens: z.number().optional(), completion_tokens: z.number().optional(), total_tokens: z.number().optional() })
  .nullable()
  .optional();

const chatEnvelope = z.object({
  choices: z
    .array(
      z.object({
        message: z.object({ content: z.string().nullable().optional(), refusal: z.string().nullable().optional() }),
        finish_reason: z.string().nullable().optional(),
      }),
    )
    .min(1),
  usage: usageSchema,
});

const embeddingsEnvelope = z.object({
  data: z.array(z.object({ embedding: z.array(z.number()).min(1), index: z.number().int().nonnegative() })),
  usage: usageSchema,
});

const cosinesValue = z.array(z.number());

/**
 * The most of one batch API file rag-gate reads (an output file: a chat completion of a few kB per request; OpenAI
 * takes up to 50,000 requests a batch).
 */
export const MAX_BATCH_FILE_BYTES = 512 * MIB;
/** A file upload or download may take longer than one judge request. */
const MIN_FILE_TIMEOUT_MS = 10 * 60_000;

/** What a chat reply gave: the value, and the usage to count. */
interface ChatValue<T> {
  readonly value: T;
  readonly usage: z.infer<typeof usageSchema>;
}

/** Codes of fetch failures no retry can fix: the run stops at once (exit 2). */
const PERMANENT_FAULTS: Record<string, string> = {
  ENOTFOUND: 'host not found',
  ERR_INVALID_URL: 'not a valid URL',
  ERR_SSL_WRONG_VERSION_NUMBER: 'TLS handshake failed; is it an http:// server?',
  CERT_HAS_EXPIRED: 'its TLS certificate has expired',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'its TLS certificate is self-signed',
  SELF_SIGNED_CERT_IN_CHAIN: 'its TLS certificate chain is self-signed',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'its TLS certificate cannot be verified',
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: "its TLS certificate's issuer is unknown",
  ERR_TLS_CERT_ALTNAME_INVALID: 'its TLS certificate is for another host name',
};

/** Codes meaning nothing answers at that address right now: retried, and the run stops (exit 2) when every attempt fails so. */
const UNREACHABLE_FAULTS: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  EAI_AGAIN: 'host name lookup failed',
};

/** The errno-style code of a failed fetch (undici puts it on `cause`, or on the errors of an AggregateError). */
function networkCode(error: unknown): string | undefined {
  const seen = new Set<unknown>();
  const visit = (value: unknown): string | undefined => {
    if (typeof value !== 'object' || value === null || seen.has(value)) return undefined;
    seen.add(value);
    const { code, cause, errors } = value as { code?: unknown; cause?: unknown; errors?: unknown };
    if (typeof code === 'string' && (code in PERMANENT_FAULTS || code in UNREACHABLE_FAULTS)) return code;
    const nested = visit(cause) ?? (Array.isArray(errors) ? errors.map(visit).find((c) => c !== undefined) : undefined);
    return nested ?? (typeof code === 'string' ? code : undefined);
  };
  return visit(error);
}

/** The message of the innermost cause: undici's reason under its generic "fetch failed". */
function innermostMessage(error: unknown): string {
  let inner = error;
  while (inner instanceof Error && inner.cause instanceof Error) inner = inner.cause;
  return inner instanceof Error ? inner.message : String(error);
}

/**
 * How a fetch that got no reply failed. undici rejects a request it will not send at all (a bad port such as :9,
 * a scheme it does not fetch, a header it cannot carry) with errors that carry no code, whereas every failure of
 * a real connection has one (ECONNRESET, UND_ERR_SOCKET, …): no code at all means fetch refused, for good.
 */
function fetchFault(error: unknown): { readonly kind: 'refused' | 'permanent' | 'unreachable' | 'transient'; readonly reason: string } {
  const code = networkCode(error);
  if (code === undefined) return { kind: 'refused', reason: innermostMessage(error) };
  if (code in PERMANENT_FAULTS) return { kind: 'permanent', reason: PERMANENT_FAULTS[code]! };
  if (code in UNREACHABLE_FAULTS) return { kind: 'unreachable', reason: UNREACHABLE_FAULTS[code]! };
  return { kind: 'transient', reason: code };
}

/** A body's text, read as a stream so that one past `maxBytes` is abandoned there (undefined) instead of held whole. */
async function boundedText(response: Response, maxBytes: number): Promise<string | undefined> {
  if (Number(response.headers.get('content-length')) > maxBytes) {
    void response.body?.cancel().catch(() => undefined);
    return undefined;
  }
  if (response.body === null) return '';
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  let bytes = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return text + decoder.decode();
    bytes += value.byteLength;
    if (bytes > maxBytes) {
      void reader.cancel().catch(() => undefined);
      return undefined;
    }
    text += decoder.decode(value, { stream: true });
  }
}

function sizeInWords(bytes: number): string {
  return bytes >= MIB ? `${Number((bytes / MIB).toFixed(1))} MiB` : `${bytes} bytes`;
}

/** Percent-decoded, or as written when it does not decode. */
function decodeUserinfo(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/**
 * Where to send requests and how to authenticate: credentials in the base URL are taken out of it (fetch refuses
 * a URL with them, and a URL is quoted in messages) and sent as HTTP Basic authentication, else the key as Bearer.
 * `secrets` lists every form of them a server could echo.
 */
function endpointOf(baseUrl: string, apiKey: string) {
  const url = new URL(baseUrl);
  const { username, password } = url;
  url.username = '';
  url.password = '';
  const base = url.href.replace(/\/+$/, '');
  if (username === '' && password === '') {
    return { base, authorization: `Bearer ${apiKey}`, credentials: 'the API key', check: 'check OPENAI_API_KEY', secrets: [apiKey, `Bearer ${apiKey}`] };
  }
  const token = Buffer.from(`${decodeUserinfo(username)}:${decodeUserinfo(password)}`).toString('base64');
  return {
    base,
    authorization: `Basic ${token}`,
    credentials: 'the user name and password in the base URL',
    check: 'check --base-url or OPENAI_BASE_URL',
    secrets: [apiKey, password, decodeUserinfo(password), token, `Basic ${token}`],
  };
}

/** `value` with `redact` applied to every string in it. */
function redactStrings(value: unknown, redact: (text: string) => string): unknown {
  if (typeof value === 'string') return redact(value);
  if (Array.isArray(value)) return value.map((item) => redactStrings(item, redact));
  if (typeof value === 'object' && value !== null) return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, redactStrings(item, redact)]));
  return value;
}

/** A reply's JSON, allowing the ```json fences some models put around it in JSON mode. */
function replyJson(content: string): unknown {
  const fenced = /^\s*```(?:json)?\s*\n?([\s\S]*?)\n?```\s*$/i.exec(content);
  return JSON.parse(fenced ? fenced[1]! : content);
}

function zodSummary(error: z.ZodError): string {
  return error.issues
    .slice(0, 3)
    .map((issue) => `${issue.path.length > 0 ? issue.path.join('.') : '(root)'}: ${issue.message}`)
    .join('; ');
}

interface RawReply {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
}

/**
 * A client for one OpenAI-compatible endpoint (OpenAI, Azure via a proxy, vLLM, Ollama, LiteLLM…) that
 * only ever returns validated replies: it checks the cache, keeps within the call budget, times each
 * request out, retries with backoff that honours Retry-After, and validates every reply with zod.
 * Identical calls within a run are made once. No credential leaves it: the values, errors and warnings it gives
 * out are redacted.
 */
export class JudgeClient {
  readonly stats: JudgeStats = { calls: 0, retries: 0, rateLimited: 0, cacheHits: 0, promptTokens: 0, completionTokens: 0, totalTokens: 0, byTask: {} };
  private readonly notes: string[] = [];
  private readonly abort = new AbortController();
  private setupError: JudgeSetupError | undefined;
  private readonly memo = new Map<string, Promise<unknown>>();
  private readonly pacer: Pacer;
  private readonly slots: LimitFunction;
  /** Mean completion tokens of each task so far, for the estimate a request is paced by. */
  private readonly completionMeans = new Map<string, { replies: number; tokens: number }>();
  private responseFormat: 'json_schema' | 'json_object' = 'json_schema';
  /**
   * Set after a batch was collected with `--batch-fallback none`: a chat request the cache lacks fails with the
   * reason the batch gave for it (by cache key) instead of being sent.
   */
  private batchOnly: ReadonlyMap<string, string> | undefined;
  /** Answers an embeddings request may carry: EMBEDDING_BATCH_ANSWERS, or 1 once the endpoint refused a list. */
  private embeddingAnswersPerRequest = Number.POSITIVE_INFINITY;
  private readonly endpoint: ReturnType<typeof endpointOf>;
  private readonly redact: (text: string) => string;
  /** Where the judge reads the time and waits (its pacing, retries and a batch's polls). */
  readonly clock: JudgeClock;

  constructor(private readonly options: JudgeClientOptions) {
    this.endpoint = endpointOf(options.baseUrl, options.apiKey);
    this.redact = redactor(this.endpoint.secrets);
    this.clock = options.clock ?? SYSTEM_CLOCK;
    this.pacer = new Pacer(this.clock, { rpm: options.rpm, tpm: options.tpm });
    this.slots = pLimit(options.concurrency);
  }

  /** HTTP requests in flight at once; callers bound the judgements they start by it too. */
  get concurrency(): number {
    return this.options.concurrency;
  }

  /** The rate limits the calls were paced to, and where each came from. */
  get pacing(): PacingReport {
    return this.pacer.report;
  }

  private taskStats(task: string): TaskStats {
    return (this.stats.byTask[task] ??= { calls: 0, cacheHits: 0, promptTokens: 0, completionTokens: 0, totalTokens: 0 });
  }

  /**
   * The `error.message` of an OpenAI-style error body, else the body's start: redacted before it is shortened, so
   * that no cut leaves part of a secret.
   */
  private quote(text: string): string {
    try {
      const body = JSON.parse(text) as { error?: { message?: unknown } | string; message?: unknown };
      if (typeof body.error === 'string') return body.error;
      if (typeof body.error?.message === 'string') return body.error.message;
      if (typeof body.message === 'string') return body.message;
    } catch {
      // not JSON: show the text
    }
    const flat = this.redact(text).replace(/\s+/g, ' ').trim();
    return flat.length > 200 ? `${flat.slice(0, 200)}…` : flat || '(empty body)';
  }

  /** What the run should be warned about (a fallback to JSON mode, an unwritable cache), once each. */
  get warnings(): string[] {
    const cacheProblem = this.options.cache?.writeProblem;
    return [...this.notes, ...(cacheProblem === undefined ? [] : [cacheProblem])].map(this.redact);
  }

  get model(): string {
    return this.options.model;
  }

  get embeddingModel(): string {
    return this.options.embeddingModel;
  }

  /** A chat completion whose reply must be JSON matching `request.reply`; cached by model, prompt version and messages. */
  structured<T>(request: StructuredRequest<T>): Promise<T> {
    const parts = this.chatParts(request);
    const compute = () => {
      if (this.batchOnly === undefined) return this.withRetries(() => this.chatAttempt(request));
      const reason = this.batchOnly.get(cacheKey(parts)) ?? 'the batch had no request for it';
      return Promise.reject(new JudgeCallError('batch', `${reason}; --batch-fallback none sends no request synchronously`));
    };
    return this.redacting(this.cached(parts, request.reply, compute));
  }

  /** The cache key a chat request is stored under (a batch's replies are stored under the same). */
  chatCacheKey(request: StructuredRequest<unknown>): string {
    return cacheKey(this.chatParts(request));
  }

  private chatParts(request: StructuredRequest<unknown>): CacheKeyParts {
    return {
      endpoint: 'chat',
      model: this.options.model,
      promptVersion: request.promptVersion,
      task: request.task,
      input: request.messages.map(({ role, content }) => ({ role, content })),
    };
  }

  /** Whether the cache (or this run) already has the reply to `request`: a batch need not ask for it. */
  async hasChatReply(request: StructuredRequest<unknown>): Promise<boolean> {
    const key = this.chatCacheKey(request);
    if (this.memo.has(key)) return true;
    return request.reply.safeParse(await this.options.cache?.get(key)).success;
  }

  /** The body of a chat completion request for `request`, as a synchronous call sends it (a batch's input line too). */
  chatBody(request: StructuredRequest<unknown>, format: 'json_schema' | 'json_object' = 'json_schema'): Record<string, unknown> {
    return {
      model: this.options.model,
      temperature: 0,
      messages: request.messages,
      response_format:
        format === 'json_schema'
          ? { type: 'json_schema', json_schema: { name: request.schemaName, strict: true, schema: request.jsonSchema } }
          : { type: 'json_object' },
    };
  }

  /**
   * Takes a chat completion a batch returned for `request`: validated as a synchronous reply is, redacted, and
   * stored in the cache (and this run's memory), so the judging pass that follows finds it. Returns its usage;
   * throws JudgeCallError when the reply is unusable.
   */
  async storeBatchReply(request: StructuredRequest<unknown>, body: unknown): Promise<z.infer<typeof usageSchema>> {
    let chat: ChatValue<unknown>;
    try {
      chat = this.chatValue(request, body);
    } catch (error) {
      if (error instanceof Retryable) throw new JudgeCallError(error.kind, this.redact(error.message));
      throw error;
    }
    const parts = this.chatParts(request);
    const key = cacheKey(parts);
    const value = redactStrings(chat.value, this.redact);
    await this.options.cache?.put(key, parts, value);
    this.memo.set(key, Promise.resolve(value));
    return chat.usage;
  }

  /** From now on a chat request the cache lacks fails with `reasons`' words for it (`--batch-fallback none`). */
  refuseChatCalls(reasons: ReadonlyMap<string, string>): void {
    this.batchOnly = reasons;
  }

  /**
   * One request of the batch API (files and batches): the judge's credentials, a timeout, retries of 429, 5xx and
   * broken connections; returns the reply's text. Any other failure stops the run (JudgeSetupError): without the
   * batch API nothing can be judged in batch mode.
   */
  batchRequest(method: 'GET' | 'POST', path: string, body?: { readonly json: unknown } | { readonly form: FormData }): Promise<string> {
    const attempts = this.withRetries(() => this.batchAttempt(method, path, body)).catch((error: unknown) => {
      // Out of attempts (5xx, timeouts): the run stops, and the state file keeps what was done for the next run.
      if (error instanceof JudgeCallError)
        throw new JudgeSetupError(`the batch API failed on ${method} ${this.endpoint.base}${path}: ${error.message}; rerun later`);
      throw error;
    });
    return this.redacting(attempts);
  }

  private async batchAttempt(method: 'GET' | 'POST', path: string, body?: { readonly json: unknown } | { readonly form: FormData }): Promise<string> {
    if (this.setupError !== undefined) throw this.setupError;
    const url = `${this.endpoint.base}${path}`;
    const timeoutMs = path.startsWith('/files') ? Math.max(this.options.timeoutMs, MIN_FILE_TIMEOUT_MS) : this.options.timeoutMs;
    const timeout = AbortSignal.timeout(timeoutMs);
    const headers: Record<string, string> = { authorization: this.endpoint.authorization };
    if (body !== undefined && 'json' in body) headers['content-type'] = 'application/json';
    let response: Response;
    let text: string | undefined;
    try {
      response = await this.fetch(url, {
        method,
        headers,
        body: body === undefined ? undefined : 'json' in body ? JSON.stringify(body.json) : body.form,
        signal: AbortSignal.any([timeout, this.abort.signal]),
      });
      text = await boundedText(response, MAX_BATCH_FILE_BYTES);
    } catch (error) {
      if (this.setupError !== undefined) throw this.setupError;
      if (timeout.aborted) throw new Retryable('timeout', `no complete reply from ${url} within ${timeoutMs} ms`);
      const fault = fetchFault(error);
      if (fault.kind === 'transient' || fault.kind === 'unreachable')
        throw new Retryable('network', `the connection to ${url} failed (${fault.reason})`, undefined, fault.kind === 'unreachable');
      return this.stop(new JudgeSetupError(`cannot reach the batch API at ${url} (${fault.reason}); check --base-url or OPENAI_BASE_URL`));
    }
    if (text === undefined)
      return this.stop(new JudgeSetupError(`the reply from ${url} is larger than ${sizeInWords(MAX_BATCH_FILE_BYTES)}, the most rag-gate reads`));
    const { status } = response;
    if (status >= 200 && status < 300) return text;
    const message = `HTTP ${status}: ${this.quote(text)}`;
    if (status === 429 || status === 408 || status === 409 || status >= 500) {
      if (status === 429) this.stats.rateLimited++;
      throw new Retryable('unavailable', message, retryAfterFromHeaders(response.headers), false, status === 429);
    }
    const hint =
      status === 401 || status === 403
        ? `it rejected ${this.endpoint.credentials}; ${this.endpoint.check}`
        : method === 'GET' && status === 404
          ? 'the endpoint does not know that batch or file (another endpoint or key, or deleted): delete the state file to submit a new batch'
          : "does the endpoint implement OpenAI's Batch API (files and batches)? Judge without --batch otherwise";
    return this.stop(new JudgeSetupError(`the batch API answered ${method} ${url} with ${message}; ${hint}`));
  }

  /** The one place the judge sends a request: the option's fetch, else the global one. */
  private fetch(url: string, init: RequestInit): Promise<Response> {
    return (this.options.fetch ?? fetch)(url, init);
  }

  /**
   * Embeds `texts` (in one call, or with a batch `member` in its batch's call) and returns the cosine similarity of
   * the first text with each of the others. The similarities, not the vectors, are cached per answer (a few numbers instead of thousands), keyed by embedding
   * model, prompt version and texts.
   */
  cosinesToFirst(promptVersion: string, task: string, texts: readonly string[], member?: BatchMember): Promise<number[]> {
    const parts: CacheKeyParts = { endpoint: 'embeddings', model: this.options.embeddingModel, promptVersion, task, input: [...texts] };
    const compute = async () => {
      const vectors = member === undefined ? (await this.embedGroups(task, [texts]))[0]! : await member.embed(texts);
      if (vectors instanceof Error) throw vectors;
      const [first, ...others] = vectors;
      const cosines = others.map((vector) => cosine(first!, vector));
      if (cosines.some((value) => !Number.isFinite(value))) throw new JudgeCallError('invalid_reply', 'the embeddings endpoint returned a zero vector');
      return cosines;
    };
    return this.redacting(this.cached(parts, cosinesValue, compute, () => member?.settle()));
  }

  /**
   * A batch for the embeddings of many answers under `task`: members' texts go together, EMBEDDING_BATCH_ANSWERS
   * answers a request (see EmbeddingBatch). Pass a member to `cosinesToFirst`.
   */
  embeddingBatch(task: string): EmbeddingBatch {
    return new EmbeddingBatch(
      (groups) => this.embedGroups(task, groups),
      (texts) => this.estimateTokens(task, texts),
      () => this.embeddingAnswersPerRequest,
    );
  }

  /**
   * One embeddings request for the texts of several answers, split back per answer. An endpoint that refuses a
   * list of several answers (HTTP 400 or 413: some cap the inputs a request) gets one answer a request from then on.
   */
  private async embedGroups(task: string, groups: readonly (readonly string[])[]): Promise<(number[][] | Error)[]> {
    try {
      const vectors = await this.withRetries(() => this.embeddingsAttempt(task, groups.flat()));
      let at = 0;
      return groups.map((group) => vectors.slice(at, (at += group.length)));
    } catch (error) {
      if (!(error instanceof JudgeCallError)) throw error;
      // Batches sent before the first refusal came back are split too.
      if (groups.length > 1 && error.kind === 'http') {
        if (this.embeddingAnswersPerRequest > 1)
          this.notes.push(
            `the embeddings endpoint refused the texts of ${groups.length} answers in one request (${error.message}); sending one answer a request`,
          );
        this.embeddingAnswersPerRequest = 1;
        return Promise.all(groups.map(async (group) => (await this.embedGroups(task, [group]))[0]!));
      }
      return groups.map(() => error);
    }
  }

  /**
   * The cosine similarity of each pair of texts, embedded in batches of up to `batchSize` distinct texts per call.
   * Each pair's similarity is cached on its own (keyed by embedding model, prompt version and the two texts), so a
   * rerun embeds only the pairs it has not seen.
   */
  cosinesOfPairs(promptVersion: string, task: string, pairs: readonly (readonly [string, string])[], batchSize = 64): Promise<number[]> {
    return this.redacting(this.pairCosines(promptVersion, task, pairs, batchSize));
  }

  private async pairCosines(promptVersion: string, task: string, pairs: readonly (readonly [string, string])[], batchSize: number): Promise<number[]> {
    const partsOf = (pair: readonly [string, string]): CacheKeyParts => ({
      endpoint: 'embeddings',
      model: this.options.embeddingModel,
      promptVersion,
      task,
      input: [...pair],
    });
    const cosines: (number | undefined)[] = await Promise.all(
      pairs.map(async (pair) => {
        const parsed = z.number().safeParse(await this.options.cache?.get(cacheKey(partsOf(pair))));
        if (!parsed.success) return undefined;
        this.stats.cacheHits++;
        this.taskStats(task).cacheHits++;
        return parsed.data;
      }),
    );
    const missing = pairs.flatMap((_, i) => (cosines[i] === undefined ? [i] : []));
    let start = 0;
    while (start < missing.length) {
      const texts: string[] = [];
      const position = new Map<string, number>();
      let end = start;
      for (; end < missing.length; end++) {
        const fresh = pairs[missing[end]!]!.filter((text) => !position.has(text));
        if (texts.length + new Set(fresh).size > batchSize && end > start) break;
        for (const text of fresh) if (!position.has(text)) position.set(text, texts.push(text) - 1);
      }
      const vectors = await this.withRetries(() => this.embeddingsAttempt(task, texts));
      for (const i of missing.slice(start, end)) {
        const [a, b] = pairs[i]!;
        const value = cosine(vectors[position.get(a)!]!, vectors[position.get(b)!]!);
        if (!Number.isFinite(value)) throw new JudgeCallError('invalid_reply', 'the embeddings endpoint returned a zero vector');
        cosines[i] = value;
        await this.options.cache?.put(cacheKey(partsOf(pairs[i]!)), partsOf(pairs[i]!), value);
      }
      start = end;
    }
    return cosines as number[];
  }

  /** Every error leaves the client through here, whatever its words came from: a server, fetch or this client. */
  private async redacting<T>(work: Promise<T>): Promise<T> {
    try {
      return await work;
    } catch (error) {
      if (error instanceof Error) {
        error.message = this.redact(error.message);
        if (error.stack !== undefined) error.stack = this.redact(error.stack);
      }
      throw error;
    }
  }

  /** The value of `parts`: shared with an identical call of this run, from the cache, or computed; `served` is told when it is not computed. */
  private async cached<T>(parts: CacheKeyParts, check: z.ZodType<T>, compute: () => Promise<T>, served?: () => void): Promise<T> {
    const key = cacheKey(parts);
    const shared = this.memo.get(key);
    if (shared !== undefined) {
      served?.();
      const value = (await shared) as T;
      this.stats.cacheHits++;
      this.taskStats(parts.task).cacheHits++;
      return value;
    }
    const promise = (async () => {
      const stored = await this.options.cache?.get(key);
      if (stored !== undefined) {
        const parsed = check.safeParse(stored);
        if (parsed.success) {
          served?.();
          this.stats.cacheHits++;
          this.taskStats(parts.task).cacheHits++;
          return parsed.data;
        }
      }
      // A server may echo a credential even in a valid reply; what the judge returns is written to files and the cache.
      const value = redactStrings(await compute(), this.redact) as T;
      await this.options.cache?.put(key, parts, value);
      return value;
    })();
    this.memo.set(key, promise);
    try {
      return await promise;
    } catch (error) {
      this.memo.delete(key);
      throw error;
    }
  }

  /**
   * Runs `attempt` until it succeeds, retrying what is worth retrying up to `maxAttempts` attempts. A 429 (rate
   * limited) is waited out without using up an attempt, for up to MAX_RATE_LIMIT_WAIT_MS per call: under a rate
   * limit every call gets through in the end, and none is lost for having been told "not yet".
   */
  private async withRetries<T>(attempt: () => Promise<T>): Promise<T> {
    const { maxAttempts, backoffMs } = this.options;
    const maxRetryAfterMs = this.options.maxRetryAfterMs ?? DEFAULT_MAX_RETRY_AFTER_MS;
    let failures = 0;
    let rateLimitWaits = 0;
    let firstRateLimitAt: number | undefined;
    for (;;) {
      let last: Retryable;
      try {
        return await attempt();
      } catch (error) {
        if (!(error instanceof Retryable)) throw error;
        last = error;
      }
      if (last.rateLimited) firstRateLimitAt ??= this.clock.now();
      if (last.rateLimited && this.clock.now() - firstRateLimitAt! < MAX_RATE_LIMIT_WAIT_MS) rateLimitWaits++;
      else failures++;
      if (failures >= maxAttempts) {
        const attempts = `${maxAttempts} attempt${maxAttempts === 1 ? '' : 's'}`;
        const waits = rateLimitWaits > 0 ? ` and ${rateLimitWaits} wait${rateLimitWaits === 1 ? '' : 's'} for the rate limit` : '';
        if (last.unreachable) this.stop(new JudgeSetupError(`${last.message} on ${attempts}; check --base-url or OPENAI_BASE_URL`));
        throw new JudgeCallError(last.kind, `${last.message} (gave up after ${attempts}${waits})`);
      }
      if (last.retryAfterMs !== undefined && last.retryAfterMs > maxRetryAfterMs) {
        throw new JudgeCallError(
          last.kind,
          `${last.message}; the server asks to retry after ${Math.ceil(last.retryAfterMs / 1000)} s, longer than the ${maxRetryAfterMs / 1000} s rag-gate waits`,
        );
      }
      this.stats.retries++;
      if (last.retryAfterMs !== undefined) this.pacer.pause(this.clock.now() + last.retryAfterMs);
      await this.clock.sleep(last.retryAfterMs ?? backoffDelay(Math.max(failures, rateLimitWaits), backoffMs, this.options.random), this.abort.signal);
    }
  }

  /** Stops the whole run: every pending and later call rejects with `error`. */
  private stop(error: JudgeSetupError): never {
    this.setupError ??= error;
    this.abort.abort(this.setupError);
    throw this.setupError;
  }

  /** The tokens a request is paced by before its usage is known: its text at CHARS_PER_TOKEN, and the task's mean reply. */
  private estimateTokens(task: string, texts: readonly string[]): number {
    const prompt = Math.ceil(texts.reduce((sum, text) => sum + text.length, 0) / CHARS_PER_TOKEN);
    const mean = this.completionMeans.get(task);
    return prompt + (mean === undefined ? 0 : Math.round(mean.tokens / mean.replies));
  }

  private checkBudget(): void {
    const { maxCalls } = this.options;
    if (maxCalls !== undefined && this.stats.calls >= maxCalls) {
      throw new JudgeCallError('budget', `the --max-calls budget of ${maxCalls} call${maxCalls === 1 ? '' : 's'} is used up`);
    }
  }

  /**
   * One HTTP POST: budget, pacing, timeout, a bounded reply, and the failures no retry can fix. The reply's rate
   * limit headers settle its pacing at once; its usage later, through `addUsage` with the ticket.
   */
  private async post(path: string, body: unknown, task: string, estimatedTokens: number): Promise<RawReply & { readonly ticket: Ticket }> {
    if (this.setupError !== undefined) throw this.setupError;
    // Calls in flight when the server asked for a pause wait it out too, each with a little jitter so they do not
    // all return at the same instant.
    const paused = this.pacer.pausedUntil - this.clock.now();
    if (paused > 0) await this.clock.sleep(paused + Math.floor((this.options.random ?? Math.random)() * Math.min(1000, paused / 10)), this.abort.signal);
    return this.slots(() => this.send(path, body, task, estimatedTokens));
  }

  /** `post` once it holds one of the `concurrency` slots: pacing, the request, its reply. */
  private async send(path: string, body: unknown, task: string, estimatedTokens: number): Promise<RawReply & { readonly ticket: Ticket }> {
    const { timeoutMs, maxReplyBytes = MAX_REPLY_BYTES } = this.options;
    this.checkBudget();
    const ticket = await this.pacer.admit((body as { model: string }).model, estimatedTokens, this.abort.signal);
    if (this.setupError !== undefined) throw this.setupError;
    // Other calls may have used the budget up while this one waited for its turn.
    this.checkBudget();
    this.stats.calls++;
    this.taskStats(task).calls++;
    const url = `${this.endpoint.base}${path}`;
    const timeout = AbortSignal.timeout(timeoutMs);
    let response: Response;
    let text: string | undefined;
    try {
      response = await this.fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: this.endpoint.authorization },
        body: JSON.stringify(body),
        signal: AbortSignal.any([timeout, this.abort.signal]),
      });
      text = await boundedText(response, maxReplyBytes);
    } catch (error) {
      if (this.setupError !== undefined) throw this.setupError;
      if (timeout.aborted) throw new Retryable('timeout', `no complete reply from ${url} within ${timeoutMs} ms`);
      const fault = fetchFault(error);
      switch (fault.kind) {
        case 'refused':
          return this.stop(new JudgeSetupError(`fetch refuses to send a request to ${url} (${fault.reason}); check --base-url or OPENAI_BASE_URL`));
        case 'permanent':
          return this.stop(new JudgeSetupError(`cannot reach the judge endpoint ${url} (${fault.reason}); check --base-url or OPENAI_BASE_URL`));
        case 'unreachable':
          throw new Retryable('network', `cannot reach the judge endpoint ${url} (${fault.reason})`, undefined, true);
        case 'transient':
          throw new Retryable('network', `the connection to ${url} failed (${fault.reason})`);
      }
    }
    if (text === undefined)
      throw new JudgeCallError('invalid_reply', `the reply from ${url} is larger than ${sizeInWords(maxReplyBytes)}, the most rag-gate reads`);
    this.pacer.settle(ticket, undefined, response.headers);
    this.pacer.observe(ticket, response.status, response.headers);
    const reply = { status: response.status, headers: response.headers, text, ticket };
    const { status } = reply;
    if (status === 401 || status === 403) {
      this.stop(
        new JudgeSetupError(
          `the judge endpoint ${url} rejected ${this.endpoint.credentials} (HTTP ${status}: ${this.quote(reply.text)}); ${this.endpoint.check}`,
        ),
      );
    }
    if (status === 404) {
      this.stop(
        new JudgeSetupError(
          `the judge endpoint ${url} answered HTTP 404 (${this.quote(reply.text)}); check --base-url (OpenAI-compatible servers usually end in /v1) and the model name`,
        ),
      );
    }
    return reply;
  }

  /**
   * Turns an error status into a retry (408, 409, 429, 5xx, honouring Retry-After) or a final failure. A 429 whose
   * error says the account's quota is used up (OpenAI's `insufficient_quota`) is no rate limit: waiting does not
   * help, and the run stops.
   */
  private failedStatus(reply: RawReply): never {
    const message = `HTTP ${reply.status}: ${this.quote(reply.text)}`;
    if (reply.status === 429) {
      this.stats.rateLimited++;
      if (/"(code|type)"\s*:\s*"insufficient_quota"/.test(reply.text)) {
        this.stop(new JudgeSetupError(`the judge endpoint refuses the account: its quota is used up (${message}); check the plan and billing of the key`));
      }
      throw new Retryable('unavailable', message, retryAfterFromHeaders(reply.headers), false, true);
    }
    if (reply.status === 408 || reply.status === 409 || reply.status >= 500) {
      throw new Retryable(reply.status === 408 ? 'timeout' : 'unavailable', message, retryAfterFromHeaders(reply.headers));
    }
    throw new JudgeCallError('http', message);
  }

  private addUsage(task: string, ticket: Ticket, usage: z.infer<typeof usageSchema>): void {
    if (!usage) return;
    const prompt = usage.prompt_tokens ?? 0;
    const completion = usage.completion_tokens ?? 0;
    const total = usage.total_tokens ?? prompt + completion;
    for (const stats of [this.stats, this.taskStats(task)]) {
      stats.promptTokens += prompt;
      stats.completionTokens += completion;
      stats.totalTokens += total;
    }
    const mean = this.completionMeans.get(task) ?? { replies: 0, tokens: 0 };
    this.completionMeans.set(task, { replies: mean.replies + 1, tokens: mean.tokens + completion });
    this.pacer.settle(ticket, total, undefined);
  }

  private async chatAttempt<T>(request: StructuredRequest<T>): Promise<T> {
    let reply: Awaited<ReturnType<JudgeClient['post']>>;
    const estimate = this.estimateTokens(
      request.task,
      request.messages.map((message) => message.content),
    );
    for (;;) {
      const format = this.responseFormat;
      reply = await this.post('/chat/completions', this.chatBody(request, format), request.task, estimate);
      // An endpoint without JSON-schema output: fall back to JSON mode for the rest of the run; zod still checks every reply.
      if (reply.status === 400 && format === 'json_schema' && /response_format|json_schema/i.test(reply.text)) {
        if (this.responseFormat === 'json_schema') {
          this.responseFormat = 'json_object';
          this.notes.push(
            `the endpoint does not accept the JSON-schema response format (${this.quote(reply.text)}); using JSON mode, replies are still validated`,
          );
        }
        continue;
      }
      break;
    }
    if (reply.status < 200 || reply.status >= 300) this.failedStatus(reply);
    let json: unknown;
    try {
      json = JSON.parse(reply.text);
    } catch {
      throw new Retryable('invalid_reply', `the reply is not JSON (${this.quote(reply.text)})`);
    }
    const envelope = chatEnvelope.safeParse(json);
    if (envelope.success) this.addUsage(request.task, reply.ticket, envelope.data.usage);
    return this.chatValue(request, json).value;
  }

  /** The value of a chat completion (its JSON) for `request`, checked against the request's schema; throws Retryable. */
  private chatValue<T>(request: StructuredRequest<T>, reply: unknown): ChatValue<T> {
    const parsed = chatEnvelope.safeParse(reply);
    if (!parsed.success) throw new Retryable('invalid_reply', `the reply is not a chat completion (${zodSummary(parsed.error)})`);
    const envelope = parsed.data;
    const message = envelope.choices[0]!.message;
    if (typeof message.content !== 'string' || message.content.trim() === '') {
      throw new Retryable('invalid_reply', message.refusal ? `the model refused: ${message.refusal}` : 'the reply has no content');
    }
    let json: unknown;
    try {
      json = replyJson(message.content);
    } catch {
      const truncated = envelope.choices[0]!.finish_reason === 'length' ? ' (cut off at the token limit)' : '';
      throw new Retryable('invalid_reply', `the model's reply is not JSON${truncated}: ${this.quote(message.content)}`);
    }
    const checked = request.reply.safeParse(json);
    if (!checked.success) throw new Retryable('invalid_reply', `the model's reply does not have the expected shape (${zodSummary(checked.error)})`);
    return { value: checked.data, usage: envelope.usage };
  }

  private async embeddingsAttempt(task: string, texts: readonly string[]): Promise<number[][]> {
    const reply = await this.post('/embeddings', { model: this.options.embeddingModel, input: texts }, task, this.estimateTokens(task, texts));
    if (reply.status < 200 || reply.status >= 300) this.failedStatus(reply);
    let envelope: z.infer<typeof embeddingsEnvelope>;
    try {
      const parsed = embeddingsEnvelope.safeParse(JSON.parse(reply.text));
      if (!parsed.success) throw new Retryable('invalid_reply', `the reply is not an embeddings list (${zodSummary(parsed.error)})`);
      envelope = parsed.data;
    } catch (error) {
      if (error instanceof Retryable) throw error;
      throw new Retryable('invalid_reply', `the reply is not JSON (${this.quote(reply.text)})`);
    }
    this.addUsage(task, reply.ticket, envelope.usage);
    const byIndex = [...envelope.data].sort((a, b) => a.index - b.index);
    const dimension = byIndex[0]?.embedding.length;
    if (byIndex.length !== texts.length || byIndex.some((item, i) => item.index !== i || item.embedding.length !== dimension)) {
      throw new Retryable('invalid_reply', `expected ${texts.length} embeddings of one dimension, indexed 0…${texts.length - 1}`);
    }
    return byIndex.map((item) => item.embedding);
  }
}
