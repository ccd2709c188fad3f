import type { RootContent } from 'mdast';
import { type Align, type Cell, details, table } from './mdast.js';
import { plural } from './format.js';

/**
 * The comment's metrics table, calm: the rows that decide or say something first, the rest folded. Any row (a
 * paired test, a latency or cost row) slots in by its flags.
 */
export interface MetricRow {
  readonly cells: readonly Cell[];
  /** Decides the verdict (a gated test): always shown. */
  readonly gated: boolean;
  /** Changed significantly: shown, unless it only measures a gated drop again. */
  readonly significant: boolean;
  /** Words for the gated drop this report row measures again ("retrieval"): folded, since the gated row says it. */
  readonly repeats?: string;
}

/** Shown open: gated rows, then significant rows that repeat no gated drop, each in the order given; the rest folded. */
export function splitMetricRows(rows: readonly MetricRow[]): { readonly shown: readonly MetricRow[]; readonly folded: readonly MetricRow[] } {
  const gated = rows.filter((row) => row.gated);
  const news = rows.filter((row) => !row.gated && row.significant && row.repeats === undefined);
  const folded = rows.filter((row) => !row.gated && !(row.significant && row.repeats === undefined));
  return { shown: [...gated, ...news], folded };
}

/** "6 more metrics: 2 measure the gated retrieval drop again, 4 did not change significantly". */
export function foldedSummary(folded: readonly MetricRow[], more: boolean): string {
  const again = folded.filter((row) => row.repeats !== undefined);
  const gates = [...new Set(again.map((row) => row.repeats!))];
  const quiet = folded.length - again.length;
  const count = plural(folded.length, more ? 'more metric' : 'metric');
  const againWords = (n: number) => `measure${n === 1 ? 's' : ''} the gated ${gates.join(' and ')} drop again`;
  if (again.length === 0) return `${count}, none changed significantly`;
  if (quiet === 0) return `${count} that ${againWords(again.length)}`;
  return `${count}: ${again.length} ${againWords(again.length)}, ${quiet} did not change significantly`;
}

/** The table of the shown rows, and the folded ones under a summary that counts them (all folded: only the fold). */
export function metricsTable(header: readonly Cell[], rows: readonly MetricRow[], align: readonly Align[]): RootContent[] {
  const { shown, folded } = splitMetricRows(rows);
  const tableOf = (part: readonly MetricRow[]) =>
    table(
      header,
      part.map((row) => row.cells),
      align,
    );
  return [...(shown.length > 0 ? [tableOf(shown)] : []), ...(folded.length > 0 ? details(foldedSummary(folded, shown.length > 0), [tableOf(folded)]) : [])];
}
