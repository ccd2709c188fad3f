import type { RootContent } from 'mdast';
import type { MonitoredRate, MonitorReport, MonitorWindow, RateChange, WindowRate } from '../core/monitor/monitor.js';
import { MONITORED_RATES } from '../core/monitor/monitor.js';
import type { WindowPlan } from '../core/monitor/windows.js';
import { formatP, plural } from './format.js';
import { mermaidChart } from './history.js';
import { heading, link, markerComment, paragraph, prose, serialise, table, text } from './mdast.js';
import { textTable } from './text-table.js';
import { codeQuoted, safeHttpUrl } from './untrusted.js';

/** The words of the monitor's report: terminal text, JSON, the job summary and the monitoring issue. */

/** What the report says about the similarity it used. */
export interface SimilarityWords {
  readonly measure: 'lexical' | 'embeddings' | 'openai';
  readonly threshold: number;
  readonly withinMs: number;
  readonly model?: string;
}

const RATE_KEYS: Readonly<Record<MonitoredRate, 'rephraseRate' | 'refusalRate'>> = { rephrase: 'rephraseRate', refusal: 'refusalRate' };
const RATE_WORDS: Readonly<Record<MonitoredRate, string>> = { rephrase: 'rephrase rate', refusal: 'refusal rate' };

/** Windows the job summary and the issue show: the newest ones. */
export const SUMMARY_WINDOWS = 30;

const percent = (value: number) => `${(value * 100).toFixed(1)}%`;
const points = (value: number) => {
  const text = Math.abs(value * 100).toFixed(1);
  return value < 0 && text !== '0.0' ? `−${text}` : value > 0 && text !== '0.0' ? `+${text}` : text;
};
const iso = (ms: number) => new Date(ms).toISOString().replace(/:00\.000Z$/, 'Z');

function durationWords(ms: number): string {
  const units: [number, string][] = [
    [604_800_000, 'week'],
    [86_400_000, 'day'],
    [3_600_000, 'hour'],
    [60_000, 'minute'],
    [1000, 'second'],
  ];
  for (const [size, unit] of units) if (ms % size === 0) return plural(ms / size, unit);
  return `${ms} ms`;
}

/** A window's name: its day (or its start and end) for fixed windows, its deploy bounds for deploy windows. */
export function windowLabel(window: MonitorWindow, plan: WindowPlan): string {
  if (plan.kind === 'deploys') {
    if (window.start === null) return window.end === null ? 'all' : `before ${iso(window.end)}`;
    return window.end === null ? `from ${iso(window.start)}` : `${iso(window.start)} to ${iso(window.end)}`;
  }
  const start = window.start!;
  const day = new Date(start).toISOString().slice(0, 10);
  if (plan.lengthMs === 86_400_000) return day;
  if (plan.lengthMs % 86_400_000 === 0) return `${day} to ${new Date(window.end! - 86_400_000).toISOString().slice(0, 10)}`;
  return new Date(start).toISOString().slice(0, 16).replace('T', ' ');
}

/** A chart's short label for a window. */
function chartLabel(window: MonitorWindow, plan: WindowPlan): string {
  if (plan.kind === 'deploys') return window.start === null ? 'before' : `from ${new Date(window.start).toISOString().slice(5, 16).replace('T', ' ')}`;
  return plan.lengthMs % 86_400_000 === 0
    ? new Date(window.start!).toISOString().slice(5, 10)
    : new Date(window.start!).toISOString().slice(5, 16).replace('T', ' ');
}

function rateCell(rate: WindowRate): string {
  if (rate.value === null) return '—';
  return `${percent(rate.value)} [${(rate.interval![0] * 100).toFixed(1)}, ${(rate.interval![1] * 100).toFixed(1)}] (${rate.count})`;
}

function similarityText(similarity: SimilarityWords): string {
  const measure =
    similarity.measure === 'lexical'
      ? 'lexical (cosine of character trigrams of the content words)'
      : similarity.measure === 'embeddings'
        ? "cosine of the log's embeddings"
        : `cosine of ${similarity.model ?? 'the endpoint'}'s embeddings`;
  return `a query is rephrased when the session's next query comes within ${durationWords(similarity.withinMs)} with similarity ≥ ${similarity.threshold}: ${measure}`;
}

function planText(plan: WindowPlan): string {
  return plan.kind === 'deploys'
    ? `windows cut at ${plural(plan.at.length, 'deploy')} (${plan.at.map(iso).join(', ')})`
    : `windows of ${durationWords(plan.lengthMs)} (UTC)`;
}

/** "rephrase rate 19.4% against 8.1%: +11.3 points (95% CI +9.2 to +13.4), one-sided p = 1.2e-20 (Holm 2.4e-20), a significant rise, above its ceiling 10.0%". */
function changeText(rate: MonitoredRate, window: MonitorWindow, baseline: MonitorWindow, change: RateChange, ceiling: number): string {
  const now = window.rates[rate].value!;
  const before = baseline.rates[rate].value!;
  const verdict = change.alert
    ? `a significant rise above its ceiling ${percent(ceiling)}: ALERT`
    : change.significant
      ? `a significant rise, but not above its ceiling ${percent(ceiling)}`
      : change.aboveCeiling
        ? `no significant rise, but above its ceiling ${percent(ceiling)}`
        : 'no significant rise';
  return (
    `${RATE_WORDS[rate]} ${percent(now)} against ${percent(before)}: ${points(change.difference)} points ` +
    `(95% CI ${points(change.interval[0])} to ${points(change.interval[1])}), one-sided p = ${formatP(change.pValue)} (Holm ${formatP(change.adjustedPValue)}): ${verdict}`
  );
}

const STATUS_WORDS = { alert: 'ALERT: a significant rise above its ceiling', elevated: 'elevated: above its ceiling, no significant rise', ok: 'ok' } as const;

/** The terminal report: the windows' table, the current window against its baseline, and the alerts. */
export function renderMonitorText(files: readonly string[], report: MonitorReport, similarity: SimilarityWords): string {
  const plan = report.settings.plan;
  const rows = report.windows.map((window) => [
    windowLabel(window, plan),
    String(window.turns),
    rateCell(window.rates.rephrase),
    rateCell(window.rates.refusal),
    window.alerts.map((rate) => `${RATE_WORDS[rate]} alert`).join(', '),
  ]);
  const lines = [
    `rag-gate monitor: ${plural(report.turns, 'turn')} in ${plural(report.sessions, 'session')} from ${files.map((file) => codeQuoted(file, 200)).join(', ')}`,
    `${planText(plan)}; ${similarityText(similarity)}`,
    report.refusalsDetected > 0
      ? `${plural(report.refusalsDetected, 'turn')} without a refused field: refusal read from the answer by the text refusal detector`
      : 'every turn has a refused field',
    '',
    textTable([['window', 'turns', 'rephrase rate [95% CI] (count)', 'refusal rate [95% CI] (count)', ''], ...rows]),
    '',
  ];
  const current = report.windows[report.current]!;
  const comparison = current.comparison;
  if (comparison === null) lines.push(`The current window ${windowLabel(current, plan)} has no earlier window to compare with.`);
  else {
    const baseline = report.windows[comparison.baseline]!;
    lines.push(
      `The current window ${windowLabel(current, plan)} against ${windowLabel(baseline, plan)} (alpha ${report.settings.alpha}, Holm across the two rates):`,
    );
    for (const rate of MONITORED_RATES) lines.push(`  ${changeText(rate, current, baseline, comparison.changes[rate], report.settings.ceilings[rate])}`);
  }
  const earlier = report.windows.filter((window) => window.index !== report.current && window.alerts.length > 0);
  if (earlier.length > 0)
    lines.push(
      '',
      `Earlier windows with an alert: ${earlier.map((window) => `${windowLabel(window, plan)} (${window.alerts.map((rate) => RATE_WORDS[rate]).join(', ')})`).join('; ')}`,
    );
  lines.push(
    '',
    ...MONITORED_RATES.map((rate) => `${RATE_WORDS[rate].charAt(0).toUpperCase()}${RATE_WORDS[rate].slice(1)}: ${STATUS_WORDS[report.status[rate]]}`),
  );
  return `${lines.join('\n')}\n`;
}

function rateJson(rate: WindowRate) {
  return { value: rate.value, interval: rate.interval, count: rate.count, n: rate.n };
}

/** The JSON of `monitor --json` and the action's report-json. */
export function monitorJson(files: readonly string[], report: MonitorReport, similarity: SimilarityWords) {
  const plan = report.settings.plan;
  const when = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
  const windows = report.windows.map((window) => ({
    index: window.index,
    label: windowLabel(window, plan),
    start: when(window.start),
    end: when(window.end),
    turns: window.turns,
    sessions: window.sessions,
    rephraseRate: rateJson(window.rates.rephrase),
    refusalRate: rateJson(window.rates.refusal),
    comparison:
      window.comparison === null
        ? null
        : {
            baseline: window.comparison.baseline,
            ...Object.fromEntries(MONITORED_RATES.map((rate) => [RATE_KEYS[rate], window.comparison!.changes[rate]])),
          },
    alerts: window.alerts.map((rate) => RATE_KEYS[rate]),
  }));
  const current = report.windows[report.current]!;
  const alerts = current.alerts.map((rate) => {
    const change = current.comparison!.changes[rate];
    const baseline = report.windows[current.comparison!.baseline]!;
    return {
      rate: RATE_KEYS[rate],
      window: current.index,
      label: windowLabel(current, plan),
      value: current.rates[rate].value,
      baseline: baseline.rates[rate].value,
      baselineWindow: baseline.index,
      difference: change.difference,
      interval: change.interval,
      adjustedPValue: change.adjustedPValue,
      ceiling: report.settings.ceilings[rate],
    };
  });
  return {
    logs: files,
    turns: report.turns,
    sessions: report.sessions,
    refusalsDetected: report.refusalsDetected,
    similarity: {
      measure: similarity.measure,
      threshold: similarity.threshold,
      rephraseWithinSeconds: similarity.withinMs / 1000,
      ...(similarity.model ? { model: similarity.model } : {}),
    },
    candidatePairs: report.pairs,
    rephrases: report.rephrases,
    windowing:
      plan.kind === 'deploys'
        ? { kind: 'deploys', deploys: plan.at.map((at) => new Date(at).toISOString()) }
        : { kind: 'fixed', seconds: plan.lengthMs / 1000 },
    alpha: report.settings.alpha,
    ceilings: { rephraseRate: report.settings.ceilings.rephrase, refusalRate: report.settings.ceilings.refusal },
    windows,
    current: report.current,
    status: { rephraseRate: report.status.rephrase, refusalRate: report.status.refusal },
    alerts,
  };
}

/** The hidden marker that finds the monitoring issue of a comment tag again. */
export function monitorIssueMarker(tag: string): string {
  return `rag-gate-monitor:${tag}`;
}

/** The monitoring issue's title. */
export function monitorIssueTitle(report: MonitorReport): string {
  const rates = MONITORED_RATES.filter((rate) => report.status[rate] !== 'ok').map((rate) => RATE_WORDS[rate]);
  return `rag-gate monitor: ${rates.length > 0 ? rates.join(' and ') : 'rates'} rose in production`;
}

/**
 * The job summary, and with a marker the monitoring issue's body: the status, a Mermaid chart of each rate over the
 * newest windows, the table, and the current window against its baseline.
 */
export function renderMonitorMarkdown(report: MonitorReport, similarity: SimilarityWords, options: { marker?: string; runUrl?: string } = {}): string {
  const plan = report.settings.plan;
  const shown = report.windows.slice(-SUMMARY_WINDOWS).filter((window) => window.turns > 0);
  const current = report.windows[report.current]!;
  const out: RootContent[] = [];
  if (options.marker !== undefined) out.push(markerComment(options.marker));
  out.push(heading(3, 'rag-gate: production monitoring'));
  const alerting = MONITORED_RATES.filter((rate) => report.status[rate] === 'alert');
  out.push(
    paragraph(
      ...prose(
        alerting.length > 0
          ? `Alert: the ${alerting.map((rate) => RATE_WORDS[rate]).join(' and ')} rose significantly in the current window (${windowLabel(current, plan)}), above the ceiling.`
          : `No alert in the current window (${windowLabel(current, plan)}).`,
      ),
    ),
  );
  out.push(
    table(
      ['rate', 'current window', 'status'],
      MONITORED_RATES.map((rate) => [RATE_WORDS[rate], rateCell(current.rates[rate]), STATUS_WORDS[report.status[rate]]]),
    ),
  );
  if (shown.length >= 2) {
    for (const rate of MONITORED_RATES)
      out.push(
        mermaidChart(
          `${RATE_WORDS[rate]} (%) per window`,
          shown.map((window) => ({ label: chartLabel(window, plan), value: window.rates[rate].value! })),
        ),
      );
  }
  if (current.comparison !== null) {
    const baseline = report.windows[current.comparison.baseline]!;
    out.push(
      paragraph(...prose(`The current window against ${windowLabel(baseline, plan)} (alpha ${report.settings.alpha}, one-sided, Holm across the two rates):`)),
    );
    out.push({
      type: 'list',
      ordered: false,
      spread: false,
      children: MONITORED_RATES.map((rate) => ({
        type: 'listItem',
        spread: false,
        children: [paragraph(...prose(changeText(rate, current, baseline, current.comparison!.changes[rate], report.settings.ceilings[rate])))],
      })),
    });
  }
  out.push(
    table(
      ['window', 'turns', 'rephrase rate [95% CI] (count)', 'refusal rate [95% CI] (count)', 'alert'],
      report.windows
        .slice(-SUMMARY_WINDOWS)
        .map((window) => [
          windowLabel(window, plan),
          String(window.turns),
          rateCell(window.rates.rephrase),
          rateCell(window.rates.refusal),
          window.alerts.map((rate) => RATE_WORDS[rate]).join(', '),
        ]),
      [null, 'right', 'right', 'right', null],
    ),
  );
  const notes = [
    `${plural(report.turns, 'turn')} in ${plural(report.sessions, 'session')}; ${planText(plan)}${report.windows.length > SUMMARY_WINDOWS ? `, the newest ${SUMMARY_WINDOWS} shown` : ''}.`,
    `Rephrase: ${similarityText(similarity)}.`,
    report.refusalsDetected > 0
      ? `Refusal: the log's refused field, else the text refusal detector (${plural(report.refusalsDetected, 'turn')}).`
      : "Refusal: the log's refused field.",
  ];
  out.push(paragraph(text(notes.join(' '))));
  const run = options.runUrl === undefined ? null : safeHttpUrl(options.runUrl);
  if (run !== null) out.push(paragraph(text('From '), link(run, 'this workflow run'), text('.')));
  return serialise({ type: 'root', children: out });
}
