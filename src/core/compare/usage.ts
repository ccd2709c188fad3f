import normalCdf from '@stdlib/stats-base-dists-normal-cdf';
import { USAGE_QUANTILES, type UsageMeasure } from '../catalog/metrics.js';
import { meanIntervals } from '../stats/mean-interval.js';
import { pairedMeanSampleSize } from '../stats/power.js';
import { pairedRatioIntervals } from '../stats/quantile.js';
import { signFlipPValue } from '../stats/randomization.js';
import type { CompareConfig, UsageNoise, UsageRise, UsageTest } from './types.js';

/** Questions kept in a usage test's list of the largest rises. */
export const USAGE_RISES_KEPT = 10;

/** One usage column on the paired questions: values, and with repeats each side's runs and spread per pair. */
export interface UsagePairs {
  readonly base: Float64Array;
  readonly head: Float64Array;
  readonly ids: readonly string[];
  readonly questions: readonly string[];
  /** Runs behind each pair's value, and their sample variance (NaN below two runs); absent without repeats. */
  readonly repeats?: {
    readonly baseRuns: Float64Array;
    readonly headRuns: Float64Array;
    readonly baseSpread: Float64Array;
    readonly headSpread: Float64Array;
  };
}

/**
 * What a question cost, base against head, on the pairs where both sides carry the measure: null when none does.
 *
 * The test is the paired sign-flip randomization test (as for the graded metrics) on each question's difference:
 * of the logarithms for latency, whose changes are ratios (a bigger reranker adds a share of the time, not a fixed
 * number of milliseconds) and whose spread grows with its size, and of the values for tokens and dollars, which
 * add up to the bill. On the log scale the mean difference is the log of the geometric-mean ratio, the number the
 * tolerance is compared with, so test and tolerance speak of one quantity; a pair with a 0 has no logarithm and is
 * left out (counted). The sign-flip test needs only that a question's two sides are exchangeable when nothing
 * changed, which run-to-run noise of either shape keeps, and it rounds no rank ties as Wilcoxon's normal
 * approximation does.
 */
export function usageTest(measure: UsageMeasure, pairs: UsagePairs, config: CompareConfig, tolerance: number | null): UsageTest | null {
  const log = measure.scale === 'log';
  const kept: number[] = [];
  let zeros = 0;
  for (let i = 0; i < pairs.base.length; i++) {
    const b = pairs.base[i]!;
    const h = pairs.head[i]!;
    if (Number.isNaN(b) || Number.isNaN(h)) continue;
    if (log && (b === 0 || h === 0)) zeros++;
    else kept.push(i);
  }
  const n = kept.length;
  if (n === 0) return null;
  const base = Float64Array.from(kept, (i) => pairs.base[i]!);
  const head = Float64Array.from(kept, (i) => pairs.head[i]!);
  const differences = Float64Array.from(kept, (_, j) => (log ? Math.log(head[j]!) - Math.log(base[j]!) : head[j]! - base[j]!));
  const amounts = Float64Array.from(kept, (_, j) => head[j]! - base[j]!);
  const seed = measure.column;
  const { pValue, permutations, monteCarloSE, tailBound } = signFlipPValue(differences, { permutations: config.permutations, seed, alpha: config.alpha });
  const [tested, delta] = meanIntervals([differences, amounts], { seed });
  const ratios = pairedRatioIntervals(base, head, USAGE_QUANTILES, { seed });
  const meanDifference = mean(differences);
  const ratio = log ? Math.exp(meanDifference) : ratios.mean.ratio;
  const ratioCi: readonly [number, number] = log ? [Math.exp(tested!.ci[0]), Math.exp(tested!.ci[1])] : ratios.mean.ci;
  const significant = pValue < config.alpha;
  let squares = 0;
  for (const d of differences) squares += (d - meanDifference) ** 2;
  const sd = Math.sqrt(squares / Math.max(1, n - 1));
  const needed = significant || sd === 0 ? Infinity : pairedMeanSampleSize({ meanDifference, sdDifference: sd, alpha: config.alpha });
  return {
    kind: 'usage',
    metric: measure.column,
    gate: null,
    unit: measure.unit,
    scale: measure.scale,
    n,
    base: ratios.mean.base,
    head: ratios.mean.head,
    delta: mean(amounts),
    ci: delta!.ci,
    ciMethod: delta!.method,
    pValue,
    permutations,
    monteCarloSE,
    tailBound,
    adjustedPValue: null,
    significant,
    gateOutcome: null,
    requiredN: Number.isFinite(needed) && needed > n ? needed : null,
    ratio,
    ratioCi,
    quantiles: ratios.quantiles.map((r, k) => ({ q: USAGE_QUANTILES[k]!, ...r })),
    tolerance,
    rises: largestRises(pairs, kept, log),
    zeros,
    noise: pairs.repeats === undefined ? null : noiseOf(pairs, kept, log, tolerance ?? DEFAULT_NOISE_RISE),
  };
}

/** The rise a report-only measure's noise floor counts beyond: the tolerance's default. */
const DEFAULT_NOISE_RISE = 0.1;

function mean(values: Float64Array): number {
  let sum = 0;
  for (const value of values) sum += value;
  return sum / values.length;
}

/** The questions that rose most: by ratio on the log scale, by amount otherwise; ties by id. */
function largestRises(pairs: UsagePairs, kept: readonly number[], log: boolean): UsageRise[] {
  const rise = (i: number) => (log ? pairs.head[i]! / pairs.base[i]! : pairs.head[i]! - pairs.base[i]!);
  return kept
    .filter((i) => pairs.head[i]! > pairs.base[i]!)
    .sort((a, b) => rise(b) - rise(a) || (pairs.ids[a]! < pairs.ids[b]! ? -1 : pairs.ids[a]! > pairs.ids[b]! ? 1 : 0))
    .slice(0, USAGE_RISES_KEPT)
    .map((i) => ({ id: pairs.ids[i]!, question: pairs.questions[i]!, base: pairs.base[i]!, head: pairs.head[i]! }));
}

/**
 * The noise floor, as the pass rates' (noise-floor.ts): over the questions base ran at least twice, how many rose
 * by more than `rise` (a share), and how many would by noise alone. A question's own runs give its spread s² (both
 * sides' runs pooled, as no change would have them); with no change its two means differ by a normal amount of
 * variance s²(1/runs in base + 1/runs in head), on the log scale for latency, and the chance that this exceeds the
 * rise is summed over the questions.
 */
function noiseOf(pairs: UsagePairs, kept: readonly number[], log: boolean, rise: number): UsageNoise | null {
  const repeats = pairs.repeats!;
  let questions = 0;
  let rose = 0;
  let expected = 0;
  for (const i of kept) {
    const baseRuns = repeats.baseRuns[i]!;
    const headRuns = repeats.headRuns[i]!;
    const baseSpread = repeats.baseSpread[i]!;
    if (baseRuns < 2 || headRuns < 1 || Number.isNaN(baseSpread)) continue;
    const headSpread = repeats.headSpread[i]!;
    const pooled = Number.isNaN(headSpread) ? baseSpread : ((baseRuns - 1) * baseSpread + (headRuns - 1) * headSpread) / (baseRuns + headRuns - 2);
    const b = pairs.base[i]!;
    const h = pairs.head[i]!;
    const threshold = log ? Math.log1p(rise) : rise * b;
    questions++;
    if (log ? h / b > 1 + rise : h - b > threshold) rose++;
    const sd = Math.sqrt(pooled * (1 / baseRuns + 1 / headRuns));
    expected += sd === 0 ? 0 : 1 - normalCdf(threshold / sd, 0, 1);
  }
  return questions === 0 ? null : { questions, rose, expected };
}
