import { column, type QuestionOutcomes } from '../scoring/outcomes.js';
import { newcombeInterval } from '../stats/two-proportions.js';

/**
 * The release evaluation: the same run's development and holdout questions side by side, and the gap between
 * them. Reference article 004: "Expect a drop of three to eight points; if it is larger, you overfitted badly."
 */

/** The drop (development − holdout, as a share) the reference article expects from an honest pipeline. */
export const EXPECTED_GAP = { low: 0.03, high: 0.08 } as const;

/** Two-sided 95% standard normal quantile. */
const Z95 = 1.959963984540054;

export interface PartSummary {
  /** null when no question of the part carries the metric. */
  readonly value: number | null;
  readonly n: number;
}

export interface GapMetric {
  readonly metric: string;
  /** proportion: Newcombe's interval for a difference of two proportions; mean: Welch's normal interval. */
  readonly kind: 'proportion' | 'mean';
  readonly development: PartSummary;
  readonly holdout: PartSummary;
  /** development − holdout: positive when the holdout does worse. Null when a part lacks the metric. */
  readonly gap: number | null;
  readonly ci: readonly [number, number] | null;
}

/**
 * What the headline gap means: `small` (below the expected 3 points, or the holdout did better), `expected`
 * (3–8 points) or `overfit` (above 8 points: the pipeline was fitted to the development questions). `certain`
 * says whether the whole interval lies in the same band, so that a reader knows when more holdout questions
 * are needed to tell.
 */
export interface GapReading {
  readonly kind: 'small' | 'expected' | 'overfit';
  readonly certain: boolean;
}

export interface HoldoutEvaluation {
  readonly development: number;
  readonly holdout: number;
  /** Results questions the split does not know (added to the golden set after it was drawn): left out. */
  readonly unassigned: readonly string[];
  /** Holdout questions the results lack: the gap is measured without them. */
  readonly holdoutMissing: readonly string[];
  readonly metrics: readonly GapMetric[];
  /** The metric the reading is about: end-to-end correctness, else retrieval success. */
  readonly headline: GapMetric | null;
  readonly reading: GapReading | null;
}

/** Metrics compared as proportions, in headline order. */
const PROPORTIONS = ['correct', 'retrieval_ok'] as const;

function proportionGap(metric: string, values: Float64Array, dev: readonly number[], held: readonly number[]): GapMetric {
  const tally = (rows: readonly number[]) => {
    let n = 0;
    let count = 0;
    for (const row of rows) {
      const value = values[row]!;
      if (Number.isNaN(value)) continue;
      n++;
      if (value === 1) count++;
    }
    return { n, count };
  };
  const d = tally(dev);
  const h = tally(held);
  const part = ({ n, count }: { n: number; count: number }): PartSummary => ({ value: n === 0 ? null : count / n, n });
  const both = d.n > 0 && h.n > 0;
  return {
    metric,
    kind: 'proportion',
    development: part(d),
    holdout: part(h),
    gap: both ? d.count / d.n - h.count / h.n : null,
    ci: both ? newcombeInterval({ count1: d.count, n1: d.n, count2: h.count, n2: h.n }) : null,
  };
}

function meanGap(metric: string, values: Float64Array, dev: readonly number[], held: readonly number[]): GapMetric {
  const moments = (rows: readonly number[]) => {
    const kept = rows.map((row) => values[row]!).filter((value) => !Number.isNaN(value));
    const n = kept.length;
    const mean = n === 0 ? 0 : kept.reduce((sum, value) => sum + value, 0) / n;
    const variance = n < 2 ? 0 : kept.reduce((sum, value) => sum + (value - mean) ** 2, 0) / (n - 1);
    return { n, mean, variance };
  };
  const d = moments(dev);
  const h = moments(held);
  const both = d.n > 0 && h.n > 0;
  const gap = d.mean - h.mean;
  const half = Z95 * Math.sqrt(d.variance / Math.max(1, d.n) + h.variance / Math.max(1, h.n));
  return {
    metric,
    kind: 'mean',
    development: { value: d.n === 0 ? null : d.mean, n: d.n },
    holdout: { value: h.n === 0 ? null : h.mean, n: h.n },
    gap: both ? gap : null,
    ci: both ? [gap - half, gap + half] : null,
  };
}

const band = (gap: number): GapReading['kind'] => (gap < EXPECTED_GAP.low ? 'small' : gap <= EXPECTED_GAP.high ? 'expected' : 'overfit');

export function readGap(gap: number, ci: readonly [number, number]): GapReading {
  const kind = band(gap);
  return { kind, certain: band(ci[0]) === kind && band(ci[1]) === kind };
}

/**
 * Evaluates one run's holdout against its development part. `split` is the holdout file's assignment; results
 * questions in neither list are left out and named.
 */
export function evaluateHoldout(
  run: QuestionOutcomes,
  split: { readonly holdout: ReadonlySet<string>; readonly development: ReadonlySet<string> },
  gradedMetrics: readonly string[],
): HoldoutEvaluation {
  const dev: number[] = [];
  const held: number[] = [];
  const unassigned: string[] = [];
  const present = new Set<string>();
  run.ids.forEach((id, row) => {
    present.add(id);
    if (split.holdout.has(id)) held.push(row);
    else if (split.development.has(id)) dev.push(row);
    else unassigned.push(id);
  });
  const holdoutMissing = [...split.holdout].filter((id) => !present.has(id));
  const carried = (name: string) => run.columns.has(name);
  const metrics = [
    ...PROPORTIONS.filter(carried).map((name) => proportionGap(name, column(run, name), dev, held)),
    ...gradedMetrics.filter(carried).map((name) => meanGap(name, column(run, name), dev, held)),
  ];
  const headline = metrics.find((metric) => metric.kind === 'proportion' && metric.gap !== null) ?? null;
  return {
    development: dev.length,
    holdout: held.length,
    unassigned,
    holdoutMissing,
    metrics,
    headline,
    reading: headline === null ? null : readGap(headline.gap!, headline.ci!),
  };
}
