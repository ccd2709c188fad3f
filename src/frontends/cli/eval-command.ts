import { Command } from 'commander';
import { evalConfig } from '../../core/compare/settings.js';
import type { CorrectnessRule } from '../../core/scoring/generation/correctness.js';
import { readOutcomes } from '../../sources/outcomes.js';
import type { RetrievalOkRule } from '../../core/scoring/retrieval-ok.js';
import { summarizeRun } from '../../core/scoring/summary.js';
import { evalJson } from '../../render/eval-json.js';
import { renderEvalText } from '../../render/eval-text.js';
import { addScoringOptions } from './options.js';
import type { CommandContext } from './context.js';
import { readingProgress } from './progress.js';

interface EvalOptions {
  results: string;
  k: number[];
  retrievalOk: RetrievalOkRule;
  correct: CorrectnessRule;
  json?: boolean;
}

export function evalCommand(context: CommandContext): Command {
  const command = new Command('eval')
    .description('score one results file: retrieval, generation, decomposition, judge agreement')
    .requiredOption('--results <file>', 'results file: JSON Lines or a JSON array, one record per question');
  return addScoringOptions(command)
    .option('--json', 'print one JSON object on stdout instead of the report')
    .action(async (options: EvalOptions) => {
      const config = evalConfig(options.k, options.retrievalOk, options.correct);
      const progress = readingProgress(context);
      const { outcomes, warnings } = await readOutcomes(options.results, config, progress.reporter()).finally(progress.end);
      const summary = summarizeRun(outcomes, config);
      for (const warning of warnings) context.stderr(`rag-gate: warning: ${warning}\n`);
      context.stdout(options.json ? `${JSON.stringify(evalJson(summary, config), null, 2)}\n` : renderEvalText(options.results, summary, config));
    });
}
