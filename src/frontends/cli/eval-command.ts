import { Command } from 'commander';
import { SettingError } from '../../core/errors.js';
import { evaluateFiles, evaluationConfig, evalReport } from '../../pipeline/compare.js';
import { resultFiles } from '../../pipeline/files.js';
import type { CommandContext } from './context.js';
import { addSettingOptions, commandSettings } from './options.js';
import { readingProgress } from './progress.js';

export function evalCommand(context: CommandContext): Command {
  const command = new Command('eval').description(
    'score one run (a results file, or a glob of its shards): retrieval, generation, decomposition, judge agreement',
  );
  return addSettingOptions(command, 'eval')
    .option('--json', 'print one JSON object on stdout instead of the report')
    .action(async (options: { json?: boolean }) => {
      const loaded = await commandSettings(command, 'eval', context);
      if (loaded === undefined) return;
      const { settings, origins } = loaded.resolved;
      if (settings.results === undefined)
        throw new SettingError('no results to score: give --results FILE (or a glob of shards), or results: in the config file');
      const files = await resultFiles(settings.results, 'results', origins.results);
      const config = evaluationConfig(settings);
      const progress = readingProgress(context);
      const evaluation = await evaluateFiles(files, config, { onProgress: progress.reporter(), holdout: settings.holdout }).finally(progress.end);
      for (const warning of evaluation.warnings) context.stderr(`rag-gate: warning: ${warning}\n`);
      const report = evalReport(files, evaluation, config, settings.holdout !== undefined);
      context.stdout(options.json ? report.json : report.text);
    });
}
