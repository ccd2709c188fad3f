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
