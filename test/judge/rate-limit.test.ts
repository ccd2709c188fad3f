import { writeFileSync } from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { JudgeClient } from '../../src/judge/client.js';
import { judgeFile } from '../../src/judge/run.js';
import { jsonl, runMain } from '../helpers/cli.js';
import { type EndpointRateLimit, useFakeJudge } from './fake-openai.js';
import { VirtualClock } from './virtual-clock.js';

const fake = useFakeJudge();
afterEach(() => {
  vi.unstubAllGlobals();
});

const CONTEXT = 'Enterprise annual contracts have a 14-day refund window from the invoice date.';

function answers(count: number): string {
  const file = fake.path('results.jsonl');
  const records = Array.from({ length: count }, (_, i) => ({
    id: `q${i}`,
    question: `What is the refund window for contract ${i}?`,
    answer: `Enterprise annual contracts have a 14-day refund window from the invoice date. Contract ${i} is one of them.`,
    retrieved_ids: ['d1'],
    retrieved_contexts: [CONTEXT],
    expected_answer: '14-day refund window',
  }));
  writeFileSync(file, jsonl(records));
  return file;
}

/**
 * `count` answers, faithfulness and correctness (two calls each), against an endpoint answering in 300–800 ms with
 * a rate limit, on a clock that passes only by sleeps.
 */
async function judgeUnderLimit(count: number, limit: EndpointRateLimit, pacing: { rpm?: number; tpm?: number } = {}) {
  const clock = new VirtualClock(fetch);
  vi.stubGlobal('fetch', clock.fetch);
  fake.server.clock = clock;
  fake.server.latencyMs = [300, 800];
  fake.server.textUsage = true;
  fake.server.rateLimit = limit;
  const client = new JudgeClient({
    baseUrl: fake.server.url,
    apiKey: 'k',
    model: 'gpt-4o-mini',
    embeddingModel: 'e',
    timeoutMs: 60_000,
    maxAttempts: 4,
    concurrency: 8,
    backoffMs: 500,
    clock,
    ...pacing,
  });
  const results = answers(count);
  const started = clock.now();
  const result = await judgeFile(client, { results, out: fake.path('out.jsonl'), metrics: ['faithfulness', 'correctness'], overwrite: false });
  const minutes = (clock.now() - started) / 60_000;
  // Answered calls a minute: the limit's share of the endpoint this run used.
  const answeredPerMinute = (fake.server.requests.length - fake.server.rateLimitedReplies) / minutes;
  return { result, client, requests: fake.server.requests.length, rateLimited: fake.server.rateLimitedReplies, answeredPerMinute };
}

// The endpoint's bucket starts full (a minute's worth), so a run that uses it may answer faster than the limit.
describe('judging under a rate limit (300–800 ms latency), at 90% of the limit or more', () => {
  it('120 rpm with OpenAI x-ratelimit headers, 400 calls: the limit is learnt, no record is lost and 429s stay under 2%', async () => {
    const { result, client, requests, rateLimited, answeredPerMinute } = await judgeUnderLimit(200, { rpm: 120 });
    expect(result.recordsFailed, JSON.stringify(result.failuresByKind)).toBe(0);
    expect(answeredPerMinute).toBeGreaterThanOrEqual(0.9 * 120);
    expect(result.metrics.faithfulness!.judged + result.metrics.correctness!.judged).toBe(400);
    expect(rateLimited).toBeLessThanOrEqual(0.02 * 400);
    expect(requests).toBe(400 + rateLimited);
    expect(client.stats.rateLimited).toBe(rateLimited);
    expect(client.pacing.requests).toEqual([{ perMinute: 120, source: 'headers', model: 'gpt-4o-mini' }]);
  });

  it('120 rpm without headers, --rpm 120 paces the 400 calls: no record lost, 429s under 2%', async () => {
    const { result, requests, rateLimited, answeredPerMinute } = await judgeUnderLimit(200, { rpm: 120, headers: false, retryAfterSeconds: 2 }, { rpm: 120 });
    expect(result.recordsFailed, JSON.stringify(result.failuresByKind)).toBe(0);
    expect(answeredPerMinute).toBeGreaterThanOrEqual(0.9 * 120);
    expect(rateLimited).toBeLessThanOrEqual(0.02 * 400);
    expect(requests).toBe(400 + rateLimited);
  });

  it('a tokens-per-minute limit, learnt from the headers, is kept to as well', async () => {
    // About 300 tokens a call: 36,000 tokens a minute is about 120 calls a minute, below the 600 requests allowed.
    const { result, client, rateLimited, answeredPerMinute } = await judgeUnderLimit(100, { rpm: 600, tpm: 36_000 });
    expect(result.recordsFailed, JSON.stringify(result.failuresByKind)).toBe(0);
    expect(answeredPerMinute * (client.stats.totalTokens / client.stats.calls)).toBeGreaterThanOrEqual(0.9 * 36_000);
    expect(rateLimited).toBeLessThanOrEqual(0.02 * 200);
    expect(client.pacing.tokens).toEqual([{ perMinute: 36_000, source: 'headers', model: 'gpt-4o-mini' }]);
  });

  it('120 rpm with neither headers nor --rpm, Retry-After: 2: the rate is learnt from the 429s (AIMD), no record lost, 429s under 5%', async () => {
    const { result, client, requests, rateLimited, answeredPerMinute } = await judgeUnderLimit(200, { rpm: 120, headers: false, retryAfterSeconds: 2 });
    expect(result.recordsFailed, JSON.stringify(result.failuresByKind)).toBe(0);
    expect(answeredPerMinute).toBeGreaterThanOrEqual(0.9 * 120);
    expect(requests).toBe(400 + rateLimited);
    expect(rateLimited).toBeGreaterThan(0);
    expect(rateLimited).toBeLessThanOrEqual(0.05 * 400);
    const [learnt] = client.pacing.requests;
    expect(learnt).toMatchObject({ source: 'adaptive', model: 'gpt-4o-mini' });
  });

  it('60 rpm with neither headers nor --rpm: 429s with Retry-After: 2 are waited out and no record is lost (issue 19 lost 40%)', async () => {
    const { result, requests, rateLimited, answeredPerMinute } = await judgeUnderLimit(100, { rpm: 60, headers: false, retryAfterSeconds: 2 });
    expect(result.recordsFailed, JSON.stringify(result.failuresByKind)).toBe(0);
    expect(answeredPerMinute).toBeGreaterThanOrEqual(0.9 * 60);
    // The limit was reached: this is the case that lost records.
    expect(rateLimited).toBeGreaterThan(0);
    expect(requests).toBe(200 + rateLimited);
  });
});

describe('rate limit replies', () => {
  const record = { id: 'q1', question: 'Refund window?', answer: 'It is 14 days.', expected_answer: '14 days' };

  it('a 429 does not use up an attempt: five in a row still end in a judged record with --max-attempts 2', async () => {
    fake.server.handler = (_request, index) =>
      index < 5
        ? { status: 429, headers: { 'retry-after-ms': '1' }, body: { error: { message: 'Rate limit reached', code: 'rate_limit_exceeded' } } }
        : undefined;
    const results = fake.path('in.jsonl');
    writeFileSync(results, jsonl([record]));
    const run = await runMain([
      'judge',
      '--results',
      results,
      '--out',
      fake.path('out.jsonl'),
      '--base-url',
      fake.server.url,
      '--no-cache',
      '--metrics',
      'correctness',
      '--max-attempts',
      '2',
    ]);
    expect(run.code, run.stderr).toBe(0);
    expect(fake.server.requests).toHaveLength(6);
    expect(run.stderr).toMatch(/calls 6 \(5 retries, 5 rate limited\)/);
  });

  it("a 429 for a used-up quota (OpenAI's insufficient_quota) stops the run at once, exit 2", async () => {
    fake.server.handler = () => ({
      status: 429,
      body: {
        error: {
          message: 'You exceeded your current quota, please check your plan and billing details.',
          type: 'insufficient_quota',
          code: 'insufficient_quota',
        },
      },
    });
    const results = fake.path('in.jsonl');
    writeFileSync(results, jsonl([record]));
    const out = fake.path('out.jsonl');
    const run = await runMain(['judge', '--results', results, '--out', out, '--base-url', fake.server.url, '--no-cache', '--metrics', 'correctness']);
    expect(run.code).toBe(2);
    expect(fake.server.requests).toHaveLength(1);
    expect(run.stderr).toContain('its quota is used up');
    expect(run.stderr).toContain('check the plan and billing of the key');
  });

  it('--rpm and --tpm must be whole numbers ≥ 1', async () => {
    const results = fake.path('in.jsonl');
    writeFileSync(results, jsonl([record]));
    const run = await runMain(['judge', '--results', results, '--out', fake.path('out.jsonl'), '--rpm', '0']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('must be a whole number ≥ 1 per minute, got "0"');
    const tpm = await runMain(['judge', '--results', results, '--out', fake.path('out.jsonl'), '--tpm', '1.5k']);
    expect(tpm.code).toBe(2);
    expect(fake.server.requests).toHaveLength(0);
  });

  it('the summary gives calls and tokens per answer per metric beside Ragas, and the pacing in force', async () => {
    fake.server.rateLimit = { rpm: 6000, tpm: 1_000_000 };
    const results = fake.path('in.jsonl');
    writeFileSync(
      results,
      jsonl([
        { ...record, retrieved_contexts: ['It is 14 days.'] },
        { ...record, id: 'q2', question: 'How long is the refund window?', answer: 'Two weeks.' },
      ]),
    );
    const run = await runMain(['judge', '--results', results, '--out', fake.path('out.jsonl'), '--base-url', fake.server.url, '--no-cache', '--json']);
    expect(run.code, run.stderr).toBe(0);
    // Fixed usage of the fake: 120 tokens per chat reply, 7 per embedded text.
    expect(run.stderr).toMatch(/faithfulness\s+1\s+0\s+1 \(no retrieved_contexts: 1\)\s+0\s+1\.00\s+120\s+2 \(faithfulness\)/);
    // The two answers' embeddings go in one call: half a call an answer.
    expect(run.stderr).toMatch(/answer_relevance\s+2\s+0\s+0\s+0\s+1\.50 \(1\.00 chat \+ 0\.50 embeddings\)\s+148\s+3 \(answer_relevancy\)/);
    expect(run.stderr).toMatch(/correctness\s+2\s+0\s+0\s+0\s+1\.00\s+120\s+5 \(answer_correctness\)/);
    // OpenAI reports limits per model: the chat and the embedding model each have theirs.
    expect(run.stderr).toContain(
      'pacing: 6,000 requests/min (x-ratelimit headers of gpt-4o-mini), 6,000 requests/min (x-ratelimit headers of text-embedding-3-small), ' +
        '1,000,000 tokens/min (x-ratelimit headers of gpt-4o-mini), 1,000,000 tokens/min (x-ratelimit headers of text-embedding-3-small)',
    );
    const summary = JSON.parse(run.stdout);
    expect(summary.metrics.answer_relevance.cost).toEqual({ calls: 3, cacheHits: 0, promptTokens: 2 * 128, completionTokens: 2 * 20, totalTokens: 2 * 148 });
    expect(summary.metrics.answer_relevance.calls).toEqual({ chat: 2, embeddings: 1 });
    expect(summary.metrics.faithfulness.ragas).toEqual({ metric: 'faithfulness', chat: 2, embeddings: 0 });
  });
});
