import { Command, Option } from 'commander';
import { splitList } from '../../core/catalog/settings.js';
import { SettingError } from '../../core/errors.js';
import { HISTORY_DEFAULTS, historyReport } from '../../pipeline/history.js';
import { readHistory } from '../../sources/history.js';
import { writeFileAtomic } from '../../sources/write.js';
import type { CommandContext } from './context.js';

/** `rag-gate history --history FILE`: the base branch's runs as a table, the trend readings, and an SVG chart. */
export function historyCommand(context: CommandContext): Command {
  return new Command('history')
    .description("print the base branch's run history (the rag-gate-history.json the action keeps in its baseline artifact) and its trends; write an SVG chart")
    .requiredOption('--history <file>', 'the history file (rag-gate-history.json from the baseline artifact)')
    .addOption(
      new Option('--metrics <list>', 'metrics to show, comma-separated').default(HISTORY_DEFAULTS.metrics.join(','), HISTORY_DEFAULTS.metrics.join(',')),
    )
    .addOption(new Option('--last <n>', 'runs the trend test covers').default(String(HISTORY_DEFAULTS.last), String(HISTORY_DEFAULTS.last)))
    .option('--svg <file>', 'write the metrics over every run as an SVG line chart')
    .option('--json', 'print the history and the trends as one JSON object')
    .action(async (options: { history: string; metrics: string; last: string; svg?: string; json?: boolean }) => {
      const history = await readHistory(options.history);
      const metrics = splitList(options.metrics);
      const last = Number(options.last);
      if (!Number.isInteger(last) || last < 3) throw new SettingError(`--last must be a whole number of at least 3, got "${options.last}"`);
      const report = historyReport(history, options.history, metrics, last, options.svg);
      if (options.svg !== undefined) await writeFileAtomic(options.svg, report.svg);
      context.stdout(options.json ? report.json : report.text);
    });
}
