import { Command } from 'commander';
import { splitGoldenSet, splitReport } from '../../pipeline/holdout.js';
import type { CommandContext } from './context.js';
import { addSettingOptions, commandSettings } from './options.js';

export function splitCommand(context: CommandContext): Command {
  const command = new Command('split').description(
    'hold back a share of the golden set for the release evaluation: a deterministic split by a keyed hash of the question ids, stratified by tag, written to the holdout file',
  );
  return addSettingOptions(command, 'split')
    .option('--rotate', 'draw a new holdout in place of the existing one (the next rotation): every question may change side')
    .option('--json', 'print the holdout file’s object on stdout: {"holdout": [ids], "development": [ids], "byTag": {…}, …}')
    .action(async (options: { json?: boolean; rotate?: boolean }) => {
      const loaded = await commandSettings(command, 'split', context);
      if (loaded === undefined) return;
      const { settings, origins } = loaded.resolved;
      const report = splitReport(await splitGoldenSet(settings, origins, options.rotate === true));
      context.stdout(options.json ? report.json : report.text);
    });
}
