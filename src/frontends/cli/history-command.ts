import { Command } from 'commander';
import { linearTrend, series } from '../../core/history/history.js';
import { splitList } from '../../core/catalog/settings.js';
import { SettingError } from '../../core/errors.js';
import { historySvg, historyText, TREND_METRICS, TREND_RUNS, trendReading } from '../../render/history.js';
import { readHistory } from '../../sources/history.js';
import { writeFileAtomic } from '../../sources/write.js';
import type { CommandContext } from './context.js';

/** `rag-gate history --history FILE`: the base branch's runs as a table, the trend readings, and an SVG chart. */
export function historyCommand(context: CommandContext): Command {
  return new Command('history')
    .description("print the base branch's run history (the rag-gate-history.json the action keeps in its baseline artifact) and its trends; write an SVG chart")
    .requiredOption('--history <file>', 'the history file (rag-gate-history.json from the baseline artifact)')
    .option('--metrics <list>', 'metrics to show, comma-separated', TREND_METRICS.join(','))
    .option('--last <n>', 'runs the trend test covers', String(TREND_RUNS))
    .option('--svg <file>', 'write the metrics over every run as an SVG line chart')
    .option('--json', 'print the history and the trends as one JSON object')
    .action(async (options: { history: string; metrics: string; last: string; svg?: string; json?: boolean }) => {
      const history = await readHistory(options.history);
      const metrics = splitList(options.metrics);
      const last = Number(options.last);
      if (!Number.isInteger(last) || last < 3) throw new SettingError(`--last must be a whole number of at least 3, got "${options.last}"`);
      const trends = Object.fromEntries(metrics.map((metric) => [metric, linearTrend(series(history, metric, last).map((point) => point.value))]));
      if (options.svg !== undefined) await writeFileAtomic(options.svg, historySvg(history, metrics, `${metrics.join(', ')} over ${history.runs.length} runs`));
      if (options.json) {
        context.stdout(`${JSON.stringify({ ...history, trends }, null, 2)}\n`);
        return;
      }
      const readings = metrics.flatMap((metric) => {
        const trend = trends[metric];
        return trend === null || trend === undefined ? [] : [`  ${trendReading(metric, trend, 'the retrieval-ok rule')}`];
      });
      context.stdout(
        `${history.runs.length} runs in ${options.history}\n${historyText(history, metrics)}\n` +
          (readings.length > 0 ? `\nTrend over the last runs:\n${readings.join('\n')}\n` : '') +
          (options.svg !== undefined ? `\nWrote the chart to ${options.svg}\n` : ''),
      );
    });
}
