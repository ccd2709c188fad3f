import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request the fake endpoint received. */
export interface RecordedRequest {
  readonly method: string;
  readonly path: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  readonly body: any;
  readonly headers: IncomingHttpHeaders;
  /** ms since the server started */
  readonly at: number;
  /** The client's port: a proxy's connection, when it came through one (test/helpers/proxy.ts). */
  readonly remotePort: number;
}

export interface FakeReply {
  readonly status?: number;
  readonly headers?: Record<string, string>;
  /** An object is sent as JSON; a string as is. */
  readonly body?: unknown;
  /**
   * Pads the body with spaces to this many bytes, written as the client reads them (chunked unless the headers
   * give a content-length); writing stops when the client hangs up.
   */
  readonly padToBytes?: number;
  /** Closes the connection instead of replying. */
  readonly hangUp?: boolean;
  readonly delayMs?: number;
}

/**
 * A rate limit as OpenAI applies it, per model: for requests and for tokens, a bucket holding a minute's worth that refills
 * continuously and starts full; a request is charged one request and its total tokens when it arrives, and is
 * answered 429 when either bucket lacks room.
 */
export interface EndpointRateLimit {
  readonly rpm?: number;
  readonly tpm?: number;
  /** Send OpenAI's `x-ratelimit-{limit,remaining,reset}-{requests,tokens}` headers (default true). */
  readonly headers?: boolean;
  /** Seconds a 429 asks to wait in Retry-After; default: until there is room, rounded up to a whole second. */
  readonly retryAfterSeconds?: number;
}

/** How the endpoint reads the time and waits (its latency); tests pass a virtual clock shared with the client. */
export interface EndpointClock {
  now(): number;
  sleep(ms: number): Promise<void>;
  /** Told when a request has arrived, and just before its reply is written (a clock that waits for transit). */
  arrived?(request: RecordedRequest): void;
  replying?(request: RecordedRequest): void;
}

const REAL_CLOCK: EndpointClock = { now: () => Date.now(), sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)) };

/** A continuously refilled bucket of a minute's worth. */
class MinuteBucket {
  private level: number;
  constructor(
    readonly perMinute: number,
    private at: number,
  ) {
    this.level = perMinute;
  }
  private refill(now: number): void {
    this.level = Math.min(this.perMinute, this.level + ((now - this.at) * this.perMinute) / 60_000);
    this.at = now;
  }
  /** ms until `amount` fits (0: it fits now). */
  waitFor(amount: number, now: number): number {
    this.refill(now);
    const need = Math.min(amount, this.perMinute);
    return this.level >= need ? 0 : ((need - this.level) * 60_000) / this.perMinute;
  }
  take(amount: number): void {
    this.level -= amount;
  }
  get remaining(): number {
    return Math.max(0, Math.floor(this.level));
  }
  /** Until full again, as OpenAI writes it (`1.5s`, `120ms`). */
  get reset(): string {
    const ms = Math.max(0, ((this.perMinute - this.level) * 60_000) / this.perMinute);
    return ms < 1000 ? `${Math.ceil(ms)}ms` : `${Number((ms / 1000).toFixed(3))}s`;
  }
}

/** Returns a reply, or undefined to let the fake judge answer. */
export type Handler = (request: RecordedRequest, index: number) => FakeReply | undefined;

export interface FakeOpenAI {
  /** Base URL with /v1, as users pass it. */
  readonly url: string;
  readonly requests: RecordedRequest[];
  /** Most requests in flight at once so far. */
  readonly maxInFlight: number;
  /** Bytes of padded bodies (`padToBytes`) handed to the socket so far. */
  readonly paddedBytesWritten: number;
  handler: Handler | undefined;
  /** Holds a reply until the promise settles (then the delay applies): orders events without timing margins. */
  hold: ((request: RecordedRequest, index: number) => Promise<unknown> | undefined) | undefined;
  /** Delay of every reply, so that requests overlap. */
  delayMs: number;
  /** A delay drawn for each reply from [min, max] ms (seeded, reproducible); wins over `delayMs`. */
  latencyMs: readonly [number, number] | undefined;
  /** The delay of the reply to the request of this index; wins over `latencyMs` and `delayMs`. */
  latencyOf: ((index: number) => number) | undefined;
  /** Rate limits applied to the fake judge's replies (not to a handler's). */
  rateLimit: EndpointRateLimit | undefined;
  /** Usage counted from the text (characters / 4) instead of fixed numbers, so that tokens per minute mean something. */
  textUsage: boolean;
  clock: EndpointClock;
  /** 429s the rate limit answered. */
  readonly rateLimitedReplies: number;
  /** Resolves once `count` requests have been in flight at the same time. */
  inFlightReached(count: number): Promise<void>;
  /** Vectors for exact texts; other texts get a letter-frequency vector. */
  readonly embeddings: Map<string, number[]>;
  reset(): void;
  close(): Promise<void>;
}

/** The labelled blocks of a user message: `Label:\n<<<\ntext\n>>>`. */
function blocks(content: string): Record<string, string> {
  const found: Record<string, string> = {};
  for (const match of content.matchAll(/(^|\n)([A-Za-z ]+):\n<<<\n([\s\S]*?)\n>>>/g)) found[match[2]!] = match[3]!;
  return found;
}

function letterVector(text: string): number[] {
  const vector = Array.from({ length: 26 }, () => 0);
  for (const ch of text.toLowerCase()) {
    const code = ch.charCodeAt(0) - 97;
    if (code >= 0 && code < 26) vector[code]!++;
  }
  return vector;
}

/** Splits an answer into sentences, the fake judge's "claims". */
function sentences(text: string): string[] {
  return text
    .split(/(?<=\.)\s+/)
    .map((s) => s.trim())
    .filter(Boolean);
}

/** Supported when the context contains the claim's words (without the final full stop). */
function fakeVerdict(context: string, claim: string): string {
  return context.toLowerCase().includes(claim.replace(/\.$/, '').toLowerCase()) ? 'SUPPORTED' : 'NOT_STATED';
}

const textTokens = (text: string) => Math.ceil(text.length / 4);

export function chatCompletion(content: string, usage = { prompt_tokens: 100, completion_tokens: 20, total_tokens: 120 }) {
  return {
    id: 'chatcmpl-fake',
    object: 'chat.completion',
    model: 'fake',
    choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
    usage,
  };
}

/** A deterministic stand-in for a judge model that speaks the OpenAI wire format. */
export function fakeJudge(request: RecordedRequest, embeddings: Map<string, number[]>, textUsage: boolean): FakeReply {
  if (request.path === '/v1/embeddings') {
    const input: string[] = request.body.input;
    const tokens = textUsage ? input.reduce((sum, text) => sum + textTokens(text), 0) : 7 * input.length;
    return {
      body: {
        object: 'list',
        data: input.map((text, index) => ({ object: 'embedding', index, embedding: embeddings.get(text) ?? letterVector(text) })),
        usage: { prompt_tokens: tokens, total_tokens: tokens },
      },
    };
  }
  if (request.path !== '/v1/chat/completions') return { status: 404, body: { error: { message: `no route ${request.path}` } } };
  const user: string = request.body.messages.find((m: { role: string }) => m.role === 'user').content;
  const parts = blocks(user);
  const name = request.body.response_format?.json_schema?.name ?? guessTask(user);
  let reply: unknown;
  if (name === 'faithfulness_claims') {
    reply = { claims: sentences(parts.Answer ?? '').map((text) => ({ text, verdict: fakeVerdict(parts.Context ?? '', text) })) };
  } else if (name === 'claim_verdict') {
    reply = { verdict: fakeVerdict(parts.Context ?? '', parts.Claim ?? '') };
  } else if (name === 'answer_questions') {
    reply = { questions: ['Q-A', 'Q-B', 'Q-C'] };
  } else if (name === 'correctness_verdict') {
    const correct = (parts.Answer ?? '').toLowerCase().includes((parts['Reference answer'] ?? '').toLowerCase());
    reply = { verdict: correct ? 'CORRECT' : 'INCORRECT' };
  } else {
    return { status: 400, body: { error: { message: `unknown task ${String(name)}` } } };
  }
  const content = JSON.stringify(reply);
  if (!textUsage) return { body: chatCompletion(content) };
  const prompt = (request.body.messages as { content: string }[]).reduce((sum, message) => sum + textTokens(message.content), 0);
  const completion = textTokens(content);
  return { body: chatCompletion(content, { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion }) };
}

/** A seeded generator (mulberry32): the same latencies on every run. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** In JSON mode there is no schema name: tell the tasks apart by their blocks. */
function guessTask(user: string): string {
  const parts = blocks(user);
  if ('Claim' in parts) return 'claim_verdict';
  if ('Context' in parts) return 'faithfulness_claims';
  if ('Reference answer' in parts) return 'correctness_verdict';
  return 'answer_questions';
}

/** Writes `payload` then spaces up to `total` bytes, honouring backpressure; stops when the client hangs up. */
function writePadded(res: ServerResponse, payload: Buffer, total: number, counted: (bytes: number) => void): void {
  const spaces = Buffer.alloc(64 * 1024, 0x20);
  let left = Math.max(0, total - payload.length);
  const pump = () => {
    while (left > 0 && !res.destroyed) {
      const piece = spaces.subarray(0, Math.min(left, spaces.length));
      left -= piece.length;
      counted(piece.length);
      if (!res.write(piece)) {
        res.once('drain', pump);
        return;
      }
    }
    if (!res.destroyed) res.end();
  };
  counted(payload.length);
  if (res.write(payload)) pump();
  else res.once('drain', pump);
}

/** Starts the fake endpoint on 127.0.0.1 and `port` (by default an ephemeral one). */
export async function startFakeOpenAI(port = 0): Promise<FakeOpenAI> {
  const started = Date.now();
  const requests: RecordedRequest[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  let paddedBytesWritten = 0;
  let inFlightWaiters: { count: number; resolve: () => void }[] = [];
  let rateLimitedReplies = 0;
  const state = {
    handler: undefined as Handler | undefined,
    hold: undefined as FakeOpenAI['hold'],
    delayMs: 0,
    latencyMs: undefined as readonly [number, number] | undefined,
    latencyOf: undefined as ((index: number) => number) | undefined,
    rateLimit: undefined as EndpointRateLimit | undefined,
    textUsage: false,
    clock: REAL_CLOCK,
    embeddings: new Map<string, number[]>(),
  };
  let random = seededRandom(19);
  /** The buckets of each model under the rate limit in force, made anew when it changes. */
  let buckets: { limit: EndpointRateLimit; byModel: Map<string, { requests?: MinuteBucket; tokens?: MinuteBucket }> } | undefined;
  const limited = (request: RecordedRequest, reply: FakeReply): FakeReply => {
    const limit = state.rateLimit;
    if (limit === undefined) return reply;
    const now = state.clock.now();
    if (buckets?.limit !== limit) buckets = { limit, byModel: new Map() };
    const model = String(request.body?.model);
    let own = buckets.byModel.get(model);
    if (own === undefined) {
      own = {
        requests: limit.rpm === undefined ? undefined : new MinuteBucket(limit.rpm, now),
        tokens: limit.tpm === undefined ? undefined : new MinuteBucket(limit.tpm, now),
      };
      buckets.byModel.set(model, own);
    }
    const { requests, tokens } = own;
    const cost = (reply.body as { usage?: { total_tokens?: number } } | undefined)?.usage?.total_tokens ?? 0;
    const wait = Math.max(requests?.waitFor(1, now) ?? 0, tokens?.waitFor(cost, now) ?? 0);
    if (wait === 0) {
      requests?.take(1);
      tokens?.take(cost);
    }
    const headers: Record<string, string> = {};
    if (limit.headers !== false) {
      for (const [kind, bucket] of [
        ['requests', requests],
        ['tokens', tokens],
      ] as const) {
        if (bucket === undefined) continue;
        headers[`x-ratelimit-limit-${kind}`] = String(bucket.perMinute);
        headers[`x-ratelimit-remaining-${kind}`] = String(bucket.remaining);
        headers[`x-ratelimit-reset-${kind}`] = bucket.reset;
      }
    }
    if (wait === 0) return { ...reply, headers: { ...reply.headers, ...headers } };
    rateLimitedReplies++;
    const which = (requests?.waitFor(1, now) ?? 0) > 0 ? 'requests' : 'tokens';
    return {
      status: 429,
      headers: { ...headers, 'retry-after': String(limit.retryAfterSeconds ?? Math.max(1, Math.ceil(wait / 1000))) },
      body: { error: { message: `Rate limit reached for ${which} per min. Please try again later.`, type: which, code: 'rate_limit_exceeded' } },
    };
  };
  const server: Server = createServer((req, res) => {
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    for (const waiter of inFlightWaiters.filter((w) => w.count <= maxInFlight)) waiter.resolve();
    inFlightWaiters = inFlightWaiters.filter((w) => w.count > maxInFlight);
    let done = false;
    const finish = () => {
      if (!done) {
        done = true;
        inFlight--;
      }
    };
    res.on('close', finish);
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        body = text;
      }
      const request: RecordedRequest = {
        method: req.method ?? 'GET',
        path: req.url ?? '',
        body,
        headers: req.headers,
        at: Date.now() - started,
        remotePort: req.socket.remotePort ?? 0,
      };
      const index = requests.push(request) - 1;
      state.clock.arrived?.(request);
      const reply = state.handler?.(request, index) ?? limited(request, fakeJudge(request, state.embeddings, state.textUsage));
      const send = () => {
        if (res.destroyed) return;
        if (reply.hangUp) {
          res.socket?.destroy();
          return;
        }
        state.clock.replying?.(request);
        const payload = typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body ?? {});
        res.writeHead(reply.status ?? 200, { 'content-type': 'application/json', ...reply.headers });
        if (reply.padToBytes === undefined) res.end(payload);
        else writePadded(res, Buffer.from(payload), reply.padToBytes, (bytes) => (paddedBytesWritten += bytes));
      };
      const [least, most] = state.latencyMs ?? [0, 0];
      const delay = reply.delayMs ?? state.latencyOf?.(index) ?? (state.latencyMs ? least + random() * (most - least) : state.delayMs);
      const release = () => (delay > 0 ? void state.clock.sleep(delay).then(send) : send());
      const held = state.hold?.(request, index);
      if (held !== undefined) void held.then(release, release);
      else release();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', resolve);
  });
  const { port: listening } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${listening}/v1`,
    requests,
    get maxInFlight() {
      return maxInFlight;
    },
    get paddedBytesWritten() {
      return paddedBytesWritten;
    },
    get handler() {
      return state.handler;
    },
    set handler(value) {
      state.handler = value;
    },
    get hold() {
      return state.hold;
    },
    set hold(value) {
      state.hold = value;
    },
    get delayMs() {
      return state.delayMs;
    },
    set delayMs(value) {
      state.delayMs = value;
    },
    get latencyMs() {
      return state.latencyMs;
    },
    set latencyMs(value) {
      state.latencyMs = value;
    },
    get latencyOf() {
      return state.latencyOf;
    },
    set latencyOf(value) {
      state.latencyOf = value;
    },
    get rateLimit() {
      return state.rateLimit;
    },
    set rateLimit(value) {
      state.rateLimit = value;
    },
    get textUsage() {
      return state.textUsage;
    },
    set textUsage(value) {
      state.textUsage = value;
    },
    get clock() {
      return state.clock;
    },
    set clock(value) {
      state.clock = value;
    },
    get rateLimitedReplies() {
      return rateLimitedReplies;
    },
    embeddings: state.embeddings,
    inFlightReached: (count) => (count <= maxInFlight ? Promise.resolve() : new Promise<void>((resolve) => inFlightWaiters.push({ count, resolve }))),
    reset() {
      requests.length = 0;
      maxInFlight = 0;
      paddedBytesWritten = 0;
      inFlightWaiters = [];
      state.handler = undefined;
      state.hold = undefined;
      state.delayMs = 0;
      state.latencyMs = undefined;
      state.latencyOf = undefined;
      state.rateLimit = undefined;
      state.textUsage = false;
      state.clock = REAL_CLOCK;
      state.embeddings.clear();
      buckets = undefined;
      rateLimitedReplies = 0;
      random = seededRandom(19);
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

/** A port nothing listens on: opened, then closed. */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
