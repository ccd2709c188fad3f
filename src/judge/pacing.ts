import type { JudgeClock } from './retry.js';

/**
 * Client-side pacing to an endpoint's rate limits (requests and tokens per minute), so that a limited endpoint is
 * used up to its limit without answering 429. Hand-written rather than p-throttle or bottleneck: the limits are
 * learnt mid-run from reply headers (and per model, as OpenAI reports them), a request's tokens are known only
 * roughly before it is sent and exactly after, and the server's own count of what is left must be able to slow us
 * down; none of those fit a throttle fixed at creation.
 */

export interface PacingLimits {
  /** Requests per minute for all calls together (`--rpm`). */
  readonly rpm?: number;
  /** Tokens per minute for all calls together (`--tpm`). */
  readonly tpm?: number;
}

/** Where a limit in force came from: `--rpm`/`--tpm`, the endpoint's headers, or 429s without headers (adaptive). */
export type LimitSource = 'option' | 'headers' | 'adaptive';

export interface LimitInForce {
  readonly perMinute: number;
  readonly source: LimitSource;
  /** The model whose replies gave it (headers and adaptive: OpenAI limits each model on its own). */
  readonly model?: string;
  /** Adaptive only: how often a 429 cut the rate. */
  readonly cuts?: number;
}

/** What the pacer knew by the end of the run, for the report. */
export interface PacingReport {
  readonly requests: readonly LimitInForce[];
  readonly tokens: readonly LimitInForce[];
  /** Replies with HTTP 429 the pacer saw, whether or not they changed a limit. */
  readonly rateLimited: number;
}

/** Units reserved so far: the server's "remaining" excludes what we sent after the request it answers. */
interface Spent {
  requests: number;
  tokens: number;
}

/**
 * A per-minute allowance spent at an even pace: a token bucket refilled at perMinute/60 s that holds at most one
 * second's worth, so that no burst exceeds what the server refills in a second (OpenAI enforces a minute's limit
 * over shorter periods too). A reservation may take it below zero; the next waits until it is back.
 */
class MinuteAllowance {
  private level: number;
  private at: number;
  spent = 0;

  constructor(
    public perMinute: number,
    now: number,
  ) {
    this.level = this.capacity;
    this.at = now;
  }

  private get perMs(): number {
    return this.perMinute / 60_000;
  }

  private get capacity(): number {
    return Math.max(1, this.perMinute / 60);
  }

  private refill(now: number): void {
    this.level = Math.min(this.capacity, this.level + Math.max(0, now - this.at) * this.perMs);
    this.at = Math.max(this.at, now);
  }

  /** How long until `amount` may be spent: a request larger than the bucket goes once the bucket is full. */
  waitFor(amount: number, now: number): number {
    this.refill(now);
    const need = Math.min(amount, this.capacity);
    return this.level >= need ? 0 : (need - this.level) / this.perMs;
  }

  /** A new rate from now on; what the bucket holds is kept, within the new capacity. */
  setRate(perMinute: number, now: number): void {
    this.refill(now);
    this.perMinute = perMinute;
    this.level = Math.min(this.level, this.capacity);
  }

  spend(amount: number, now: number): void {
    this.refill(now);
    this.level -= amount;
    this.spent += amount;
  }

  /** Never believe more is left than the server says (`serverLevel`), e.g. when another client shares the key. */
  clampTo(serverLevel: number, now: number): void {
    this.refill(now);
    this.level = Math.min(this.level, serverLevel);
  }
}

/** The adaptive rate's multiplicative decrease: a 429 halves it. */
const ADAPTIVE_DECREASE = 0.5;
/** Its additive increase: each request answered after the last cut adds this many requests a minute. */
const ADAPTIVE_INCREASE_PER_SUCCESS = 0.5;
/** It never goes below one request a minute. */
const ADAPTIVE_FLOOR = 1;
const MINUTE_MS = 60_000;

/**
 * A request rate learnt from 429s, for an endpoint that sends no `x-ratelimit-*` headers (AIMD, as TCP's congestion
 * control): a 429 halves it, each request answered after the cut raises it a little, and it never exceeds `--rpm`.
 */
interface AdaptiveRate {
  readonly allowance: MinuteAllowance;
  /** Requests let through up to the last cut: a 429 for one of them was sent at the old rate and cuts nothing. */
  cutAfter: number;
  cuts: number;
}

/** A pair of allowances, either of which may be unknown. */
interface Allowances {
  requests?: MinuteAllowance;
  tokens?: MinuteAllowance;
  /** The request rate learnt from 429s, while no header gave a limit. */
  adaptive?: AdaptiveRate;
  /**
   * Requests let through when the first 429 (without headers) came, which cut nothing: only a 429 for a later
   * request, one sent after the wait the first asked for, shows a limit.
   */
  refusedAfter?: number;
}

/** What a request was charged, so that the reply can settle it. */
export interface Ticket {
  readonly model: string;
  /** Its place in the order requests were let through (1, 2, …). */
  readonly sequence: number;
  readonly estimatedTokens: number;
  /** Units of each per-model allowance spent up to and including this request. */
  readonly spentAfter: Spent;
}

/** A duration as OpenAI writes it in `x-ratelimit-reset-*` (Go's format: `1s`, `6m0s`, `20ms`, `1h2m3.5s`), or seconds. */
export function parseResetDuration(text: string | null): number | undefined {
  if (text === null) return undefined;
  const value = text.trim();
  if (/^\d+(\.\d+)?$/.test(value)) return Number(value) * 1000;
  const unitMs: Record<string, number> = { h: 3_600_000, m: 60_000, s: 1000, ms: 1, us: 0.001, µs: 0.001, ns: 0.000001 };
  // \u00b5s is µs (escaped: scripts/build.mjs keeps the bundle ASCII).
  const parts = [...value.matchAll(/(\d+(?:\.\d+)?)(ms|us|\u00b5s|ns|h|m|s)/g)];
  if (parts.length === 0 || parts.map((part) => part[0]).join('') !== value) return undefined;
  return parts.reduce((sum, [, amount, unit]) => sum + Number(amount) * unitMs[unit!]!, 0);
}

function headerNumber(headers: Headers, name: string): number | undefined {
  const text = headers.get(name)?.trim();
  if (text === undefined || !/^\d+(\.\d+)?$/.test(text)) return undefined;
  return Number(text);
}

/**
 * Paces requests to the limits given as options (shared by every call) and to the limits each model's replies
 * announce in OpenAI's `x-ratelimit-*` headers. Requests are admitted first come, first served; each waits until
 * every allowance that applies has room for one request and its estimated tokens.
 */
export class Pacer {
  private readonly shared: Allowances = {};
  private readonly byModel = new Map<string, Allowances>();
  /** Until when (clock ms) nothing is sent: a 429's Retry-After, or a fixed window the server says is used up. */
  pausedUntil = 0;
  private queue: Promise<void> = Promise.resolve();

  constructor(
    private readonly clock: JudgeClock,
    limits: PacingLimits,
  ) {
    const now = clock.now();
    if (limits.rpm !== undefined) this.shared.requests = new MinuteAllowance(limits.rpm, now);
    if (limits.tpm !== undefined) this.shared.tokens = new MinuteAllowance(limits.tpm, now);
  }

  /** Holds every request back until `until` (clock ms). */
  pause(until: number): void {
    this.pausedUntil = Math.max(this.pausedUntil, until);
  }

  /** Requests let through so far. */
  private admitted = 0;
  /** 429 replies seen, for the report. */
  private rateLimited = 0;
  /** Clock times of the requests answered (2xx) in about the last minute, per model: the rate a first 429 is cut from. */
  private readonly answered = new Map<string, number[]>();

  private allowances(model: string): (MinuteAllowance | undefined)[][] {
    const own = this.byModel.get(model);
    return [
      [this.shared.requests, own?.requests, own?.adaptive?.allowance],
      [this.shared.tokens, own?.tokens],
    ];
  }

  /** Waits for room for one request of about `tokens` tokens to `model`, and charges it. */
  admit(model: string, tokens: number, signal?: AbortSignal): Promise<Ticket> {
    const turn = this.queue.then(async () => {
      const [requestAllowances, tokenAllowances] = this.allowances(model);
      for (;;) {
        const now = this.clock.now();
        const wait = Math.max(
          this.pausedUntil - now,
          ...requestAllowances!.map((allowance) => allowance?.waitFor(1, now) ?? 0),
          ...tokenAllowances!.map((allowance) => allowance?.waitFor(tokens, now) ?? 0),
        );
        if (wait <= 0) break;
        await this.clock.sleep(Math.ceil(wait), signal);
      }
      const now = this.clock.now();
      for (const allowance of requestAllowances!) allowance?.spend(1, now);
      for (const allowance of tokenAllowances!) allowance?.spend(tokens, now);
      const own = this.byModel.get(model);
      return {
        model,
        sequence: ++this.admitted,
        estimatedTokens: tokens,
        spentAfter: { requests: own?.requests?.spent ?? 0, tokens: own?.tokens?.spent ?? 0 },
      };
    });
    // The next in line waits for this one's turn, not for its outcome.
    this.queue = turn.then(
      () => undefined,
      () => undefined,
    );
    return turn;
  }

  /**
   * Settles a request once its reply is in: charges the difference between the tokens it used and the estimate,
   * takes the model's limits from the `x-ratelimit-limit-*` headers when no option set them, and lowers what is
   * left to what `x-ratelimit-remaining-*` says (less what was sent since). Without a known limit, a remaining
   * count of 0 with a reset time holds requests until then (a fixed window).
   */
  settle(ticket: Ticket, usedTokens: number | undefined, headers: Headers | undefined): void {
    const now = this.clock.now();
    if (usedTokens !== undefined) {
      const delta = usedTokens - ticket.estimatedTokens;
      for (const allowance of this.allowances(ticket.model)[1]!) allowance?.spend(delta, now);
    }
    if (headers === undefined) return;
    let own = this.byModel.get(ticket.model);
    const kinds = [['requests', this.shared.requests] as const, ['tokens', this.shared.tokens] as const];
    for (const [kind, sharedAllowance] of kinds) {
      const limit = headerNumber(headers, `x-ratelimit-limit-${kind}`);
      const remaining = headerNumber(headers, `x-ratelimit-remaining-${kind}`);
      if (limit !== undefined && limit > 0 && sharedAllowance === undefined) {
        own ??= {};
        this.byModel.set(ticket.model, own);
        const previous = own[kind];
        if (previous?.perMinute !== limit) {
          own[kind] = new MinuteAllowance(limit, now);
          own[kind].spent = previous?.spent ?? 0;
        }
      }
      if (remaining === undefined) continue;
      const allowance = own?.[kind];
      if (allowance !== undefined) {
        allowance.clampTo(remaining - (allowance.spent - ticket.spentAfter[kind]), now);
      } else if (remaining <= 0 && sharedAllowance === undefined) {
        const reset = parseResetDuration(headers.get(`x-ratelimit-reset-${kind}`));
        if (reset !== undefined) this.pause(now + reset);
      }
    }
  }

  /**
   * Learns from a reply's status when the endpoint announces no request limit. The first 429 cuts nothing: its
   * Retry-After (or the call's backoff) is waited out, and a 429 alone, at the start of a run above all, shows no
   * rate (a run a second old has answered a few requests, and half of those a minute would stall it for minutes).
   * A 429 for a request let through after the first one came, sent after that wait, is a limit: it cuts the model's
   * request rate to half the requests answered in the past minute, and each later one to half the rate (one for a
   * request let through before the last cut cuts nothing, it was sent at the old rate). Each 2xx for a request let
   * through after the last cut raises the rate by ADAPTIVE_INCREASE_PER_SUCCESS, never above `--rpm`.
   */
  observe(ticket: Ticket, status: number, headers: Headers): void {
    const now = this.clock.now();
    const own = this.byModel.get(ticket.model);
    const adaptive = own?.adaptive;
    if (status >= 200 && status < 300) {
      const times = this.answered.get(ticket.model) ?? [];
      times.push(now);
      while (times[0]! <= now - MINUTE_MS) times.shift();
      this.answered.set(ticket.model, times);
      if (adaptive !== undefined && ticket.sequence > adaptive.cutAfter) {
        const ceiling = this.shared.requests?.perMinute ?? Infinity;
        adaptive.allowance.setRate(Math.min(ceiling, adaptive.allowance.perMinute + ADAPTIVE_INCREASE_PER_SUCCESS), now);
      }
      return;
    }
    if (status === 429) this.rateLimited++;
    const announced = ['requests', 'tokens'].some((kind) => headers.has(`x-ratelimit-limit-${kind}`));
    if (status !== 429 || announced || own?.requests !== undefined || own?.tokens !== undefined) return;
    if (adaptive !== undefined && ticket.sequence <= adaptive.cutAfter) return;
    const allowances = own ?? {};
    this.byModel.set(ticket.model, allowances);
    if (adaptive === undefined && (allowances.refusedAfter === undefined || ticket.sequence <= allowances.refusedAfter)) {
      allowances.refusedAfter ??= this.admitted;
      return;
    }
    const recent = (this.answered.get(ticket.model) ?? []).filter((time) => time > now - MINUTE_MS).length;
    const from = adaptive?.allowance.perMinute ?? Math.min(recent, this.shared.requests?.perMinute ?? Infinity);
    // Nothing answered yet: no rate to cut from; the 429's Retry-After holds the calls meanwhile.
    if (from === 0) return;
    const rate = Math.max(ADAPTIVE_FLOOR, from * ADAPTIVE_DECREASE);
    if (adaptive === undefined) {
      allowances.adaptive = { allowance: new MinuteAllowance(rate, now), cutAfter: this.admitted, cuts: 1 };
    } else {
      adaptive.allowance.setRate(rate, now);
      adaptive.cutAfter = this.admitted;
      adaptive.cuts++;
    }
  }

  /** The limits in force, for the report. */
  get report(): PacingReport {
    const collect = (kind: 'requests' | 'tokens'): LimitInForce[] => {
      const shared = this.shared[kind];
      if (shared !== undefined) return [{ perMinute: shared.perMinute, source: 'option' }];
      return [...this.byModel]
        .filter(([, own]) => own[kind] !== undefined)
        .map(([model, own]) => ({ perMinute: own[kind]!.perMinute, source: 'headers' as const, model }));
    };
    const adaptive = [...this.byModel]
      .filter(([, own]) => own.adaptive !== undefined)
      .map(([model, own]) => ({ perMinute: Math.round(own.adaptive!.allowance.perMinute), source: 'adaptive' as const, model, cuts: own.adaptive!.cuts }));
    return { requests: [...collect('requests'), ...adaptive], tokens: collect('tokens'), rateLimited: this.rateLimited };
  }
}
