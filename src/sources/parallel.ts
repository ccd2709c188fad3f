import { stat } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { formatCorrectnessRule, parseCorrectnessRule } from '../core/measures/generation/correctness.js';
import { readOutcomes } from './outcomes.js';
import type { ResultsFormat } from '../core/catalog/formats.js';
import { formatContextMatchRule, parseContextMatchRule } from '../core/derived-ids.js';
import { parseRetrievalMetric } from '../core/catalog/retrieval-metrics.js';
import { parseRetrievalOkRule } from '../core/catalog/parse/retrieval-ok.js';
import type { EvalConfig } from '../core/scoring/score.js';
import { InputError, type InputProblem } from '../core/errors.js';
import type { ReadProgress } from './lines.js';

/**
 * Reads the base and head runs of a comparison at the same time, the base on a worker thread. Reading and scoring
 * dominate a large comparison and the two sides are independent, so a second core nearly halves the wall time.
 * The worker runs the same bundled entry file, which checks `isReaderThread()` before anything else.
 */

type Read = Awaited<ReturnType<typeof readOutcomes>>;

/** The scoring configuration as plain data, to cross the thread boundary. */
interface EvalSpec {
  readonly metrics: readonly string[];
  readonly retrievalOk: string;
  readonly correct: string;
  readonly contextMatch: string;
  readonly fields: readonly (readonly [string, string])[];
  readonly format: ResultsFormat | 'auto';
  readonly relevanceLevel: number;
  readonly ndcgGains: [number, number][];
}

type Reply = { ok: true; read: Read } | { ok: false; problems: InputProblem[]; totalProblems: number } | { ok: false; message: string };

const TAG = 'rag-gate:read-outcomes';

function toSpec(config: EvalConfig): EvalSpec {
  return {
    metrics: config.retrievalMetrics.map((m) => m.name),
    retrievalOk: config.retrievalOk.name,
    correct: formatCorrectnessRule(config.correctness),
    contextMatch: formatContextMatchRule(config.contextMatch),
    fields: [...config.fields],
    format: config.format,
    relevanceLevel: config.judging.relevanceLevel,
    ndcgGains: [...config.judging.ndcgGains],
  };
}

function fromSpec(spec: EvalSpec): EvalConfig {
  return {
    retrievalMetrics: spec.metrics.map(parseRetrievalMetric),
    retrievalOk: parseRetrievalOkRule(spec.retrievalOk),
    correctness: parseCorrectnessRule(spec.correct),
    contextMatch: parseContextMatchRule(spec.contextMatch),
    fields: new Map(spec.fields),
    format: spec.format,
    judging: { relevanceLevel: spec.relevanceLevel, ndcgGains: new Map(spec.ndcgGains) },
  };
}

/** True in a reader thread started by `readBothRuns`: the entry point then calls `serveReader` and nothing else. */
export function isReaderThread(): boolean {
  return !isMainThread && (workerData as { tag?: unknown } | null)?.tag === TAG;
}

/** The reader thread: reads its files and posts the outcomes back, their columns transferred rather than copied. */
export async function serveReader(): Promise<void> {
  const { files, spec } = workerData as { files: string[]; spec: EvalSpec };
  let reply: Reply;
  try {
    reply = { ok: true, read: await readOutcomes(files, fromSpec(spec)) };
  } catch (error) {
    reply =
      error instanceof InputError
        ? { ok: false, problems: [...error.problems], totalProblems: error.totalProblems }
        : { ok: false, message: error instanceof Error ? error.message : String(error) };
  }
  const columns = reply.ok ? [...reply.read.outcomes.columns.values()].map((column) => column.buffer as ArrayBuffer) : [];
  parentPort?.postMessage(reply, columns);
}

function readInThread(entry: URL, files: readonly string[], config: EvalConfig): Promise<Read> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(entry, { workerData: { tag: TAG, files, spec: toSpec(config) } });
    worker.once('message', (reply: Reply) => {
      if (reply.ok) resolve(reply.read);
      else if ('problems' in reply) reject(new InputError(reply.problems, reply.totalProblems));
      else reject(new Error(reply.message));
    });
    worker.once('error', reject);
    worker.once('exit', (code) => {
      if (code !== 0) reject(new Error(`the reader thread stopped with exit code ${code}`));
    });
  });
}

/**
 * Below this much base input a reader thread costs more than it saves: starting one loads the whole bundle again
 * (about 0.3 s), while reading a few megabytes takes less.
 */
const THREAD_MIN_BYTES = 16 * 1024 * 1024;

/**
 * Whether reading `bytes` of base on a reader thread pays: only with a second core to run it (a thread on the same
 * core only adds its start-up) and enough input. Tests set RAG_GATE_READER_THREAD_MIN_BYTES to force the thread.
 */
export function readerThreadPays(
  bytes: number,
  cores: number = availableParallelism(),
  forcedMinBytes = process.env.RAG_GATE_READER_THREAD_MIN_BYTES,
): boolean {
  const forced = Number(forcedMinBytes);
  if (forcedMinBytes !== undefined && Number.isFinite(forced) && forced >= 0) return bytes >= forced;
  return cores > 1 && bytes >= THREAD_MIN_BYTES;
}

/** The files' total size; a file that cannot be stat'ed counts as 0 and is reported by the reader. */
async function totalBytes(files: readonly string[]): Promise<number> {
  const sizes = await Promise.all(
    files.map((file) =>
      stat(file).then(
        (info) => info.size,
        () => 0,
      ),
    ),
  );
  return sizes.reduce((sum, size) => sum + size, 0);
}

/**
 * Reads base and head: the base on a reader thread started from `entry` (the bundled entry file) when given
 * and the thread pays (`readerThreadPays`), otherwise both here. Either way, both files' input problems are reported together. Progress is reported for
 * the head (read on this thread).
 */
export async function readBothRuns(
  base: readonly string[],
  head: readonly string[],
  config: EvalConfig,
  entry: URL | undefined,
  onProgress?: ReadProgress,
): Promise<[Read, Read]> {
  const onThread = entry !== undefined && readerThreadPays(await totalBytes(base));
  const baseRead = onThread ? readInThread(entry, base, config) : readOutcomes(base, config);
  const [a, b] = await Promise.allSettled([baseRead, readOutcomes(head, config, onProgress)]);
  if (a.status === 'fulfilled' && b.status === 'fulfilled') return [a.value, b.value];
  throw InputError.merge([a, b].flatMap((result) => (result.status === 'rejected' ? [result.reason as unknown] : [])));
}
