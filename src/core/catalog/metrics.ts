import type { ResultRecord } from '../record.js';
import { contextUtilisation } from '../measures/generation/context-utilisation.js';
import { type CorrectnessRule, judgeCorrect } from '../measures/generation/correctness.js';
import { faithfulness } from '../measures/generation/faithfulness.js';
import { lengthRatio } from '../measures/generation/length-ratio.js';
import { textCounts, type TextCounts } from '../measures/generation/text.js';
import type { JudgedRanking } from '../measures/ranking.js';
import type { RetrievalOkRule } from './parse/retrieval-ok.js';
import type { ContextMatchRule } from '../derived-ids.js';
import { detectRefusal } from '../measures/refusal.js';

/**
 * The catalog of everything rag-gate measures per question besides the retrieval metrics (whose table is
 * `retrieval-metrics.ts`): one row per column and one per aggregate metric. Scoring, aggregation, the names a user
 * may type (floors, graded tests, config), the reports' headline lists, the judge's calibration ties and the
 * README's metric table all derive from these rows.
 *
 * Adding an answer metric: a column row (how one question is scored), a metric row (how a run aggregates it) and
 * the function it calls.
 */

/** The rules a per-question value may depend on. */
export interface ScoringRules {
  readonly retrievalOk: RetrievalOkRule;
  readonly correctness: CorrectnessRule;
  /** How retrieved contexts given as text match the gold ones (applied as records are read). */
  readonly contextMatch: ContextMatchRule;
}

/** A judged field of a record (`judged_by` key): who filled it decides whether its metrics may gate. */
export type JudgedField = 'claims' | 'correct' | 'answer_relevance';

/** The calibration that vouches for a judged field; answer relevance has none, so it never gates. */
export const JUDGED_FIELDS: Readonly<Record<JudgedField, { readonly calibration: 'faithfulness' | 'correctness' | null }>> = {
  claims: { calibration: 'faithfulness' },
  correct: { calibration: 'correctness' },
  answer_relevance: { calibration: null },
};

/** A per-question value: one column of the outcomes, NaN where the question lacks its inputs. */
export interface QuestionColumn {
  readonly name: string;
  /** Record fields it reads, for the README. */
  readonly needs: readonly (keyof ResultRecord)[];
  /** 1/0 outcomes (McNemar material) rather than graded values. */
  readonly binary: boolean;
  /**
   * The value, or undefined when the record lacks the inputs. `ranking` is undefined without relevant documents;
   * `answer` holds the answer's counts (one pass over its text for every column), undefined without an answer.
   */
  readonly compute: (record: ResultRecord, ranking: JudgedRanking | undefined, rules: ScoringRules, answer: TextCounts | undefined) => number | undefined;
  /** The record field a judge may have filled, so an uncalibrated judge keeps everything built on it from gating. */
  readonly judgedField?: JudgedField;
}

const bit = (value: boolean | undefined) => (value === undefined ? undefined : value ? 1 : 0);

export const QUESTION_COLUMNS = [
  {
    name: 'retrieval_ok',
    needs: ['retrieval_ok', 'retrieved_ids', 'relevant_ids'],
    binary: true,
    compute: (record, ranking, rules) =>
      record.retrieval_ok !== undefined
        ? bit(record.retrieval_ok)
        : ranking === undefined
          ? undefined
          : bit(rules.retrievalOk.metric.compute(ranking) >= rules.retrievalOk.threshold),
  },
  {
    name: 'correct',
    needs: ['correct', 'answer', 'expected_answer'],
    binary: true,
    judgedField: 'correct',
    compute: (record, _ranking, rules) =>
      record.correct !== undefined
        ? bit(record.correct)
        : record.answer === undefined || record.expected_answer === undefined
          ? undefined
          : judgeCorrect(rules.correctness, record.answer, record.expected_answer),
  },
  { name: 'answerable', needs: ['answerable'], binary: true, compute: (record) => bit(record.answerable ?? true) },
  {
    name: 'refused',
    needs: ['refused', 'answer'],
    binary: true,
    compute: (record) => bit(record.refused ?? (record.answer === undefined ? undefined : detectRefusal(record.answer))),
  },
  { name: 'closed_book_correct', needs: ['closed_book_correct'], binary: true, compute: (record) => bit(record.closed_book_correct) },
  { name: 'answer_relevance', needs: ['answer_relevance'], binary: false, judgedField: 'answer_relevance', compute: (record) => record.answer_relevance },
  {
    name: 'faithfulness',
    needs: ['claims'],
    binary: false,
    judgedField: 'claims',
    compute: (record) => (record.claims === undefined ? undefined : faithfulness(record.claims)),
  },
  {
    name: 'length_ratio',
    needs: ['answer', 'expected_answer'],
    binary: false,
    compute: (record, _ranking, _rules, answer) =>
      answer === undefined || record.expected_answer === undefined ? undefined : lengthRatio(answer, textCounts(record.expected_answer)),
  },
  {
    name: 'context_utilisation',
    needs: ['cited_ids', 'retrieved_ids'],
    binary: false,
    compute: (record) =>
      record.cited_ids === undefined || record.retrieved_ids === undefined ? undefined : contextUtilisation(record.retrieved_ids, record.cited_ids),
  },
  { name: 'answer_length', needs: ['answer'], binary: false, compute: (_record, _ranking, _rules, answer) => answer?.words },
  { name: 'latency_ms', needs: ['latency_ms'], binary: false, compute: (record) => record.latency_ms },
  { name: 'retrieval_latency_ms', needs: ['retrieval_latency_ms'], binary: false, compute: (record) => record.retrieval_latency_ms },
  { name: 'generation_latency_ms', needs: ['generation_latency_ms'], binary: false, compute: (record) => record.generation_latency_ms },
  { name: 'prompt_tokens', needs: ['prompt_tokens'], binary: false, compute: (record) => record.prompt_tokens },
  { name: 'completion_tokens', needs: ['completion_tokens'], binary: false, compute: (record) => record.completion_tokens },
  {
    name: 'tokens',
    needs: ['total_tokens', 'prompt_tokens', 'completion_tokens'],
    binary: false,
    compute: (record) =>
      record.total_tokens ??
      (record.prompt_tokens === undefined && record.completion_tokens === undefined
        ? undefined
        : (record.prompt_tokens ?? 0) + (record.completion_tokens ?? 0)),
  },
  { name: 'cost_usd', needs: ['cost_usd'], binary: false, compute: (record) => record.cost_usd },
] as const satisfies readonly QuestionColumn[];

export type ColumnName = (typeof QUESTION_COLUMNS)[number]['name'];

/** How a run turns a column into one number. */
export type Aggregate =
  /** `interval`: with its percentile bootstrap interval in the run's summary. */
  | { readonly kind: 'mean'; readonly interval?: boolean }
  /** The q-quantile over the questions (type 7, linear between order statistics), with its bootstrap interval. */
  | { readonly kind: 'quantile'; readonly q: number }
  /** The sum over the questions that carry the column. */
  | { readonly kind: 'total' }
  /** The share of questions whose value `counts`, among those that carry it (and are `among`, if given). */
  | { readonly kind: 'share'; readonly counts: (value: number) => boolean; readonly among?: 'answerable' | 'unanswerable' };

/** A number a run reports: in `eval --json`, floors, the reports' tables. */
export interface AnswerMetric {
  readonly name: string;
  /** One line for the README and the reports. */
  readonly definition: string;
  readonly column: ColumnName;
  readonly aggregate: Aggregate;
  /** A graded per-question mean may get a paired randomization test (`graded`). */
  readonly graded: boolean;
  /** Shown in the eval report's and the no-baseline comment's headline, in catalog order. */
  readonly headline: boolean;
  /** Which way is better, for the words around a floor or a change. */
  readonly better: 'higher' | 'lower' | 'neither';
}

/** Above this length ratio an answer is padded: restating, hedging (a common rule of thumb). */
export const LONG_ANSWER_RATIO = 2.5;
/** Below this share of cited chunks, fewer chunks would do (a common rule of thumb: send fewer chunks). */
export const LOW_UTILISATION = 0.4;

const mean = { kind: 'mean' } as const;
const isOne = (value: number) => value === 1;

export const ANSWER_METRICS: readonly AnswerMetric[] = [
  {
    name: 'retrieval_ok',
    definition: 'share of questions whose retrieval succeeded (the `retrieval_ok` field or the `retrieval-ok` rule)',
    column: 'retrieval_ok',
    aggregate: { kind: 'share', counts: isOne },
    graded: false,
    headline: true,
    better: 'higher',
  },
  {
    name: 'correct',
    definition:
      'share of questions judged correct (`correct`, or computed with the `correct` rule: `contains`, the default, when the normalised expected answer appears as whole words in the normalised answer; `exact` when they are equal; `f1:T` when token F1 ≥ T; under every rule an answer that lacks or changes a number of the expected answer is wrong ([below](#numbers-in-answers)). SQuAD normalisation lower-cases, drops punctuation and symbols and the articles a/an/the)',
    column: 'correct',
    aggregate: { kind: 'share', counts: isOne },
    graded: false,
    headline: true,
    better: 'higher',
  },
  {
    name: 'faithfulness',
    definition:
      'per answer, SUPPORTED claims / all claims, averaged; an answer with an empty claims list is left out and counted (`excluded.noClaims`), never scored 0 or 1',
    column: 'faithfulness',
    aggregate: mean,
    graded: true,
    headline: true,
    better: 'higher',
  },
  {
    name: 'answer_relevance',
    definition: 'mean of the per-question values in [0, 1]',
    column: 'answer_relevance',
    aggregate: mean,
    graded: true,
    headline: true,
    better: 'higher',
  },
  {
    name: 'length_ratio',
    definition: 'answer tokens / expected-answer tokens (normalised tokens)',
    column: 'length_ratio',
    aggregate: mean,
    graded: true,
    headline: false,
    better: 'neither',
  },
  {
    name: 'long_answer_rate',
    definition: `share of answers with a length ratio above ${LONG_ANSWER_RATIO} (padding, hedging)`,
    column: 'length_ratio',
    aggregate: { kind: 'share', counts: (value) => value > LONG_ANSWER_RATIO },
    graded: false,
    headline: false,
    better: 'lower',
  },
  {
    name: 'answer_length',
    definition: 'words in the answer (whitespace-separated), averaged: a ceiling such as answer_length<=80 keeps answers short',
    column: 'answer_length',
    aggregate: mean,
    graded: true,
    headline: false,
    better: 'neither',
  },
  {
    name: 'context_utilisation',
    definition: 'retrieved ids the answer cites / retrieved ids sent to the generator',
    column: 'context_utilisation',
    aggregate: mean,
    graded: true,
    headline: false,
    better: 'higher',
  },
  {
    name: 'low_utilisation_rate',
    definition: `share of answers citing less than ${LOW_UTILISATION} of the retrieved ids (send fewer chunks)`,
    column: 'context_utilisation',
    aggregate: { kind: 'share', counts: (value) => value < LOW_UTILISATION },
    graded: false,
    headline: false,
    better: 'lower',
  },
  {
    name: 'refusal_rate_unanswerable',
    definition:
      "refused / unanswerable questions (higher is better). Refused is the record's `refused` field, else the text refusal detector's verdict on its `answer` (the monitor's detector: an empty answer, or a refusal phrase such as \"I don't know\" from the start of a word in the first 300 characters)",
    column: 'refused',
    aggregate: { kind: 'share', counts: isOne, among: 'unanswerable' },
    graded: false,
    headline: true,
    better: 'higher',
  },
  {
    name: 'false_refusal_rate',
    definition: 'refused / answerable questions (lower is better); refused as for `refusal_rate_unanswerable`, the field or else the text refusal detector',
    column: 'refused',
    aggregate: { kind: 'share', counts: isOne, among: 'answerable' },
    graded: false,
    headline: true,
    better: 'lower',
  },
  {
    name: 'closed_book_correct',
    definition: 'share correct with no context',
    column: 'closed_book_correct',
    aggregate: { kind: 'share', counts: isOne },
    graded: false,
    headline: false,
    better: 'higher',
  },
];

/**
 * What a question cost the pipeline, one row per column: its p50, p90 and p95 and its mean are metrics (totals too,
 * for the amounts that add up), and the comparison tests each row's paired differences. Latency varies by a factor,
 * so it is compared on the log scale; tokens and dollars add up, so on their own.
 */
export interface UsageMeasure {
  readonly column: ColumnName;
  /** Its metrics' names start with it: `latency_p95`, `cost_per_question`. */
  readonly prefix: string;
  readonly unit: 'ms' | 'tokens' | 'usd';
  readonly scale: 'log' | 'plain';
  /** What the column is, for the docs. */
  readonly definition: string;
}

export const USAGE_MEASURES: readonly UsageMeasure[] = [
  { column: 'latency_ms', prefix: 'latency', unit: 'ms', scale: 'log', definition: 'end-to-end latency (`latency_ms`)' },
  { column: 'retrieval_latency_ms', prefix: 'retrieval_latency', unit: 'ms', scale: 'log', definition: 'retrieval latency (`retrieval_latency_ms`)' },
  { column: 'generation_latency_ms', prefix: 'generation_latency', unit: 'ms', scale: 'log', definition: 'generation latency (`generation_latency_ms`)' },
  { column: 'tokens', prefix: 'tokens', unit: 'tokens', scale: 'plain', definition: 'tokens (`total_tokens`, else `prompt_tokens` + `completion_tokens`)' },
  { column: 'prompt_tokens', prefix: 'prompt_tokens', unit: 'tokens', scale: 'plain', definition: 'prompt tokens (`prompt_tokens`)' },
  { column: 'completion_tokens', prefix: 'completion_tokens', unit: 'tokens', scale: 'plain', definition: 'completion tokens (`completion_tokens`)' },
  { column: 'cost_usd', prefix: 'cost', unit: 'usd', scale: 'plain', definition: 'cost in US dollars (`cost_usd`)' },
];

/** The quantiles every usage measure reports, and the comparison compares head/base. */
export const USAGE_QUANTILES = [0.5, 0.9, 0.95] as const;

/** A usage measure's metric for a quantile (`latency_p95`), its mean (`latency_mean`, `cost_per_question`) and total (`cost_total`). */
export const usageQuantileMetric = (measure: UsageMeasure, q: number) => `${measure.prefix}_p${Math.round(q * 100)}`;
export const usageMeanMetric = (measure: UsageMeasure) => (measure.unit === 'ms' ? `${measure.prefix}_mean` : `${measure.prefix}_per_question`);
export const usageTotalMetric = (measure: UsageMeasure) => (measure.unit === 'ms' ? undefined : `${measure.prefix}_total`);

function usageMetrics(measure: UsageMeasure): AnswerMetric[] {
  const common = { column: measure.column, graded: false, headline: false, better: 'lower' } as const;
  const total = usageTotalMetric(measure);
  return [
    ...USAGE_QUANTILES.map((q) => ({
      ...common,
      name: usageQuantileMetric(measure, q),
      definition: `${Math.round(q * 100)}th percentile of the ${measure.definition} over the questions, with its bootstrap interval`,
      aggregate: { kind: 'quantile', q } as const,
    })),
    {
      ...common,
      name: usageMeanMetric(measure),
      definition: `mean ${measure.definition} a question, with its bootstrap interval`,
      aggregate: { kind: 'mean', interval: true },
    },
    ...(total === undefined
      ? []
      : [{ ...common, name: total, definition: `${measure.definition} summed over the questions`, aggregate: { kind: 'total' } as const }]),
  ];
}

/** Every usage measure's metrics, after the answer metrics. */
const USAGE_METRICS: readonly AnswerMetric[] = USAGE_MEASURES.flatMap(usageMetrics);

/** The usage measure whose column this is, if any. */
export function usageMeasure(column: string): UsageMeasure | undefined {
  return USAGE_MEASURES.find((measure) => measure.column === column);
}

/** Every metric of this catalog: the answer metrics, then the usage measures'. */
export const CATALOG_METRICS: readonly AnswerMetric[] = [...ANSWER_METRICS, ...USAGE_METRICS];

const METRICS_BY_NAME: ReadonlyMap<string, AnswerMetric> = new Map(CATALOG_METRICS.map((metric) => [metric.name, metric]));
const COLUMNS_BY_NAME: ReadonlyMap<string, QuestionColumn> = new Map(QUESTION_COLUMNS.map((column) => [column.name, column]));

/** The answer metric of this name, if there is one. */
export function answerMetric(name: string): AnswerMetric | undefined {
  return METRICS_BY_NAME.get(name);
}

/** The judged field behind a column, if a judge may fill it. */
export function judgedFieldOf(column: string): JudgedField | undefined {
  return COLUMNS_BY_NAME.get(column)?.judgedField;
}

/** Names of the graded answer metrics: the ones a randomization test accepts besides retrieval metrics. */
export const GRADED_ANSWER_METRICS: readonly string[] = ANSWER_METRICS.filter((metric) => metric.graded).map((metric) => metric.name);

/** Retrieval metrics in a report's headline, after the retrieval-ok rule's own metric. */
const HEADLINE_RETRIEVAL_METRICS = ['ndcg@10', 'recall@5', 'mrr', 'map'];

/** The metrics a report leads with: the retrieval-ok rule's metric, the headline retrieval metrics, then the answer metrics. */
export function headlineMetrics(retrievalOkMetric: string): string[] {
  return [...new Set([retrievalOkMetric, ...HEADLINE_RETRIEVAL_METRICS, ...ANSWER_METRICS.filter((metric) => metric.headline).map((metric) => metric.name)])];
}
