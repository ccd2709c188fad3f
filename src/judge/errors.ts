/** Why one judge call (and so one record's metric) failed; recorded on the record and counted. */
export type JudgeErrorKind =
  /** `--max-calls` was used up before this call could be made. */
  | 'budget'
  /** The reply did not parse or did not match the expected JSON shape, on every attempt; or it was too large (not retried). */
  | 'invalid_reply'
  /** The endpoint answered with an error status that retrying does not fix (400, 422…). */
  | 'http'
  /** Still rate-limited (429) or failing (5xx) after the last attempt, or asked to wait too long. */
  | 'unavailable'
  /** No complete reply within `--timeout-ms`, on every attempt. */
  | 'timeout'
  /** The connection broke (reset, closed early) on every attempt. */
  | 'network'
  /** A batch did not answer the request (it failed, expired or was cancelled) and `--batch-fallback none` sent none. */
  | 'batch';

/** One judge call failed for good: the record is marked with a judge error and counted, never scored. */
export class JudgeCallError extends Error {
  override name = 'JudgeCallError';
  constructor(
    readonly kind: JudgeErrorKind,
    message: string,
  ) {
    super(message);
  }
}

/**
 * The judge cannot work at all: no API key, a base URL fetch refuses (a bad port such as :9), an endpoint that
 * cannot be reached (at once for an unknown host or a TLS failure, after every attempt for a refused connection),
 * or one that rejects the key, the path or the model. The run stops, nothing is written, and the CLI exits 2 (a
 * setup problem, like bad input).
 */
export class JudgeSetupError extends Error {
  override name = 'JudgeSetupError';
}
