import type { RetrievalMetric } from '../core/catalog/retrieval-metrics.js';
import type { TrecEvaluation } from '../core/scoring/trec-eval.js';
import { textTable } from './text-table.js';

const value4 = (value: number | undefined) => (value === undefined ? '—' : value.toFixed(4));

const QUERIES = { qrels: 'every query in the qrels, as trec_eval -c', run: 'the queries in both the qrels and the run' } as const;

/** The human-readable `trec` report: the mean (a count's total) of each metric, then (optionally) one row per query. */
export function renderTrecText(evaluation: TrecEvaluation, metrics: readonly RetrievalMetric[], perQuery: boolean, averageOver: keyof typeof QUERIES): string {
  const names = metrics.map((metric) => metric.name);
  let text = `rag-gate trec: ${evaluation.queries} queries (${QUERIES[averageOver]})\n`;
  const row = (metric: RetrievalMetric) =>
    metric.total ? [`${metric.name} (total)`, String(evaluation.aggregate[metric.name])] : [metric.name, value4(evaluation.aggregate[metric.name])];
  text += `${textTable([['metric', 'mean'], ...metrics.map(row)])}\n`;
  if (perQuery) {
    const rows = Object.entries(evaluation.perQuery).map(([qid, values]) => [qid, ...names.map((name) => value4(values[name]))]);
    text += `\nPer query\n${textTable([['qid', ...names], ...rows])}\n`;
  }
  return text;
}
