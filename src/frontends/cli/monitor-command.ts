import { Command, Option } from 'commander';
import { cliSettings } from '../../core/catalog/settings.js';
import { sampleConversations } from '../../core/monitor/sample.js';
import { DEFAULT_SEED } from '../../core/stats/random.js';
import { monitorLogs, type MonitorRun } from '../../pipeline/monitor.js';
import { loadSettings } from '../../pipeline/settings.js';
import { monitorJson, renderMonitorText, type SimilarityWords } from '../../render/monitor.js';
import { renderSettings } from '../../render/settings-text.js';
import { writeFileAtomic } from '../../sources/write.js';
import type { CommandContext } from './context.js';
import { EXIT } from './exit.js';
import { argParser, addSettingOptions, givenSettings } from './options.js';
import { SettingError } from '../../core/errors.js';
import { plural } from '../../render/format.js';

export function similarityWords(run: MonitorRun, model: string): SimilarityWords {
  return { measure: run.measure, threshold: run.report.settings.threshold, withinMs: run.withinMs, ...(run.measure === 'openai' ? { model } : {}) };
}

const sampleSize = argParser((text: string) => {
  const n = Number(text);
  if (!Number.isSafeInteger(n) || n < 1) throw new SettingError(`must be a whole number of conversations, 1 or more, got "${text}"`);
  return n;
});

/** `rag-gate monitor sample`: whole conversations drawn at random, written as a labelling file. */
function sampleCommand(context: CommandContext): Command {
  const command = new Command('sample').description(
    'draw whole conversations at random from the logs for the weekly human read, written as a labelling file (JSON Lines) whose filled rows can be promoted into the golden set',
  );
  return addSettingOptions(command, 'monitor')
    .addOption(new Option('--n <conversations>', 'conversations to draw').argParser(sampleSize).default(100))
    .option('--seed <seed>', 'the seed of the draw: the same logs and seed give the same sample', DEFAULT_SEED)
    .requiredOption('--out <file>', 'the labelling file to write (JSON Lines, one row per user turn)')
    .action(async (options: { n: number; seed: string; out: string; printConfig?: boolean }) => {
      const { settings, texts, origins } = await loadSettings(givenSettings(command, 'monitor'));
      if (options.printConfig) {
        context.stdout(renderSettings(cliSettings('monitor'), texts, origins));
        return;
      }
      const run = await monitorLogs(settings, origins, process.env);
      const rows = sampleConversations(run.read.turns, run.rephrased, options.n, options.seed);
      await writeFileAtomic(options.out, rows.map((row) => JSON.stringify(row)).join('\n') + '\n');
      const sessions = new Set(rows.map((row) => row.session_id)).size;
      context.stdout(
        `Wrote ${plural(sessions, 'conversation')} (${plural(rows.length, 'turn')}) of ${plural(run.report.sessions, 'conversation')} to ${options.out}.\n` +
          'Fill in expected_answer (or set answerable to false), then promote the filled rows into the golden set (see "Production monitoring" in the README).\n',
      );
    });
}

/** `rag-gate monitor --logs FILE…`: the production rates per window, the window tests and the alerts; exit 1 on an alert. */
export function monitorCommand(context: CommandContext, setExitCode: (code: number) => void): Command {
  const command = new Command('monitor').description(
    'production monitoring of conversation logs: the rephrase rate and the refusal rate per window, the current window tested against the one before, an alert (exit 1) on a significant rise above a ceiling',
  );
  // `monitor sample --logs …`: options after `sample` are the sample's own.
  return addSettingOptions(command.enablePositionalOptions(), 'monitor')
    .option('--json', 'print one JSON object: each window with its rephraseRate and refusalRate (value, interval, counts), the tests, and the alerts')
    .addCommand(sampleCommand(context))
    .action(async (options: { json?: boolean; printConfig?: boolean }) => {
      const { settings, texts, origins } = await loadSettings(givenSettings(command, 'monitor'));
      if (options.printConfig) {
        context.stdout(renderSettings(cliSettings('monitor'), texts, origins));
        return;
      }
      const run = await monitorLogs(settings, origins, process.env);
      const words = similarityWords(run, settings['embedding-model']);
      context.stdout(
        options.json ? `${JSON.stringify(monitorJson(run.files, run.report, words), null, 2)}\n` : renderMonitorText(run.files, run.report, words),
      );
      if (run.report.windows[run.report.current]!.alerts.length > 0) setExitCode(EXIT.gateFailed);
    });
}
