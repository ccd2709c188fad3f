import { writeFileSync } from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { JudgeClient } from '../../src/judge/client.js';
import { judgeFile } from '../../src/judge/run.js';
import { formatPacing } from '../../src/render/judge-report.js';
import { jsonl } from '../helpers/cli.js';
import { useFakeJudge } from './fake-openai.js';
import { seededRandom } from './openai-endpoint.js';
import { VirtualClock } from './virtual-clock.js';

const fake = useFakeJudge();
const realFetch = globalThis.fetch;
afterEach(() => {
  vi.unstubAllGlobals();
});

function answers(count: number): string {
  const file = fake.path('results.jsonl');
  const records = Array.from({ length: count }, (_, i) => ({
    id: `q${i}`,
    question: `What is the refund window for contract ${i}?`,
    answer: `Contract ${i} has a 14-day refund window.`,
    expected_answer: '14-day refund window',
  }));
  writeFileSync(file, jsonl(records));
  return file;
}

/**
 * The scenario: `--concurrency 4`, no rate limit headers, and an endpoint whose first reply is a 429 with
 * `Retry-After: 1`; every other request is answered. `latency(index)` is each request's latency (virtual ms).
 */
async function loneLimitedRun(latency: (index: number) => number) {
  const clock = new VirtualClock(realFetch);
  vi.stubGlobal('fetch', clock.fetch);
  fake.server.clock = clock;
  fake.server.latencyOf = latency;
  fake.server.handler = (_request, index) =>
    index === 0
      ? { status: 429, headers: { 'retry-after': '1' }, body: { error: { message: 'Rate limit reached for requests', code: 'rate_limit_exceeded' } } }
      : undefined;
  const client = new JudgeClient({
    baseUrl: fake.server.url,
    apiKey: 'k',
    model: 'gpt-4o-mini',
    embeddingModel: 'e',
    timeoutMs: 60_000,
    maxAttempts: 4,
    concurrency: 4,
    backoffMs: 500,
    clock,
  });
  const started = clock.now();
  const result = await judgeFile(client, { results: answers(30), out: fake.path('out.jsonl'), metrics: ['correctness'], overwrite: false });
  return { result, client, virtualMs: clock.now() - started, requests: fake.server.requests.length };
}

describe('a lone 429 at the start of a run, without rate limit headers (issue 39: one run in five stalled for minutes)', () => {
  it('the 429 arrives after three answers: the run waits out the Retry-After and goes on at full speed', async () => {
    // Request 0 is answered last (800 ms), after requests 1–3 (300 ms): the case that stalled.
    const { result, client, virtualMs, requests } = await loneLimitedRun((index) => (index === 0 ? 800 : 300));
    expect(result.recordsFailed).toBe(0);
    expect(requests).toBe(31);
    // 30 calls, 4 at a time at 300 ms, and one pause of 1 s: 3.3 s at most; today's code took minutes.
    expect(virtualMs).toBeLessThanOrEqual(4000);
    expect(client.stats.rateLimited).toBe(1);
    expect(formatPacing(client.pacing)).toBe(
      'pacing: none (no --rpm or --tpm, no x-ratelimit headers from the endpoint); rate limited (429) once, waited out, ' +
        'the rate not cut: no request sent after the wait was refused',
    );
  });

  it('the 429 arrives first: the same', async () => {
    const { result, virtualMs, requests } = await loneLimitedRun((index) => (index === 0 ? 100 : 300));
    expect(result.recordsFailed).toBe(0);
    expect(requests).toBe(31);
    expect(virtualMs).toBeLessThanOrEqual(4000);
  });

  it('50 runs in a row with latencies drawn from 50–800 ms: none takes more than a few seconds of (virtual) time', async () => {
    const durations: number[] = [];
    for (let run = 0; run < 50; run++) {
      fake.server.reset();
      const random = seededRandom(run + 1); // each of the fifty its own latencies
      const { result, virtualMs, requests } = await loneLimitedRun(() => Math.round(50 + random() * 750));
      expect(result.recordsFailed).toBe(0);
      expect(requests).toBe(31);
      durations.push(virtualMs);
    }
    // 30 calls at 4 at a time of at most 800 ms each, plus the 1 s Retry-After: under 8 s even at the slowest draw.
    expect(Math.max(...durations), durations.join(', ')).toBeLessThanOrEqual(8000);
  });
});
