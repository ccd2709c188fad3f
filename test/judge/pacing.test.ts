import { describe, expect, it } from 'vitest';
import { Pacer, parseResetDuration } from '../../src/judge/pacing.js';
import type { JudgeClock } from '../../src/judge/retry.js';

/** A simulated clock: a sleep moves the time forward at once, so the pacer's schedule is read off `now`. */
function simulatedClock(): JudgeClock & { slept: number[] } {
  let time = 0;
  const slept: number[] = [];
  return {
    slept,
    now: () => time,
    sleep: (ms) => {
      slept.push(ms);
      time += ms;
      return Promise.resolve();
    },
  };
}

/** Admits `count` requests one after another and returns the clock time each was let through at. */
async function admissionTimes(pacer: Pacer, clock: JudgeClock, count: number, tokens = 0, model = 'm'): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    await pacer.admit(model, tokens);
    times.push(clock.now());
  }
  return times;
}

const headers = (values: Record<string, string>) => new Headers(values);

describe('pacing to a rate limit', () => {
  it('--rpm 120: a burst of two (one second of the limit), then one request every 500 ms', async () => {
    const clock = simulatedClock();
    const pacer = new Pacer(clock, { rpm: 120 });
    expect(await admissionTimes(pacer, clock, 6)).toEqual([0, 0, 500, 1000, 1500, 2000]);
  });

  it('never lets more than the limit (plus the one-second burst) through in any minute', async () => {
    const clock = simulatedClock();
    const pacer = new Pacer(clock, { rpm: 90 });
    const times = await admissionTimes(pacer, clock, 400);
    for (const start of times) {
      const inMinute = times.filter((t) => t >= start && t < start + 60_000).length;
      expect(inMinute).toBeLessThanOrEqual(90 + 2);
    }
    // …and uses it: 400 requests at 90 a minute take (400 − 1.5)/90 minutes after the burst of 1.5, each wait
    // rounded up to a whole millisecond.
    const ideal = ((400 - 1.5) * 60_000) / 90;
    expect(times.at(-1)).toBeGreaterThanOrEqual(ideal);
    expect(times.at(-1)).toBeLessThanOrEqual(ideal + 400);
  });

  it('--tpm: requests of 1,000 tokens at 60,000 a minute go one a second; a request larger than a second of the limit still goes', async () => {
    const clock = simulatedClock();
    const pacer = new Pacer(clock, { tpm: 60_000 });
    expect(await admissionTimes(pacer, clock, 4, 1000)).toEqual([0, 1000, 2000, 3000]);
    const big = new Pacer(clock, { tpm: 60_000 });
    const start = clock.now();
    expect((await admissionTimes(big, clock, 2, 5000)).map((t) => t - start)).toEqual([0, 5000]);
  });

  it('charges the tokens a reply actually used: an estimate too low slows the next request down', async () => {
    const clock = simulatedClock();
    const pacer = new Pacer(clock, { tpm: 60_000 });
    const ticket = await pacer.admit('m', 100);
    pacer.settle(ticket, 3000, undefined);
    await pacer.admit('m', 100);
    // 1,000 tokens a second: the 3,000 used leave 1,000 − 3,000 = −2,000; 100 more need 2.1 s.
    expect(clock.now()).toBe(2100);
  });

  it("learns the model's limits from OpenAI's x-ratelimit-limit-* headers and paces that model only", async () => {
    const clock = simulatedClock();
    const pacer = new Pacer(clock, {});
    const first = await pacer.admit('chat', 0);
    pacer.settle(first, undefined, headers({ 'x-ratelimit-limit-requests': '60', 'x-ratelimit-remaining-requests': '59', 'x-ratelimit-reset-requests': '1s' }));
    const start = clock.now();
    expect((await admissionTimes(pacer, clock, 3, 0, 'chat')).map((t) => t - start)).toEqual([0, 1000, 2000]);
    const other = clock.now();
    expect((await admissionTimes(pacer, clock, 3, 0, 'embeddings')).map((t) => t - other)).toEqual([0, 0, 0]);
    expect(pacer.report).toEqual({ requests: [{ perMinute: 60, source: 'headers', model: 'chat' }], tokens: [], rateLimited: 0 });
  });

  it('an option wins over the headers', async () => {
    const clock = simulatedClock();
    const pacer = new Pacer(clock, { rpm: 30 });
    const ticket = await pacer.admit('chat', 0);
    pacer.settle(ticket, undefined, headers({ 'x-ratelimit-limit-requests': '6000', 'x-ratelimit-remaining-requests': '5999' }));
    expect(pacer.report.requests).toEqual([{ perMinute: 30, source: 'option' }]);
  });

  it('believes no more is left than x-ratelimit-remaining says, less what was sent since (another client shares the key)', async () => {
    const clock = simulatedClock();
    const pacer = new Pacer(clock, {});
    const learn = await pacer.admit('chat', 0);
    pacer.settle(learn, undefined, headers({ 'x-ratelimit-limit-requests': '600' }));
    // 600 a minute: ten a second may go at once. The server says 1 is left after the first; two more were sent since.
    const first = await pacer.admit('chat', 0);
    await pacer.admit('chat', 0);
    await pacer.admit('chat', 0);
    pacer.settle(first, undefined, headers({ 'x-ratelimit-limit-requests': '600', 'x-ratelimit-remaining-requests': '1' }));
    const before = clock.now();
    await pacer.admit('chat', 0);
    // 1 − 2 = −1 left: two refills of 100 ms each before one more may go.
    expect(clock.now() - before).toBe(200);
  });

  it('without a known limit, remaining 0 with a reset time holds every request until the reset (a fixed window)', async () => {
    const clock = simulatedClock();
    const pacer = new Pacer(clock, {});
    const ticket = await pacer.admit('m', 0);
    pacer.settle(ticket, undefined, headers({ 'x-ratelimit-remaining-requests': '0', 'x-ratelimit-reset-requests': '2s' }));
    await pacer.admit('m', 0);
    expect(clock.now()).toBe(2000);
  });

  it('a pause (a 429 Retry-After) holds requests already waiting in line', async () => {
    const clock = simulatedClock();
    const pacer = new Pacer(clock, { rpm: 60 });
    await pacer.admit('m', 0);
    pacer.pause(5000);
    await pacer.admit('m', 0);
    expect(clock.now()).toBe(5000);
  });

  it('admits first come, first served', async () => {
    const clock = simulatedClock();
    const pacer = new Pacer(clock, { rpm: 60 });
    const order: number[] = [];
    await Promise.all([1, 2, 3, 4].map((n) => pacer.admit('m', 0).then(() => order.push(n))));
    expect(order).toEqual([1, 2, 3, 4]);
    expect(clock.slept).toEqual([1000, 1000, 1000]);
  });
});

describe("OpenAI's reset durations", () => {
  it.each([
    ['1s', 1000],
    ['6m0s', 360_000],
    ['20ms', 20],
    ['1h2m3.5s', 3_723_500],
    ['0.5', 500],
    ['17.12s', 17_120],
    ['250\u00b5s', 0.25],
    ['250us', 0.25],
    ['1ms500\u00b5s', 1.5],
    ['900ns', 0.0009],
  ])('%s is %d ms', (text, ms) => {
    expect(parseResetDuration(text)).toBeCloseTo(ms, 6);
  });

  it.each(['', 'soon', '5 s', '1x', '-1s'])('"%s" is not a duration', (text) => {
    expect(parseResetDuration(text)).toBeUndefined();
  });
});

describe('a request rate learnt from 429s without rate limit headers (AIMD)', () => {
  const none = new Headers();
  const ok = (pacer: Pacer, ticket: Awaited<ReturnType<Pacer['admit']>>) => pacer.observe(ticket, 200, none);
  const limited = (pacer: Pacer, ticket: Awaited<ReturnType<Pacer['admit']>>) => pacer.observe(ticket, 429, none);

  it('the first 429 cuts nothing, nor one for a request sent before it came (issue 39: a lone 429 stalled runs for minutes)', async () => {
    const clock = simulatedClock();
    const pacer = new Pacer(clock, {});
    const tickets = [];
    for (let i = 0; i < 4; i++) tickets.push(await pacer.admit('m', 0));
    for (const ticket of tickets.slice(1)) ok(pacer, ticket);
    // Three answered in the run's first second: "3 a minute", halved, was the stall.
    limited(pacer, tickets[0]!);
    limited(pacer, tickets[3]!);
    expect(pacer.report).toEqual({ requests: [], tokens: [], rateLimited: 2 });
    const start = clock.now();
    expect((await admissionTimes(pacer, clock, 5)).map((t) => t - start)).toEqual([0, 0, 0, 0, 0]);
  });

  it('a 429 for a request let through after the first 429 halves the requests answered in the past minute; one sent before the cut cuts nothing', async () => {
    const clock = simulatedClock();
    const pacer = new Pacer(clock, {});
    const tickets = [];
    for (let i = 0; i < 11; i++) tickets.push(await pacer.admit('m', 0));
    for (const ticket of tickets.slice(0, 10)) ok(pacer, ticket);
    limited(pacer, tickets[10]!);
    expect(pacer.report.requests).toEqual([]);
    const after = [await pacer.admit('m', 0), await pacer.admit('m', 0)];
    limited(pacer, after[0]!);
    expect(pacer.report.requests).toEqual([{ perMinute: 5, source: 'adaptive', model: 'm', cuts: 1 }]);
    limited(pacer, after[1]!);
    expect(pacer.report.requests[0]!.cuts).toBe(1);
    expect(pacer.report.rateLimited).toBe(3);
    // 5 a minute: one every 12 s after the bucket's single request.
    const start = clock.now();
    expect((await admissionTimes(pacer, clock, 3)).map((t) => t - start)).toEqual([0, 12_000, 24_000]);
  });

  it('each request answered after the cut adds half a request a minute; a 429 sent after the cut halves again', async () => {
    const clock = simulatedClock();
    const pacer = new Pacer(clock, {});
    const first = await pacer.admit('m', 0);
    for (let i = 0; i < 40; i++) ok(pacer, first);
    limited(pacer, first);
    limited(pacer, await pacer.admit('m', 0));
    expect(pacer.report.requests[0]!.perMinute).toBe(20);
    for (let i = 0; i < 10; i++) ok(pacer, await pacer.admit('m', 0));
    expect(pacer.report.requests[0]!.perMinute).toBe(25);
    limited(pacer, await pacer.admit('m', 0));
    expect(pacer.report.requests[0]).toMatchObject({ perMinute: 13, cuts: 2 });
  });

  it('never rises above --rpm, and cuts from it when fewer were answered', async () => {
    const clock = simulatedClock();
    const pacer = new Pacer(clock, { rpm: 30 });
    const ticket = await pacer.admit('m', 0);
    for (let i = 0; i < 100; i++) ok(pacer, ticket);
    limited(pacer, ticket);
    limited(pacer, await pacer.admit('m', 0));
    expect(pacer.report.requests).toEqual([
      { perMinute: 30, source: 'option' },
      { perMinute: 15, source: 'adaptive', model: 'm', cuts: 1 },
    ]);
    for (let i = 0; i < 60; i++) ok(pacer, await pacer.admit('m', 0));
    expect(pacer.report.requests[1]!.perMinute).toBe(30);
  });

  it('learns nothing from a 429 that carries rate limit headers, nor from one before any request was answered', async () => {
    const clock = simulatedClock();
    const pacer = new Pacer(clock, {});
    const ticket = await pacer.admit('m', 0);
    limited(pacer, ticket);
    expect(pacer.report.requests).toEqual([]);
    ok(pacer, ticket);
    pacer.observe(ticket, 429, headers({ 'x-ratelimit-limit-tokens': '1000' }));
    expect(pacer.report.requests).toEqual([]);
    pacer.observe(ticket, 503, none);
    expect(pacer.report.requests).toEqual([]);
  });
});
