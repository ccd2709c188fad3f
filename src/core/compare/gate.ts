import { scoreMetric } from '../catalog/scores.js';
import type { GateName } from '../catalog/gates.js';
import type { Floor } from '../catalog/parse/floor.js';
import type { RunSummary } from '../scoring/summary.js';
import type {
  CompareConfig,
  Coverage,
  Drop,
  FloorCheck,
  GateDataLost,
  GateOutcome,
  GateReason,
  GateWarning,
  PairedTest,
  Rise,
  UsageTest,
  Verdict,
} from './types.js';

function rise(test: UsageTest, gate: GateName, alpha: number, tolerance: number): Rise {
  return {
    gate,
    metric: test.metric,
    scale: test.scale,
    ratio: test.ratio,
    ratioCi: test.ratioCi,
    pValue: test.pValue,
    adjustedPValue: test.adjustedPValue ?? test.pValue,
    alpha,
    tolerance,
  };
}

/**
 * The metric a floor reads on head: its own, or, when no head question carries a metric of rag-gate's, the score
 * of that name another tool wrote (a Ragas `faithfulness` column for `faithfulness>=0.8`).
 */
function floorReads(floor: Floor, head: RunSummary): string {
  const own = head.metrics[floor.metric];
  const score = scoreMetric(floor.metric);
  return (own === undefined || own.n === 0) && head.metrics[score] !== undefined ? score : floor.metric;
}

function drop(test: Exclude<PairedTest, UsageTest>, gate: GateName, alpha: number): Drop {
  const counts =
    test.kind === 'mcnemar' ? { broken: test.broken, fixed: test.fixed } : test.rates ? { broken: test.rates.broken, fixed: test.rates.fixed } : {};
  return {
    gate,
    metric: test.metric,
    base: test.base,
    head: test.head,
    delta: test.delta,
    pValue: test.pValue,
    adjustedPValue: test.adjustedPValue ?? test.pValue,
    alpha,
    ...counts,
  };
}

/** Scores other tools write that measure retrieval against gold contexts: what a retrieval gate without gold ids can gate on. */
const RETRIEVAL_SCORES = ['context_recall', 'contextual_recall', 'context_precision', 'contextual_precision', 'context_entity_recall'];

/** Why a metric may not gate: the judged field whose judge is uncalibrated, by metric (test or floor) name. */
export type BlockedMetrics = ReadonlyMap<string, string>;

/**
 * The verdict: fail when a gated test shows a significant drop (after Holm) at least `minEffect` large, when a
 * gate's data is in base but not in head (`lost`), or when a floor is broken or cannot be checked. Improvements
 * never fail; a significant drop below the minimum effect, or from an uncalibrated judge, only warns. A usage gate
 * (latency, tokens, cost) fails on a significant rise whose head/base ratio exceeds 1 + its tolerance; a
 * significant rise within the tolerance only warns.
 */
export function decideGate(
  tests: readonly PairedTest[],
  head: RunSummary,
  config: CompareConfig,
  coverage: Coverage,
  blocked: BlockedMetrics = new Map(),
  lost: readonly GateDataLost[] = [],
): { verdict: Verdict; ungated: boolean; reasons: GateReason[]; warnings: GateWarning[]; outcomes: Map<GateName, GateOutcome>; floors: FloorCheck[] } {
  const reasons: GateReason[] = [];
  // Measuring less must not pass: too few pairs, or too much of the base left out, fails.
  if (coverage.paired < config.minPaired) reasons.push({ kind: 'too-few-paired', paired: coverage.paired, minPaired: config.minPaired });
  if (coverage.share < config.minCoverage) {
    reasons.push({
      kind: 'low-coverage',
      compared: coverage.compared,
      baseQuestions: coverage.baseQuestions,
      share: coverage.share,
      minCoverage: config.minCoverage,
    });
  }
  const warnings: GateWarning[] = [];
  const outcomes = new Map<GateName, GateOutcome>();
  for (const gate of config.failOn) {
    const test = tests.find((t) => t.gate === gate);
    const dataLost = lost.find((l) => l.gate === gate);
    // The head dropped what the base measured: untested is not passed.
    if (dataLost !== undefined) {
      reasons.push({ kind: 'gate-data-lost', ...dataLost });
      continue;
    }
    if (test === undefined) {
      const standIns = gate === 'retrieval' ? RETRIEVAL_SCORES.map(scoreMetric).filter((score) => head.metrics[score] !== undefined) : [];
      warnings.push(standIns.length > 0 ? { kind: 'gate-untestable', gate, standIns } : { kind: 'gate-untestable', gate });
      continue;
    }
    if (test.kind === 'usage') {
      // What a question cost fails on a rise: a significant one beyond the tolerance.
      if (!test.significant || !(test.ratio > 1)) continue;
      const tolerance = test.tolerance ?? 0;
      if (test.ratio - 1 > tolerance) {
        outcomes.set(gate, 'fails');
        reasons.push({ kind: 'rose', ...rise(test, gate, config.alpha, tolerance) });
      } else {
        outcomes.set(gate, 'within-tolerance');
        warnings.push({ kind: 'rise-within-tolerance', ...rise(test, gate, config.alpha, tolerance) });
      }
      continue;
    }
    if (!test.significant || test.delta >= 0) continue;
    const field = blocked.get(test.metric);
    if (field !== undefined) {
      outcomes.set(gate, 'uncalibrated-judge');
      warnings.push({ kind: 'drop-from-uncalibrated-judge', field, ...drop(test, gate, config.alpha) });
    } else if (-test.delta < config.minEffect) {
      outcomes.set(gate, 'below-minimum-effect');
      warnings.push({ kind: 'drop-below-minimum-effect', minEffect: config.minEffect, ...drop(test, gate, config.alpha) });
    } else {
      outcomes.set(gate, 'fails');
      reasons.push({ kind: 'regressed', ...drop(test, gate, config.alpha) });
    }
  }
  const floors = config.floors.map((floor): FloorCheck => {
    const reads = floorReads(floor, head);
    const value = head.metrics[reads]?.value ?? null;
    if (value === null) {
      reasons.push({ kind: 'floor-unchecked', floor });
      return { floor, reads, value, outcome: 'unchecked' };
    }
    if (floor.op === '>=' ? value >= floor.value : value <= floor.value) return { floor, reads, value, outcome: 'holds' };
    const field = blocked.get(floor.metric);
    if (field !== undefined) {
      warnings.push({ kind: 'floor-from-uncalibrated-judge', floor, value, field });
      return { floor, reads, value, outcome: 'uncalibrated-judge' };
    }
    reasons.push({ kind: 'floor-broken', floor, reads, value });
    return { floor, reads, value, outcome: 'broken' };
  });
  const ungated = config.floors.length === 0 && lost.length === 0 && ![...config.failOn].some((gate) => tests.some((t) => t.gate === gate));
  return { verdict: reasons.length > 0 ? 'fail' : 'pass', ungated, reasons, warnings, outcomes, floors };
}
