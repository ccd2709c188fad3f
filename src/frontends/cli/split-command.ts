import { Command } from 'commander';
import { cliSettings } from '../../core/catalog/settings.js';
import { splitGoldenSet } from '../../pipeline/holdout.js';
import { loadSettings } from '../../pipeline/settings.js';
import { renderSplitText } from '../../render/holdout.js';
import { renderSettings } from '../../render/settings-text.js';
import { holdoutFileObject } from '../../sources/holdout-file.js';
import type { CommandContext } from './context.js';
import { addSettingOptions, givenSettings } from './options.js';

export function splitCommand(context: CommandContext): Command {
  const command = new Command('split').description(
    'hold back a share of the golden set for the release evaluation: a deterministic split by a keyed hash of the question ids, stratified by tag, written to the holdout file',
  );
  return addSettingOptions(command, 'split')
    .option('--rotate', 'draw a new holdout in place of the existing one (the next rotation): every question may change side')
    .option('--json', 'print the holdout file’s object on stdout: {"holdout": [ids], "development": [ids], "byTag": {…}, …}')
    .action(async (options: { json?: boolean; rotate?: boolean; printConfig?: boolean }) => {
      const { settings, texts, origins } = await loadSettings(givenSettings(command, 'split'));
      if (options.printConfig) {
        context.stdout(renderSettings(cliSettings('split'), texts, origins));
        return;
      }
      const drawn = await splitGoldenSet(settings, origins, options.rotate === true);
      context.stdout(
        options.json
          ? `${JSON.stringify(holdoutFileObject(drawn.split, drawn.sizes), null, 2)}\n`
          : renderSplitText(drawn.file, drawn.sizes, { ...drawn, share: drawn.split.share }),
      );
    });
}
