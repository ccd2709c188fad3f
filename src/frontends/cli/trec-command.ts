import { Command, Option } from 'commander';
import { SETTINGS } from '../../core/catalog/settings.js';
import { readBoth } from '../../core/errors.js';
import { ByteDictionary } from '../../core/scoring/byte-dictionary.js';
import { readQrelsTable, readRunTable } from '../../sources/trec.js';
import { defaultRetrievalMetrics, type RetrievalMetric } from '../../core/catalog/retrieval-metrics.js';
import { evaluateTrecTables } from '../../core/scoring/trec-eval.js';
import { renderTrecText } from '../../render/trec-text.js';
import type { CommandContext } from './context.js';
import { readingProgress } from './progress.js';
import { cutoffsOption, metricsOption } from './options.js';

interface TrecOptions {
  qrels: string;
  run: string;
  metrics?: RetrievalMetric[];
  k: number[];
  perQuery?: boolean;
  json?: boolean;
}

export function trecCommand(context: CommandContext): Command {
  return new Command('trec')
    .description("evaluate a TREC run against qrels with trec_eval's conventions (as trec_eval -c)")
    .requiredOption('--qrels <file>', 'judgments: "qid iter docno rel" per line')
    .requiredOption('--run <file>', 'run: "qid Q0 docno rank score tag" per line; ranked by score, ties by docno descending')
    .addOption(new Option('--metrics <list>', 'metrics to compute, e.g. ndcg@10,map,mrr,recall@100 (default: all at --k)').argParser(metricsOption))
    .addOption(
      new Option('--k <list>', 'cut-offs for the default metrics').argParser(cutoffsOption).default(SETTINGS.k.parse(SETTINGS.k.default), SETTINGS.k.default),
    )
    .option('--per-query', 'also print each query’s values')
    .option('--json', 'print one JSON object on stdout: {queries, aggregate, perQuery}')
    .action(async (options: TrecOptions) => {
      const metrics = options.metrics ?? defaultRetrievalMetrics(options.k);
      const docnos = new ByteDictionary();
      const progress = readingProgress(context);
      const [qrels, run] = await readBoth(
        readQrelsTable(options.qrels, docnos, progress.reporter()),
        readRunTable(options.run, docnos, progress.reporter()),
      ).finally(progress.end);
      const evaluation = evaluateTrecTables(qrels, run, metrics);
      context.stdout(options.json ? `${JSON.stringify(evaluation)}\n` : renderTrecText(evaluation, metrics, options.perQuery === true));
    });
}
