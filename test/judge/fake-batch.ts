import { writeFileSync } from 'node:fs';
import { jsonl } from '../helpers/cli.js';
import { type FakeOpenAI, type FakeReply, type Handler, type RecordedRequest, fakeJudge } from './openai-endpoint.js';

/**
 * OpenAI's Batch API (files and batches) as a loopback fake, beside the fake judge's chat and embeddings routes:
 * the documented requests are checked (a multipart upload with purpose `batch`; input lines with `custom_id`,
 * `method`, `url` and a chat body; a batch for `/v1/chat/completions` in `24h`) and answered with the documented
 * file and batch objects. A batch goes validating → in_progress → finalizing over `polls` polls, then ends as
 * `final`; its output lines are the fake judge's replies to the input's bodies, the same a synchronous call gets.
 */

/**
 * Writes `count` questions about contract refund windows, each retrieving one context, to `file`; `answer` and
 * `expected` vary the answers and the expected answers.
 */
export function writeContractResults(
  file: string,
  count: number,
  answer: (i: number) => string,
  expected: (i: number) => string = () => '14-day refund window',
): string {
  const records = Array.from({ length: count }, (_, i) => ({
    id: `q${i}`,
    question: `What is the refund window for contract ${i}?`,
    answer: answer(i),
    retrieved_ids: ['d1'],
    retrieved_contexts: [`Contract ${i} has a 14-day refund window`],
    expected_answer: expected(i),
  }));
  writeFileSync(file, jsonl(records));
  return file;
}

export type FinalStatus = 'completed' | 'failed' | 'expired' | 'cancelled';

export interface FakeBatchOptions {
  /** Polls (GET /v1/batches/{id}) that see the batch unfinished before it ends (default 0: the first sees it ended). */
  polls?: number;
  final?: FinalStatus;
  /** expired or cancelled: how many requests (in input order) ran before (default 0). */
  ranBefore?: number;
  /** Output lines in reverse input order (the API does not keep the input's order). */
  outOfOrder?: boolean;
  /** Requests that fail on their own: the error file gets their error response instead of the output file a reply. */
  failing?: (customId: string) => { status: number; message: string } | undefined;
}

interface InputLine {
  custom_id: string;
  method: string;
  url: string;
  body: { model: string };
}

interface FakeBatch {
  id: string;
  input_file_id: string;
  created_at: number;
  polls: number;
  object: Record<string, unknown>;
}

export interface FakeBatchApi {
  handler: Handler;
  /** Files uploaded (purpose batch), by id: the input lines. */
  readonly uploads: Map<string, InputLine[]>;
  readonly batches: Map<string, FakeBatch>;
  /** Resolves when a batch is created (the request has arrived, before it is answered). */
  readonly created: Promise<string>;
  options: FakeBatchOptions;
}

const error = (status: number, message: string): FakeReply => ({
  status,
  body: { error: { message, type: 'invalid_request_error', param: null, code: null } },
});

/** The parts of a multipart/form-data body: name → { filename, content }. */
function multipart(request: RecordedRequest): Map<string, { filename?: string; content: string }> {
  const type = String(request.headers['content-type'] ?? '');
  const boundary = /boundary=(?:"([^"]+)"|([^;]+))/.exec(type);
  const parts = new Map<string, { filename?: string; content: string }>();
  if (boundary === null || typeof request.body !== 'string') return parts;
  const delimiter = `--${boundary[1] ?? boundary[2]}`;
  for (const part of request.body.split(delimiter).slice(1)) {
    if (part.startsWith('--')) break;
    const end = part.indexOf('\r\n\r\n');
    const head = part.slice(0, end);
    const name = /name="([^"]*)"/.exec(head)?.[1];
    const filename = /filename="([^"]*)"/.exec(head)?.[1];
    if (name !== undefined) parts.set(name, { filename, content: part.slice(end + 4, -2) });
  }
  return parts;
}

export function fakeBatchApi(server: FakeOpenAI, initial: FakeBatchOptions = {}): FakeBatchApi {
  const uploads = new Map<string, InputLine[]>();
  const files = new Map<string, string>();
  const batches = new Map<string, FakeBatch>();
  let resolveCreated: (id: string) => void = () => undefined;
  const created = new Promise<string>((resolve) => (resolveCreated = resolve));
  let counter = 0;
  const api: FakeBatchApi = { handler: () => undefined, uploads, batches, created, options: initial };
  const now = () => Math.floor(server.clock.now() / 1000);

  const upload = (request: RecordedRequest): FakeReply => {
    const parts = multipart(request);
    if (parts.get('purpose')?.content !== 'batch') return error(400, "purpose must be 'batch'");
    const file = parts.get('file');
    if (file?.filename === undefined) return error(400, 'no file');
    const lines: InputLine[] = [];
    const seen = new Set<string>();
    for (const [n, text] of file.content.split('\n').entries()) {
      if (text === '') continue;
      const line = JSON.parse(text) as InputLine;
      if (typeof line.custom_id !== 'string' || seen.has(line.custom_id)) return error(400, `line ${n + 1}: custom_id missing or repeated`);
      if (line.method !== 'POST' || line.url !== '/v1/chat/completions' || typeof line.body?.model !== 'string')
        return error(400, `line ${n + 1}: not a chat request`);
      seen.add(line.custom_id);
      lines.push(line);
    }
    const id = `file-${++counter}`;
    uploads.set(id, lines);
    return {
      body: {
        id,
        object: 'file',
        bytes: Buffer.byteLength(file.content),
        created_at: now(),
        filename: file.filename,
        purpose: 'batch',
        status: 'processed',
        status_details: null,
      },
    };
  };

  const create = (request: RecordedRequest): FakeReply => {
    const body = request.body as { input_file_id?: string; endpoint?: string; completion_window?: string };
    if (!uploads.has(body.input_file_id ?? '')) return error(404, `no file ${body.input_file_id}`);
    if (body.endpoint !== '/v1/chat/completions' || body.completion_window !== '24h') return error(400, 'endpoint or completion_window not supported');
    const id = `batch_${++counter}`;
    const created_at = now();
    const batch: FakeBatch = {
      id,
      input_file_id: body.input_file_id!,
      created_at,
      polls: 0,
      object: {
        id,
        object: 'batch',
        endpoint: '/v1/chat/completions',
        errors: null,
        input_file_id: body.input_file_id,
        completion_window: '24h',
        status: 'validating',
        output_file_id: null,
        error_file_id: null,
        created_at,
        in_progress_at: null,
        expires_at: created_at + 86_400,
        finalizing_at: null,
        completed_at: null,
        failed_at: null,
        expired_at: null,
        cancelling_at: null,
        cancelled_at: null,
        request_counts: { total: 0, completed: 0, failed: 0 },
        metadata: (request.body as { metadata?: unknown }).metadata ?? null,
      },
    };
    batches.set(id, batch);
    resolveCreated(id);
    return { body: batch.object };
  };

  /** Ends the batch: its output and error files as the options say. */
  const finish = (batch: FakeBatch): void => {
    const { final = 'completed', ranBefore = 0, outOfOrder = false, failing } = api.options;
    const lines = uploads.get(batch.input_file_id)!;
    const stamp = now();
    const output: string[] = [];
    const errors: string[] = [];
    if (final === 'failed') {
      Object.assign(batch.object, {
        status: 'failed',
        failed_at: stamp,
        errors: { object: 'list', data: [{ code: 'invalid_request', message: 'The model does not support the batch API.', param: null, line: 1 }] },
        request_counts: { total: 0, completed: 0, failed: 0 },
      });
      return;
    }
    let completed = 0;
    let failed = 0;
    for (const [n, line] of lines.entries()) {
      const id = `batch_req_${batch.id}_${n}`;
      if (final !== 'completed' && n >= ranBefore) {
        if (final === 'expired') {
          errors.push(
            JSON.stringify({
              id,
              custom_id: line.custom_id,
              response: null,
              error: { code: 'batch_expired', message: 'This request could not be executed before the completion window expired.' },
            }),
          );
        }
        continue;
      }
      const fault = failing?.(line.custom_id);
      if (fault !== undefined) {
        failed++;
        errors.push(
          JSON.stringify({
            id,
            custom_id: line.custom_id,
            response: {
              status_code: fault.status,
              request_id: `req_${n}`,
              body: { error: { message: fault.message, type: 'invalid_request_error', param: null, code: null } },
            },
            error: null,
          }),
        );
        continue;
      }
      const reply = fakeJudge(
        { method: 'POST', path: '/v1/chat/completions', body: line.body, headers: {}, at: 0, remotePort: 0 },
        server.embeddings,
        server.textUsage,
      );
      completed++;
      output.push(
        JSON.stringify({
          id,
          custom_id: line.custom_id,
          response: { status_code: reply.status ?? 200, request_id: `req_${n}`, body: reply.body },
          error: null,
        }),
      );
    }
    if (outOfOrder) output.reverse();
    const outputId = output.length > 0 ? `file-${++counter}` : null;
    const errorId = errors.length > 0 ? `file-${++counter}` : null;
    if (outputId) files.set(outputId, output.map((line) => `${line}\n`).join(''));
    if (errorId) files.set(errorId, errors.map((line) => `${line}\n`).join(''));
    const when = final === 'completed' ? 'completed_at' : final === 'expired' ? 'expired_at' : 'cancelled_at';
    Object.assign(batch.object, {
      status: final,
      [when]: stamp,
      output_file_id: outputId,
      error_file_id: errorId,
      request_counts: { total: lines.length, completed, failed: failed + (final === 'expired' ? lines.length - ranBefore : 0) },
    });
  };

  const retrieve = (id: string): FakeReply => {
    const batch = batches.get(id);
    if (batch === undefined) return error(404, `No batch found with id '${id}'.`);
    const total = uploads.get(batch.input_file_id)!.length;
    const states = ['in_progress', 'finalizing'];
    if (batch.polls < (api.options.polls ?? 0)) {
      const status = states[Math.min(states.length - 1, Math.floor((batch.polls * states.length) / (api.options.polls ?? 1)))]!;
      Object.assign(batch.object, { status, in_progress_at: batch.created_at, request_counts: { total, completed: 0, failed: 0 } });
    } else if (!['completed', 'failed', 'expired', 'cancelled'].includes(String(batch.object.status))) {
      finish(batch);
    }
    batch.polls++;
    return { body: batch.object };
  };

  api.handler = (request) => {
    const { method, path } = request;
    if (method === 'POST' && path === '/v1/files') return upload(request);
    if (method === 'POST' && path === '/v1/batches') return create(request);
    if (method === 'GET' && path.startsWith('/v1/batches?')) {
      const data = [...batches.values()].reverse().map((batch) => batch.object);
      return { body: { object: 'list', data, first_id: data[0]?.id ?? null, last_id: data.at(-1)?.id ?? null, has_more: false } };
    }
    const batch = /^\/v1\/batches\/([^/?]+)$/.exec(path);
    if (method === 'GET' && batch !== null) return retrieve(decodeURIComponent(batch[1]!));
    const content = /^\/v1\/files\/([^/]+)\/content$/.exec(path);
    if (method === 'GET' && content !== null) {
      const text = files.get(decodeURIComponent(content[1]!));
      return text === undefined ? error(404, 'No such File object') : { headers: { 'content-type': 'application/octet-stream' }, body: text };
    }
    return undefined;
  };
  return api;
}
