import { stat } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { formatCorrectnessRule, parseCorrectnessRule } from '../core/measures/generation/correctness.js';
import { mergeParts, type PartRead, type PartTask, readOutcomes, readPart, type RunRead } from './outcomes.js';
import type { ByteRange } from './line-chunks.js';
import { readableInRanges } from './results.js';
import type { ResultsFormat } from '../core/catalog/formats.js';
import { formatContextMatchRule, parseContextMatchRule } from '../core/derived-ids.js';
import { parseRetrievalMetric } from '../core/catalog/retrieval-metrics.js';
import { parseRetrievalOkRule } from '../core/catalog/parse/retrieval-ok.js';
import type { EvalConfig } from '../core/scoring/score.js';
import { InputError } from '../core/errors.js';
import type { ReadProgress } from './lines.js';

/**
 * Reads the base and head runs of a comparison on several threads at once. Reading and scoring dominate a large
 * comparison, and every record is scored alone: both runs are cut into parts (each file whole, a large JSON Lines
 * file in byte ranges at line ends), and this thread and worker threads take parts from one queue until none is
 * left. The parts are then joined in file order, so the outcomes are the ones one thread reads. A worker runs the
 * same bundled entry file, which checks `isReaderThread()` before anything else.
 */

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

/** A part to read, sent to a worker with its place in the queue. */
interface Task extends PartTask {
  readonly side: 0 | 1;
  readonly fileIndex: number;
}

/** A worker's answer: the part, or that it holds bad input (the run is then read again here, for the messages), or a failure. */
type Reply = { index: number; ok: true; read: PartRead } | { index: number; ok: false; badInput: true } | { index: number; ok: false; message: string };

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

/** The buffers of a part's columns and places, moved to the other thread rather than copied. */
function transferred(read: PartRead): ArrayBuffer[] {
  const places = read.places === undefined ? [] : [read.places.lines, read.places.offsets, read.places.byteLengths];
  return [...read.outcomes.columns.values(), ...places].map((array) => array.buffer as ArrayBuffer);
}

/** The reader thread: reads each part it is sent and posts it back, until it is terminated. */
export function serveReader(): void {
  const config = fromSpec((workerData as { spec: EvalSpec }).spec);
  parentPort?.on('message', (task: Task & { index: number }) => {
    void readPart(task, config).then(
      (read) => parentPort?.postMessage({ index: task.index, ok: true, read } satisfies Reply, transferred(read)),
      (error: unknown) =>
        parentPort?.postMessage(
          (error instanceof InputError
            ? { index: task.index, ok: false, badInput: true }
            : { index: task.index, ok: false, message: error instanceof Error ? error.message : String(error) }) satisfies Reply,
        ),
    );
  });
}

/**
 * Below this much input in all a worker costs more than it saves: starting one loads the whole bundle again (about
 * 0.3 s of a core), in which this thread reads and scores some 30 MB. Also the least a range of a file holds.
 */
const PARALLEL_MIN_BYTES = 32 * 1024 * 1024;

/** Ranges per thread of a large file: more than one, so that threads that start late or run slow still share the work. */
const RANGES_PER_THREAD = 2;

/**
 * The least input worth reading on several threads, and the least a range holds. Tests set
 * RAG_GATE_READER_THREAD_MIN_BYTES to split small files (0: every JSON Lines file into the most ranges).
 */
export function parallelMinBytes(forcedMinBytes = process.env.RAG_GATE_READER_THREAD_MIN_BYTES): number {
  const forced = Number(forcedMinBytes);
  return forcedMinBytes !== undefined && forcedMinBytes.trim() !== '' && Number.isFinite(forced) && forced >= 0 ? forced : PARALLEL_MIN_BYTES;
}

/** The threads a setting asks for: `auto` is one per core this process may run on. */
export function threadCount(setting: number | 'auto' | undefined): number {
  return setting === undefined || setting === 'auto' ? availableParallelism() : setting;
}

/** A file's size; a file that cannot be stat'ed counts as 0 and is reported by the reader. */
const sizeOf = (file: string) =>
  stat(file).then(
    (info) => info.size,
    () => 0,
  );

/**
 * A file's ranges: up to RANGES_PER_THREAD per thread, each of at least `minBytes` (one range when the file is
 * not JSON Lines, or too small to split).
 */
export function byteRanges(size: number, threads: number, minBytes: number): ByteRange[] {
  const most = threads * RANGES_PER_THREAD;
  // No empty range: each holds at least a byte, so that no two start at one byte.
  const count = Math.max(1, Math.min(most, size, minBytes === 0 ? most : Math.floor(size / minBytes)));
  return Array.from({ length: count }, (_, i) => ({ start: Math.floor((size * i) / count), end: Math.floor((size * (i + 1)) / count) }));
}

/** Both runs' parts, in file order within each run. */
async function planTasks(runs: readonly (readonly string[])[], config: EvalConfig, threads: number, minBytes: number): Promise<Task[]> {
  const tasks: Task[] = [];
  for (const [side, files] of runs.entries()) {
    for (const [fileIndex, file] of files.entries()) {
      const [size, splittable] = await Promise.all([sizeOf(file), readableInRanges(file, config.format)]);
      const whole = { side: side as 0 | 1, fileIndex, file };
      if (!splittable || size === 0) tasks.push(whole);
      else for (const range of byteRanges(size, threads, minBytes)) tasks.push({ ...whole, range });
    }
  }
  return tasks;
}

type Outcome = { ok: true; read: PartRead } | { ok: false };

/**
 * Reads every task: this thread and up to `threads - 1` workers started from `entry` each take the next one until
 * none is left. A part with bad input is noted, not thrown; any other failure is.
 */
function readTasks(tasks: readonly Task[], config: EvalConfig, entry: URL | undefined, threads: number): Promise<Outcome[]> {
  const outcomes: Outcome[] = [];
  let next = 0;
  return new Promise((resolve, reject) => {
    let running = 0;
    let failed = false;
    const fail = (error: unknown) => {
      failed = true;
      reject(error instanceof Error ? error : new Error(String(error)));
    };
    const done = () => {
      if (--running === 0 && !failed) resolve(outcomes);
    };
    const here = async () => {
      for (let index = next++; index < tasks.length && !failed; index = next++) {
        try {
          outcomes[index] = { ok: true, read: await readPart(tasks[index]!, config) };
        } catch (error) {
          if (!(error instanceof InputError)) throw error;
          outcomes[index] = { ok: false };
        }
      }
    };
    const workers = entry === undefined ? 0 : Math.min(threads - 1, tasks.length - 1);
    for (let w = 0; w < workers; w++) {
      running++;
      const worker = new Worker(entry!, { workerData: { tag: TAG, spec: toSpec(config) } });
      let finished = false;
      const take = () => {
        const index = next++;
        if (index >= tasks.length || failed) {
          finished = true;
          void worker.terminate();
          done();
        } else worker.postMessage({ ...tasks[index]!, index });
      };
      worker.on('online', take);
      worker.on('message', (reply: Reply) => {
        if (reply.ok) outcomes[reply.index] = { ok: true, read: reply.read };
        else if ('badInput' in reply) outcomes[reply.index] = { ok: false };
        else return fail(new Error(reply.message));
        take();
      });
      worker.once('error', fail);
      worker.once('exit', (code) => {
        if (!finished) fail(new Error(`the reader thread stopped with exit code ${code}`));
      });
    }
    running++;
    here().then(done, fail);
  });
}

/**
 * Reads base and head. With one thread (`threads`), or less input than pays for a worker, both here, one after the
 * other, as `readOutcomes` reads a run. Otherwise in parts on `threads` threads at once (workers started from
 * `entry`, the bundled entry file; without it, every part here), joined in file order; a run whose parts cannot be
 * joined (`mergeParts`), or that holds bad input, is read again here in one pass, so that its messages name the
 * lines as one read does. Either way, both runs' input problems are reported together. Progress is reported for the
 * head when it is read here in one pass.
 */
export async function readBothRuns(
  base: readonly string[],
  head: readonly string[],
  config: EvalConfig,
  entry: URL | undefined,
  onProgress?: ReadProgress,
  threads = threadCount(undefined),
  minBytes = parallelMinBytes(),
): Promise<[RunRead, RunRead]> {
  const bytes = threads > 1 ? (await Promise.all([...base, ...head].map(sizeOf))).reduce((sum, size) => sum + size, 0) : 0;
  let parallel: [RunRead | undefined, RunRead | undefined] = [undefined, undefined];
  if (threads > 1 && bytes >= minBytes) {
    const tasks = await planTasks([base, head], config, threads, minBytes);
    const outcomes = await readTasks(tasks, config, entry, threads);
    // For the tests, which cannot otherwise tell that the parts were read on workers.
    if (process.env.RAG_GATE_REPORT_PARTS === '1')
      process.stderr.write(`rag-gate: read ${tasks.length} parts on ${entry === undefined ? 1 : Math.min(threads, tasks.length)} threads\n`);
    const join = (side: 0 | 1, files: readonly string[]) => {
      const parts = tasks.flatMap((task, index) => (task.side === side ? [{ ...task, outcome: outcomes[index]! }] : []));
      if (parts.some((part) => !part.outcome.ok)) return undefined;
      return mergeParts(
        files,
        parts.map((part) => ({ ...part, read: (part.outcome as { read: PartRead }).read })),
      );
    };
    parallel = [join(0, base), join(1, head)];
  }
  const [a, b] = await Promise.allSettled([parallel[0] ?? readOutcomes(base, config), parallel[1] ?? readOutcomes(head, config, onProgress)]);
  if (a.status === 'fulfilled' && b.status === 'fulfilled') return [a.value, b.value];
  throw InputError.merge([a, b].flatMap((result) => (result.status === 'rejected' ? [result.reason as unknown] : [])));
}
