/**
 * The wait a server asks for in `Retry-After` (delay-seconds or an HTTP date), in milliseconds, or
 * undefined when the header is absent or unreadable. A date in the past means "now" (0).
 */
export function parseRetryAfter(value: string | null | undefined, now: number = Date.now()): number | undefined {
  if (value === null || value === undefined) return undefined;
  const text = value.trim();
  if (text === '') return undefined;
  if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** OpenAI also sends `retry-after-ms`; it wins over `Retry-After` because it is more precise. */
export function retryAfterFromHeaders(headers: Headers, now: number = Date.now()): number | undefined {
  const ms = headers.get('retry-after-ms')?.trim();
  if (ms !== undefined && /^\d+(\.\d+)?$/.test(ms)) return Math.round(Number(ms));
  return parseRetryAfter(headers.get('retry-after'), now);
}

/**
 * Exponential backoff with "equal jitter" before retry number `retry` (1 for the first retry): the ceiling
 * base·2^(retry−1), capped, of which half is waited for sure and half at random, so clients that failed
 * together do not retry together.
 */
export function backoffDelay(retry: number, baseMs: number, random: () => number = Math.random, capMs = 30_000): number {
  const ceiling = Math.min(capMs, baseMs * 2 ** Math.max(0, retry - 1));
  return ceiling / 2 + (random() * ceiling) / 2;
}

/** Where the judge reads the time and how it waits; tests pass a manual clock to check waits without waiting. */
export interface JudgeClock {
  now(): number;
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

/** Resolves after `ms`, or rejects with the signal's reason as soon as it aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
