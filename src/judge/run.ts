import pLimit from 'p-limit';
import { type ReadOptions, readResults } from '../sources/results.js';
import type { JudgedBy, ResultRecord } from '../core/record.js';
import { writeFileAtomic } from '../sources/write.js';
import type { JudgeClient, TaskStats } from './client.js';
import { type JudgeErrorKind, JudgeCallError } from './errors.js';
import {
  type CallsPerAnswer,
  type JudgeMetric,
  JUDGE_METRICS,
  METRIC_FIELD,
  RAGAS_CALLS_PER_ANSWER,
  RELEVANCE_EMBEDDINGS_TASK,
  judgeClaims,
  judgeCorrect,
  metricOfTask,
  relevanceFromQuestions,
  relevanceQuestions,
} from './metrics.js';
import { PROMPT_VERSIONS, type StructuredRequest, correctnessRequest, faithfulnessRequest, relevanceQuestionsRequest } from './prompts.js';
import { rewriteRecord } from './raw.js';

/** The field a record gets when judging one of its metrics failed; replaced on every run. */
export const JUDGE_ERRORS_FIELD = 'judge_errors';

/**
 * The field naming, for each field the judge filled in, the judge that did: the model and prompt version a
 * calibration record must match before the metric may gate (see `judgeMayGate`). A field the input brought
 * itself has no entry: it is the pipeline's own value.
 */
const JUDGED_BY_FIELD = 'judged_by';

export interface JudgeErrorEntry {
  readonly metric: JudgeMetric;
  readonly kind: JudgeErrorKind;
  readonly message: string;
}

export interface MetricReport {
  /** Records whose field this run filled in. */
  judged: number;
  /** Records that already had the field (kept as they were, without `--overwrite`). */
  kept: number;
  /** Records that lack the metric's inputs, by reason; not errors. */
  skipped: Record<string, number>;
  /** Records where judging this metric failed (marked with a judge error). */
  failed: number;
  /** What judging this metric cost in this run: HTTP requests (retries included), cache hits and tokens. */
  cost: TaskStats;
  /** The requests of `cost`, by endpoint: embeddings requests carry several answers each. */
  calls: { chat: number; embeddings: number };
  /** For comparison: what Ragas sends per answer for the same metric. */
  readonly ragas: CallsPerAnswer & { readonly metric: string };
}

export interface JudgeRunOptions {
  readonly results: string;
  /** How the results file is read: its format, the user's field names (as eval and compare read it). */
  readonly read?: Pick<ReadOptions, 'format' | 'fields'>;
  readonly metrics: readonly JudgeMetric[];
  readonly overwrite: boolean;
  readonly onProgress?: (done: number, total: number, failed: number) => void;
}

export interface JudgeRunResult {
  /** The output, one JSON line per input record, in input order. */
  readonly lines: readonly string[];
  readonly records: number;
  /** Records with at least one metric to judge. */
  readonly recordsToJudge: number;
  /** Records with at least one judge error. */
  readonly recordsFailed: number;
  /** recordsFailed / recordsToJudge (0 when nothing needed judging). */
  readonly failureShare: number;
  readonly failuresByKind: Partial<Record<JudgeErrorKind, number>>;
  readonly metrics: Partial<Record<JudgeMetric, MetricReport>>;
  /** Warnings from reading the results file (unknown fields). */
  readonly readWarnings: readonly string[];
}

type Plan = { readonly judge: true } | { readonly judge: false; readonly kept: boolean; readonly reason?: string };

const hasText = (text: string | undefined): text is string => text !== undefined && text.trim() !== '';

/** Whether a record's metric is judged, kept (already present) or skipped (inputs missing, with the reason). */
function planMetric(metric: JudgeMetric, record: ResultRecord, overwrite: boolean): Plan {
  if (!overwrite && record[METRIC_FIELD[metric]] !== undefined) return { judge: false, kept: true };
  if (!hasText(record.answer)) return { judge: false, kept: false, reason: 'no answer' };
  if (metric === 'faithfulness' && (record.retrieved_contexts ?? []).length === 0) return { judge: false, kept: false, reason: 'no retrieved_contexts' };
  if (metric === 'correctness' && record.expected_answer === undefined) return { judge: false, kept: false, reason: 'no expected_answer' };
  return { judge: true };
}

/** The chat request a metric's judgement of a record starts with (answer relevance then embeds its questions). */
function firstChat(metric: JudgeMetric, record: ResultRecord): StructuredRequest<unknown> {
  const answer = record.answer ?? '';
  switch (metric) {
    case 'faithfulness':
      return faithfulnessRequest(record.question, answer, record.retrieved_contexts ?? []);
    case 'answer_relevance':
      return relevanceQuestionsRequest(answer);
    case 'correctness':
      return correctnessRequest(record.question, answer, record.expected_answer ?? '');
  }
}

/** A chat request judging a results file will make, named for a batch: its record (line index and id) and metric. */
export interface PlannedChat {
  readonly index: number;
  readonly id: string;
  readonly metric: JudgeMetric;
  readonly request: StructuredRequest<unknown>;
}

/**
 * The chat requests `judgeFile` would start with, for the same options, in input order: what a batch asks for
 * ahead of the judging pass, which then finds every reply in the cache.
 */
export async function plannedChats(options: JudgeRunOptions): Promise<{ readonly chats: PlannedChat[]; readonly readWarnings: readonly string[] }> {
  const chats: PlannedChat[] = [];
  const metrics = JUDGE_METRICS.filter((metric) => options.metrics.includes(metric));
  let index = 0;
  const { warnings } = await readResults(
    options.results,
    (record) => {
      for (const metric of metrics) {
        if (planMetric(metric, record, options.overwrite).judge) chats.push({ index, id: record.id, metric, request: firstChat(metric, record) });
      }
      index++;
    },
    options.read,
  );
  return { chats, readWarnings: warnings };
}

/** A metric judged by chat calls alone (answer relevance also embeds: see `judgeResults`). */
function judgeByChat(client: JudgeClient, metric: Exclude<JudgeMetric, 'answer_relevance'>, record: ResultRecord): Promise<unknown> {
  const answer = record.answer ?? '';
  switch (metric) {
    case 'faithfulness':
      return judgeClaims(client, record.question, answer, record.retrieved_contexts ?? []);
    case 'correctness':
      return judgeCorrect(client, record.question, answer, record.expected_answer ?? '');
  }
}

const emptyCost = (): TaskStats => ({ calls: 0, cacheHits: 0, promptTokens: 0, completionTokens: 0, totalTokens: 0 });

const metricOrder = (metric: string) => {
  const index = (JUDGE_METRICS as readonly string[]).indexOf(metric);
  return index < 0 ? JUDGE_METRICS.length : index;
};

/** The judge errors an earlier run left on a record, as far as they have the expected shape. */
function earlierErrors(object: Record<string, unknown>): { metric: string }[] {
  const value = object[JUDGE_ERRORS_FIELD];
  if (!Array.isArray(value)) return [];
  return value.filter(
    (entry): entry is { metric: string } => typeof entry === 'object' && entry !== null && typeof (entry as { metric?: unknown }).metric === 'string',
  );
}

/** Who judged each metric: the `judged_by` entry a field gets when this client fills it in. */
function judgeProvenance(client: JudgeClient): Record<JudgeMetric, JudgedBy> {
  return {
    faithfulness: { model: client.model, prompt_version: PROMPT_VERSIONS.faithfulness },
    answer_relevance: { model: client.model, embedding_model: client.embeddingModel, prompt_version: PROMPT_VERSIONS.answer_relevance },
    correctness: { model: client.model, prompt_version: PROMPT_VERSIONS.correctness },
  };
}

/**
 * Judges the selected metrics of every record of a results file and returns the output lines: each input
 * record with the judged fields filled in (`claims`, `answer_relevance`, `correct`) and, where judging
 * failed, `judge_errors: [{metric, kind, message}]`. Fields the input has are kept unless `overwrite`.
 * At most the client's `concurrency` metric judgements run at once. A JudgeSetupError (endpoint
 * unreachable, key rejected) rejects the whole run; any other failure is recorded on its record.
 */
async function judgeResults(client: JudgeClient, options: JudgeRunOptions): Promise<JudgeRunResult> {
  const records: ResultRecord[] = [];
  const texts: string[] = [];
  const { warnings: readWarnings, format } = await readResults(
    options.results,
    (record, _line, text) => {
      records.push(record);
      texts.push(text);
    },
    options.read,
  );
  // Records read from CSV or a DeepEval run are written back as JSON Lines.
  const jsonLines = format !== 'json-array';

  const metrics = JUDGE_METRICS.filter((metric) => options.metrics.includes(metric));
  const reports: Partial<Record<JudgeMetric, MetricReport>> = {};
  for (const metric of metrics)
    reports[metric] = {
      judged: 0,
      kept: 0,
      skipped: {},
      failed: 0,
      cost: emptyCost(),
      calls: { chat: 0, embeddings: 0 },
      ragas: RAGAS_CALLS_PER_ANSWER[metric],
    };
  const statsBefore = structuredClone(client.stats.byTask);
  const values = records.map(() => new Map<string, unknown>());
  const errors = records.map((): JudgeErrorEntry[] => []);
  const limit = pLimit(client.concurrency);
  const embeddings = client.embeddingBatch(RELEVANCE_EMBEDDINGS_TASK);
  const tasks: Promise<void>[] = [];
  const toJudge = new Set<number>();
  const judgedMetrics = records.map(() => new Set<JudgeMetric>());
  let done = 0;
  let failedTasks = 0;

  records.forEach((record, index) => {
    for (const metric of metrics) {
      const report = reports[metric]!;
      const plan = planMetric(metric, record, options.overwrite);
      if (!plan.judge) {
        if (plan.kept) report.kept++;
        else if (plan.reason !== undefined) report.skipped[plan.reason] = (report.skipped[plan.reason] ?? 0) + 1;
        continue;
      }
      toJudge.add(index);
      judgedMetrics[index]!.add(metric);
      // Answer relevance waits for its batch of embeddings outside the limit: judgements holding every slot while
      // their batch waits for more members would wait for ever.
      const member = metric === 'answer_relevance' ? embeddings.member() : undefined;
      const judged =
        member === undefined
          ? limit(() => judgeByChat(client, metric as Exclude<JudgeMetric, 'answer_relevance'>, record))
          : limit(() => relevanceQuestions(client, record.answer ?? ''))
              .then((generated) => relevanceFromQuestions(client, record.question, generated, member))
              .finally(() => member.settle());
      tasks.push(
        (async () => {
          try {
            values[index]!.set(METRIC_FIELD[metric], await judged);
            report.judged++;
          } catch (error) {
            if (!(error instanceof JudgeCallError)) throw error;
            errors[index]!.push({ metric, kind: error.kind, message: error.message });
            report.failed++;
            failedTasks++;
          }
          done++;
          options.onProgress?.(done, tasks.length, failedTasks);
        })(),
      );
    }
  });
  embeddings.close();
  options.onProgress?.(0, tasks.length, 0);
  try {
    await Promise.all(tasks);
  } finally {
    limit.clearQueue();
  }

  for (const [task, after] of Object.entries(client.stats.byTask)) {
    const metric = metricOfTask(task);
    const report = metric === undefined ? undefined : reports[metric];
    if (report === undefined) continue;
    const before = statsBefore[task] ?? emptyCost();
    for (const key of Object.keys(report.cost) as (keyof TaskStats)[]) report.cost[key] += after[key] - before[key];
    report.calls[task === RELEVANCE_EMBEDDINGS_TASK ? 'embeddings' : 'chat'] += after.calls - before.calls;
  }

  const failuresByKind: Partial<Record<JudgeErrorKind, number>> = {};
  let recordsFailed = 0;
  const provenance = judgeProvenance(client);
  const lines = texts.map((text, index) => {
    const recordErrors = errors[index]!;
    if (recordErrors.length > 0) {
      recordsFailed++;
      for (const error of recordErrors) failuresByKind[error.kind] = (failuresByKind[error.kind] ?? 0) + 1;
    }
    const judgedHere = judgedMetrics[index]!;
    if (judgedHere.size === 0) return rewriteRecord(text, jsonLines, new Map(), new Set());
    const object = JSON.parse(text) as Record<string, unknown>;
    const judged = values[index]!;
    // Fields in a fixed order (not the order the calls finished in), so equal runs write equal bytes.
    const set = new Map<string, unknown>();
    const remove = new Set<string>();
    const by: Record<string, unknown> = {};
    const earlierBy = object[JUDGED_BY_FIELD];
    for (const metric of JUDGE_METRICS) {
      const field = METRIC_FIELD[metric];
      if (judged.has(field)) {
        set.set(field, judged.get(field));
        by[field] = provenance[metric];
      } else if (typeof earlierBy === 'object' && earlierBy !== null && !Array.isArray(earlierBy) && Object.hasOwn(earlierBy, field)) {
        by[field] = (earlierBy as Record<string, unknown>)[field];
      }
    }
    if (Object.keys(by).length > 0 && judged.size > 0) set.set(JUDGED_BY_FIELD, by);
    // Errors of an earlier run stay only for metrics this run did not judge on this record.
    const earlier = earlierErrors(object).filter((entry) => !judgedHere.has(entry.metric as JudgeMetric));
    const all = [...earlier, ...recordErrors].sort((a, b) => metricOrder(a.metric) - metricOrder(b.metric));
    if (all.length > 0) set.set(JUDGE_ERRORS_FIELD, all);
    else remove.add(JUDGE_ERRORS_FIELD);
    return rewriteRecord(text, jsonLines, set, remove);
  });

  return {
    lines,
    records: records.length,
    recordsToJudge: toJudge.size,
    recordsFailed,
    failureShare: toJudge.size === 0 ? 0 : recordsFailed / toJudge.size,
    failuresByKind,
    metrics: reports,
    readWarnings,
  };
}

/** Judges a results file and writes the judged copy to `out` atomically (never a half-written file). */
export async function judgeFile(client: JudgeClient, options: JudgeRunOptions & { readonly out: string }): Promise<JudgeRunResult> {
  const result = await judgeResults(client, options);
  await writeFileAtomic(options.out, result.lines.map((line) => `${line}\n`).join(''));
  return result;
}
