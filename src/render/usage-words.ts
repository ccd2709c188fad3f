import { usageGateOf } from '../core/catalog/gates.js';
import { USAGE_MEASURES, usageMeanMetric, usageMeasure, usageQuantileMetric, usageTotalMetric } from '../core/catalog/metrics.js';
import type { RunSummary } from '../core/scoring/summary.js';
import type { Comparison, PairedTest, Rise, UsageTest } from '../core/compare/types.js';
import type { PhrasingContent } from 'mdast';
import { formatP } from './format.js';
import { prose } from './mdast.js';
import { grouped } from '../core/grouped.js';

/** The words every renderer uses for what a question cost: latency, tokens and dollars, their ratios and rises. */

/** "latency", "retrieval latency", "prompt tokens", "cost": a usage column as reports name it. */
export function usageName(column: string): string {
  return (usageMeasure(column)?.prefix ?? column).replaceAll('_', ' ');
}

/** An amount in its unit: 820 ms, 1.82 s; 1,234 (tokens); $0.00213 (three significant digits below a dollar). */
export function formatAmount(value: number, unit: UsageTest['unit']): string {
  if (!Number.isFinite(value)) return String(value);
  switch (unit) {
    case 'ms':
      return value >= 1000 ? `${+(value / 1000).toFixed(2)} s` : `${+value.toPrecision(3)} ms`;
    case 'tokens':
      return grouped(Math.round(value));
    case 'usd':
      return `$${dollarDigits(value)}`;
  }
}

/** Dollars to the cent from $1 up, else to three significant digits, written out (never 2.51e-7). */
function dollarDigits(value: number): string {
  if (value >= 1 || value === 0) return value.toFixed(2);
  const digits = Math.min(15, 2 - Math.floor(Math.log10(value)));
  return value.toFixed(digits).replace(/0+$/, '');
}

/** "×1.31" for a ratio. */
export function formatRatio(ratio: number): string {
  return Number.isFinite(ratio) ? `×${ratio.toFixed(2)}` : 'no ratio (0 in base)';
}

/** "×1.31 (95% CI ×1.25 to ×1.37)". */
export function ratioWords(ratio: number, ci: readonly [number, number]): string {
  return `${formatRatio(ratio)} (95% CI ${formatRatio(ci[0])} to ${formatRatio(ci[1])})`;
}

/** The ratio a usage test reads: of the geometric means on the log scale, of the means otherwise. */
export function ratioKind(scale: UsageTest['scale']): string {
  return scale === 'log' ? 'geometric-mean ratio' : 'ratio of means';
}

export const isUsageTest = (test: PairedTest): test is UsageTest => test.kind === 'usage';

/**
 * The usage tests the comment shows: the end-to-end measures that have a gate (latency, tokens, cost); the stages
 * and the prompt/completion split are in the text and JSON reports.
 */
export const isHeadlineUsage = (test: PairedTest): test is UsageTest => test.kind === 'usage' && (test.gate !== null || usageGateOf(test.metric) !== undefined);

/** A usage test got worse (rose) or better (fell) significantly; other tests by the sign of Δ. */
export function worsened(test: PairedTest): boolean {
  return test.kind === 'usage' ? test.ratio > 1 : test.delta < 0;
}

/** The p95 of a usage test, base → head: "p95 1.82 s → 2.37 s". */
function p95Words(test: UsageTest): string {
  const p95 = test.quantiles.find((q) => q.q === 0.95);
  return p95 === undefined ? '' : `p95 ${formatAmount(p95.base, test.unit)} → ${formatAmount(p95.head, test.unit)}`;
}

/** "latency p95 1.82 s → 1.85 s" or, for amounts that add up, "cost $0.0021 → $0.0021 a question". */
export function usageHeadline(test: UsageTest): string {
  return test.unit === 'ms'
    ? `${usageName(test.metric)} ${p95Words(test)}`
    : `${usageName(test.metric)} ${formatAmount(test.base, test.unit)} → ${formatAmount(test.head, test.unit)} a question`;
}

/**
 * The one line for what a question cost when none of it moved significantly: "latency p95 1.82 s → 1.85 s, cost
 * $0.0021 → $0.0021 a question: no significant change". Only the gated measures and the end-to-end ones (latency,
 * tokens, cost) are named; null when the results carry none, or when every one of them moved (rows of the tests table say it).
 */
export function usageLine(comparison: Comparison): string | null {
  const still = comparison.tests.filter(isHeadlineUsage).filter((test) => !test.significant);
  if (still.length === 0) return null;
  return `${still.map(usageHeadline).join(', ')}: no significant change`;
}

/** A significant usage test as evidence: "latency p95 1.82 s → 2.37 s: ×1.31 geometric-mean ratio (95% CI …), p = 0.0001". */
export function usageEvidence(test: UsageTest): string {
  const p = `p ${test.tailBound ? '≤' : '='} ${formatP(test.adjustedPValue ?? test.pValue)}`;
  return `${usageHeadline(test)}: ${ratioKind(test.scale)} ${ratioWords(test.ratio, test.ratioCi)}, ${p}`;
}

/** "latency rose significantly: geometric-mean ratio ×1.31 (95% CI …) beyond the 10% tolerance, p = …, Holm-adjusted … < α 0.05". */
export function riseWords(rise: Rise): string {
  return (
    `${ratioKind(rise.scale)} ${ratioWords(rise.ratio, rise.ratioCi)}, tolerance ${+(rise.tolerance * 100).toFixed(2)}%, ` +
    `p = ${formatP(rise.pValue)}, Holm-adjusted ${formatP(rise.adjustedPValue)} < α ${rise.alpha}`
  );
}

/** "the 10% tolerance": for the role cell and the notes. */
export function toleranceWords(test: UsageTest): string {
  return `${+((test.tolerance ?? 0) * 100).toFixed(2)}% tolerance`;
}

/** One quantile's row of words: "p95 1.82 s → 2.37 s ×1.30 (95% CI ×1.21 to ×1.40)". */
export function quantileWords(test: UsageTest): string[] {
  return test.quantiles.map(
    (q) => `p${Math.round(q.q * 100)} ${formatAmount(q.base, test.unit)} → ${formatAmount(q.head, test.unit)} ${ratioWords(q.ratio, q.ci)}`,
  );
}

/** "over 40 questions run at least twice in base, 6 rose beyond 10%, 1.2 expected from run-to-run noise". */
export function usageNoiseWords(test: UsageTest): string | null {
  if (test.noise === null) return null;
  const { questions, rose, expected } = test.noise;
  const rise = `${+((test.tolerance ?? 0.1) * 100).toFixed(2)}%`;
  return `of ${grouped(questions)} question${questions === 1 ? '' : 's'} run at least twice in base, ${grouped(rose)} rose beyond ${rise}; run-to-run noise alone would make about ${expected.toFixed(1)} do so`;
}

/** A question's rise: "1.2 s → 2.9 s (×2.42)" or "$0.001 → $0.004 (+$0.003)". */
export function riseCell(test: UsageTest, base: number, head: number): string {
  const change = test.scale === 'log' ? formatRatio(head / base) : `+${formatAmount(head - base, test.unit)}`;
  return `${formatAmount(base, test.unit)} → ${formatAmount(head, test.unit)} (${change})`;
}

/**
 * What a question cost in one run, for a report without a comparison: "latency p95 969 ms (95% CI 900 ms to
 * 1.02 s), tokens 350 a question (74,200 in all), cost $0.0000597 a question ($0.0127 in all)"; null when the
 * results carry none of latency, tokens and cost.
 */
export function usageSummaryLine(summary: RunSummary): string | null {
  const parts = USAGE_MEASURES.filter((measure) => usageGateOf(measure.column) !== undefined).flatMap((measure) => {
    const metric = summary.metrics[measure.unit === 'ms' ? usageQuantileMetric(measure, 0.95) : usageMeanMetric(measure)];
    if (metric?.value === null || metric?.value === undefined) return [];
    const amount = (value: number) => formatAmount(value, measure.unit);
    const ci = metric.ci === undefined ? '' : ` (95% CI ${amount(metric.ci[0])} to ${amount(metric.ci[1])})`;
    const total = usageTotalMetric(measure);
    const sum = total === undefined ? undefined : summary.metrics[total]?.value;
    return [
      measure.unit === 'ms'
        ? `${usageName(measure.column)} p95 ${amount(metric.value)}${ci}`
        : `${usageName(measure.column)} ${amount(metric.value)} a question${ci}${sum === undefined || sum === null ? '' : `, ${amount(sum)} in all`}`,
    ];
  });
  return parts.length === 0 ? null : parts.join('; ');
}

/** A dollar amount in words (with its sign). */
const DOLLAR_AMOUNT = /[+\u2212]?\$[0-9]+(?:[.,][0-9]+)*/g;

/**
 * Our words about money as Markdown, each dollar amount in a code span: GitHub reads text between two dollar signs
 * as a math formula ("$0.001 → $0.004 (+$0.003)" would be one).
 */
export function dollarPhrasing(words: string): PhrasingContent[] {
  const out: PhrasingContent[] = [];
  let start = 0;
  for (const match of words.matchAll(DOLLAR_AMOUNT)) {
    if (match.index > start) out.push(...prose(words.slice(start, match.index)));
    out.push({ type: 'inlineCode', value: match[0] });
    start = match.index + match[0].length;
  }
  if (start < words.length) out.push(...prose(words.slice(start)));
  return out;
}
