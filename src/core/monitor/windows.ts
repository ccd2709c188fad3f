import { SettingError } from '../errors.js';

/** How the log's time is cut into windows: fixed lengths aligned to the Unix epoch (UTC), or at deploy times. */
export type WindowPlan = { readonly kind: 'fixed'; readonly lengthMs: number } | { readonly kind: 'deploys'; readonly at: readonly number[] };

/** A window's bounds in ms since the epoch: `start` inclusive, `end` exclusive; null where a deploy window is open-ended. */
export interface WindowBounds {
  readonly start: number | null;
  readonly end: number | null;
}

/** More windows than this is a setting mistake (one-minute windows over a year), not a report. */
export const MAX_WINDOWS = 10_000;

const UNIT_MS: Readonly<Record<string, number>> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };

/** `90s`, `30m`, `6h`, `1d`, `1w`: a positive length of time in milliseconds. */
export function parseDuration(text: string): number {
  const match = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h|d|w)\s*$/.exec(text);
  const value = match === null ? Number.NaN : Number(match[1]) * UNIT_MS[match[2]!]!;
  if (!(value >= 1)) throw new SettingError(`"${text}" is not a length of time such as 60s, 30m, 6h, 1d or 1w`);
  return value;
}

/**
 * A timestamp in ms since the epoch: ISO 8601 with a time zone (Z or ±hh:mm; without one the time is ambiguous), or
 * an epoch number whose size says its unit: below 10^11 seconds, below 10^14 milliseconds, below 10^17
 * microseconds, else nanoseconds (OpenTelemetry's). Undefined when the value is neither.
 */
export function parseTimestamp(value: unknown): number | undefined {
  if (typeof value === 'string' && /^\d+$/.test(value.trim())) return parseTimestamp(Number(value));
  if (typeof value === 'number') {
    if (!Number.isFinite(value) || value < 0) return undefined;
    if (value < 1e11) return value * 1000;
    if (value < 1e14) return value;
    if (value < 1e17) return value / 1000;
    return value / 1e6;
  }
  if (typeof value !== 'string') return undefined;
  if (!/^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/i.test(value.trim())) return undefined;
  const ms = Date.parse(value.trim().replace(' ', 'T'));
  return Number.isNaN(ms) ? undefined : ms;
}

/** The windows that cover `times` (not empty), in order, and the window of each time. */
export function cutWindows(times: readonly number[], plan: WindowPlan): { windows: WindowBounds[]; windowOf: number[] } {
  if (plan.kind === 'deploys') {
    const at = [...new Set(plan.at)].sort((a, b) => a - b);
    const windows: WindowBounds[] = [null, ...at].map((start, i) => ({ start, end: at[i] ?? null }));
    const windowOf = times.map((time) => at.filter((deploy) => deploy <= time).length);
    return { windows, windowOf };
  }
  const { lengthMs } = plan;
  const first = Math.floor(times.reduce((low, time) => Math.min(low, time), Infinity) / lengthMs);
  const last = Math.floor(times.reduce((high, time) => Math.max(high, time), -Infinity) / lengthMs);
  if (last - first + 1 > MAX_WINDOWS)
    throw new SettingError(`the log spans ${last - first + 1} windows of ${lengthMs / 1000} s, more than ${MAX_WINDOWS}; use a longer window (such as 1d)`);
  const windows: WindowBounds[] = [];
  for (let k = first; k <= last; k++) windows.push({ start: k * lengthMs, end: (k + 1) * lengthMs });
  return { windows, windowOf: times.map((time) => Math.floor(time / lengthMs) - first) };
}
