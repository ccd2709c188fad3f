import tQuantile from '@stdlib/stats-base-dists-t-quantile';
import type { MetricSummary, RunSummary } from '../scoring/summary.js';

/**
 * The base branch's history: one entry per push run, the newest last, bounded. It lives in the user's own
 * repository (the baseline artifact), so that a pull request can show how the gated metrics moved across merges.
 */

/** Runs kept: the oldest are dropped past this. */
export const HISTORY_MAX_RUNS = 100;

/** A metric of one run, as the history keeps it. */
export interface HistoryMetric {
  readonly value: number;
  readonly n: number;
  /** The run's own 95% interval, where the summary has one (Wilson for rates). */
  readonly ci?: readonly [number, number];
}

export interface HistoryEntry {
  /** The commit the results belong to (hex). */
  readonly commit: string;
  /** When the run ran, ISO 8601. */
  readonly date: string;
  /** Questions in the run. */
  readonly n: number;
  readonly metrics: Readonly<Record<string, HistoryMetric>>;
}

export interface History {
  readonly version: 1;
  readonly runs: readonly HistoryEntry[];
}

export const EMPTY_HISTORY: History = { version: 1, runs: [] };

/** A run's summary as a history entry: every metric that has a value, with its n and interval. */
export function historyEntry(summary: RunSummary, commit: string, date: string): HistoryEntry {
  const metrics: Record<string, HistoryMetric> = {};
  for (const [name, metric] of Object.entries(summary.metrics) as [string, MetricSummary][]) {
    if (metric.value === null) continue;
    metrics[name] = { value: metric.value, n: metric.n, ...(metric.ci === undefined ? {} : { ci: metric.ci }) };
  }
  return { commit, date, n: summary.questions, metrics };
}

/**
 * The history with `entry` appended, the newest `max` runs kept. A run of the same commit replaces the earlier
 * entry (a re-run of the push job), so that one commit is one point.
 */
export function appendRun(history: History, entry: HistoryEntry, max = HISTORY_MAX_RUNS): History {
  const runs = [...history.runs.filter((run) => run.commit !== entry.commit), entry];
  return { version: 1, runs: runs.slice(Math.max(0, runs.length - max)) };
}

/** Points of a metric over the last `last` runs, oldest first; runs without it are skipped. */
export function series(history: History, metric: string, last: number): { commit: string; value: number }[] {
  return history.runs.flatMap((run) => (run.metrics[metric] === undefined ? [] : [{ commit: run.commit, value: run.metrics[metric].value }])).slice(-last);
}

/** The fewest points the trend test needs: with fewer a slope has no interval (n − 2 degrees of freedom). */
export const TREND_MIN_POINTS = 3;

/**
 * A linear trend over equally spaced points (one per run): the least-squares slope per run, its 95% interval from
 * Student's t with n − 2 degrees of freedom, and the fitted change from the first point to the last. The trend is
 * significant when the interval excludes 0. Null with fewer than {@link TREND_MIN_POINTS} points.
 */
export interface Trend {
  readonly points: number;
  readonly slope: number;
  readonly ci: readonly [number, number];
  /** slope × (points − 1): how far the fitted line moved over the window. */
  readonly change: number;
  readonly significant: boolean;
}

export function linearTrend(values: readonly number[]): Trend | null {
  const n = values.length;
  if (n < TREND_MIN_POINTS) return null;
  const meanX = (n - 1) / 2;
  const meanY = values.reduce((sum, y) => sum + y, 0) / n;
  let sxx = 0;
  let sxy = 0;
  values.forEach((y, x) => {
    sxx += (x - meanX) ** 2;
    sxy += (x - meanX) * (y - meanY);
  });
  const slope = sxy / sxx;
  let residuals = 0;
  values.forEach((y, x) => (residuals += (y - (meanY + slope * (x - meanX))) ** 2));
  const se = Math.sqrt(residuals / (n - 2) / sxx);
  const half = tQuantile(0.975, n - 2) * se;
  const ci: [number, number] = [slope - half, slope + half];
  // Rounding leaves a flat line a slope of about 1e-17 with no spread: that is no trend.
  const flat = Math.abs(slope) < 1e-12;
  return { points: n, slope, ci, change: slope * (n - 1), significant: !flat && (ci[0] > 0 || ci[1] < 0) };
}
