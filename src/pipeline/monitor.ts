import type { SettingName, SettingOrigin, Settings } from '../core/catalog/settings.js';
import { InputError, type InputProblem, SettingError } from '../core/errors.js';
import { monitorReport, type MonitorReport, rephrasedTurns } from '../core/monitor/monitor.js';
import { EMBEDDING_THRESHOLD, LEXICAL_THRESHOLD } from '../core/catalog/thresholds.js';
import { drawConversations, type LabellingRow, labellingRows } from '../core/monitor/sample.js';
import { lexicalSimilarity } from '../core/monitor/similarity.js';
import type { Seed } from '../core/stats/random.js';
import { type CandidatePair, rephraseCandidates } from '../core/monitor/turns.js';
import { cosine } from '../core/stats/cosine.js';
import { createJudgeClient, judgeSettings } from '../judge/setup.js';
import { plural } from '../render/format.js';
import { monitorIssueMarker, monitorIssueTitle, monitorJson, renderMonitorMarkdown, renderMonitorText } from '../render/monitor.js';
import { type LogLocation, type ReadLogs, readLogs } from '../sources/logs.js';
import { resultFiles } from './files.js';

/** The prompt version of monitor's embedding calls: part of their cache key. */
export const REPHRASE_EMBEDDINGS_VERSION = 'rephrase-v1';

export type SimilarityMeasure = 'lexical' | 'embeddings' | 'openai';

export interface MonitorRun {
  readonly files: readonly string[];
  readonly read: ReadLogs;
  readonly report: MonitorReport;
  readonly measure: SimilarityMeasure;
  readonly pairs: readonly CandidatePair[];
  readonly similarities: readonly number[];
  /** The turns found rephrased (indexes into read.turns' columns). */
  readonly rephrased: ReadonlySet<number>;
  readonly withinMs: number;
}

/** The log files of the `logs` setting: each path as given, each glob matching at least one file. */
export async function logFiles(settings: Settings, origins: Readonly<Record<SettingName, SettingOrigin>>): Promise<string[]> {
  if (settings.logs.length === 0) throw new SettingError('no logs to monitor: give --logs FILE… (or a glob), or logs: in the config file');
  return [...new Set((await Promise.all(settings.logs.map((pattern) => resultFiles(pattern, 'logs', origins.logs)))).flat())];
}

const located = (location: LogLocation, message: string): InputProblem => ({ ...location, field: 'embedding', message });

/**
 * The log's own embeddings' cosines for each pair; every turn must carry one, pairs of one dimension. The pairs'
 * turns are read again for them in batches of `budgetBytes` of lines, in the pairs' order, so the first pair at
 * fault is the one reported.
 */
export async function logEmbeddingCosines(read: ReadLogs, pairs: readonly CandidatePair[], budgetBytes?: number): Promise<number[]> {
  const { withoutEmbedding } = read.turns;
  if (withoutEmbedding.count > 0)
    throw new InputError(
      withoutEmbedding.first.map((index) => located(read.location(index), 'is required with similarity embeddings')),
      withoutEmbedding.count,
    );
  const cosines: number[] = [];
  for await (const { start, end, embedding } of read.pairEmbeddings(pairs, budgetBytes)) {
    for (let k = start; k < end; k++) {
      const { first, next } = pairs[k]!;
      const a = embedding(first);
      const b = embedding(next);
      if (a.length !== b.length)
        throw InputError.single(
          located(read.location(next), `has ${b.length} dimensions, but the session's previous turn (line ${read.location(first).line}) has ${a.length}`),
        );
      const value = cosine(a, b);
      if (!Number.isFinite(value))
        throw InputError.single(located(read.location(Number.isFinite(cosine(a, a)) ? next : first), 'is all zeros: it has no direction'));
      cosines.push(value);
    }
  }
  return cosines;
}

/**
 * The monitor over the `logs` setting: reads the logs, finds each query's candidate rephrase (the session's next
 * query within `rephrase-within`), measures the pairs' similarity, and reports the windows' rates, tests and alerts.
 * With similarity `openai` the queries are embedded through the judge's client (key and default base URL from
 * `env`), with its cache, pacing and retries.
 */
export async function monitorLogs(
  settings: Settings,
  origins: Readonly<Record<SettingName, SettingOrigin>>,
  env: Readonly<Record<string, string | undefined>>,
): Promise<MonitorRun> {
  const files = await logFiles(settings, origins);
  const read = await readLogs(files, settings['log-fields']);
  const pairs = rephraseCandidates(read.turns, settings['rephrase-within']);
  const measure: SimilarityMeasure =
    settings.similarity === 'auto' ? (read.turns.withoutEmbedding.count === 0 ? 'embeddings' : 'lexical') : settings.similarity;
  const query = (index: number) => read.turns.query[index]!;
  let similarities: number[];
  if (measure === 'lexical') similarities = pairs.map(({ first, next }) => lexicalSimilarity(query(first), query(next)));
  else if (measure === 'embeddings') similarities = await logEmbeddingCosines(read, pairs);
  else
    similarities = await createJudgeClient(judgeSettings(settings, settings['embedding-model']), env as NodeJS.ProcessEnv).cosinesOfPairs(
      REPHRASE_EMBEDDINGS_VERSION,
      'monitor.rephrase',
      pairs.map(({ first, next }) => [query(first), query(next)] as const),
    );
  const threshold = settings['rephrase-similarity'] ?? (measure === 'lexical' ? LEXICAL_THRESHOLD : EMBEDDING_THRESHOLD);
  const report = monitorReport(read.turns, pairs, similarities, {
    plan: settings.deploys.length > 0 ? { kind: 'deploys', at: settings.deploys } : { kind: 'fixed', lengthMs: settings.window },
    threshold,
    alpha: settings.alpha,
    ceilings: { rephrase: settings['max-rephrase-rate'], refusal: settings['max-refusal-rate'] },
  });
  if (report.windows[report.current]!.turns === 0)
    throw new SettingError(
      `the last deploy (${new Date(report.windows[report.current]!.start!).toISOString()}) is after the log's last turn: there is nothing after it to monitor`,
    );
  return {
    files,
    read,
    report,
    measure,
    pairs,
    similarities,
    rephrased: rephrasedTurns(pairs, similarities, threshold),
    withinMs: settings['rephrase-within'],
  };
}

/** What a monitor run reports: text for the terminal or log, the JSON, and the Markdown of the summary and the issue. */
export interface MonitorOutput {
  readonly text: string;
  readonly json: string;
  /** The job summary, or with the issue's marker the monitoring issue's body. */
  markdown(options: { readonly marker?: string; readonly runUrl?: string }): string;
  /** The monitoring issue's title: which rates rose. */
  readonly title: string;
  /** The hidden marker the monitoring issue of a comment tag starts with. */
  issueMarker(tag: string): string;
  /** Whether a rate of the current window rose significantly above its ceiling. */
  readonly alert: boolean;
}

export function monitorOutput(run: MonitorRun, embeddingModel: string): MonitorOutput {
  const { report } = run;
  const words = {
    measure: run.measure,
    threshold: report.settings.threshold,
    withinMs: run.withinMs,
    ...(run.measure === 'openai' ? { model: embeddingModel } : {}),
  };
  return {
    text: renderMonitorText(run.files, report, words),
    json: `${JSON.stringify(monitorJson(run.files, report, words), null, 2)}\n`,
    markdown: (options) => renderMonitorMarkdown(report, words, options),
    title: monitorIssueTitle(report),
    issueMarker: monitorIssueMarker,
    alert: report.windows[report.current]!.alerts.length > 0,
  };
}

/** `monitor sample`'s labelling rows: `n` conversations drawn with `seed`, their turns read again whole. */
export async function sampleRows(run: MonitorRun, n: number, seed: Seed): Promise<LabellingRow[]> {
  const drawn = drawConversations(run.read.turns, n, seed);
  const turns = await run.read.turnsAt(drawn.flatMap((conversation) => conversation.turns));
  return labellingRows(drawn, (index) => turns.get(index)!, run.rephrased);
}

/** What `monitor sample` says it wrote, and what to do with the file. */
export function sampleWrittenText(run: MonitorRun, rows: readonly { readonly session_id: string }[], out: string): string {
  const sessions = new Set(rows.map((row) => row.session_id)).size;
  return (
    `Wrote ${plural(sessions, 'conversation')} (${plural(rows.length, 'turn')}) of ${plural(run.report.sessions, 'conversation')} to ${out}.\n` +
    'Fill in expected_answer (or set answerable to false), then promote the filled rows into the golden set (see docs/monitoring.md).\n'
  );
}
