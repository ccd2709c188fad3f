import { Command } from 'commander';
import { SettingError } from '../../core/errors.js';
import { evaluationConfig } from '../../pipeline/compare.js';
import { resultFiles } from '../../pipeline/files.js';
import { evaluateHoldoutFiles, holdoutReport } from '../../pipeline/holdout.js';
import type { CommandContext } from './context.js';
import { addSettingOptions, commandSettings } from './options.js';

export function holdoutCommand(context: CommandContext): Command {
  const command = new Command('holdout').description(
    'the release evaluation: the holdout questions against the development questions of the same run (the gap and its interval), recorded in the holdout ledger',
  );
  return addSettingOptions(command, 'holdout')
    .option('--commit <sha>', 'the commit evaluated, for the ledger (default: $GITHUB_SHA); without one, every look counts as a look at another commit')
    .option('--by <who>', 'who or what looked, for the ledger (default: the workflow run, or $USER)')
    .option('--json', 'print one JSON object on stdout instead of the report')
    .action(async (options: { json?: boolean; commit?: string; by?: string }) => {
      const loaded = await commandSettings(command, 'holdout', context);
      if (loaded === undefined) return;
      const { settings, origins } = loaded.resolved;
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
      const report = holdoutReport(files, look);
      context.stdout(options.json ? report.json : report.text);
    });
}
