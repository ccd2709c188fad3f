import { Command } from 'commander';
import { cliSettings } from '../../core/catalog/settings.js';
import { SettingError } from '../../core/errors.js';
import { compareFiles, comparisonConfig } from '../../pipeline/compare.js';
import { resultFiles } from '../../pipeline/files.js';
import { loadSettings } from '../../pipeline/settings.js';
import { comparisonReport } from '../../render/compare-json.js';
import { renderCompareText } from '../../render/compare-text.js';
import { renderComment } from '../../render/markdown.js';
import { renderSettings } from '../../render/settings-text.js';
import { writeFileAtomic } from '../../sources/write.js';
import type { CommandContext } from './context.js';
import { EXIT } from './exit.js';
import { addSettingOptions, givenSettings } from './options.js';
import { readingProgress } from './progress.js';

export function compareCommand(context: CommandContext, setExitCode: (code: number) => void): Command {
  const command = new Command('compare').description('compare head results with base results question by question, and decide the gate');
  return addSettingOptions(command, 'compare')
    .option('--json', 'print the report as one JSON object on stdout (the same object as the action’s report-json)')
    .option('--markdown <file>', 'write the PR comment body (Markdown) to this file')
    .action(async (options: { json?: boolean; markdown?: string; printConfig?: boolean }) => {
      const { settings, texts, origins } = await loadSettings(givenSettings(command, 'compare'));
      if (options.printConfig) {
        context.stdout(renderSettings(cliSettings('compare'), texts, origins));
        return;
      }
      if (settings.baseline === undefined) throw new SettingError('no base results: give --base FILE (or a glob of shards), or baseline: in the config file');
      if (settings.results === undefined) throw new SettingError('no head results: give --head FILE (or a glob of shards), or results: in the config file');
      const [base, head] = await Promise.all([
        resultFiles(settings.baseline, 'baseline', origins.baseline),
        resultFiles(settings.results, 'results', origins.results),
      ]);
      const config = await comparisonConfig(settings);
      const progress = readingProgress(context);
      const run = await compareFiles({ base, head, golden: settings.golden, holdout: settings.holdout }, config, {
        readerEntry: context.readerEntry,
        onProgress: progress.reporter(),
        allowUngated: settings['allow-ungated'],
      }).finally(progress.end);
      for (const warning of run.warnings) context.stderr(`rag-gate: warning: ${warning}\n`);
      const rule = config.eval.retrievalOk.name;
      if (options.markdown !== undefined)
        await writeFileAtomic(options.markdown, renderComment(run.comparison, { retrievalOk: rule, rules: config.eval, traceUrl: settings['trace-url'] }));
      const report = comparisonReport(run, config, { found: true, files: base });
      context.stdout(options.json ? `${JSON.stringify(report, null, 2)}\n` : renderCompareText(run.comparison, config));
      setExitCode(run.comparison.verdict === 'fail' ? EXIT.gateFailed : EXIT.ok);
    });
}
