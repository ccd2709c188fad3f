import { Command, Option } from 'commander';
import { DEFAULT_SEED } from '../../core/stats/random.js';
import { monitorLogs, monitorOutput, sampleRows, sampleWrittenText } from '../../pipeline/monitor.js';
import { writeFileAtomic } from '../../sources/write.js';
import type { CommandContext } from './context.js';
import { EXIT } from './exit.js';
import { argParser, addSettingOptions, commandSettings } from './options.js';
import { SettingError } from '../../core/errors.js';

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
    .addOption(new Option('--seed <seed>', 'the seed of the draw: the same logs and seed give the same sample').default(DEFAULT_SEED, DEFAULT_SEED))
    .requiredOption('--out <file>', 'the labelling file to write (JSON Lines, one row per user turn)')
    .action(async (options: { n: number; seed: string; out: string }) => {
      const loaded = await commandSettings(command, 'monitor', context);
      if (loaded === undefined) return;
      const { settings, origins } = loaded.resolved;
      const run = await monitorLogs(settings, origins, process.env);
      const rows = await sampleRows(run, options.n, options.seed);
      await writeFileAtomic(options.out, rows.map((row) => JSON.stringify(row)).join('\n') + '\n');
      context.stdout(sampleWrittenText(run, rows, options.out));
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
    .action(async (options: { json?: boolean }) => {
      const loaded = await commandSettings(command, 'monitor', context);
      if (loaded === undefined) return;
      const { settings, origins } = loaded.resolved;
      const run = await monitorLogs(settings, origins, process.env);
      const output = monitorOutput(run, settings['embedding-model']);
      context.stdout(options.json ? output.json : output.text);
      if (output.alert) setExitCode(EXIT.gateFailed);
    });
}
