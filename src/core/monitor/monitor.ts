import { holmAdjust } from '../stats/holm.js';
import { newcombeInterval, twoProportionTest } from '../stats/two-proportions.js';
import { wilsonInterval } from '../stats/wilson.js';
import type { CandidatePair, TurnColumns } from './turns.js';
import { cutWindows, type WindowBounds, type WindowPlan } from './windows.js';

/** The two production signals: a user asking again (rephrase) and the system declining to answer (refusal). */
export const MONITORED_RATES = ['rephrase', 'refusal'] as const;
export type MonitoredRate = (typeof MONITORED_RATES)[number];

export interface MonitorSettings {
  readonly plan: WindowPlan;
  /** A pair is a rephrase when its similarity is at least this. */
  readonly threshold: number;
  /** One-sided level of each window's tests, after Holm's correction across the two rates. */
  readonly alpha: number;
  /** An alert needs the rate above its ceiling as well as a significant rise. */
  readonly ceilings: Readonly<Record<MonitoredRate, number>>;
}

/** A rate in one window: `count` of `n`, its value (null when n = 0) and Wilson 95% interval. */
export interface WindowRate {
  readonly count: number;
  readonly n: number;
  readonly value: number | null;
  readonly interval: readonly [number, number] | null;
}

/** One rate of a window against the same rate of its baseline window. */
export interface RateChange {
  /** This window's rate − the baseline's. */
  readonly difference: number;
  /** Newcombe's hybrid score 95% interval of the difference. */
  readonly interval: readonly [number, number];
  /** The pooled two-proportion z statistic. */
  readonly z: number;
  /** One-sided p-value of a rise (this window above the baseline). */
  readonly pValue: number;
  /** Holm-adjusted across the two rates of this window. */
  readonly adjustedPValue: number;
  readonly significant: boolean;
  readonly aboveCeiling: boolean;
  /** Significant rise and above the ceiling. */
  readonly alert: boolean;
}

export interface MonitorWindow extends WindowBounds {
  readonly index: number;
  readonly turns: number;
  readonly sessions: number;
  readonly rates: Readonly<Record<MonitoredRate, WindowRate>>;
  /** Against the nearest earlier window with turns; null for the first such window. */
  readonly comparison: { readonly baseline: number; readonly changes: Readonly<Record<MonitoredRate, RateChange>> } | null;
  readonly alerts: readonly MonitoredRate[];
}

/** How the current window stands on a rate: an alert; above its ceiling without a significant rise; or fine. */
export type RateStatus = 'alert' | 'elevated' | 'ok';

export interface MonitorReport {
  readonly windows: readonly MonitorWindow[];
  /** The last window: the one a scheduled run acts on. */
  readonly current: number;
  readonly status: Readonly<Record<MonitoredRate, RateStatus>>;
  readonly turns: number;
  readonly sessions: number;
  /** Candidate pairs compared (a next query within the rephrase window) and those found similar. */
  readonly pairs: number;
  readonly rephrases: number;
  /** Turns whose refusal came from the text detector (no `refused` field). */
  readonly refusalsDetected: number;
  readonly settings: MonitorSettings;
}

/** The turns whose candidate pair (`similarities[i]` for `pairs[i]`) is at least the threshold: the rephrased turns. */
export function rephrasedTurns(pairs: readonly CandidatePair[], similarities: readonly number[], threshold: number): Set<number> {
  return new Set(pairs.flatMap((pair, i) => (similarities[i]! >= threshold ? [pair.first] : [])));
}

function windowRate(count: number, n: number): WindowRate {
  return { count, n, value: n === 0 ? null : count / n, interval: n === 0 ? null : wilsonInterval(count, n) };
}

/**
 * The monitor's report: each window's rephrase and refusal rates, each window (with turns) tested against the
 * nearest earlier one, and the alerts. A turn counts as rephrased when its candidate pair's similarity
 * (`similarities[i]` for `pairs[i]`) is at least the threshold; the rephrase rate is rephrased turns / turns and the
 * refusal rate refused turns / turns, in the window of the turn's time. Needs at least one turn.
 */
export function monitorReport(turns: TurnColumns, pairs: readonly CandidatePair[], similarities: readonly number[], settings: MonitorSettings): MonitorReport {
  const rephrased = new Uint8Array(turns.size);
  let rephrases = 0;
  pairs.forEach((pair, i) => {
    if (similarities[i]! >= settings.threshold && rephrased[pair.first] === 0) {
      rephrased[pair.first] = 1;
      rephrases++;
    }
  });
  const { windows: bounds, windowOf } = cutWindows(turns.at, settings.plan);
  const counts = bounds.map(() => ({ turns: 0, rephrase: 0, refusal: 0, sessions: new Set<number>() }));
  for (let i = 0; i < turns.size; i++) {
    const window = counts[windowOf[i]!]!;
    window.turns++;
    window.sessions.add(turns.session[i]!);
    window.rephrase += rephrased[i]!;
    window.refusal += turns.refused[i]!;
  }
  const windows: MonitorWindow[] = [];
  let baseline: number | null = null;
  bounds.forEach((bound, index) => {
    const count = counts[index]!;
    const rates = { rephrase: windowRate(count.rephrase, count.turns), refusal: windowRate(count.refusal, count.turns) };
    let comparison: MonitorWindow['comparison'] = null;
    if (baseline !== null && count.turns > 0) {
      const before = windows[baseline]!.rates;
      const tests = MONITORED_RATES.map((rate) => {
        const proportions = { count1: rates[rate].count, n1: rates[rate].n, count2: before[rate].count, n2: before[rate].n };
        return { proportions, test: twoProportionTest(proportions) };
      });
      const adjusted = holmAdjust(tests.map(({ test }) => test.upperPValue));
      const changes = Object.fromEntries(
        MONITORED_RATES.map((rate, i) => {
          const { proportions, test } = tests[i]!;
          const significant = adjusted[i]! < settings.alpha;
          const aboveCeiling = rates[rate].value! > settings.ceilings[rate];
          const change: RateChange = {
            difference: rates[rate].value! - before[rate].value!,
            interval: newcombeInterval(proportions),
            z: test.z,
            pValue: test.upperPValue,
            adjustedPValue: adjusted[i]!,
            significant,
            aboveCeiling,
            alert: significant && aboveCeiling,
          };
          return [rate, change];
        }),
      ) as Record<MonitoredRate, RateChange>;
      comparison = { baseline, changes };
    }
    const alerts = comparison === null ? [] : MONITORED_RATES.filter((rate) => comparison.changes[rate].alert);
    windows.push({ ...bound, index, turns: count.turns, sessions: count.sessions.size, rates, comparison, alerts });
    if (count.turns > 0) baseline = index;
  });
  const current = windows.at(-1)!;
  const status = Object.fromEntries(
    MONITORED_RATES.map((rate): [MonitoredRate, RateStatus] => {
      if (current.alerts.includes(rate)) return [rate, 'alert'];
      const value = current.rates[rate].value;
      return [rate, value !== null && value > settings.ceilings[rate] ? 'elevated' : 'ok'];
    }),
  ) as Record<MonitoredRate, RateStatus>;
  return {
    windows,
    current: current.index,
    status,
    turns: turns.size,
    sessions: turns.sessionIds.length,
    pairs: pairs.length,
    rephrases,
    refusalsDetected: turns.refusalsDetected,
    settings,
  };
}
