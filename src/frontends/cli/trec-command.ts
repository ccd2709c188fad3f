import { Command, Option } from 'commander';
import { SETTINGS } from '../../core/catalog/settings.js';
import { DEFAULT_RETRIEVAL_FAMILIES, defaultRetrievalMetrics, type RetrievalMetric } from '../../core/catalog/retrieval-metrics.js';
import { SettingError } from '../../core/errors.js';
import { trecReport } from '../../pipeline/trec.js';
import type { CommandContext } from './context.js';
import { readingProgress } from './progress.js';
import { addParsedSettingOptions, argParser, cutoffsOption, metricsOption } from './options.js';

interface TrecOptions {
  qrels: string;
  run: string;
  metrics?: RetrievalMetric[];
  k: number[];
  relevanceLevel: number;
  ndcgGains: ReadonlyMap<number, number>;
  maxRetrieved: number;
  judgedOnly?: boolean;
  averageOver: 'qrels' | 'run';
  perQuery?: boolean;
  json?: boolean;
}

const maxRetrievedOption = argParser((text: string): number => {
  const value = Number(text);
  if (text.trim() === '' || !Number.isInteger(value) || value < 1) throw new SettingError(`must be a whole number of at least 1, got "${text}"`);
  return value;
});

const averageOverOption = argParser((text: string): 'qrels' | 'run' => {
  if (text === 'qrels' || text === 'run') return text;
  throw new SettingError(`must be qrels or run, got "${text}"`);
});

export function trecCommand(context: CommandContext): Command {
  const command = new Command('trec')
    .description("evaluate a TREC run against qrels with trec_eval's conventions (as trec_eval -c)")
    .requiredOption('--qrels <file>', 'judgments: "qid iter docno rel" per line')
    .requiredOption('--run <file>', 'run: "qid Q0 docno rank score tag" per line; ranked by score, ties by docno descending')
    .addOption(
      new Option(
        '--metrics <list>',
        `metrics to compute, e.g. ndcg@10,map,mrr,recall@100 (default: ${DEFAULT_RETRIEVAL_FAMILIES.atEachCutoff.join(', ')} at each --k; ${DEFAULT_RETRIEVAL_FAMILIES.atFullDepth.join(', ')} at full depth)`,
      ).argParser(metricsOption),
    )
    .addOption(
      new Option('--k <list>', 'cut-offs for the default metrics').argParser(cutoffsOption).default(SETTINGS.k.parse(SETTINGS.k.default), SETTINGS.k.default),
    )
    .addOption(
      new Option('--max-retrieved <n>', "only each query's first n ranked documents count (trec_eval -M)")
        .argParser(maxRetrievedOption)
        .default(Infinity, 'all'),
    )
    .option('--judged-only', 'take unjudged documents out of each ranking before measuring (trec_eval -J)')
    .addOption(
      new Option(
        '--average-over <queries>',
        'qrels: every judged query, one missing from the run scoring 0 (trec_eval -c); run: only the judged queries the run has',
      )
        .argParser(averageOverOption)
        .default('qrels', 'qrels'),
    )
    .option('--per-query', 'also print each query’s values')
    .option('--json', 'print one JSON object on stdout: {queries, aggregate, perQuery}');
  return addParsedSettingOptions(command, 'trec').action(async (options: TrecOptions) => {
    const metrics = options.metrics ?? defaultRetrievalMetrics(options.k);
    const progress = readingProgress(context);
    const report = await trecReport({ qrels: options.qrels, run: options.run }, metrics, {
      judging: { relevanceLevel: options.relevanceLevel, ndcgGains: options.ndcgGains },
      maxRetrieved: options.maxRetrieved,
      judgedOnly: options.judgedOnly === true,
      averageOver: options.averageOver,
      perQuery: options.perQuery === true,
      onProgress: progress.reporter,
    }).finally(progress.end);
    context.stdout(options.json ? report.json : report.text);
  });
}
