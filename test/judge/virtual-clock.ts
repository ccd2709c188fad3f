import type { JudgeClock } from '../../src/judge/retry.js';
import type { EndpointClock, RecordedRequest } from './openai-endpoint.js';

/** The header that names a request to the clock, so the endpoint can say when it arrived. */
const TRANSIT_HEADER = 'x-test-transit';

interface Sleeper {
  readonly at: number;
  readonly order: number;
  readonly wake: () => void;
}

/**
 * Time that passes only by sleeps, shared by a judge client and the fake endpoint: whenever no request or reply is
 * in transit between them, the clock jumps to the end of the earliest sleep (the endpoint's latency, the client's
 * pacing, a Retry-After). What a run does then depends on those sleeps alone, never on how fast or how busy the
 * machine is, and a minute of rate limit takes no real time. The client must send through `fetch` below (the
 * tests stub the global with it), so that a request counts as in transit until the endpoint has it, and its reply
 * until the client has read the body.
 */
export class VirtualClock implements JudgeClock, EndpointClock {
  private time = Date.now();
  private readonly sleepers: Sleeper[] = [];
  private readonly inTransit = new Set<string>();
  /** Requests whose fetch has not returned: a reply to any other has nobody waiting for it. */
  private readonly open = new Set<string>();
  private sent = 0;
  private slept = 0;
  private advanceQueued = false;

  constructor(private readonly realFetch: typeof fetch) {}

  now(): number {
    return this.time;
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const abort = () => {
        this.sleepers.splice(this.sleepers.indexOf(sleeper), 1);
        reject(signal!.reason);
      };
      const sleeper: Sleeper = {
        at: this.time + Math.max(0, ms),
        order: this.slept++,
        wake: () => {
          signal?.removeEventListener('abort', abort);
          resolve();
        },
      };
      signal?.addEventListener('abort', abort, { once: true });
      this.sleepers.push(sleeper);
      this.queueAdvance();
    });
  }

  arrived(request: RecordedRequest): void {
    this.settle(String(request.headers[TRANSIT_HEADER]));
  }

  replying(request: RecordedRequest): void {
    const id = String(request.headers[TRANSIT_HEADER]);
    if (this.open.has(id)) this.inTransit.add(`${id} reply`);
  }

  /** fetch, with the request in transit until the endpoint has it and the reply until its body is read. */
  readonly fetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const id = String(this.sent++);
    const headers = new Headers(init?.headers);
    headers.set(TRANSIT_HEADER, id);
    this.inTransit.add(id);
    this.open.add(id);
    try {
      const response = await this.realFetch(input, { ...init, headers });
      const body = await response.arrayBuffer();
      return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
    } finally {
      this.open.delete(id);
      this.settle(id);
      this.settle(`${id} reply`);
    }
  };

  private settle(key: string): void {
    this.inTransit.delete(key);
    this.queueAdvance();
  }

  /**
   * Advances after the current turn of the event loop: the sleepers woken last have by then run up to their next
   * wait, a sleep or a request in transit.
   */
  private queueAdvance(): void {
    if (this.advanceQueued) return;
    this.advanceQueued = true;
    setImmediate(() => {
      this.advanceQueued = false;
      if (this.inTransit.size > 0 || this.sleepers.length === 0) return;
      this.sleepers.sort((a, b) => a.at - b.at || a.order - b.order);
      this.time = Math.max(this.time, this.sleepers[0]!.at);
      while (this.sleepers.length > 0 && this.sleepers[0]!.at <= this.time) this.sleepers.shift()!.wake();
      this.queueAdvance();
    });
  }
}
