import type { RootContent } from 'mdast';
import { headlineMetrics } from '../core/catalog/metrics.js';
import type { RunSummary } from '../core/scoring/summary.js';
import { annotated, details, heading, markerComment, paragraph, prose, serialise, table } from './mdast.js';
import { fixed3 } from './text-table.js';

export interface HeadOnlyOptions {
  /** Why there is no comparison, in our words (e.g. "no successful push run of this workflow on `main`"). */
  readonly reason: string;
  readonly retrievalOk: string;
  readonly marker?: string;
  /** The retrieval-ok rule's metric, shown first. */
  readonly retrievalOkMetric: string;
}

/** The report when there is no baseline: the head run's metrics, and why nothing was compared. The check is neutral. */
export function renderHeadOnly(summary: RunSummary, options: HeadOnlyOptions): string {
  const names = headlineMetrics(options.retrievalOkMetric);
  const rows = names.flatMap((name) => {
    const metric = summary.metrics[name];
    if (metric === undefined || metric.n === 0) return [];
    const label = name === 'retrieval_ok' ? `retrieval_ok (${options.retrievalOk})` : name;
    const ci = metric.ci ? `${fixed3(metric.ci[0])}–${fixed3(metric.ci[1])}` : '';
    return [[label, fixed3(metric.value), ci, metric.count === undefined ? String(metric.n) : `${metric.count}/${metric.n}`]];
  });
  const d = summary.decomposition;
  const children: RootContent[] = [];
  if (options.marker !== undefined) children.push(markerComment(options.marker));
  children.push(
    heading(3, '⚪ rag-gate: no baseline to compare with'),
    paragraph(...annotated(`${options.reason}. This check passes: with nothing to compare against, there is nothing to gate.`)),
    paragraph(...prose(`Head results: ${summary.questions.toLocaleString('en-US')} questions.`)),
    table(['metric', 'head', '95% CI', 'n'], rows, ['left', 'right', 'right', 'right']),
  );
  if (d.n > 0) {
    children.push(
      ...details('Where the errors come from (decomposition)', [
        table(
          ['', 'head'],
          [
            ['r = P(retrieval ok)', `${fixed3(d.r)} (${d.nGood}/${d.n})`],
            ['g_good = P(correct | ok)', `${fixed3(d.gGood)} (n ${d.nGood})`],
            ['g_bad = P(correct | failed)', `${fixed3(d.gBad)} (n ${d.nBad})`],
            ['e2e = r·g_good + (1−r)·g_bad', fixed3(d.e2eCheck)],
            ['ceiling r + (1−r)·g_bad', fixed3(d.ceiling)],
          ],
          ['left', 'right'],
        ),
      ]),
    );
  }
  if (summary.warnings.length > 0) {
    children.push(paragraph(...prose(`Warnings: ${summary.warnings.join(' ')}`)));
  }
  return serialise({ type: 'root', children });
}
