import { Command } from 'commander';
import { cliSettings } from '../../core/catalog/settings.js';
import { SettingError } from '../../core/errors.js';
import { evaluationConfig } from '../../pipeline/compare.js';
import { resultFiles } from '../../pipeline/files.js';
import { evaluateHoldoutFiles } from '../../pipeline/holdout.js';
import { loadSettings } from '../../pipeline/settings.js';
import { holdoutJson, renderHoldoutText } from '../../render/holdout.js';
import { renderSettings } from '../../render/settings-text.js';
import type { CommandContext } from './context.js';
import { addSettingOptions, givenSettings } from './options.js';

export function holdoutCommand(context: CommandContext): Command {
  const command = new Command('holdout').description(
    'the release evaluation: the holdout questions against the development questions of the same run (the gap and its interval), recorded in the holdout ledger',
  );
  return addSettingOptions(command, 'holdout')
    .option('--commit <sha>', 'the commit evaluated, for the ledger (default: $GITHUB_SHA); without one, every look counts as a look at another commit')
    .option('--by <who>', 'who or what looked, for the ledger (default: the workflow run, or $USER)')
    .option('--json', 'print one JSON object on stdout instead of the report')
    .action(async (options: { json?: boolean; commit?: string; by?: string; printConfig?: boolean }) => {
      const { settings, texts, origins } = await loadSettings(givenSettings(command, 'holdout'));
      if (options.printConfig) {
        context.stdout(renderSettings(cliSettings('holdout'), texts, origins));
        return;
      }
      if (settings.results === undefined)
        throw new SettingError('no results to evaluate: give --results FILE (or a glob of shards), or results: in the config file');
      if (settings.holdout === undefined)
        throw new SettingError('no holdout file: give --holdout FILE (written by rag-gate split), or holdout: in the config file');
      const files = await resultFiles(settings.results, 'results', origins.results);
      const env = process.env;
      const look = await evaluateHoldoutFiles(files, {
        holdout: settings.holdout,
        ledger: settings['holdout-ledger'],
        config: evaluationConfig(settings),
        graded: settings.graded,
        commit: options.commit ?? (env.GITHUB_SHA || null),
        by: options.by ?? (env.GITHUB_RUN_ID ? `${env.GITHUB_WORKFLOW ?? 'workflow'} run ${env.GITHUB_RUN_ID}` : env.USER || 'rag-gate holdout'),
        now: new Date(),
      });
      for (const warning of look.warnings) context.stderr(`rag-gate: warning: ${warning}\n`);
      context.stdout(options.json ? `${JSON.stringify(holdoutJson(look), null, 2)}\n` : renderHoldoutText(files.join(', '), look.evaluation, look.ledger));
    });
}
