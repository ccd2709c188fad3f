import { Command, Option } from 'commander';
import { compareRuns } from '../../core/compare/compare.js';
import { DEFAULT_FAIL_ON, GATE_CATEGORIES, type GateCategory } from '../../core/catalog/gates.js';
import type { Floor } from '../../core/compare/types.js';
import { comparisonJson } from '../../render/compare-json.js';
import { compareConfig, DEFAULT_GRADED } from '../../core/compare/settings.js';
import { readBothRuns } from '../../sources/parallel.js';
import { readCalibrationRecord } from '../../judge/calibration.js';
import { KAPPA_FLOOR } from '../../core/stats/kappa.js';
import { writeFileAtomic } from '../../sources/write.js';
import type { CorrectnessRule } from '../../core/scoring/generation/correctness.js';
import type { RetrievalOkRule } from '../../core/scoring/retrieval-ok.js';
import { summarizeRun } from '../../core/scoring/summary.js';
import { renderCompareText } from '../../render/compare-text.js';
import { renderComment } from '../../render/markdown.js';
import type { CommandContext } from './context.js';
import { readingProgress } from './progress.js';
import { EXIT } from './exit.js';
import {
  addScoringOptions,
  alphaOption,
  failOnOption,
  floorOption,
  gradedOption,
  kappaFloorOption,
  minEffectOption,
  permutationsOption,
} from './options.js';

interface CompareOptions {
  base: string;
  head: string;
  k: number[];
  retrievalOk: RetrievalOkRule;
  correct: CorrectnessRule;
  alpha: number;
  failOn: Set<GateCategory>;
  minEffect: number;
  floor: Floor[];
  graded: string[];
  permutations: number;
  judgeCalibration: string[];
  kappaFloor: number;
  json?: boolean;
  markdown?: string;
}

export function compareCommand(context: CommandContext, setExitCode: (code: number) => void): Command {
  const command = new Command('compare')
    .description('compare head results with base results question by question, and decide the gate')
    .requiredOption('--base <file>', 'results of the base branch')
    .requiredOption('--head <file>', 'results of the pull request');
  return addScoringOptions(command)
    .addOption(new Option('--alpha <p>', 'significance level').argParser(alphaOption).default(0.05))
    .addOption(
      new Option('--fail-on <list>', `gates that fail the check on a significant drop: ${GATE_CATEGORIES.join(', ')}`)
        .argParser(failOnOption)
        .default(new Set<GateCategory>(DEFAULT_FAIL_ON), DEFAULT_FAIL_ON.join(',')),
    )
    .addOption(new Option('--min-effect <drop>', 'a significant drop smaller than this (absolute) only warns').argParser(minEffectOption).default(0))
    .addOption(
      new Option('--floor <metric=value>', 'absolute floor on a head metric, e.g. recall@5=0.8 (repeatable; METRIC<=x for a ceiling)')
        .argParser((text: string, previous: Floor[]) => [...previous, floorOption(text)])
        .default([], 'none'),
    )
    .addOption(new Option('--graded <list>', 'graded metrics for paired randomization tests').argParser(gradedOption).default(DEFAULT_GRADED, DEFAULT_GRADED.join(',')))
    .addOption(new Option('--permutations <n>', 'permutations per randomization test').argParser(permutationsOption).default(10_000))
    .addOption(
      new Option('--judge-calibration <file>', 'calibration record from `rag-gate calibrate` (repeatable): judged metrics gate only when calibrated')
        .argParser((file: string, previous: string[]) => [...previous, file])
        .default([], 'none'),
    )
    .addOption(new Option('--kappa-floor <kappa>', 'lowest judge–human kappa at which judged metrics may gate').argParser(kappaFloorOption).default(KAPPA_FLOOR))
    .option('--json', 'print the comparison as one JSON object on stdout')
    .option('--markdown <file>', 'write the PR comment body (Markdown) to this file')
    .action(async (options: CompareOptions) => {
      const calibrations = await Promise.all(options.judgeCalibration.map(readCalibrationRecord));
      const config = compareConfig({ ...options, floors: options.floor, calibrations });
      const progress = readingProgress(context);
      const [base, head] = await readBothRuns([options.base], [options.head], config.eval, context.readerEntry, progress.reporter()).finally(progress.end);
      for (const warning of [...base.warnings, ...head.warnings]) context.stderr(`rag-gate: warning: ${warning}\n`);
      const comparison = compareRuns(base.outcomes, head.outcomes, summarizeRun(head.outcomes, config.eval), config, { base: options.base, head: options.head });
      if (options.markdown !== undefined) await writeFileAtomic(options.markdown, renderComment(comparison, { retrievalOk: config.eval.retrievalOk.name }));
      context.stdout(options.json ? `${JSON.stringify(comparisonJson(comparison, config.eval.retrievalOk.name), null, 2)}\n` : renderCompareText(comparison, config));
      setExitCode(comparison.verdict === 'fail' ? EXIT.gateFailed : EXIT.ok);
    });
}
