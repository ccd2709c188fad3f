import { type History, linearTrend, series } from '../core/history/history.js';
import { historyNote, historySvg, historyText, historyWrittenNote, type HistorySource, TREND_METRICS, TREND_RUNS, trendReading } from '../render/history.js';
import type { Note } from './report.js';

export type { HistorySource } from '../render/history.js';

/** What `history` shows unless told: the trend's metrics, over its number of runs. */
export const HISTORY_DEFAULTS = { metrics: TREND_METRICS, last: TREND_RUNS } as const;

/**
 * `history`: the runs as a table and the trend readings (text), or the history with each metric's trend (JSON),
 * and the metrics over every run as an SVG chart (drawn when read).
 */
export function historyReport(
  history: History,
  file: string,
  metrics: readonly string[],
  last: number,
  svgFile?: string,
): { text: string; json: string; svg: string } {
  const trends = Object.fromEntries(metrics.map((metric) => [metric, linearTrend(series(history, metric, last).map((point) => point.value))]));
  const readings = metrics.flatMap((metric) => {
    const trend = trends[metric];
    return trend === null || trend === undefined ? [] : [`  ${trendReading(metric, trend, 'the retrieval-ok rule')}`];
  });
  return {
    text:
      `${history.runs.length} runs in ${file}\n${historyText(history, metrics)}\n` +
      (readings.length > 0 ? `\nTrend over the last runs:\n${readings.join('\n')}\n` : '') +
      (svgFile !== undefined ? `\nWrote the chart to ${svgFile}\n` : ''),
    json: `${JSON.stringify({ ...history, trends }, null, 2)}\n`,
    get svg() {
      return historySvg(history, metrics, `${metrics.join(', ')} over ${history.runs.length} runs`);
    },
  };
}

/** Where the history a run continues (push) or charts (pull request) came from: a warning when earlier runs are lost. */
export function historySourceNote(source: HistorySource, on: 'push' | 'pull-request'): Note {
  const { warning, title, text } = historyNote(source, on);
  return warning ? { kind: 'warning', text, title } : { kind: 'info', text };
}

/** Once a push run has written the history: where, and the upload it needs. */
export function historyWrittenText(file: string, runs: number, artifact: string): string {
  return historyWrittenNote(file, runs, artifact);
}
