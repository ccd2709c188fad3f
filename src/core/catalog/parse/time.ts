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
  if (typeof value === 'string') {
    const utc = plainUtc(value);
    if (utc !== undefined) return utc;
  }
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

const digit = (text: string, at: number) => text.charCodeAt(at) - 0x30;
const digits = (text: string, at: number, count: number) => {
  let value = 0;
  for (let i = at; i < at + count; i++) {
    const d = digit(text, i);
    if (!(d >= 0 && d <= 9)) return Number.NaN;
    value = value * 10 + d;
  }
  return value;
};

/**
 * The time of `YYYY-MM-DDThh:mm:ssZ` or `YYYY-MM-DDThh:mm:ss.sssZ` (what `toISOString` writes, and most logs), read
 * by hand when each part is plainly in range (days up to 28, so that every month has them), as Date.parse reads it;
 * undefined for any other text, which parseTimestamp reads the long way.
 */
function plainUtc(text: string): number | undefined {
  if (!(text.length === 20 || (text.length === 24 && text[19] === '.'))) return undefined;
  if (text[4] !== '-' || text[7] !== '-' || text[10] !== 'T' || text[13] !== ':' || text[16] !== ':' || text[text.length - 1] !== 'Z') return undefined;
  const year = digits(text, 0, 4);
  const month = digits(text, 5, 2);
  const day = digits(text, 8, 2);
  const hour = digits(text, 11, 2);
  const minute = digits(text, 14, 2);
  const second = digits(text, 17, 2);
  const ms = text.length === 24 ? digits(text, 20, 3) : 0;
  // NaN fails every comparison: a part that is not digits falls through too.
  if (!(year >= 1000 && month >= 1 && month <= 12 && day >= 1 && day <= 28 && hour <= 23 && minute <= 59 && second <= 59 && ms >= 0)) return undefined;
  return Date.UTC(year, month - 1, day, hour, minute, second, ms);
}
