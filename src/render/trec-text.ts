import type { RetrievalMetric } from '../core/catalog/retrieval-metrics.js';
import type { TrecEvaluation } from '../core/scoring/trec-eval.js';
import { textTable } from './text-table.js';

const value4 = (value: number | undefined) => (value === undefined ? '—' : value.toFixed(4));

/** The human-readable `trec` report: the mean of each metric, then (optionally) one row per query. */
export function renderTrecText(evaluation: TrecEvaluation, metrics: readonly RetrievalMetric[], perQuery: boolean): string {
  const names = metrics.map((metric) => metric.name);
  let text = `rag-gate trec: ${evaluation.queries} queries (every query in the qrels, as trec_eval -c)\n`;
  text += `${textTable([['metric', 'mean'], ...names.map((name) => [name, value4(evaluation.aggregate[name])])])}\n`;
  if (perQuery) {
    const rows = Object.entries(evaluation.perQuery).map(([qid, values]) => [qid, ...names.map((name) => value4(values[name]))]);
    text += `\nPer query\n${textTable([['qid', ...names], ...rows])}\n`;
  }
  return text;
}
