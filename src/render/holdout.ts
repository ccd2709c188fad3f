import { EXPECTED_GAP, type GapMetric, type GapReading, type HoldoutEvaluation } from '../core/holdout/gap.js';
import type { LedgerEntry, LedgerStatus } from '../core/holdout/ledger.js';
import type { SplitSizes, StratumSize } from '../core/holdout/split.js';
import { formatDelta, plural } from './format.js';
import { fixed3, textTable } from './text-table.js';
import { codeQuoted, inertText } from './untrusted.js';

/** The words of the holdout guard: split sizes, the questions a pull request leaves out, the release evaluation and the ledger. */

export function holdoutLeftOutText(count: number): string {
  return `${plural(count, 'holdout question')} not looked at (left out: the holdout is evaluated once, before a release)`;
}

const percent = (share: number) => `${(share * 100).toFixed(1)}%`;
/** A share as points to one decimal, with a true minus sign: 0.042 → "4.2". */
const points = (share: number) => {
  const text = Math.abs(share * 100).toFixed(1);
  return share < 0 && text !== '0.0' ? `−${text}` : text;
};

function sizeRow(name: string, size: StratumSize): string[] {
  return [name, String(size.questions), String(size.holdout), String(size.development), percent(size.share)];
}

/** What `split` prints: where the file went, what happened to existing questions, and the sizes per tag. */
export function renderSplitText(
  file: string,
  sizes: SplitSizes,
  drawn: { readonly kept: number; readonly added: number; readonly dropped: number; readonly rotated: boolean; readonly share: number },
): string {
  const how = drawn.rotated
    ? 'drawn anew (--rotate): a fresh holdout, never looked at'
    : drawn.kept > 0
      ? `${plural(drawn.kept, 'question')} kept on their side, ${plural(drawn.added, 'new question')} assigned, ${plural(drawn.dropped, 'question')} no longer in the golden set dropped`
      : 'drawn';
  const rows = [
    ['tag', 'questions', 'holdout', 'development', 'holdout share'],
    sizeRow('(all)', sizes.overall),
    ...Object.entries(sizes.byTag).map(([tag, size]) => sizeRow(tag, size)),
    ...(sizes.untagged === null || Object.keys(sizes.byTag).length === 0 ? [] : [sizeRow('(untagged)', sizes.untagged)]),
  ];
  return `rag-gate split: ${inertText(file, 200)}: ${how}; target holdout share ${percent(drawn.share)}\n${textTable(rows)}\n`;
}

/** The article's reading of the headline gap, in one sentence. */
export function gapReadingText(metric: GapMetric, reading: GapReading): string {
  const gap = metric.gap!;
  const [low, high] = metric.ci!;
  const band = `${EXPECTED_GAP.low * 100}–${EXPECTED_GAP.high * 100} points`;
  const direction = gap >= 0 ? `${points(gap)} points lower` : `${points(-gap)} points higher`;
  const measured = `${metricLabel(metric.metric)} is ${direction} on the holdout than on the development questions (gap ${points(gap)} points, 95% CI ${points(low)} to ${points(high)})`;
  const unsure = reading.certain ? '' : '; the interval reaches beyond this band, so more holdout questions would be needed to be sure';
  switch (reading.kind) {
    case 'small':
      return `${measured}: less than the ${band} the reference expects, no sign that the pipeline was fitted to the development questions${unsure}.`;
    case 'expected':
      return `${measured}: within the ${band} the reference expects from a pipeline tuned on its development questions${unsure}.`;
    case 'overfit':
      return `${measured}: more than the ${band} the reference expects: ${reading.certain ? '' : 'a sign that '}the pipeline was fitted to the development questions (chunking, k, thresholds or prompts tuned to them), and its development numbers overstate what users will see${unsure}.`;
  }
}

function metricLabel(metric: string): string {
  return metric === 'correct' ? 'End-to-end correctness' : metric === 'retrieval_ok' ? 'Retrieval success' : metric;
}

/** The ledger's verdict in one sentence. */
export function ledgerText(status: LedgerStatus): string {
  if (status.clean) return 'This is the first look at this holdout: it was clean until now. Do not tune on what it shows.';
  return `The holdout has been looked at ${plural(status.looks, 'time')} (for ${plural(status.looks, 'commit')}) since it was drawn: it is no longer a clean holdout, since what was learnt from each look leaks into the pipeline. Draw a new one with rag-gate split --rotate.`;
}

function gapRows(evaluation: HoldoutEvaluation): string[][] {
  return evaluation.metrics.map((metric) => [
    metric.metric,
    fixed3(metric.development.value),
    fixed3(metric.holdout.value),
    metric.gap === null ? '' : formatDelta(metric.gap),
    metric.ci === null ? '' : `[${formatDelta(metric.ci[0])}, ${formatDelta(metric.ci[1])}]`,
    `${metric.development.n}/${metric.holdout.n}`,
  ]);
}

function notes(evaluation: HoldoutEvaluation): string[] {
  return [
    evaluation.holdoutMissing.length > 0
      ? `${plural(evaluation.holdoutMissing.length, 'holdout question')} missing from the results: the gap is measured without them.`
      : '',
    evaluation.unassigned.length > 0
      ? `${plural(evaluation.unassigned.length, 'question')} in the results but not in the holdout file (added to the golden set since the split) left out; run rag-gate split to assign them.`
      : '',
    evaluation.headline === null ? 'No question carries correct or retrieval_ok on both sides: there is no gap to read.' : '',
  ].filter(Boolean);
}

/** What `holdout` prints. */
export function renderHoldoutText(files: string, evaluation: HoldoutEvaluation, ledger: LedgerStatus): string {
  const sections = [
    `rag-gate holdout: ${inertText(files, 400)}: ${plural(evaluation.development, 'development question')}, ${plural(evaluation.holdout, 'holdout question')}`,
  ];
  if (evaluation.headline !== null && evaluation.reading !== null) sections.push(gapReadingText(evaluation.headline, evaluation.reading));
  if (evaluation.metrics.length > 0)
    sections.push(
      `Gap = development − holdout\n${textTable([['metric', 'development', 'holdout', 'gap', '95% CI', 'n (dev/holdout)'], ...gapRows(evaluation)])}`,
    );
  sections.push(...notes(evaluation), ledgerText(ledger));
  return `${sections.join('\n\n')}\n`;
}

/** The job summary of a release evaluation (GitHub Markdown); its only outside text is inert and quoted. */
export function renderHoldoutMarkdown(evaluation: HoldoutEvaluation, ledger: LedgerStatus): string {
  const lines = [
    `### rag-gate: holdout evaluation`,
    '',
    `${plural(evaluation.development, 'development question')}, ${plural(evaluation.holdout, 'holdout question')}.`,
    '',
  ];
  if (evaluation.headline !== null && evaluation.reading !== null) lines.push(`**${gapReadingText(evaluation.headline, evaluation.reading)}**`, '');
  if (evaluation.metrics.length > 0) {
    lines.push('| metric | development | holdout | gap | 95% CI | n (dev/holdout) |', '|---|---:|---:|---:|---|---:|');
    for (const row of gapRows(evaluation)) lines.push(`| \`${row[0]}\` | ${row.slice(1).join(' | ')} |`);
    lines.push('');
  }
  for (const note of notes(evaluation)) lines.push(note, '');
  lines.push(ledger.clean ? ledgerText(ledger) : `> [!WARNING]\n> ${ledgerText(ledger)}`, '');
  if (ledger.earlier.length > 0) {
    lines.push('Earlier looks at this holdout:', '');
    for (const entry of ledger.earlier)
      lines.push(`- ${codeQuoted(entry.date, 40)}, commit ${codeQuoted(entry.commit ?? 'unknown', 40)}, by ${codeQuoted(entry.by, 100)}`);
    lines.push('');
  }
  return lines.join('\n');
}

/** `holdout --json` and the release report: the evaluation, the reading and the ledger, each with its words. */
export function holdoutJson(look: { readonly evaluation: HoldoutEvaluation; readonly ledger: LedgerStatus; readonly entry: LedgerEntry }) {
  const { evaluation, ledger, entry } = look;
  return {
    ...evaluation,
    reading:
      evaluation.reading === null || evaluation.headline === null
        ? null
        : { ...evaluation.reading, metric: evaluation.headline.metric, message: gapReadingText(evaluation.headline, evaluation.reading) },
    expectedGap: EXPECTED_GAP,
    ledger: { looks: ledger.looks, clean: ledger.clean, earlier: ledger.earlier, message: ledgerText(ledger) },
    entry,
  };
}
