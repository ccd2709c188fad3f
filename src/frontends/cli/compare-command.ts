import { Command } from 'commander';
import type { ChangeApproval } from '../../core/compare/types.js';
import { SettingError } from '../../core/errors.js';
import { comparisonConfig } from '../../pipeline/compare.js';
import { resultFiles } from '../../pipeline/files.js';
import { holdToBase, settingsUnder } from '../../pipeline/policy.js';
import { compareReport, type HeldGate } from '../../pipeline/report.js';
import { baseConfigFile } from '../../sources/config-file.js';
import { writeFileAtomic } from '../../sources/write.js';
import type { CommandContext } from './context.js';
import { EXIT } from './exit.js';
import { addSettingOptions, commandSettings } from './options.js';
import { readingProgress } from './progress.js';

/** An approval given on the command line, as `--approve policy` or `--approve gold` names its approver. */
const byFlag = (given: boolean, what: 'policy' | 'gold'): ChangeApproval =>
  given ? { kind: 'approved', by: { login: `--approve ${what}` } } : { kind: 'none' };

export function compareCommand(context: CommandContext, setExitCode: (code: number) => void): Command {
  const command = new Command('compare').description('compare head results with base results question by question, and decide the gate');
  return addSettingOptions(command, 'compare')
    .option('--json', 'print the report as one JSON object on stdout (the same object as the action’s report-json)')
    .option('--markdown <file>', 'write the PR comment body (Markdown) to this file')
    .action(async (options: { json?: boolean; markdown?: string }) => {
      const loaded = await commandSettings(command, 'compare', context);
      if (loaded === undefined) return;
      const { given, resolved: own } = loaded;
      const { settings, origins } = own;
      // With the base branch's config file, the run is held to it: its own loosenings wait for --approve policy,
      // and gold changes that move a gated outcome for --approve gold.
      const base = settings['base-config'] === undefined ? null : await holdToBase(given, own, await baseConfigFile(settings['base-config']));
      const approved = settings.approve.has('policy');
      const gold = byFlag(settings.approve.has('gold'), 'gold');
      const held: HeldGate | null =
        base === null
          ? null
          : {
              view: { changes: base.changes, approval: byFlag(approved, 'policy'), approveWith: { kind: 'flag' } },
              approved,
              approveGold: async () => gold.kind === 'approved',
              goldApproval: () => ({ approval: gold, approveWith: { kind: 'flag' } }),
            };
      const governing = base === null ? settings : settingsUnder(base, settings, approved);
      if (governing.baseline === undefined) throw new SettingError('no base results: give --base FILE (or a glob of shards), or baseline: in the config file');
      if (governing.results === undefined) throw new SettingError('no head results: give --head FILE (or a glob of shards), or results: in the config file');
      const [baseFiles, head] = await Promise.all([
        resultFiles(governing.baseline, 'baseline', origins.baseline),
        resultFiles(governing.results, 'results', origins.results),
      ]);
      const progress = readingProgress(context);
      const report = await compareReport(
        {
          settings: governing,
          // Only the JSON lists every metric of the head run: without it, none but those the gate asks for is scored.
          config: await comparisonConfig(governing, options.json === true ? 'all' : 'asked'),
          head,
          held,
          place: {},
          readerEntry: context.readerEntry,
          onProgress: progress.reporter(),
        },
        { kind: 'found', files: baseFiles, sha: null },
      ).finally(progress.end);
      for (const note of report.notes) context.stderr(note.kind === 'warning' ? `rag-gate: warning: ${note.text}\n` : note.text);
      if (options.markdown !== undefined) await writeFileAtomic(options.markdown, report.comment);
      context.stdout(options.json ? report.json : report.text);
      setExitCode(report.failure === null ? EXIT.ok : EXIT.gateFailed);
    });
}
