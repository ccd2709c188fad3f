import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, vi } from 'vitest';
import { scratchDir } from '../helpers/cli.js';

/** A request the fake endpoint received. */
export interface RecordedRequest {
  readonly path: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  readonly body: any;
  readonly headers: IncomingHttpHeaders;
  /** ms since the server started */
  readonly at: number;
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

export function chatCompletion(content: string) {
  return {
    id: 'chatcmpl-fake',
    object: 'chat.completion',
    model: 'fake',
    choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
    usage: { prompt_tokens: 100, completion_tokens: 20, total_tokens: 120 },
  };
}

/** A deterministic stand-in for a judge model that speaks the OpenAI wire format. */
function fakeJudge(request: RecordedRequest, embeddings: Map<string, number[]>): FakeReply {
  if (request.path === '/v1/embeddings') {
    const input: string[] = request.body.input;
    return {
      body: {
        object: 'list',
        data: input.map((text, index) => ({ object: 'embedding', index, embedding: embeddings.get(text) ?? letterVector(text) })),
        usage: { prompt_tokens: 7 * input.length, total_tokens: 7 * input.length },
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
  return { body: chatCompletion(JSON.stringify(reply)) };
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
  const state = {
    handler: undefined as Handler | undefined,
    hold: undefined as FakeOpenAI['hold'],
    delayMs: 0,
    embeddings: new Map<string, number[]>(),
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
      const request: RecordedRequest = { path: req.url ?? '', body, headers: req.headers, at: Date.now() - started };
      const index = requests.push(request) - 1;
      const reply = state.handler?.(request, index) ?? fakeJudge(request, state.embeddings);
      const send = () => {
        if (res.destroyed) return;
        if (reply.hangUp) {
          res.socket?.destroy();
          return;
        }
        const payload = typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body ?? {});
        res.writeHead(reply.status ?? 200, { 'content-type': 'application/json', ...reply.headers });
        if (reply.padToBytes === undefined) res.end(payload);
        else writePadded(res, Buffer.from(payload), reply.padToBytes, (bytes) => (paddedBytesWritten += bytes));
      };
      const delay = reply.delayMs ?? state.delayMs;
      const release = () => (delay > 0 ? setTimeout(send, delay) : send());
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
      state.embeddings.clear();
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

/**
 * The setup every judge test file shares: one fake endpoint for the file, reset before each test, a key and a
 * fast backoff in the environment, and fresh file names in a scratch directory. Call it at the top of the file.
 */
export function useFakeJudge(): { readonly server: FakeOpenAI; path(name: string): string } {
  const scratch = scratchDir();
  let server: FakeOpenAI | undefined;
  let counter = 0;
  beforeAll(async () => {
    server = await startFakeOpenAI();
  });
  afterAll(async () => {
    await server?.close();
    scratch.cleanup();
  });
  beforeEach(() => {
    server?.reset();
    vi.stubEnv('OPENAI_API_KEY', 'sk-test-key');
    vi.stubEnv('OPENAI_BASE_URL', undefined);
    vi.stubEnv('RAG_GATE_JUDGE_BACKOFF_MS', '5');
  });
  afterEach(() => {
    vi.unstubAllEnvs();
  });
  return {
    get server() {
      if (server === undefined) throw new Error('useFakeJudge: the server starts in beforeAll');
      return server;
    },
    path(name) {
      counter++;
      return join(scratch.dir, `${counter}-${name}`);
    },
  };
}
