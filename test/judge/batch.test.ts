import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import { judgeFileBatch } from '../../src/judge/batch.js';
import { JudgeCache } from '../../src/judge/cache.js';
import { JudgeClient } from '../../src/judge/client.js';
import type { JudgeClock } from '../../src/judge/retry.js';
import { runMain } from '../helpers/cli.js';
import { type FakeBatchOptions, fakeBatchApi, writeContractResults } from './fake-batch.js';
import { useFakeJudge } from './fake-openai.js';

const fake = useFakeJudge();

const results = (count: number) =>
  writeContractResults(fake.path('results.jsonl'), count, (i) => `Contract ${i} has a 14-day refund window. It starts at the invoice date.`);

const paths = (method: string, prefix: string) => fake.server.requests.filter((r) => r.method === method && r.path.startsWith(prefix));

/** `judge` against the fake, with the batch API's fake in front of the fake judge. */
async function judge(args: readonly string[], options: FakeBatchOptions = {}) {
  vi.stubEnv('RAG_GATE_JUDGE_BATCH_POLL_MS', '1');
  const api = fakeBatchApi(fake.server, options);
  fake.server.handler = api.handler;
  const run = await runMain(['judge', '--base-url', fake.server.url, '--no-cache', ...args]);
  return { ...run, api };
}

/** A clock whose sleeps pass at once; it keeps what was slept. */
function instantClock(): JudgeClock & { slept: number[] } {
  let time = Date.UTC(2026, 11, 3);
  const slept: number[] = [];
  return { slept, now: () => time, sleep: (ms) => (slept.push(ms), (time += ms), Promise.resolve()) };
}

function client(clock: JudgeClock, cache?: string): JudgeClient {
  return new JudgeClient({
    baseUrl: fake.server.url,
    apiKey: 'k',
    model: 'gpt-4o-mini',
    embeddingModel: 'text-embedding-3-small',
    timeoutMs: 10_000,
    maxAttempts: 2,
    concurrency: 4,
    backoffMs: 1,
    clock,
    ...(cache === undefined ? {} : { cache: new JudgeCache(cache) }),
  });
}

describe('judge --batch against the batch API', () => {
  it('uploads the documented input, polls through the states, reads an output out of order, and writes what a synchronous run writes', async () => {
    const file = results(20);
    const syncOut = fake.path('sync.jsonl');
    const sync = await runMain(['judge', '--base-url', fake.server.url, '--no-cache', '--results', file, '--out', syncOut]);
    expect(sync.code, sync.stderr).toBe(0);
    fake.server.reset();

    const out = fake.path('batch.jsonl');
    const run = await judge(['--batch', '--results', file, '--out', out], { polls: 3, outOfOrder: true });
    expect(run.code, run.stderr).toBe(0);
    expect(readFileSync(out, 'utf8')).toBe(readFileSync(syncOut, 'utf8'));
    // One upload, one batch, then polls: validating (created) → in_progress → in_progress → finalizing → completed.
    expect(paths('POST', '/v1/files')).toHaveLength(1);
    expect(paths('POST', '/v1/batches')).toHaveLength(1);
    expect(paths('GET', '/v1/batches/')).toHaveLength(4);
    expect(run.stderr.match(/^rag-gate judge: batch batch_\d+ .*$/gm)).toEqual([
      expect.stringMatching(/ validating$/),
      expect.stringMatching(/ in_progress \(0 of 60 requests done\)$/),
      expect.stringMatching(/ in_progress \(0 of 60 requests done\)$/),
      expect.stringMatching(/ finalizing \(0 of 60 requests done\)$/),
      expect.stringMatching(/ completed \(60 of 60 requests done\)$/),
    ]);
    // No chat request but through the batch: 20 answers × 3 metrics; answer relevance's embeddings go as usual.
    expect(paths('POST', '/v1/chat/completions')).toHaveLength(0);
    expect(paths('POST', '/v1/embeddings')).toHaveLength(2);
    const [input] = [...run.api.uploads.values()];
    expect(input).toHaveLength(60);
    expect(input![0]).toMatchObject({ custom_id: '0:q0:faithfulness:faithfulness-v1', method: 'POST', url: '/v1/chat/completions' });
    expect(input![1]!.custom_id).toBe('0:q0:answer_relevance:answer-relevance-v1');
    expect(input![2]!.custom_id).toBe('0:q0:correctness:correctness-v1');
    expect(input![0]!.body).toMatchObject({ model: 'gpt-4o-mini', temperature: 0, response_format: { type: 'json_schema' } });
    expect(run.stderr).toMatch(/batch: batch_\d+ completed; 60 requests, 60 answered; the answers count as cache hits above/);
    // The state file is gone once the batch is collected: the next run submits anew.
    expect(existsSync(`${out}.batch.json`)).toBe(false);
  });

  it('the cost line: the batch tokens at half the synchronous price, from the list or from --price', async () => {
    const file = results(4);
    const run = await judge(['--batch', '--results', file, '--out', fake.path('out.jsonl'), '--metrics', 'correctness']);
    expect(run.code, run.stderr).toBe(0);
    // The fake's usage: 100 prompt and 20 completion tokens a reply. 400 × 0.15 + 80 × 0.60 = 108 dollars per million.
    expect(run.stderr).toContain('batch tokens 480 (prompt 400, completion 80)');
    expect(run.stderr).toContain(
      "cost: $0.0000540 at the batch price, $0.000108 at the synchronous price (gpt-4o-mini in rag-gate's list of OpenAI's prices, which may be out of date (set --price): $0.15/$0.6 per million tokens in/out, batch $0.075/$0.3)",
    );
    const priced = await judge(['--batch', '--results', file, '--out', fake.path('out.jsonl'), '--metrics', 'correctness', '--price', '10/30', '--json']);
    expect(priced.stderr).toContain(
      'cost: $0.00320 at the batch price, $0.00640 at the synchronous price (--price: $10/$30 per million tokens in/out, batch $5/$15)',
    );
    const bad = await judge(['--batch', '--results', file, '--out', fake.path('out.jsonl'), '--price', '0.15']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('"0.15" is not a price such as 0.15/0.60');
    const unknown = await judge(['--batch', '--results', file, '--out', fake.path('out.jsonl'), '--metrics', 'correctness', '--model', 'llama-3-70b']);
    expect(unknown.stderr).toContain("cost: unknown: llama-3-70b is not in rag-gate's list of prices; give --price IN/OUT (dollars per million tokens)");
    const summary = JSON.parse(priced.stdout);
    expect(summary.batch).toMatchObject({ requests: 4, answered: 4, promptTokens: 400, completionTokens: 80 });
  });
});

describe('resuming from the state file', () => {
  it('--batch-wait 0 submits and exits 0; a later run with the state file collects without submitting again', async () => {
    const file = results(5);
    const out = fake.path('out.jsonl');
    const state = fake.path('state.json');
    const submit = await judge(['--batch', '--results', file, '--out', out, '--batch-state', state, '--batch-wait', '0']);
    expect(submit.code, submit.stderr).toBe(0);
    expect(submit.stderr).toMatch(
      /submitted batch batch_\d+ \(15 requests\); recorded in .*state\.json; .*out\.jsonl is written when it is collected: rag-gate judge --batch/,
    );
    expect(existsSync(out)).toBe(false);
    const recorded = JSON.parse(readFileSync(state, 'utf8'));
    expect(recorded).toMatchObject({ format: 'rag-gate-judge-batch-v1', results: file, model: 'gpt-4o-mini', batchId: expect.stringMatching(/^batch_/) });
    expect(recorded.customIds).toHaveLength(15);

    const api = fakeBatchApi(fake.server);
    const collect = await runMain(['judge', '--base-url', fake.server.url, '--no-cache', '--batch', '--results', file, '--out', out, '--batch-state', state]);
    expect(collect.code, collect.stderr).toBe(0);
    expect(api.batches.size).toBe(0);
    expect(paths('POST', '/v1/batches')).toHaveLength(1);
    expect(collect.stderr).toMatch(/collected from the state file; 15 requests, 15 answered/);
    expect(existsSync(out)).toBe(true);
    expect(existsSync(state)).toBe(false);
  });

  it('a run with --batch-wait 0 looks once: a batch still running is left, --out not written, and the message says how to collect', async () => {
    const file = results(5);
    const out = fake.path('out.jsonl');
    const state = fake.path('state.json');
    const args = ['--batch', '--results', file, '--out', out, '--batch-state', state, '--batch-wait', '0', '--metrics', 'correctness'];
    await judge(args, { polls: 5 });
    const look = await runMain(['judge', '--base-url', fake.server.url, '--no-cache', ...args]);
    expect(look.code, look.stderr).toBe(0);
    expect(look.stderr).toMatch(
      /batch batch_\d+ is in_progress \(0 of 5 requests done\), not waited for \(--batch-wait 0\); .*out\.jsonl is not written yet; collect it later from .*state\.json: rag-gate judge --batch --results/,
    );
    expect(existsSync(out)).toBe(false);
    expect(existsSync(state)).toBe(true);
  });

  it('a batch the endpoint no longer knows stops the run (exit 2) and says to delete the state file', async () => {
    const file = results(2);
    const state = fake.path('state.json');
    const args = ['--batch', '--results', file, '--out', fake.path('a.jsonl'), '--batch-state', state, '--metrics', 'correctness'];
    await judge([...args, '--batch-wait', '0']);
    fake.server.handler = fakeBatchApi(fake.server).handler;
    const run = await runMain(['judge', '--base-url', fake.server.url, '--no-cache', ...args]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(
      /HTTP 404: No batch found with id 'batch_\d+'\.; the endpoint does not know that batch or file .*: delete the state file to submit a new batch/,
    );
  });

  it('a batch API failing on every attempt (503) stops the run, exit 2, and the state file stays for the next run', async () => {
    const file = results(2);
    const state = fake.path('state.json');
    const args = ['--batch', '--results', file, '--out', fake.path('a.jsonl'), '--batch-state', state, '--metrics', 'correctness', '--max-attempts', '2'];
    await judge([...args, '--batch-wait', '0']);
    fake.server.handler = () => ({ status: 503, body: { error: { message: 'The server is overloaded' } } });
    const run = await runMain(['judge', '--base-url', fake.server.url, '--no-cache', ...args]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(
      /the batch API failed on GET .*\/v1\/batches\/batch_\d+: HTTP 503: The server is overloaded \(gave up after 2 attempts\); rerun later/,
    );
    expect(existsSync(state)).toBe(true);
  });

  it('a state file of another results file is an error naming both, exit 2, and nothing is sent', async () => {
    const state = fake.path('state.json');
    const first = results(3);
    await judge(['--batch', '--results', first, '--out', fake.path('a.jsonl'), '--batch-state', state, '--batch-wait', '0']);
    const requests = fake.server.requests.length;
    const second = results(4);
    const run = await runMain([
      'judge',
      '--base-url',
      fake.server.url,
      '--no-cache',
      '--batch',
      '--results',
      second,
      '--out',
      fake.path('b.jsonl'),
      '--batch-state',
      state,
    ]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(state);
    expect(run.stderr).toContain(first);
    expect(run.stderr).toContain(second);
    expect(run.stderr).toContain('delete the state file to submit a new one');
    expect(fake.server.requests).toHaveLength(requests);
  });

  it('waits up to --batch-wait, polling at 5 s, then doubling up to a minute; a batch still running then is left for a later run', async () => {
    const api = fakeBatchApi(fake.server, { polls: 100 });
    fake.server.handler = api.handler;
    const clock = instantClock();
    const state = fake.path('state.json');
    const outcome = await judgeFileBatch(
      client(clock),
      { results: results(2), out: fake.path('out.jsonl'), metrics: ['correctness'], overwrite: false },
      { state, waitMs: 5 * 60_000, fallback: 'sync' },
    );
    expect(clock.slept).toEqual([5000, 10_000, 20_000, 40_000, 60_000, 60_000, 60_000, 45_000]);
    expect(outcome).toMatchObject({ kind: 'pending', batch: { status: 'in_progress' }, waitedMs: 5 * 60_000 });
    expect(existsSync(state)).toBe(true);
  });
});

describe('requests the batch did not answer', () => {
  it('an expired batch with part of its requests done: the rest are judged synchronously (--batch-fallback sync)', async () => {
    const file = results(6);
    const out = fake.path('out.jsonl');
    const run = await judge(['--batch', '--results', file, '--out', out, '--metrics', 'faithfulness,correctness'], { final: 'expired', ranBefore: 5 });
    expect(run.code, run.stderr).toBe(0);
    expect(paths('POST', '/v1/chat/completions')).toHaveLength(7);
    expect(run.stderr).toContain(
      '12 requests, 5 answered, 7 not (the batch expired before it ran the request: 7), judged with ordinary requests (--batch-fallback sync)',
    );
    const lines = readFileSync(out, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(lines.every((record) => record.claims !== undefined && record.correct !== undefined)).toBe(true);
  });

  it('--batch-fallback none leaves them unjudged, marked with the reason, and reported', async () => {
    const file = results(6);
    const out = fake.path('out.jsonl');
    const run = await judge(['--batch', '--batch-fallback', 'none', '--results', file, '--out', out, '--metrics', 'correctness', '--max-failure-share', '1'], {
      final: 'expired',
      ranBefore: 4,
    });
    expect(run.code, run.stderr).toBe(0);
    expect(paths('POST', '/v1/chat/completions')).toHaveLength(0);
    expect(run.stderr).toContain('6 requests, 4 answered, 2 not (the batch expired before it ran the request: 2), left unjudged (--batch-fallback none)');
    expect(run.stderr).toMatch(/judge errors: 2 of 6 records .* by kind: batch 2/);
    const lines = readFileSync(out, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(lines[4].judge_errors).toEqual([
      {
        metric: 'correctness',
        kind: 'batch',
        message: expect.stringMatching(
          /^the batch expired before it ran the request \(batch batch_\d+, 4:q4:correctness:correctness-v1\); --batch-fallback none/,
        ),
      },
    ]);
    expect(lines[3].correct).toBe(true);
  });

  it('an error file with failed requests beside the output file: those are judged synchronously', async () => {
    const run = await judge(['--batch', '--results', results(5), '--out', fake.path('out.jsonl'), '--metrics', 'correctness'], {
      failing: (id) => (id.startsWith('2:') ? { status: 400, message: 'Invalid request body' } : undefined),
    });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain('5 requests, 4 answered, 1 not (the batch answered HTTP 400: 1)');
    expect(paths('POST', '/v1/chat/completions')).toHaveLength(1);
  });

  it.each([
    ['failed', 'the batch failed: 3'],
    ['cancelled', 'the batch was cancelled: 3'],
  ] as const)('a %s batch: every request is judged synchronously', async (final, words) => {
    const run = await judge(['--batch', '--results', results(3), '--out', fake.path('out.jsonl'), '--metrics', 'correctness'], { final });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain(`3 requests, 0 answered, 3 not (${words})`);
    expect(paths('POST', '/v1/chat/completions')).toHaveLength(3);
  });
});

describe('the batch and the cache', () => {
  it("the batch's replies land in the cache: a later synchronous run makes no call, and a later batch run sends no batch", async () => {
    const cache = fake.path('cache');
    const file = results(4);
    const run = await judge(['--batch', '--results', file, '--out', fake.path('a.jsonl'), '--cache', cache, '--metrics', 'faithfulness,correctness']);
    expect(run.code, run.stderr).toBe(0);
    fake.server.reset();
    const sync = await runMain([
      'judge',
      '--base-url',
      fake.server.url,
      '--results',
      file,
      '--out',
      fake.path('b.jsonl'),
      '--cache',
      cache,
      '--metrics',
      'faithfulness,correctness',
    ]);
    expect(sync.code, sync.stderr).toBe(0);
    expect(fake.server.requests).toHaveLength(0);
    const again = await judge(['--batch', '--results', file, '--out', fake.path('c.jsonl'), '--cache', cache, '--metrics', 'faithfulness,correctness']);
    expect(again.code, again.stderr).toBe(0);
    expect(fake.server.requests).toHaveLength(0);
    expect(again.stderr).toContain("batch: none sent, every request's reply was in the cache (8 requests)");
  });
});
