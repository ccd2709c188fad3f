import { Command } from 'commander';
import { cliSettings } from '../../core/catalog/settings.js';
import { SettingError } from '../../core/errors.js';
import { compareFiles, comparisonConfig } from '../../pipeline/compare.js';
import { resultFiles } from '../../pipeline/files.js';
import { withPolicyVerdict } from '../../core/compare/policy.js';
import { holdToBase, settingsUnder } from '../../pipeline/policy.js';
import { loadSettings } from '../../pipeline/settings.js';
import { gateChangesText, type GateChangesView, goldChangesText, type GoldApprovalView } from '../../render/gate-changes.js';
import { baseConfigFile } from '../../sources/config-file.js';
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
      const given = givenSettings(command, 'compare');
      const own = await loadSettings(given);
      if (options.printConfig) {
        context.stdout(renderSettings(cliSettings('compare'), own.texts, own.origins));
        return;
      }
      const { settings, origins } = own;
      // With the base branch's config file, the run is held to it: its own loosenings wait for --approve policy.
      const held = settings['base-config'] === undefined ? null : await holdToBase(given, own, await baseConfigFile(settings['base-config']));
      const approved = settings.approve.has('policy');
      const gateChanges: GateChangesView | undefined =
        held === null || held.changes.length === 0
          ? undefined
          : {
              changes: held.changes,
              approval: approved ? { kind: 'approved', by: { login: '--approve policy' } } : { kind: 'none' },
              approveWith: { kind: 'flag' },
            };
      const governing = held === null ? settings : settingsUnder(held, settings, approved);
      if (governing.baseline === undefined) throw new SettingError('no base results: give --base FILE (or a glob of shards), or baseline: in the config file');
      if (governing.results === undefined) throw new SettingError('no head results: give --head FILE (or a glob of shards), or results: in the config file');
      const [base, head] = await Promise.all([
        resultFiles(governing.baseline, 'baseline', origins.baseline),
        resultFiles(governing.results, 'results', origins.results),
      ]);
      const config = await comparisonConfig(governing);
      const progress = readingProgress(context);
      const compared = await compareFiles({ base, head, golden: governing.golden, holdout: governing.holdout }, config, {
        readerEntry: context.readerEntry,
        onProgress: progress.reporter(),
        allowUngated: governing['allow-ungated'],
        // Held to a base, gold changes that move a gated outcome wait for --approve gold.
        ...(held === null ? {} : { approveGold: async () => settings.approve.has('gold') }),
      }).finally(progress.end);
      const run = { ...compared, comparison: withPolicyVerdict(compared.comparison, held?.changes ?? [], approved) };
      for (const warning of run.warnings) context.stderr(`rag-gate: warning: ${warning}\n`);
      if (gateChanges !== undefined) context.stderr(gateChangesText(gateChanges));
      const goldApproval: GoldApprovalView | undefined =
        held === null
          ? undefined
          : {
              approval: settings.approve.has('gold') ? { kind: 'approved', by: { login: '--approve gold' } } : { kind: 'none' },
              approveWith: { kind: 'flag' },
            };
      if (goldApproval !== undefined) context.stderr(goldChangesText(run.comparison.goldChanges ?? [], goldApproval));
      const rule = config.eval.retrievalOk.name;
      if (options.markdown !== undefined)
        await writeFileAtomic(
          options.markdown,
          renderComment(run.comparison, { retrievalOk: rule, rules: config.eval, traceUrl: governing['trace-url'], gateChanges, goldApproval }),
        );
      const report = {
        ...comparisonReport(run, config, { found: true, files: base }),
        ...(gateChanges === undefined ? {} : { gateChanges: { changes: gateChanges.changes, approval: gateChanges.approval } }),
      };
      context.stdout(options.json ? `${JSON.stringify(report, null, 2)}\n` : renderCompareText(run.comparison, config));
      setExitCode(run.comparison.verdict === 'fail' ? EXIT.gateFailed : EXIT.ok);
    });
}
