import { SettingError } from '../../errors.js';

/** Times as settings give them (window lengths, deploy times) and as logs do (each turn's timestamp). */

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
