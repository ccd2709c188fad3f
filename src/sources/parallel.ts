import { stat } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { GRADED_HALVES, type GradedHalf, gradedTest, type GradedTestConfig } from '../core/compare/compare.js';
import type { MeanInterval } from '../core/stats/mean-interval.js';
import type { PairedValues } from '../core/stats/paired.js';
import type { RandomizationResult } from '../core/stats/randomization.js';
import type { RandomizationTest } from '../core/compare/types.js';
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
import { THREADS_MIN_INPUT_MIB } from '../core/catalog/settings.js';
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

/** A part to read, sent to a worker. */
interface Task extends PartTask {
  readonly side: 0 | 1;
  readonly fileIndex: number;
}

/** What a worker is asked: to read a part, or to test a graded metric of the comparison. */
type Request = { kind: 'read'; task: Task } | { kind: 'graded'; half: GradedHalf; metric: string; pair: PairedValues; config: GradedTestConfig };

/** A worker's answer: the part or the test, or that the part holds bad input (the run is then read again here, for the messages), or a failure. */
type Reply = { ok: true; read: PartRead } | { ok: true; half: GradedHalfResult } | { ok: false; badInput: true } | { ok: false; message: string };

/** A request and its reply travel under the request's number: a worker may hold more than one request at once. */
type Asked = { readonly id: number; readonly request: Request };
type Answered = { readonly id: number; readonly reply: Reply };

type GradedHalfResult = ReturnType<(typeof GRADED_HALVES)[GradedHalf]>;

/** A half of a graded metric's test, computed on this thread. */
const gradedHalf = (half: GradedHalf, metric: string, pair: PairedValues, config: GradedTestConfig): GradedHalfResult =>
  half === 'interval' ? GRADED_HALVES.interval(metric, pair) : GRADED_HALVES.randomization(metric, pair, config);

/** Distinct values among the first of `differences`: enough to tell a judge's score of three decimals from a 0/1 outcome. */
const DISTINCT_SAMPLE = 1000;

function distinctInSample(differences: Float64Array): number {
  return new Set(differences.subarray(0, DISTINCT_SAMPLE)).size;
}

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

const failure = (error: unknown): Reply => ({ ok: false, message: error instanceof Error ? error.message : String(error) });

/** The reader thread: answers each request it is sent, until it is terminated. */
export function serveReader(): void {
  const config = fromSpec((workerData as { spec: EvalSpec }).spec);
  const answer = (id: number, reply: Reply, transfer: ArrayBuffer[] = []) => parentPort?.postMessage({ id, reply } satisfies Answered, transfer);
  parentPort?.on('message', ({ id, request }: Asked) => {
    if (request.kind === 'graded') {
      let reply: Reply;
      try {
        reply = { ok: true, half: gradedHalf(request.half, request.metric, request.pair, request.config) };
      } catch (error) {
        reply = failure(error);
      }
      answer(id, reply);
      return;
    }
    void readPart(request.task, config).then(
      (read) => answer(id, { ok: true, read }, transferred(read)),
      (error: unknown) => answer(id, error instanceof InputError ? { ok: false, badInput: true } : failure(error)),
    );
  });
}

/** A worker thread started from the bundled entry file; it answers each request under the request's number. */
class Helper {
  private readonly worker: Worker;
  private readonly pending = new Map<number, { resolve: (reply: Reply) => void; reject: (error: Error) => void }>();
  private asked = 0;
  private stopped: Error | undefined;

  constructor(entry: URL, config: EvalConfig) {
    this.worker = new Worker(entry, { workerData: { tag: TAG, spec: toSpec(config) } });
    this.worker.on('message', ({ id, reply }: Answered) => {
      const pending = this.pending.get(id);
      this.pending.delete(id);
      pending?.resolve(reply);
    });
    this.worker.on('error', (error) => this.stop(error));
    this.worker.on('exit', (code) => this.stop(new Error(`the reader thread stopped with exit code ${code}`)));
  }

  private stop(error: Error): void {
    this.stopped ??= error;
    for (const pending of this.pending.values()) pending.reject(this.stopped);
    this.pending.clear();
  }

  ask(request: Request): Promise<Reply> {
    if (this.stopped !== undefined) return Promise.reject(this.stopped);
    const id = this.asked++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ id, request } satisfies Asked);
    });
  }

  async close(): Promise<void> {
    await this.worker.terminate();
  }
}

/** Lets the event loop run, so that the workers' replies are taken while this thread works through its jobs. */
const letOthersIn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Runs jobs 0 … count − 1 on this thread (`here`) and on each helper (`there`, `inFlight` jobs at once) at once,
 * each taking the next job until none is left; the results in job order. After a failure no job is started, and
 * the first failure is thrown.
 */
async function shareJobs<T>(
  count: number,
  helpers: readonly Helper[],
  inFlight: number,
  here: (index: number) => T | Promise<T>,
  there: (helper: Helper, index: number) => Promise<T>,
): Promise<T[]> {
  const results = new Array<T>(count);
  let next = 0;
  let failed = false;
  const loop = async (job: (index: number) => Promise<T>) => {
    try {
      for (let index = next++; index < count && !failed; index = next++) results[index] = await job(index);
    } catch (error) {
      failed = true;
      throw error;
    }
  };
  // The helpers are sent their first jobs before this thread starts on one.
  const theirs = helpers.flatMap((helper) => Array.from({ length: inFlight }, () => loop((index) => there(helper, index))));
  const ours = loop(async (index) => {
    const result = await here(index);
    if (helpers.length > 0) await letOthersIn();
    return result;
  });
  await Promise.all([...theirs, ours]);
  return results;
}

/**
 * The worker threads of one comparison, up to `threads − 1` of them: started to read when the input pays for
 * them, then kept to share the graded tests, the costliest work after reading. `close` ends them; until then
 * they keep the process alive.
 */
export class Helpers {
  private started: Helper[] = [];

  /** `entry`: the bundled entry file the workers run; without it, all work is done on this thread. */
  constructor(
    private readonly entry: URL | undefined,
    readonly threads: number,
  ) {}

  /** Up to `count` workers besides this thread, started now if need be. */
  start(count: number, config: EvalConfig): readonly Helper[] {
    const wanted = this.entry === undefined ? 0 : Math.min(count, this.threads - 1);
    while (this.started.length < wanted) this.started.push(new Helper(this.entry!, config));
    return this.started.slice(0, Math.max(0, count));
  }

  /**
   * `gradedTest` of each metric on its paired values, its two halves shared as separate jobs with the workers
   * already started. The intervals go first, the one likely to cost most first: a bootstrap's cost grows with the
   * distinct differences it resamples (a judge's score of three decimals has thousands at 100,000 questions and
   * costs more than all the retrieval metrics together), and the costliest job started last would keep the
   * others waiting.
   */
  async gradedTests(metrics: readonly string[], pairs: readonly PairedValues[], config: GradedTestConfig): Promise<(RandomizationTest | null)[]> {
    const plain: GradedTestConfig = { permutations: config.permutations, alpha: config.alpha, extraTests: config.extraTests };
    if (this.started.length === 0) return metrics.map((metric, index) => gradedTest(metric, pairs[index]!, plain));
    const distinct = pairs.map((pair) => distinctInSample(pair.differences));
    const intervals = [...metrics.keys()].sort((a, b) => distinct[b]! - distinct[a]! || a - b);
    const jobs = [
      ...intervals.map((index) => ({ index, half: 'interval' as const })),
      ...metrics.map((_, index) => ({ index, half: 'randomization' as const })),
    ];
    // One job a worker at a time: a job sent ahead would wait in its queue while this thread could take it.
    const results = await shareJobs(
      jobs.length,
      this.started,
      1,
      (job) => gradedHalf(jobs[job]!.half, metrics[jobs[job]!.index]!, pairs[jobs[job]!.index]!, plain),
      async (helper, job) => {
        const { index, half } = jobs[job]!;
        const reply = await helper.ask({ kind: 'graded', half, metric: metrics[index]!, pair: pairs[index]!, config: plain });
        if (reply.ok && 'half' in reply) return reply.half;
        throw new Error('message' in reply ? reply.message : `the reader thread could not test ${metrics[index]}`);
      },
    );
    const interval = new Array<MeanInterval | null>(metrics.length);
    const randomization = new Array<RandomizationResult | null>(metrics.length);
    jobs.forEach(({ index, half }, job) => {
      if (half === 'interval') interval[index] = results[job] as MeanInterval | null;
      else randomization[index] = results[job] as RandomizationResult | null;
    });
    return metrics.map((metric, index) => gradedTest(metric, pairs[index]!, plain, interval[index]!, randomization[index]!));
  }

  async close(): Promise<void> {
    const started = this.started;
    this.started = [];
    await Promise.all(started.map((helper) => helper.close()));
  }
}

/**
 * Below this much input in all a worker costs more than it saves: it loads the whole bundle again and reads with
 * code not yet compiled (some 0.5 s of the other core), where without it V8's compiler and collector threads have
 * that core to themselves. Measured unpinned on 2 cores (2026-12-03, the bench's records, medians of 5 alternating
 * runs): 70 MB of input 1.66 s on this thread alone against 1.74 s with a worker, 140 MB 2.56 against 2.44 s,
 * 280 MB 4.5 against 3.9 s.
 */
const PARALLEL_MIN_BYTES = THREADS_MIN_INPUT_MIB * 1024 * 1024;

/**
 * Ranges per thread of a large file. Threads take ranges from one queue, so the last range taken is the one the
 * others may wait for: with two ranges a thread (83 MB each at 100,000 questions) this thread waited 0.35 s for the
 * worker's last. Small ranges bound that wait; each costs a task message and a part to join, well under a
 * millisecond.
 */
const RANGES_PER_THREAD = 8;

/** The least a range holds: some 0.03 s of reading, so that a range's fixed cost stays small beside it. */
const RANGE_MIN_BYTES = 4 * 1024 * 1024;

/**
 * The least input worth reading on several threads; the least a range holds is the smaller of it and
 * RANGE_MIN_BYTES. Tests set RAG_GATE_READER_THREAD_MIN_BYTES to split small files (0: every JSON Lines file into
 * the most ranges).
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
      else for (const range of byteRanges(size, threads, Math.min(minBytes, RANGE_MIN_BYTES))) tasks.push({ ...whole, range });
    }
  }
  return tasks;
}

type Outcome = { ok: true; read: PartRead } | { ok: false };

/** Reads every task on this thread and on up to `threads − 1` workers. A part with bad input is noted, not thrown; any other failure is. */
function readTasks(tasks: readonly Task[], config: EvalConfig, helpers: Helpers): Promise<Outcome[]> {
  // Two parts a worker at once: the next is under way while this thread, busy reading, has yet to take its reply.
  return shareJobs<Outcome>(
    tasks.length,
    helpers.start(tasks.length - 1, config),
    2,
    async (index) => {
      try {
        return { ok: true, read: await readPart(tasks[index]!, config) };
      } catch (error) {
        if (!(error instanceof InputError)) throw error;
        return { ok: false };
      }
    },
    async (helper, index) => {
      const reply = await helper.ask({ kind: 'read', task: tasks[index]! });
      if (reply.ok && 'read' in reply) return { ok: true, read: reply.read };
      if ('badInput' in reply) return { ok: false };
      throw new Error('message' in reply ? reply.message : 'the reader thread sent no part');
    },
  );
}

/**
 * Reads base and head. With one thread (`helpers.threads`), or less input than pays for a worker, both here, one
 * after the other, as `readOutcomes` reads a run. Otherwise in parts on that many threads at once (the helpers'
 * workers, which stay for the caller's later work; without an entry file, every part here), joined in file order;
 * a run whose parts cannot be joined (`mergeParts`), or that holds bad input, is read again here in one pass, so
 * that its messages name the lines as one read does. Either way, both runs' input problems are reported together.
 * Progress is reported for the head when it is read here in one pass.
 */
export async function readBothRuns(
  base: readonly string[],
  head: readonly string[],
  config: EvalConfig,
  helpers: Helpers,
  onProgress?: ReadProgress,
  minBytes = parallelMinBytes(),
): Promise<[RunRead, RunRead]> {
  const { threads } = helpers;
  const bytes = threads > 1 ? (await Promise.all([...base, ...head].map(sizeOf))).reduce((sum, size) => sum + size, 0) : 0;
  let parallel: [RunRead | undefined, RunRead | undefined] = [undefined, undefined];
  if (threads > 1 && bytes >= minBytes) {
    const tasks = await planTasks([base, head], config, threads, minBytes);
    const outcomes = await readTasks(tasks, config, helpers);
    // For the tests, which cannot otherwise tell that the parts were read on workers.
    if (process.env.RAG_GATE_REPORT_PARTS === '1')
      process.stderr.write(`rag-gate: read ${tasks.length} parts on ${1 + helpers.start(tasks.length - 1, config).length} threads\n`);
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
