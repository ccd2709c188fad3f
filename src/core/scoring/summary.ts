import { cohensKappa, type Agreement } from '../stats/kappa.js';
import { KAPPA_FLOOR } from '../catalog/thresholds.js';
import { byKey } from '../code-unit-order.js';
import { wilsonInterval } from '../stats/wilson.js';
import { type Decomposition, decompose } from './decomposition.js';
import { type Aggregate, CATALOG_METRICS, usageMeasure } from '../catalog/metrics.js';
import { quantileInterval, quantileSorted } from '../stats/quantile.js';
import { column, type QuestionOutcomes } from './outcomes.js';
import { scoreMetric } from '../catalog/scores.js';
import { bootstrapMeanCIs } from '../stats/bootstrap.js';
import type { ResultsFormat } from '../catalog/formats.js';
import type { EvalConfig } from './score.js';
import { type RepeatSummary, summarizeRepeats } from './repeats.js';

/** One aggregated metric: its mean over the n questions that carry it; proportions also get a Wilson 95% interval. */
export interface MetricSummary {
  /** null when no question carries the metric (n = 0). */
  readonly value: number | null;
  readonly n: number;
  /** For proportions: how many of the n count (the numerator). */
  readonly count?: number;
  /**
   * For proportions: Wilson 95% interval; for another tool's graded score and a usage measure's mean: percentile
   * bootstrap 95% interval; for a usage measure's quantile: its exact bootstrap interval (stats/quantile.ts).
   */
  readonly ci?: readonly [number, number];
}

/** What the reader derived or found, so that reports state the rules the numbers rest on. */
export interface RunProvenance {
  /** Questions whose id is a hash of their question text (they came without one). */
  readonly idsFromQuestion: number;
  /** Questions whose relevant documents were matched to the retrieved ones by text. */
  readonly retrievalByText: number;
  /** Questions whose `correct` was computed with the correctness rule. */
  readonly correctByRule: number;
  /** Questions whose `refused` was read from the answer by the text refusal detector. */
  readonly refusedByDetector: number;
  /** The formats the run's files were read as. */
  readonly formats: readonly ResultsFormat[];
  /** Scores other tools computed (metrics `score:NAME`): not calibrated here, never gated unless named. */
  readonly scores: Readonly<Record<string, 'number' | 'boolean'>>;
}

export interface RunSummary {
  readonly questions: number;
  readonly metrics: Readonly<Record<string, MetricSummary>>;
  /** Questions left out of some metrics for lack of inputs, counted rather than scored. */
  readonly excluded: { readonly noRelevant: number; readonly noClaims: number; readonly judgeErrors: number; readonly unanswerable: number };
  readonly decomposition: Decomposition;
  readonly judgeAgreement: Agreement | null;
  readonly byTag: Readonly<Record<string, { readonly questions: number; readonly metrics: Readonly<Record<string, MetricSummary>> }>>;
  readonly provenance: RunProvenance;
  readonly warnings: readonly string[];
  /** Present when questions were run several times (records with `run`): flakiness and pass@k. */
  readonly repeats?: RepeatSummary;
}

type Rows = ArrayLike<number>;

function mean(values: Float64Array, rows: Rows): MetricSummary {
  let n = 0;
  let sum = 0;
  for (let j = 0; j < rows.length; j++) {
    const value = values[rows[j]!]!;
    if (Number.isNaN(value)) continue;
    n++;
    sum += value;
  }
  return { value: n === 0 ? null : sum / n, n };
}

/**
 * The share of questions (among those carrying `values`) for which `hit` holds, with its Wilson interval. A question
 * run several times counts by its pass rate when `values` are pass rates (`rates`): each question weighs the same.
 */
function proportion(
  values: Float64Array,
  rows: Rows,
  hit: (value: number) => boolean,
  keep: (row: number) => boolean = () => true,
  rates: boolean,
): MetricSummary {
  let n = 0;
  let count = 0;
  const passRates = rates && hit(1) && !hit(0);
  for (let j = 0; j < rows.length; j++) {
    const row = rows[j]!;
    const value = values[row]!;
    if (Number.isNaN(value) || !keep(row)) continue;
    n++;
    if (passRates) count += value;
    else if (hit(value)) count++;
  }
  return { value: n === 0 ? null : count / n, n, count, ci: wilsonInterval(count, n) };
}

const isOne = (value: number) => value === 1;

/** Every aggregate metric over the given rows of the outcomes; bootstrap intervals of scores only when asked (not per tag). */
function summarizeMetrics(outcomes: QuestionOutcomes, config: EvalConfig, rows: Rows, scoreIntervals: boolean): Record<string, MetricSummary> {
  const metrics: Record<string, MetricSummary> = {};
  const rates = (name: string) => outcomes.repeats?.binary.has(name) === true;
  for (const metric of config.retrievalMetrics) {
    const values = column(outcomes, metric.name);
    metrics[metric.name] = metric.binary ? proportion(values, rows, isOne, undefined, rates(metric.name)) : mean(values, rows);
  }
  const answerable = column(outcomes, 'answerable');
  const among = { answerable: (row: number) => answerable[row] === 1, unanswerable: (row: number) => answerable[row] === 0 };
  const sorted = new Map<string, Float64Array>();
  const sortedColumn = (name: string) => {
    let values = sorted.get(name);
    if (values === undefined) sorted.set(name, (values = present(column(outcomes, name), rows).sort()));
    return values;
  };
  for (const metric of CATALOG_METRICS) {
    // Results without what a question cost report none of it (a floor on it then cannot be checked).
    if (usageMeasure(metric.column) !== undefined && !outcomes.columns.has(metric.column)) continue;
    const values = column(outcomes, metric.column);
    const aggregate: Aggregate = metric.aggregate;
    switch (aggregate.kind) {
      case 'mean':
        metrics[metric.name] = aggregate.interval === true && scoreIntervals ? meanWithInterval(values, rows) : mean(values, rows);
        break;
      case 'share':
        metrics[metric.name] = proportion(
          values,
          rows,
          aggregate.counts,
          aggregate.among === undefined ? undefined : among[aggregate.among],
          rates(metric.column),
        );
        break;
      case 'quantile':
        metrics[metric.name] = quantileOf(sortedColumn(metric.column), aggregate.q, scoreIntervals);
        break;
      case 'total': {
        const { value, n } = mean(values, rows);
        metrics[metric.name] = { value: value === null ? null : value * n, n };
        break;
      }
    }
  }
  for (const [name, kind] of outcomes.scores) {
    const values = column(outcomes, scoreMetric(name));
    metrics[scoreMetric(name)] =
      kind === 'boolean'
        ? proportion(values, rows, isOne, undefined, rates(scoreMetric(name)))
        : scoreIntervals
          ? meanWithInterval(values, rows)
          : mean(values, rows);
  }
  return metrics;
}

/** The values of the rows that carry one. */
function present(values: Float64Array, rows: Rows): Float64Array {
  const kept: number[] = [];
  for (let j = 0; j < rows.length; j++) {
    const value = values[rows[j]!]!;
    if (!Number.isNaN(value)) kept.push(value);
  }
  return Float64Array.from(kept);
}

/** A mean with its percentile bootstrap interval (seeded, so the same values always give the same interval). */
function meanWithInterval(values: Float64Array, rows: Rows): MetricSummary {
  const summary = mean(values, rows);
  if (summary.n === 0) return summary;
  return { ...summary, ci: bootstrapMeanCIs([present(values, rows)])[0]! };
}

/** A quantile of ascending values, with its bootstrap interval when asked (not per tag). */
function quantileOf(sorted: Float64Array, q: number, interval: boolean): MetricSummary {
  if (sorted.length === 0) return { value: null, n: 0 };
  return { value: quantileSorted(sorted, q), n: sorted.length, ...(interval ? { ci: quantileInterval(sorted, q) } : {}) };
}

function allRows(size: number): Int32Array {
  const rows = new Int32Array(size);
  for (let i = 0; i < size; i++) rows[i] = i;
  return rows;
}

/** Rows of each tag, tags in sorted order. */
function rowsByTag(outcomes: QuestionOutcomes): Map<string, number[]> {
  const byTag = new Map<string, number[]>();
  outcomes.tags.forEach((tags, row) => {
    for (const tag of new Set(tags)) {
      const rows = byTag.get(tag) ?? [];
      rows.push(row);
      byTag.set(tag, rows);
    }
  });
  return new Map([...byTag].sort(byKey));
}

export function provenanceOf(outcomes: QuestionOutcomes): RunProvenance {
  return {
    idsFromQuestion: outcomes.idsFromQuestion,
    retrievalByText: outcomes.retrievalByText,
    correctByRule: outcomes.correctByRule,
    refusedByDetector: outcomes.refusedByDetector,
    formats: outcomes.formats,
    scores: Object.fromEntries(outcomes.scores),
  };
}

/** Aggregates a run: every metric with n (and intervals), the decomposition, judge agreement, tags. */
export function summarizeRun(outcomes: QuestionOutcomes, config: EvalConfig): RunSummary {
  const answerable = column(outcomes, 'answerable');
  const decomposition = decompose(column(outcomes, 'retrieval_ok'), column(outcomes, 'correct'), answerable, column(outcomes, 'closed_book_correct'));
  const judgeAgreement = cohensKappa(outcomes.labelPairs);
  // A null prototype, so a tag named like an Object property (`__proto__`, `constructor`) is a plain key.
  const byTag: Record<string, { questions: number; metrics: Record<string, MetricSummary> }> = Object.create(null);
  for (const [tag, rows] of rowsByTag(outcomes)) byTag[tag] = { questions: rows.length, metrics: summarizeMetrics(outcomes, config, rows, false) };

  // The decomposition's own warnings are data (its `warnings`): the renderers put them in words.
  const warnings: string[] = [];
  if (outcomes.repeats !== undefined && decomposition.n > 0) {
    warnings.push(
      'questions were run several times: the decomposition puts a question on the retrieval-ok side only when retrieval was ok in every run, and g is the mean pass rate on each side.',
    );
  }
  if (judgeAgreement !== null && (judgeAgreement.kappa === null || judgeAgreement.kappa < KAPPA_FLOOR)) {
    const kappa = judgeAgreement.kappa === null ? 'undefined' : judgeAgreement.kappa.toFixed(3);
    warnings.push(
      `judge agreement with humans is low (Cohen's kappa ${kappa} < ${KAPPA_FLOOR} on ${judgeAgreement.n} labels): judge-based metrics are noise until the judge is fixed.`,
    );
  }
  let unanswerable = 0;
  for (const value of answerable) if (value === 0) unanswerable++;
  const repeats = summarizeRepeats(outcomes);
  return {
    ...(repeats === undefined ? {} : { repeats }),
    questions: outcomes.size,
    metrics: summarizeMetrics(outcomes, config, allRows(outcomes.size), true),
    excluded: { noRelevant: outcomes.noRelevant, noClaims: outcomes.noClaims, judgeErrors: outcomes.judgeErrors, unanswerable },
    decomposition,
    judgeAgreement,
    byTag,
    provenance: provenanceOf(outcomes),
    warnings,
  };
}
