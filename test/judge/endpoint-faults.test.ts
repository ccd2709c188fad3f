import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { type JudgeClientOptions, type JudgeClock, JudgeClient } from '../../src/judge/client.js';
import { JudgeCallError, JudgeSetupError } from '../../src/judge/errors.js';
import { judgeCorrect } from '../../src/judge/metrics.js';
import { jsonl, runMain } from '../helpers/cli.js';
import { type FakeOpenAI, chatCompletion, closedPort, startFakeOpenAI, useFakeJudge } from './fake-openai.js';

const fake = useFakeJudge();

/** A clock whose sleeps end at once, recorded: how many retries a call made, without waiting for any. */
function recordingClock(onSleep: () => Promise<void> = async () => {}) {
  const slept: number[] = [];
  const clock: JudgeClock = {
    now: () => 0,
    sleep: async (ms) => {
      slept.push(ms);
      await onSleep();
    },
  };
  return { clock, slept };
}

function client(baseUrl: string, clock: JudgeClock, options: Partial<JudgeClientOptions> = {}): JudgeClient {
  return new JudgeClient({
    baseUrl,
    apiKey: 'k',
    model: 'm',
    embeddingModel: 'e',
    timeoutMs: 10_000,
    maxAttempts: 4,
    concurrency: 8,
    backoffMs: 5,
    random: () => 0,
    clock,
    ...options,
  });
}

const verdict = (judgeClient: JudgeClient) => judgeCorrect(judgeClient, 'Window?', 'A 14-day window.', '14-day');

function input(): string {
  const file = fake.path('in.jsonl');
  writeFileSync(file, jsonl([{ id: 'q1', question: 'Window?', answer: 'A 14-day window.', expected_answer: '14-day' }]));
  return file;
}

describe('endpoint setup problems that no retry can fix stop the run at once (exit 2)', () => {
  it.each([
    [
      'a port fetch refuses outright (:9)',
      () => 'http://127.0.0.1:9/v1',
      /^fetch refuses to send a request to http:\/\/127\.0\.0\.1:9\/v1\/chat\/completions \(bad port\); check --base-url/,
    ],
    ['a scheme fetch does not speak', () => 'ftp://127.0.0.1/v1', /^fetch refuses to send a request to ftp:\/\/127\.0\.0\.1\/v1\/chat\/completions/],
    [
      'TLS to a server that speaks plain HTTP',
      () => fake.server.url.replace('http:', 'https:'),
      /^cannot reach the judge endpoint https:.* \(TLS handshake failed; is it an http:\/\/ server\?\)/,
    ],
  ])('%s: one attempt, no retry', async (_name, baseUrl, message) => {
    const { clock, slept } = recordingClock();
    const judgeClient = client(baseUrl(), clock);
    const error = await verdict(judgeClient).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(JudgeSetupError);
    expect((error as Error).message).toMatch(message);
    expect(slept).toEqual([]);
    expect(judgeClient.stats.calls).toBe(1);
    expect(fake.server.requests).toHaveLength(0);
  });

  it.each([
    [
      'a bad port',
      'http://127.0.0.1:9/v1',
      'fetch refuses to send a request to http://127.0.0.1:9/v1/chat/completions (bad port); check --base-url or OPENAI_BASE_URL',
    ],
    ['an invalid host name', 'http://exa mple.com/v1', 'the base URL "http://exa mple.com/v1" is not a URL'],
    ['an unsupported protocol', 'file:///v1', 'the base URL "file:///v1" must be an http or https URL'],
  ])('the CLI exits 2 for %s and writes nothing', async (_name, baseUrl, message) => {
    const out = fake.path('out.jsonl');
    const run = await runMain(['judge', '--results', input(), '--out', out, '--base-url', baseUrl, '--no-cache', '--metrics', 'correctness']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`rag-gate: error: ${message}`);
    expect(existsSync(out)).toBe(false);
  });
});

describe('transient failures keep their retries', () => {
  it('a refused connection is retried, and the call succeeds once the server listens', async () => {
    const port = await closedPort();
    let late: FakeOpenAI | undefined;
    const { clock, slept } = recordingClock(async () => {
      late ??= await startFakeOpenAI(port);
    });
    try {
      expect(await verdict(client(`http://127.0.0.1:${port}/v1`, clock))).toBe(true);
      expect(slept).toHaveLength(1);
      expect(late!.requests).toHaveLength(1);
    } finally {
      await late?.close();
    }
  });

  it('a connection refused on every attempt stops the run (exit 2) after the last one', async () => {
    const port = await closedPort();
    const { clock, slept } = recordingClock();
    const error = await verdict(client(`http://127.0.0.1:${port}/v1`, clock, { maxAttempts: 3 })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(JudgeSetupError);
    expect((error as Error).message).toBe(
      `cannot reach the judge endpoint http://127.0.0.1:${port}/v1/chat/completions (connection refused) on 3 attempts; check --base-url or OPENAI_BASE_URL`,
    );
    expect(slept).toHaveLength(2);
  });

  it('a connection the server drops is retried', async () => {
    fake.server.handler = (_request, index) => (index === 0 ? { hangUp: true } : undefined);
    const { clock, slept } = recordingClock();
    expect(await verdict(client(fake.server.url, clock))).toBe(true);
    expect(slept).toHaveLength(1);
    expect(fake.server.requests).toHaveLength(2);
  });
});

describe('a reply is read up to a cap', () => {
  const cap = 64 * 1024;
  const correct = chatCompletion(JSON.stringify({ verdict: 'CORRECT' }));

  it('a reply of exactly the cap is read; one byte more is an invalid reply, not retried', async () => {
    const { clock } = recordingClock();
    fake.server.handler = () => ({ body: correct, padToBytes: cap });
    expect(await verdict(client(fake.server.url, clock, { maxReplyBytes: cap }))).toBe(true);

    fake.server.reset();
    fake.server.handler = () => ({ body: correct, padToBytes: cap + 1 });
    const error = await verdict(client(fake.server.url, clock, { maxReplyBytes: cap })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(JudgeCallError);
    expect(error).toMatchObject({
      kind: 'invalid_reply',
      message: `the reply from ${fake.server.url}/chat/completions is larger than 65536 bytes, the most rag-gate reads`,
    });
    expect(fake.server.requests).toHaveLength(1);
  });

  it('stops reading a streamed reply at the cap instead of taking it whole', async () => {
    const { clock } = recordingClock();
    fake.server.handler = () => ({ body: correct, padToBytes: 256 * 1024 * 1024 });
    const error = await verdict(client(fake.server.url, clock, { maxReplyBytes: cap })).catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'invalid_reply' });
    // What the socket buffers took before the client hung up, far from the 256 MiB offered.
    expect(fake.server.paddedBytesWritten).toBeLessThan(32 * 1024 * 1024);
  });

  it('refuses a reply whose declared length is past the cap', async () => {
    const { clock } = recordingClock();
    const size = 256 * 1024 * 1024;
    fake.server.handler = () => ({ body: correct, padToBytes: size, headers: { 'content-length': String(size) } });
    const error = await verdict(client(fake.server.url, clock, { maxReplyBytes: cap })).catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'invalid_reply' });
    expect(fake.server.paddedBytesWritten).toBeLessThan(32 * 1024 * 1024);
  });

  it('the CLI marks a record whose reply passes the 8 MiB default as an invalid reply', async () => {
    fake.server.handler = () => ({ body: correct, padToBytes: 8 * 1024 * 1024 + 1 });
    const out = fake.path('out.jsonl');
    const run = await runMain([
      'judge',
      '--results',
      input(),
      '--out',
      out,
      '--base-url',
      fake.server.url,
      '--no-cache',
      '--metrics',
      'correctness',
      '--max-attempts',
      '3',
    ]);
    expect(run.code).toBe(1);
    expect(fake.server.requests).toHaveLength(1);
    expect(JSON.parse(readFileSync(out, 'utf8')).judge_errors).toEqual([
      {
        metric: 'correctness',
        kind: 'invalid_reply',
        message: `the reply from ${fake.server.url}/chat/completions is larger than 8 MiB, the most rag-gate reads`,
      },
    ]);
  });
});
