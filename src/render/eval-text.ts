import type { EvalConfig } from '../core/scoring/score.js';
import {
  ANSWER_METRICS,
  headlineMetrics,
  USAGE_MEASURES,
  USAGE_QUANTILES,
  usageMeanMetric,
  usageQuantileMetric,
  usageTotalMetric,
} from '../core/catalog/metrics.js';
import { formatAmount, usageName } from './usage-words.js';
import type { MetricSummary, RunSummary } from '../core/scoring/summary.js';
import { holdoutLeftOutText } from './holdout.js';
import { fixed3, textTable } from './text-table.js';
import { scoringLines } from './scoring-words.js';
import { SCORE_NOT_CALIBRATED } from './gate-words.js';
import { scoreMetric } from '../core/catalog/scores.js';
import { repeatsText } from './repeats-words.js';
import { runWarnings } from './decomposition-words.js';

/** The generation and answer metrics: every run metric but retrieval success, which the retrieval table shows. */
const GENERATION_METRICS = ANSWER_METRICS.map((metric) => metric.name).filter((name) => name !== 'retrieval_ok');

function metricRow(name: string, summary: MetricSummary): string[] {
  const ci = summary.ci ? `[${fixed3(summary.ci[0])}, ${fixed3(summary.ci[1])}]` : '';
  // A run with repeats counts each question by its pass rate, so the count may be fractional.
  const count = summary.count === undefined ? '' : `${Number(summary.count.toFixed(2))}/${summary.n}`;
  return [name, fixed3(summary.value), ci, count || String(summary.n)];
}

function metricTable(summary: RunSummary, names: readonly string[]): string | null {
  const rows = names.flatMap((name) => {
    const metric = summary.metrics[name];
    return metric && metric.n > 0 ? [metricRow(name, metric)] : [];
  });
  return rows.length === 0 ? null : textTable([['metric', 'value', '95% CI', 'n'], ...rows]);
}

function ratioLine(part: number, whole: number): string {
  return `(${part}/${whole})`;
}

function decompositionText(summary: RunSummary, retrievalOkRule: string): string | null {
  const d = summary.decomposition;
  if (d.n === 0) return null;
  const rows: string[][] = [
    ['r = P(retrieval ok)', fixed3(d.r), ratioLine(d.nGood, d.n)],
    ['g_good = P(correct | retrieval ok)', fixed3(d.gGood), `n ${d.nGood}`],
    ['g_bad = P(correct | retrieval failed)', fixed3(d.gBad), `n ${d.nBad}`],
    ['e2e, measured', fixed3(d.e2e), `n ${d.n}`],
    ['e2e = r·g_good + (1−r)·g_bad', fixed3(d.e2eCheck), ''],
    ['product model g = e2e / r', fixed3(d.productModelG), `bias ${d.productModelBias === null ? '—' : `+${d.productModelBias.toFixed(3)}`}`],
    ['ceiling = r + (1−r)·g_bad', fixed3(d.ceiling), 'e2e with perfect generation on good context'],
    ['lowest r for this e2e', fixed3(d.rLowerBound), '(e2e − g_bad) / (1 − g_bad)'],
  ];
  if (d.closedBook) {
    rows.push(['closed-book on retrieval-failed', fixed3(d.closedBook.onFailed), `n ${d.closedBook.nFailed} (beside g_bad: no context vs wrong context)`]);
    rows.push(['closed-book, all', fixed3(d.closedBook.all), `n ${d.closedBook.n}`]);
  }
  return `Decomposition (retrieval ok: ${retrievalOkRule}; ${d.n} answerable questions)\n${textTable(rows)}`;
}

function tagTable(summary: RunSummary, headline: readonly string[]): string | null {
  const tags = Object.entries(summary.byTag);
  if (tags.length === 0) return null;
  const columns = headline.filter((name) => tags.some(([, t]) => (t.metrics[name]?.n ?? 0) > 0));
  const rows = tags.map(([tag, t]) => [tag, String(t.questions), ...columns.map((name) => fixed3(t.metrics[name]?.value))]);
  return `By tag\n${textTable([['tag', 'questions', ...columns], ...rows])}`;
}

/**
 * What a question cost the pipeline: each usage measure the results carry, its p50, p90, p95 and mean with their
 * 95% intervals, and the total for the amounts that add up.
 */
export function usageText(summary: RunSummary): string | null {
  const rows = USAGE_MEASURES.flatMap((measure) => {
    const mean = summary.metrics[usageMeanMetric(measure)];
    if (mean === undefined || mean.n === 0) return [];
    const cell = (metric: MetricSummary | undefined) => {
      if (metric?.value === null || metric?.value === undefined) return '';
      const ci = metric.ci === undefined ? '' : ` [${formatAmount(metric.ci[0], measure.unit)}, ${formatAmount(metric.ci[1], measure.unit)}]`;
      return `${formatAmount(metric.value, measure.unit)}${ci}`;
    };
    const total = usageTotalMetric(measure);
    return [
      [
        usageName(measure.column),
        ...USAGE_QUANTILES.map((q) => cell(summary.metrics[usageQuantileMetric(measure, q)])),
        cell(mean),
        total === undefined ? '' : cell(summary.metrics[total]),
        String(mean.n),
      ],
    ];
  });
  if (rows.length === 0) return null;
  return `Latency, tokens and cost (a question; 95% bootstrap intervals)\n${textTable([['measure', 'p50', 'p90', 'p95', 'mean', 'total', 'n'], ...rows])}`;
}

/** The human-readable `eval` report. */
/** `holdoutLeftOut`: the holdout questions left out, when a holdout file was given. */
export function renderEvalText(file: string, summary: RunSummary, config: EvalConfig, holdoutLeftOut?: readonly string[]): string {
  const retrievalNames = config.retrievalMetrics.map((metric) => metric.name);
  const { excluded } = summary;
  const notes = [
    excluded.unanswerable > 0 ? `${excluded.unanswerable} unanswerable` : '',
    excluded.noRelevant > 0 ? `${excluded.noRelevant} without relevant documents, left out of retrieval metrics` : '',
    excluded.noClaims > 0 ? `${excluded.noClaims} answers without claims, left out of faithfulness` : '',
    excluded.judgeErrors > 0 ? `${excluded.judgeErrors} the judge could not score (judge_errors)` : '',
  ].filter(Boolean);
  if (holdoutLeftOut !== undefined) notes.push(holdoutLeftOutText(holdoutLeftOut.length));
  const scoring = scoringLines(summary.provenance, summary.questions, config);
  const sections: (string | null)[] = [
    `rag-gate eval: ${file}: ${summary.questions} questions${notes.length > 0 ? ` (${notes.join('; ')})` : ''}${scoring.map((line) => `\n  ${line}`).join('')}`,
  ];
  const retrieval = metricTable(summary, [...retrievalNames, 'retrieval_ok']);
  if (retrieval) sections.push(`Retrieval\n${retrieval}`);
  const generation = metricTable(summary, GENERATION_METRICS);
  if (generation) sections.push(`Generation\n${generation}`);
  const scores = metricTable(summary, Object.keys(summary.provenance.scores).map(scoreMetric));
  if (scores) sections.push(`Scores from the results (${SCORE_NOT_CALIBRATED})\n${scores}`);
  sections.push(usageText(summary));
  if (summary.repeats) sections.push(repeatsText(summary.repeats));
  sections.push(decompositionText(summary, config.retrievalOk.name));
  const agreement = summary.judgeAgreement;
  if (agreement) {
    sections.push(
      `Judge agreement with humans\n${textTable([
        ['kappa', 'observed', 'chance', 'n'],
        [fixed3(agreement.kappa), fixed3(agreement.observed), fixed3(agreement.expected), String(agreement.n)],
      ])}`,
    );
  }
  sections.push(tagTable(summary, headlineMetrics(config.retrievalOk.metric.name)));
  const warnings = runWarnings(summary);
  if (warnings.length > 0) sections.push(`Warnings\n${warnings.map((w) => `  ! ${w}`).join('\n')}`);
  return `${sections.filter((s): s is string => s !== null).join('\n\n')}\n`;
}
