import type { Code, RootContent } from 'mdast';
import { type History, linearTrend, series, type Trend } from '../core/history/history.js';
import type { RunSummary } from '../core/scoring/summary.js';
import { testSubject } from './gate-words.js';
import { paragraph } from './mdast.js';
import { textTable } from './text-table.js';
import { dollarPhrasing, formatAmount } from './usage-words.js';

/** The trend of the base branch's runs: the table, the Mermaid chart for the comment, the SVG for the CLI. */

/** Base-branch runs the comment's trend covers. */
export const TREND_RUNS = 10;

/** Metrics the trend shows by default: the gated rates, where the history has them. */
export const TREND_METRICS = ['retrieval_ok', 'correct'] as const;

/** What a question cost, charted in the comment beside the rates where the history has it. */
export const USAGE_TREND_METRICS = ['latency_p95', 'cost_per_question'] as const;

/** How a trend's metric is drawn and read: a rate in percent and points, or an amount in its unit. */
interface TrendScale {
  /** The y axis' label. */
  readonly axis: string;
  /** A value as the chart plots it. */
  readonly plotted: (value: number) => number;
  /** A change's size in words, without its sign: "4.0 points", "120 ms". */
  readonly size: (change: number, digits: number) => string;
  /** Rates live in [0, 100] on the chart. */
  readonly bounded: boolean;
}

const RATE_SCALE: TrendScale = {
  axis: '%',
  plotted: (value) => value * 100,
  size: (change, digits) => `${Math.abs(change * 100).toFixed(digits)} points`,
  bounded: true,
};

const USAGE_SCALES: Readonly<Record<string, TrendScale>> = {
  latency_p95: { axis: 'ms', plotted: (value) => value, size: (change) => formatAmount(Math.abs(change), 'ms'), bounded: false },
  cost_per_question: { axis: 'USD', plotted: (value) => value, size: (change) => formatAmount(Math.abs(change), 'usd'), bounded: false },
};

const scaleOf = (metric: string): TrendScale => USAGE_SCALES[metric] ?? RATE_SCALE;

/** A commit as a label: its first 7 hex characters (the history's schema allows nothing else). */
const short = (commit: string) => commit.slice(0, 7);

/** The metric's name in a chart title or a reading: the gated test's subject, the rule for retrieval. */
function metricWords(metric: string, rule: string): string {
  if (metric === 'latency_p95') return 'p95 latency';
  if (metric === 'cost_per_question') return 'cost a question';
  return metric === 'retrieval_ok' ? `retrieval ok (${rule})` : testSubject(metric, rule);
}

/** "has fallen 4.0 points over the last 10 runs": the fitted change, in points for a rate, in its unit for an amount. */
function changeWords(metric: string, trend: Trend): string {
  const scale = scaleOf(metric);
  const steady = scale === RATE_SCALE ? Math.abs(trend.change * 100).toFixed(1) === '0.0' : trend.change === 0;
  if (steady) return `has held steady over the last ${trend.points} runs`;
  return `has ${trend.change < 0 ? 'fallen' : 'risen'} ${scale.size(trend.change, 1)} over the last ${trend.points} runs`;
}

/**
 * The one-line reading of a trend, with its test: "Retrieval ok (hit@5) has fallen 4.0 points over the last 10
 * runs (least-squares slope −0.44 points a run, 95% CI −0.71 to −0.17): a significant decline." A trend that is
 * not significant is not read as a fall or a rise: "… shows no significant trend over the last 4 runs (…)."
 */
export function trendReading(metric: string, trend: Trend, rule: string): string {
  const words = metricWords(metric, rule);
  const subject = `${words.charAt(0).toUpperCase()}${words.slice(1)}`;
  const scale = scaleOf(metric);
  // A rate's interval is in points, as its slope is: "−0.44 points a run, 95% CI −0.71 to −0.17".
  const signed = (value: number, unit = true) => {
    const text = scale.size(value, 2);
    const shown = unit || scale !== RATE_SCALE ? text : text.replace(/ points$/, '');
    return value < 0 && Number.parseFloat(shown.replace(/^\$/, '')) !== 0 ? `−${shown}` : shown;
  };
  const slope = `least-squares slope ${signed(trend.slope)} a run, 95% CI ${signed(trend.ci[0], false)} to ${signed(trend.ci[1], false)}`;
  if (!trend.significant) return `${subject} shows no significant trend over the last ${trend.points} runs (${slope}).`;
  return `${subject} ${changeWords(metric, trend)} (${slope}): ${trend.slope < 0 ? 'a significant decline' : 'a significant rise'}.`;
}

/** The points of a metric's trend: the last base runs, and the pull request's value last when there is one. */
export function trendPoints(history: History, metric: string, head: number | undefined, last = TREND_RUNS): { label: string; value: number }[] {
  const base = series(history, metric, last).map((point) => ({ label: short(point.commit), value: point.value }));
  return head === undefined ? base : [...base, { label: 'PR', value: head }];
}

/** A category label as Mermaid reads it: a plain word as it is, anything else (dates, times) in double quotes. */
const axisLabel = (label: string) => (/^[A-Za-z0-9_]+$/.test(label) ? label : `"${label.replace(/["\\]/g, '')}"`);

/**
 * A Mermaid `xychart-beta` line chart of a rate in percent (or, with `scale`, of an amount in its unit); labels are
 * our own (hex commits, "PR", window dates).
 */
export function mermaidChart(title: string, points: readonly { label: string; value: number }[], scale: TrendScale = RATE_SCALE): Code {
  const values = points.map((point) => scale.plotted(point.value));
  const [low, high] = scale.bounded
    ? [Math.max(0, Math.floor(Math.min(...values) / 5) * 5 - 5), Math.min(100, Math.ceil(Math.max(...values) / 5) * 5 + 5)]
    : [Math.max(0, +(Math.min(...values) * 0.9).toPrecision(2)), +(Math.max(...values) * 1.1).toPrecision(2)];
  return {
    type: 'code',
    lang: 'mermaid',
    value: [
      'xychart-beta',
      `  title "${title.replaceAll('"', "'")}"`,
      `  x-axis [${points.map((point) => axisLabel(point.label)).join(', ')}]`,
      `  y-axis "${scale.axis}" ${low} --> ${high}`,
      `  line [${values.map((value) => (scale.bounded ? value.toFixed(1) : String(+value.toPrecision(4)))).join(', ')}]`,
    ].join('\n'),
  };
}

/** One gated rate's trend: its points (the last base runs, the pull request last) and the line through them. */
export interface MetricTrend {
  readonly metric: string;
  readonly points: readonly { readonly label: string; readonly value: number }[];
  /** How many of the points are base runs (the rest is the pull request's). */
  readonly baseRuns: number;
  /** Null below the trend test's fewest points (`TREND_MIN_POINTS`): the runs are then charted and not read. */
  readonly trend: Trend | null;
}

/**
 * The trend of each gated rate (and of p95 latency and cost a question) the history holds with at least 2 points: the last base runs with the pull
 * request as the last point. The trend test runs on the base runs and the PR together.
 */
export function metricTrends(history: History, head: Readonly<Record<string, number | undefined>>): MetricTrend[] {
  return [...TREND_METRICS, ...USAGE_TREND_METRICS].flatMap((metric) => {
    const points = trendPoints(history, metric, head[metric]);
    if (points.length < 2) return [];
    return [{ metric, points, baseRuns: points.length - (head[metric] === undefined ? 0 : 1), trend: linearTrend(points.map((point) => point.value)) }];
  });
}

/** The comment's trend section: for each gated rate the history holds, a chart and its reading. */
export function trendSection(history: History, head: Readonly<Record<string, number | undefined>>, rule: string): RootContent[] {
  return metricTrends(history, head).flatMap(({ metric, points, baseRuns, trend }) => [
    mermaidChart(
      `${metricWords(metric, rule)} (${scaleOf(metric).axis}), the last ${baseRuns} runs of the base branch${baseRuns < points.length ? ' and this PR' : ''}`,
      points,
      scaleOf(metric),
    ),
    ...(trend === null ? [] : [paragraph(...dollarPhrasing(trendReading(metric, trend, rule)))]),
  ]);
}

/** The trends for report.json: each metric's points, its line and the reading. */
export function trendJson(history: History, head: Readonly<Record<string, number | undefined>>, rule: string) {
  return metricTrends(history, head).map((item) => ({ ...item, reading: item.trend === null ? null : trendReading(item.metric, item.trend, rule) }));
}

/** The history as a text table: commit, date, questions, and each metric with its interval. */
export function historyText(history: History, metrics: readonly string[]): string {
  const header = ['commit', 'date', 'n', ...metrics];
  const rows = history.runs.map((run) => [
    short(run.commit),
    run.date.slice(0, 10),
    String(run.n),
    ...metrics.map((metric) => {
      const value = run.metrics[metric];
      if (value === undefined) return '—';
      return value.ci === undefined ? value.value.toFixed(3) : `${value.value.toFixed(3)} [${value.ci[0].toFixed(3)}, ${value.ci[1].toFixed(3)}]`;
    }),
  ]);
  return textTable([header, ...rows]);
}

const SVG_WIDTH = 800;
const SVG_HEIGHT = 320;
const COLORS = ['#0969da', '#cf222e', '#1a7f37', '#8250df'];

/** The history's metrics as an SVG line chart (a value from 0 to 1 per run, oldest left), for local use. */
export function historySvg(history: History, metrics: readonly string[], title: string): string {
  const left = 50;
  const right = 160;
  const top = 40;
  const bottom = 50;
  const width = SVG_WIDTH - left - right;
  const height = SVG_HEIGHT - top - bottom;
  const runs = history.runs;
  const x = (i: number) => left + (runs.length <= 1 ? width / 2 : (i * width) / (runs.length - 1));
  const y = (value: number) => top + (1 - value) * height;
  const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${SVG_WIDTH}" height="${SVG_HEIGHT}" viewBox="0 0 ${SVG_WIDTH} ${SVG_HEIGHT}" font-family="sans-serif" font-size="12">`,
    `<rect width="100%" height="100%" fill="#fff"/>`,
    `<text x="${left}" y="24" font-size="15">${escape(title)}</text>`,
  ];
  for (const tick of [0, 0.25, 0.5, 0.75, 1]) {
    parts.push(`<line x1="${left}" x2="${left + width}" y1="${y(tick)}" y2="${y(tick)}" stroke="#d0d7de"/>`);
    parts.push(`<text x="${left - 8}" y="${y(tick) + 4}" text-anchor="end">${tick.toFixed(2)}</text>`);
  }
  runs.forEach((run, i) => {
    if (runs.length <= 12 || i % Math.ceil(runs.length / 12) === 0 || i === runs.length - 1) {
      parts.push(`<text x="${x(i)}" y="${top + height + 18}" text-anchor="middle" font-family="monospace" font-size="10">${escape(short(run.commit))}</text>`);
    }
  });
  metrics.forEach((metric, m) => {
    const color = COLORS[m % COLORS.length]!;
    const points = runs.flatMap((run, i) => (run.metrics[metric] === undefined ? [] : [[x(i), y(run.metrics[metric].value)] as const]));
    if (points.length === 0) return;
    parts.push(
      `<polyline fill="none" stroke="${color}" stroke-width="2" points="${points.map(([px, py]) => `${px.toFixed(1)},${py.toFixed(1)}`).join(' ')}"/>`,
    );
    for (const [px, py] of points) parts.push(`<circle cx="${px.toFixed(1)}" cy="${py.toFixed(1)}" r="3" fill="${color}"/>`);
    parts.push(`<rect x="${left + width + 16}" y="${top + m * 20}" width="12" height="12" fill="${color}"/>`);
    parts.push(`<text x="${left + width + 34}" y="${top + m * 20 + 11}">${escape(metric)}</text>`);
  });
  parts.push('</svg>');
  return `${parts.join('\n')}\n`;
}

/**
 * Where the history a run continues (on push) or charts (on a pull request) came from, as the action found out;
 * the words are made by historyNote.
 */
export type HistorySource =
  /** The `history` file the workflow restored, or one it keeps. */
  | { readonly kind: 'file'; readonly file: string; readonly runs: number }
  /** The history file in the newest baseline artifact. */
  | { readonly kind: 'artifact'; readonly artifact: string; readonly run: RunLink; readonly entry: string; readonly runs: number }
  /** No push run of this workflow on the branch still has the artifact: the first run, or it expired. */
  | { readonly kind: 'no-artifact'; readonly artifact: string; readonly branch: string; readonly days: number }
  /** The newest artifact holds no history file: it was uploaded before the history was kept, or without it. */
  | { readonly kind: 'no-history'; readonly artifact: string; readonly run: RunLink; readonly file: string }
  /** The artifact's history file exists but cannot be read: the earlier runs are lost. */
  | { readonly kind: 'unreadable'; readonly artifact: string; readonly run: RunLink; readonly entry: string; readonly detail: string }
  /** The GitHub API failed while looking for the artifact. */
  | { readonly kind: 'lookup-failed'; readonly artifact: string; readonly branch: string; readonly forbidden: boolean; readonly detail: string };

interface RunLink {
  readonly id: number;
  readonly url: string;
}

/**
 * The log line for a history's source: a warning when earlier runs are lost (on push the history then restarts
 * with this run; on a pull request the comment goes without a trend), else an info line. The history never gates.
 */
export function historyNote(source: HistorySource, on: 'push' | 'pull-request'): { readonly warning: boolean; readonly title: string; readonly text: string } {
  const title = on === 'push' ? 'rag-gate: history restarted' : 'rag-gate: no trend';
  const restart = on === 'push' ? 'A new history starts with this run' : 'The comment shows no trend of the base branch';
  const artifactOf = (artifact: string, run: RunLink) => `the artifact ${artifact} of run ${run.id} (${run.url})`;
  switch (source.kind) {
    case 'file':
      return { warning: false, title, text: `history: ${source.file}, ${source.runs} runs` };
    case 'artifact':
      return { warning: false, title, text: `history: ${source.entry} in ${artifactOf(source.artifact, source.run)}, ${source.runs} runs` };
    case 'no-artifact':
      return {
        warning: false,
        title,
        text: `history: no successful push run of this workflow on ${source.branch} in the last ${source.days} days has an artifact ${source.artifact} (the first run, or it expired). ${restart}.`,
      };
    case 'no-history':
      return {
        warning: false,
        title,
        text: `history: ${artifactOf(source.artifact, source.run)} holds no ${source.file} (it was uploaded before rag-gate kept a history, or without it). ${restart}.`,
      };
    case 'unreadable':
      return {
        warning: true,
        title,
        text: `rag-gate could not read the history ${source.entry} in ${artifactOf(source.artifact, source.run)}: ${source.detail}. ${restart}${on === 'push' ? ': the trend of the earlier runs is lost' : ''}.`,
      };
    case 'lookup-failed':
      // Only a push looks the artifact up for its history; a pull request's comes with its baseline.
      return {
        warning: true,
        title,
        text: `rag-gate could not look for the history in the artifact ${source.artifact} on ${source.branch}: ${source.detail}. ${restart}: the trend of the earlier runs is lost unless you ${source.forbidden ? 'add actions: read under permissions: and ' : ''}re-run this job.`,
      };
  }
}

/** The head run's values of the trend's metrics, from its summary. */
export function trendHead(summary: RunSummary): Record<string, number | undefined> {
  return Object.fromEntries([...TREND_METRICS, ...USAGE_TREND_METRICS].map((metric) => [metric, summary.metrics[metric]?.value ?? undefined]));
}

/** The log line once a push run has written the history, naming the upload it needs. */
export function historyWrittenNote(file: string, runs: number, artifact: string): string {
  return `history written: ${file}, ${runs} run${runs === 1 ? '' : 's'}; upload it with the results as the artifact ${artifact}, so that the next push run continues it and pull requests chart it`;
}
