import { MetricNameError, parseRetrievalMetric } from '../catalog/retrieval-metrics.js';
import { RUN_METRICS, type RunSummary } from '../scoring/summary.js';
import type { CompareConfig, PairedTest } from './compare.js';

export const GATE_CATEGORIES = ['retrieval', 'end-to-end', 'generation', 'refusal'] as const;
export type GateCategory = (typeof GATE_CATEGORIES)[number];

export type Verdict = 'pass' | 'fail';

/**
 * What a gated test's significant drop did: failed the check, or only warned because it was smaller than the
 * minimum effect or came from an uncalibrated judge. Null when the test shows no significant drop.
 */
export type GateOutcome = 'fails' | 'below-minimum-effect' | 'uncalibrated-judge';

/** An absolute bound on a head metric: `recall@5>=0.8` (a floor) or `false_refusal_rate<=0.1` (a ceiling). */
export interface Floor {
  readonly metric: string;
  readonly op: '>=' | '<=';
  readonly value: number;
}

const RUN_METRIC_SET: ReadonlySet<string> = new Set(RUN_METRICS);

export function isRunMetric(name: string): boolean {
  return RUN_METRIC_SET.has(name);
}

/** Parses `metric=x`, `metric>=x` or `metric<=x`; the metric must be one rag-gate reports. */
export function parseFloor(text: string): Floor {
  const match = /^\s*([^<>=\s]+)\s*(>=|<=|=)\s*([^\s]+)\s*$/.exec(text);
  if (!match) throw new MetricNameError(`floor "${text}" must look like "recall@5=0.8" (head at least 0.8) or "false_refusal_rate<=0.1"`);
  const [, name = '', op, valueText = ''] = match;
  const value = Number(valueText);
  if (!Number.isFinite(value)) throw new MetricNameError(`floor "${text}": "${valueText}" is not a number`);
  const metric = isRunMetric(name) ? name : parseRetrievalMetric(name).name;
  return { metric, op: op === '<=' ? '<=' : '>=', value };
}

/** How a floor fared on head: its value, and whether it held, broke (failing the check) or could not be checked. */
export interface FloorCheck {
  readonly floor: Floor;
  readonly value: number | null;
  readonly outcome: 'holds' | 'broken' | 'unchecked' | 'uncalibrated-judge';
}

function formatFloor(floor: Floor): string {
  return `${floor.metric} ${floor.op === '>=' ? '≥' : '≤'} ${floor.value}`;
}

const p4 = (p: number) => (p < 0.0001 ? p.toExponential(1) : p.toFixed(4));

function describeDrop(test: PairedTest, config: CompareConfig): string {
  const metric = test.metric === 'retrieval_ok' ? `retrieval ok (${config.eval.retrievalOk.name})` : test.metric;
  const counts = test.kind === 'mcnemar' ? `, ${test.broken} broken vs ${test.fixed} fixed` : '';
  return `${metric} ${test.base.toFixed(3)} → ${test.head.toFixed(3)}${counts}, p = ${p4(test.pValue)}, Holm-adjusted ${p4(test.adjustedPValue ?? test.pValue)} < α ${config.alpha}`;
}

/**
 * The verdict: fail when a gated test shows a significant drop (after Holm) at least `minEffect` large, or
 * when a floor is broken. Improvements never fail; a significant drop below the minimum effect only warns.
 */
export function decideGate(
  tests: readonly PairedTest[],
  head: RunSummary,
  config: CompareConfig,
  blocked: ReadonlyMap<string, string> = new Map(),
): { verdict: Verdict; reasons: string[]; warnings: string[]; outcomes: Map<GateCategory, GateOutcome>; floors: FloorCheck[] } {
  const reasons: string[] = [];
  const warnings: string[] = [];
  const outcomes = new Map<GateCategory, GateOutcome>();
  for (const category of config.failOn) {
    const test = tests.find((t) => t.gate === category);
    if (test === undefined) {
      warnings.push(`cannot gate ${category}: no paired question carries its outcome in both runs`);
      continue;
    }
    if (!test.significant || test.delta >= 0) continue;
    const uncalibrated = blocked.get(test.metric);
    if (uncalibrated !== undefined) {
      outcomes.set(category, 'uncalibrated-judge');
      warnings.push(`${category} dropped significantly (${describeDrop(test, config)}), but it does not gate: ${uncalibrated}`);
    } else if (-test.delta < config.minEffect) {
      outcomes.set(category, 'below-minimum-effect');
      warnings.push(`${category} dropped significantly but by less than the minimum effect ${config.minEffect}: ${describeDrop(test, config)}`);
    } else {
      outcomes.set(category, 'fails');
      reasons.push(`${category} regressed significantly: ${describeDrop(test, config)}`);
    }
  }
  const floors = config.floors.map((floor): FloorCheck => {
    const value = head.metrics[floor.metric]?.value ?? null;
    if (value === null) {
      reasons.push(`floor ${formatFloor(floor)} cannot be checked: no head question carries ${floor.metric}`);
      return { floor, value, outcome: 'unchecked' };
    }
    if (floor.op === '>=' ? value >= floor.value : value <= floor.value) return { floor, value, outcome: 'holds' };
    const broken = `floor broken: ${floor.metric} is ${value.toFixed(3)} in head, the floor is ${formatFloor(floor)}`;
    const uncalibrated = blocked.get(floor.metric);
    if (uncalibrated !== undefined) {
      warnings.push(`${broken}, but it does not gate: ${uncalibrated}`);
      return { floor, value, outcome: 'uncalibrated-judge' };
    }
    reasons.push(broken);
    return { floor, value, outcome: 'broken' };
  });
  return { verdict: reasons.length > 0 ? 'fail' : 'pass', reasons, warnings, outcomes, floors };
}
