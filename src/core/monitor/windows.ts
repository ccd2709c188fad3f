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
export function cutWindows(times: ArrayLike<number>, plan: WindowPlan): { windows: WindowBounds[]; windowOf: Int32Array } {
  const windowOf = new Int32Array(times.length);
  if (plan.kind === 'deploys') {
    const at = [...new Set(plan.at)].sort((a, b) => a - b);
    const windows: WindowBounds[] = [null, ...at].map((start, i) => ({ start, end: at[i] ?? null }));
    for (let i = 0; i < times.length; i++) {
      // The deploys at or before the time (they ascend).
      let low = 0;
      let high = at.length;
      while (low < high) {
        const middle = (low + high) >>> 1;
        if (at[middle]! <= times[i]!) low = middle + 1;
        else high = middle;
      }
      windowOf[i] = low;
    }
    return { windows, windowOf };
  }
  const { lengthMs } = plan;
  let low = Infinity;
  let high = -Infinity;
  for (let i = 0; i < times.length; i++) {
    low = Math.min(low, times[i]!);
    high = Math.max(high, times[i]!);
  }
  const first = Math.floor(low / lengthMs);
  const last = Math.floor(high / lengthMs);
  if (last - first + 1 > MAX_WINDOWS)
    throw new SettingError(`the log spans ${last - first + 1} windows of ${lengthMs / 1000} s, more than ${MAX_WINDOWS}; use a longer window (such as 1d)`);
  const windows: WindowBounds[] = [];
  for (let k = first; k <= last; k++) windows.push({ start: k * lengthMs, end: (k + 1) * lengthMs });
  for (let i = 0; i < times.length; i++) windowOf[i] = Math.floor(times[i]! / lengthMs) - first;
  return { windows, windowOf };
}
