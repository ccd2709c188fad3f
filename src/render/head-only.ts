import { holdoutLeftOutText } from './holdout.js';
import type { RootContent } from 'mdast';
import { headlineMetrics } from '../core/catalog/metrics.js';
import type { RunSummary } from '../core/scoring/summary.js';
import { baselineProblemContent, type BaselineProblem, baselineProblemText } from './baseline-problem.js';
import { gateChangesSection, type GateChangesView } from './gate-changes.js';
import { annotated, details, heading, markerComment, paragraph, prose, serialise, table } from './mdast.js';
import { dollarPhrasing, usageSummaryLine } from './usage-words.js';
import { fixed3 } from './text-table.js';
import { runWarnings } from './decomposition-words.js';
import { grouped } from '../core/grouped.js';

/**
 * Why nothing was compared: no base results (`reason` in our words, e.g. "no successful push run of this workflow
 * on `main`"), or base results that could not be read. `fails` says whether that fails the check, by the
 * on-missing-baseline or on-baseline-error setting.
 */
export type NoComparison =
  | { readonly kind: 'no-baseline'; readonly reason: string; readonly fails: boolean }
  | { readonly kind: 'baseline-error'; readonly problem: BaselineProblem; readonly fails: boolean };

export interface HeadOnlyOptions {
  /** The pull request's changes to its own gate, and the hidden state for the next run, as in the comparison's comment. */
  readonly gateChanges?: GateChangesView;
  readonly stateMarkers?: readonly string[];
  readonly cause: NoComparison;
  readonly retrievalOk: string;
  readonly marker?: string;
  /** The retrieval-ok rule's metric, shown first. */
  readonly retrievalOkMetric: string;
  /** Holdout questions left out of the head results, when a holdout file was given. */
  readonly holdoutLeftOut?: number;
}

/** Why nothing was compared, for the log, the failed check or the warning; without the rag-gate prefix. */
export function noComparisonText(cause: NoComparison): string {
  if (cause.kind === 'baseline-error') return `${baselineProblemText(cause.problem)}${cause.fails ? '' : '\nThis check passes: on-baseline-error is pass.'}`;
  const reason = `no baseline: ${cause.reason.replaceAll('`', '')}`;
  return cause.fails ? `${reason}. This check fails: on-missing-baseline is fail.` : `${reason}.`;
}

/** What the comment says first: why nothing was compared, and what that does to the check. */
function causeContent(cause: NoComparison): RootContent[] {
  if (cause.kind === 'no-baseline') {
    return cause.fails
      ? [
          heading(3, '❌ rag-gate: no baseline to compare with'),
          paragraph(
            ...annotated(
              `No baseline: ${cause.reason}. This check fails: \`on-missing-baseline\` is \`fail\`, so a pull request must be compared with its base branch's results.`,
            ),
          ),
        ]
      : [
          heading(3, '⚪ rag-gate: no baseline to compare with'),
          paragraph(...annotated(`No baseline: ${cause.reason}. This check passes: with nothing to compare against, there is nothing to gate.`)),
        ];
  }
  const verdict = cause.fails
    ? "This check fails (`on-baseline-error` is `fail`): without the base branch's results rag-gate cannot tell whether this pull request made anything worse."
    : 'This check passes because `on-baseline-error` is `pass`, although nothing was compared.';
  return [
    heading(3, `${cause.fails ? '❌' : '⚪'} rag-gate: could not read the baseline`),
    ...baselineProblemContent(cause.problem),
    paragraph(...annotated(verdict)),
  ];
}

/** The report when nothing was compared: why, what that does to the check, and the head run's metrics. */
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
  for (const state of options.stateMarkers ?? []) children.push(markerComment(state));
  children.push(
    ...causeContent(options.cause),
    ...(options.gateChanges === undefined ? [] : gateChangesSection(options.gateChanges)),
    paragraph(
      ...prose(`Head results: ${grouped(summary.questions)} questions.${options.holdoutLeftOut ? ` ${holdoutLeftOutText(options.holdoutLeftOut)}.` : ''}`),
    ),
    table(['metric', 'head', '95% CI', 'n'], rows, ['left', 'right', 'right', 'right']),
  );
  const usage = usageSummaryLine(summary);
  if (usage !== null) children.push(paragraph(...dollarPhrasing(`${usage.charAt(0).toUpperCase()}${usage.slice(1)}.`)));
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
  const warnings = runWarnings(summary);
  if (warnings.length > 0) children.push(paragraph(...prose(`Warnings: ${warnings.join(' ')}`)));
  return serialise({ type: 'root', children });
}
