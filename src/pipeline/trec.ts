import type { RetrievalMetric } from '../core/catalog/retrieval-metrics.js';
import { readBoth } from '../core/errors.js';
import { evaluateTrecTables, type TrecEvalOptions } from '../core/scoring/trec-eval.js';
import { renderTrecText } from '../render/trec-text.js';
import type { ReadProgress } from '../sources/lines.js';
import { readQrelsTable, readRunTable } from '../sources/trec.js';

/**
 * `trec`: reads the qrels and the run (both at once, each problem of both reported together), measures the run
 * with trec_eval's conventions, and reports it as text (with each query's values when `perQuery`) and as JSON.
 */
export async function trecReport(
  files: { readonly qrels: string; readonly run: string },
  metrics: readonly RetrievalMetric[],
  options: TrecEvalOptions & { readonly perQuery: boolean; readonly onProgress: () => ReadProgress | undefined },
): Promise<{ text: string; json: string }> {
  const [qrels, run] = await readBoth(readQrelsTable(files.qrels, options.onProgress()), readRunTable(files.run, options.onProgress()));
  const evaluation = evaluateTrecTables(qrels, run, metrics, options);
  return { text: renderTrecText(evaluation, metrics, options.perQuery, options.averageOver), json: `${JSON.stringify(evaluation)}\n` };
}
