import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { type JudgeClock, JudgeClient } from '../../src/judge/client.js';
import { judgeCorrect } from '../../src/judge/metrics.js';
import { FAITHFULNESS_RUBRIC, PROMPT_VERSIONS } from '../../src/judge/prompts.js';
import { jsonl, runMain } from '../helpers/cli.js';
import { type RecordedRequest, chatCompletion, closedPort, useFakeJudge } from './fake-openai.js';

const fake = useFakeJudge();
const path = (name: string) => fake.path(name);

function input(records: readonly object[]): string {
  const file = path('in.jsonl');
  writeFileSync(file, jsonl(records));
  return file;
}

function readJsonl(file: string): Record<string, unknown>[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

const sha = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

/** A clock that moves only when told to: every sleep is recorded and ends once `advance` reaches its end. */
function manualClock() {
  let time = 0;
  const slept: number[] = [];
  let sleeping: { until: number; wake: () => void }[] = [];
  let waiters: { count: number; resolve: () => void }[] = [];
  const clock: JudgeClock = {
    now: () => time,
    sleep: (ms) =>
      new Promise<void>((wake) => {
        slept.push(ms);
        sleeping.push({ until: time + ms, wake });
        for (const waiter of waiters.filter((w) => w.count <= slept.length)) waiter.resolve();
        waiters = waiters.filter((w) => w.count > slept.length);
      }),
  };
  return {
    clock,
    slept,
    /** Resolves once `count` sleeps have begun. */
    sleeps: (count: number) => (count <= slept.length ? Promise.resolve() : new Promise<void>((resolve) => waiters.push({ count, resolve }))),
    advance(ms: number) {
      time += ms;
      for (const sleeper of sleeping.filter((s) => s.until <= time)) sleeper.wake();
      sleeping = sleeping.filter((s) => s.until > time);
    },
  };
}

/** `judge` in-process against the fake server, without the cache unless `extra` names one. */
async function judge(results: string, extra: readonly string[] = []) {
  const out = path('out.jsonl');
  const cache = extra.includes('--cache') ? [] : ['--no-cache'];
  const run = await runMain(['judge', '--results', results, '--out', out, '--base-url', fake.server.url, ...cache, ...extra]);
  return { ...run, out };
}

const CONTEXTS = ['Enterprise annual contracts have a 14-day refund window from the invoice date.', 'Refunds are issued to the original payment method.'];
const REFUND = {
  id: 'q1',
  question: 'What is the refund window for enterprise annual contracts?',
  answer: 'Enterprise annual contracts have a 14-day refund window from the invoice date. Refunds require approval from two signatories.',
  retrieved_ids: ['d1', 'd2'],
  retrieved_contexts: CONTEXTS,
  expected_answer: '14-day refund window',
};

describe('judge: faithfulness', () => {
  it('sends the strict rubric with a JSON-schema response format and writes validated claims', async () => {
    const run = await judge(input([REFUND]), ['--metrics', 'faithfulness', '--model', 'judge-model-x']);
    expect(run.code, run.stderr).toBe(0);
    expect(fake.server.requests).toHaveLength(1);
    const request = fake.server.requests[0]!;
    expect(request.path).toBe('/v1/chat/completions');
    expect(request.headers.authorization).toBe('Bearer sk-test-key');
    expect(request.body.model).toBe('judge-model-x');
    expect(request.body.temperature).toBe(0);
    const format = request.body.response_format;
    expect(format.type).toBe('json_schema');
    expect(format.json_schema.strict).toBe(true);
    expect(format.json_schema.name).toBe('faithfulness_claims');
    expect(format.json_schema.schema.properties.claims.items.properties.verdict.enum).toEqual(['SUPPORTED', 'CONTRADICTED', 'NOT_STATED']);
    const system = request.body.messages[0].content as string;
    expect(system).toContain(FAITHFULNESS_RUBRIC);
    expect(system).toContain('A claim is SUPPORTED only if the context states it or entails it directly. Plausible inference is NOT support.');
    const user = request.body.messages[1].content as string;
    for (const text of CONTEXTS) expect(user).toContain(text);
    expect(user).toContain(REFUND.answer);

    const [record] = readJsonl(run.out);
    expect(record!.claims).toEqual([
      { text: 'Enterprise annual contracts have a 14-day refund window from the invoice date.', verdict: 'SUPPORTED' },
      { text: 'Refunds require approval from two signatories.', verdict: 'NOT_STATED' },
    ]);
    expect(record!.judge_errors).toBeUndefined();
    expect(record!.judged_by).toEqual({ claims: { model: 'judge-model-x', prompt_version: 'faithfulness-v1' } });
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain('rag-gate judge: 1 record');
    expect(run.stderr).toMatch(/calls 1 \(0 retries\), tokens 120 \(prompt 100, completion 20\), cache hits 0/);
  });

  it('skips and counts records without retrieved_contexts or without an answer, making no call for them', async () => {
    const results = input([
      REFUND,
      { id: 'q2', question: 'No contexts?', answer: 'Some answer.' },
      { id: 'q3', question: 'No answer?', retrieved_contexts: ['x'] },
    ]);
    const run = await judge(results, ['--metrics', 'faithfulness', '--json']);
    expect(run.code, run.stderr).toBe(0);
    expect(fake.server.requests).toHaveLength(1);
    const summary = JSON.parse(run.stdout);
    expect(summary.metrics.faithfulness).toEqual({
      judged: 1,
      kept: 0,
      skipped: { 'no retrieved_contexts': 1, 'no answer': 1 },
      failed: 0,
      cost: { calls: 1, cacheHits: 0, promptTokens: 100, completionTokens: 20, totalTokens: 120 },
      calls: { chat: 1, embeddings: 0 },
      ragas: { metric: 'faithfulness', chat: 2, embeddings: 0 },
    });
    expect(summary.promptVersions).toEqual({ faithfulness: PROMPT_VERSIONS.faithfulness });
    expect(run.stderr).toContain('no retrieved_contexts: 1');
    const out = readJsonl(run.out);
    expect(out.map((r) => r.claims === undefined)).toEqual([false, true, true]);
  });
});

describe('judge: answer relevance and correctness', () => {
  it('answer relevance is the mean cosine between the question and three generated questions', async () => {
    // The evaluation article's example: cosines 0.91, 0.88 and 0.62 → 0.803.
    const unit = (c: number) => [c, Math.sqrt(1 - c * c)];
    fake.server.embeddings.set(REFUND.question, [1, 0]);
    fake.server.embeddings.set('Q-A', unit(0.91));
    fake.server.embeddings.set('Q-B', unit(0.88));
    fake.server.embeddings.set('Q-C', unit(0.62));
    const run = await judge(input([REFUND]), ['--metrics', 'answer_relevance', '--embedding-model', 'embed-x']);
    expect(run.code, run.stderr).toBe(0);
    expect(fake.server.requests.map((r) => r.path)).toEqual(['/v1/chat/completions', '/v1/embeddings']);
    expect(fake.server.requests[0]!.body.response_format.json_schema.name).toBe('answer_questions');
    expect(fake.server.requests[0]!.body.messages[1].content).toContain(REFUND.answer);
    expect(fake.server.requests[1]!.body).toEqual({ model: 'embed-x', input: [REFUND.question, 'Q-A', 'Q-B', 'Q-C'] });
    const [record] = readJsonl(run.out);
    expect(record!.answer_relevance).toBeCloseTo((0.91 + 0.88 + 0.62) / 3, 12);
    expect(run.stderr).toMatch(/calls 2 .*tokens 148 \(prompt 128, completion 20\)/);
  });

  it('correctness only where "correct" is absent and "expected_answer" exists', async () => {
    const results = input([
      { id: 'a', question: 'Q?', answer: 'It is a 14-day refund window.', expected_answer: '14-day refund window' },
      { id: 'b', question: 'Q?', answer: 'Thirty days.', expected_answer: '14-day refund window' },
      { id: 'c', question: 'Q?', answer: 'Thirty days.', expected_answer: '14-day refund window', correct: true },
      { id: 'd', question: 'Q?', answer: 'Thirty days.' },
    ]);
    const run = await judge(results, ['--metrics', 'correctness', '--json']);
    expect(run.code, run.stderr).toBe(0);
    expect(fake.server.requests).toHaveLength(2);
    const request = fake.server.requests[0]!;
    expect(request.body.response_format.json_schema.name).toBe('correctness_verdict');
    expect(request.body.messages[0].content).toContain('CORRECT');
    expect(readJsonl(run.out).map((r) => r.correct)).toEqual([true, false, true, undefined]);
    expect(JSON.parse(run.stdout).metrics.correctness).toEqual({
      judged: 2,
      kept: 1,
      skipped: { 'no expected_answer': 1 },
      failed: 0,
      cost: { calls: 2, cacheHits: 0, promptTokens: 200, completionTokens: 40, totalTokens: 240 },
      calls: { chat: 2, embeddings: 0 },
      ragas: { metric: 'answer_correctness', chat: 3, embeddings: 2 },
    });
  });
});

describe('judge: the input is never changed, and nothing the input has is lost', () => {
  it('keeps unknown fields and each JSON line byte for byte, appending the judged fields; IN is unchanged', async () => {
    const line =
      '{"id": "q1",   "question": "What is the refund window for enterprise annual contracts?", "response": "Enterprise annual contracts have a 14-day refund window from the invoice date.", "retrieved_contexts": ["Enterprise annual contracts have a 14-day refund window from the invoice date."], "pipeline_version": "v7", "nested": {"a": [1, 2.50, {"b": null}]}}';
    const results = path('in.jsonl');
    writeFileSync(results, `${line}\n`);
    const before = sha(results);
    const run = await judge(results, ['--metrics', 'faithfulness']);
    expect(run.code, run.stderr).toBe(0);
    expect(sha(results)).toBe(before);
    const written = readFileSync(run.out, 'utf8');
    expect(written.startsWith(line.slice(0, -1))).toBe(true);
    const [record] = readJsonl(run.out);
    expect(record!.pipeline_version).toBe('v7');
    expect(record!.nested).toEqual({ a: [1, 2.5, { b: null }] });
    expect(record!.response).toBe('Enterprise annual contracts have a 14-day refund window from the invoice date.');
    expect(record!.claims).toEqual([{ text: 'Enterprise annual contracts have a 14-day refund window from the invoice date.', verdict: 'SUPPORTED' }]);
  });

  it('does not overwrite fields the input has unless --overwrite', async () => {
    const own = [{ text: 'my claim', verdict: 'CONTRADICTED' }];
    const results = input([{ ...REFUND, claims: own, answer_relevance: 0.5, correct: false }]);
    const before = sha(results);
    const kept = await judge(results);
    expect(kept.code, kept.stderr).toBe(0);
    expect(fake.server.requests).toHaveLength(0);
    expect(readJsonl(kept.out)[0]).toMatchObject({ claims: own, answer_relevance: 0.5, correct: false });
    expect(readFileSync(kept.out, 'utf8')).toBe(readFileSync(results, 'utf8'));

    const replaced = await judge(results, ['--overwrite']);
    expect(replaced.code, replaced.stderr).toBe(0);
    const record = readJsonl(replaced.out)[0]!;
    expect(record.claims).not.toEqual(own);
    expect(record.correct).toBe(true);
    expect(record.answer_relevance).not.toBe(0.5);
    expect(Object.keys(record).slice(0, 3)).toEqual(['id', 'question', 'answer']);
    expect(sha(results)).toBe(before);
  });

  it('reads a JSON array and writes JSON Lines', async () => {
    const results = path('in.json');
    writeFileSync(results, JSON.stringify([REFUND, { ...REFUND, id: 'q2' }], null, 2));
    const run = await judge(results, ['--metrics', 'faithfulness']);
    expect(run.code, run.stderr).toBe(0);
    const out = readJsonl(run.out);
    expect(out.map((r) => r.id)).toEqual(['q1', 'q2']);
    expect(out[1]!.claims).toHaveLength(2);
  });

  it("reads a CSV with the user's own field names (--field) and writes JSON Lines with the judged fields", async () => {
    const results = path('in.csv');
    const list = (texts: readonly string[]) => `"${JSON.stringify(texts).replaceAll('"', '""')}"`;
    writeFileSync(results, `prompt,output,gold,contexts\n"${REFUND.question}","${REFUND.answer}",${REFUND.expected_answer},${list(CONTEXTS)}\n`);
    const run = await judge(results, [
      '--metrics',
      'faithfulness',
      '--field',
      'question=prompt',
      '--field',
      'answer=output',
      '--field',
      'expected_answer=gold',
    ]);
    expect(run.code, run.stderr).toBe(0);
    const [record] = readJsonl(run.out);
    expect(record).toMatchObject({ prompt: REFUND.question, output: REFUND.answer, gold: REFUND.expected_answer, contexts: CONTEXTS });
    expect(record!.claims).toHaveLength(2);
    const bad = await judge(results, ['--field', 'questoin=prompt']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('"questoin" is not a field of the results format; did you mean "question"?');
  });

  it('refuses --out equal to --results (exit 2), and a bad results file is bad input (exit 2), making no call', async () => {
    const results = input([REFUND]);
    const same = await runMain(['judge', '--results', results, '--out', results, '--base-url', fake.server.url, '--no-cache']);
    expect(same.code).toBe(2);
    expect(same.stderr).toContain('--out must name another file');
    const bad = input([{ ...REFUND, retrieved_contexts: ['only one'] }]);
    const run = await judge(bad);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`${bad}:1: retrieved_contexts: has 1 text but retrieved_ids has 2 ids`);
    expect(existsSync(run.out)).toBe(false);
    const unknownMetric = await judge(results, ['--metrics', 'faithfulness,fluency']);
    expect(unknownMetric.code).toBe(2);
    expect(unknownMetric.stderr).toContain('"fluency" is not a judge metric');
    expect(fake.server.requests).toHaveLength(0);
  });
});

describe('judge: retries, timeouts and failures', () => {
  it('retries a 429 and counts the retry', async () => {
    // A short Retry-After keeps the test quick; how long the client waits is checked with a manual clock below.
    fake.server.handler = (_request, index) =>
      index === 0 ? { status: 429, headers: { 'retry-after-ms': '5' }, body: { error: { message: 'Rate limit reached' } } } : undefined;
    const run = await judge(input([REFUND]), ['--metrics', 'faithfulness']);
    expect(run.code, run.stderr).toBe(0);
    expect(fake.server.requests).toHaveLength(2);
    expect(readJsonl(run.out)[0]!.claims).toHaveLength(2);
    expect(run.stderr).toMatch(/calls 2 \(1 retry, 1 rate limited\)/);
  });

  it('retries 5xx with backoff, and gives up after --max-attempts as a judge error', async () => {
    fake.server.handler = (_request, index) => (index < 2 ? { status: 503, body: 'upstream overloaded' } : undefined);
    const recovered = await judge(input([REFUND]), ['--metrics', 'faithfulness']);
    expect(recovered.code, recovered.stderr).toBe(0);
    expect(fake.server.requests).toHaveLength(3);

    fake.server.reset();
    fake.server.handler = () => ({ status: 500, body: { error: { message: 'boom' } } });
    const failed = await judge(input([REFUND]), ['--metrics', 'faithfulness', '--max-attempts', '3']);
    expect(fake.server.requests).toHaveLength(3);
    expect(failed.code).toBe(1);
    expect(readJsonl(failed.out)[0]!.judge_errors).toEqual([
      { metric: 'faithfulness', kind: 'unavailable', message: 'HTTP 500: boom (gave up after 3 attempts)' },
    ]);
  });

  it('a reply that does not parse is retried; one that never parses is a judge error, counted', async () => {
    fake.server.handler = (_request, index) => (index === 0 ? { body: chatCompletion('Sure! Here are the claims: ...') } : undefined);
    const retried = await judge(input([REFUND]), ['--metrics', 'faithfulness']);
    expect(retried.code, retried.stderr).toBe(0);
    expect(fake.server.requests).toHaveLength(2);

    fake.server.reset();
    fake.server.handler = () => ({ body: chatCompletion(JSON.stringify({ claims: [{ text: 'x', verdict: 'MOSTLY_TRUE' }] })) });
    const failed = await judge(input([REFUND]), ['--metrics', 'faithfulness', '--max-attempts', '2', '--json']);
    expect(fake.server.requests).toHaveLength(2);
    expect(failed.code).toBe(1);
    const [record] = readJsonl(failed.out);
    expect(record!.claims).toBeUndefined();
    const errors = record!.judge_errors as { metric: string; kind: string; message: string }[];
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ metric: 'faithfulness', kind: 'invalid_reply' });
    expect(errors[0]!.message).toContain('claims.0.verdict');
    const summary = JSON.parse(failed.stdout);
    expect(summary).toMatchObject({ recordsFailed: 1, failureShare: 1, failuresByKind: { invalid_reply: 1 }, passed: false });
    expect(failed.stderr).toContain('judge errors: 1 of 1 record judged (100.0%; allowed 5.0%); by kind: invalid_reply 1');
  });

  it('a request that exceeds --timeout-seconds is retried, then a timeout error; --timeout-ms, its former spelling, still works', async () => {
    // No reply at all, rather than a late one, so the outcome cannot depend on which timer fires first.
    fake.server.hold = () => new Promise(() => {});
    for (const timeout of [
      ['--timeout-seconds', '0.05'],
      ['--timeout-ms', '50'],
    ]) {
      fake.server.requests.length = 0;
      const run = await judge(input([REFUND]), ['--metrics', 'faithfulness', ...timeout, '--max-attempts', '2']);
      expect(run.code).toBe(1);
      expect(fake.server.requests).toHaveLength(2);
      const [error] = readJsonl(run.out)[0]!.judge_errors as { kind: string; message: string }[];
      expect(error).toMatchObject({ kind: 'timeout', message: expect.stringContaining('within 50 ms') });
    }
  });

  it.each([
    [['--concurrency', '0'], /option '--concurrency <n>' argument '0' is invalid\. must be a whole number ≥ 1, got "0"/],
    [['--max-attempts', '1.5'], /option '--max-attempts <n>' argument '1\.5' is invalid\. must be a whole number ≥ 1/],
    [['--timeout-seconds', 'soon'], /option '--timeout-seconds <s>' argument 'soon' is invalid\. must be a positive number/],
    [['--timeout-seconds', '5', '--timeout-ms', '50'], /option '--timeout-ms <ms>' cannot be used with option '--timeout-seconds <s>'/],
  ])('%j is refused before any call, naming the option (exit 2)', async (flags, message) => {
    const run = await judge(input([REFUND]), flags);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(message);
    expect(fake.server.requests).toHaveLength(0);
  });

  it('more than --max-failure-share of records failing exits 1, but OUT is still written; at or below it exits 0', async () => {
    fake.server.handler = (request) =>
      request.body.messages?.[1]?.content.includes('POISON') ? { status: 400, body: { error: { message: 'context length exceeded' } } } : undefined;
    const records = (n: number, bad: number) =>
      Array.from({ length: n }, (_, i) => ({ ...REFUND, id: `q${i}`, answer: i < bad ? `POISON ${i}.` : REFUND.answer }));

    const few = await judge(input(records(20, 1)), ['--metrics', 'faithfulness']);
    expect(few.code, few.stderr).toBe(0);
    expect(readJsonl(few.out).filter((r) => r.judge_errors !== undefined)).toHaveLength(1);

    const many = await judge(input(records(20, 2)), ['--metrics', 'faithfulness']);
    expect(many.code).toBe(1);
    expect(many.stderr).toContain('2 of 20 records (10.0%) could not be judged, more than the 5.0% --max-failure-share allows');
    expect(many.stderr).toContain('was still written');
    const out = readJsonl(many.out);
    expect(out).toHaveLength(20);
    expect(out.filter((r) => r.claims !== undefined)).toHaveLength(18);
    expect(out[0]!.judge_errors).toEqual([{ metric: 'faithfulness', kind: 'http', message: 'HTTP 400: context length exceeded' }]);

    const allowed = await judge(input(records(20, 2)), ['--metrics', 'faithfulness', '--max-failure-share', '0.1']);
    expect(allowed.code).toBe(0);
  });

  it('falls back to JSON mode when the endpoint rejects the JSON-schema response format', async () => {
    fake.server.handler = (request) =>
      request.body.response_format?.type === 'json_schema'
        ? { status: 400, body: { error: { message: "response_format 'json_schema' is not supported" } } }
        : undefined;
    const run = await judge(input([REFUND, { ...REFUND, id: 'q2', answer: 'Refunds are issued to the original payment method.' }]), [
      '--metrics',
      'faithfulness',
      '--concurrency',
      '1',
    ]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain('using JSON mode');
    expect(fake.server.requests.map((r) => r.body.response_format.type)).toEqual(['json_schema', 'json_object', 'json_object']);
    expect(readJsonl(run.out).every((r) => Array.isArray(r.claims))).toBe(true);
  });

  it('a rerun replaces the judge errors of the metrics it judges again', async () => {
    const relevanceBy = { model: 'old-model', embedding_model: 'old-embed', prompt_version: 'answer-relevance-v1' };
    const results = input([
      {
        ...REFUND,
        answer_relevance: 0.4,
        judged_by: { answer_relevance: relevanceBy },
        judge_errors: [
          { metric: 'faithfulness', kind: 'timeout', message: 'old' },
          { metric: 'correctness', kind: 'http', message: 'old' },
        ],
      },
    ]);
    const run = await judge(results, ['--metrics', 'faithfulness']);
    expect(run.code, run.stderr).toBe(0);
    const [record] = readJsonl(run.out);
    expect(record!.judge_errors).toEqual([{ metric: 'correctness', kind: 'http', message: 'old' }]);
    expect(record!.judged_by).toEqual({ claims: { model: 'gpt-4o-mini', prompt_version: 'faithfulness-v1' }, answer_relevance: relevanceBy });
    expect(run.stderr).not.toContain('unknown field "judge_errors"');
    expect(run.stderr).not.toContain('unknown field "judged_by"');
  });
});

describe('judge client: waits, on a manual clock', () => {
  const client = (clock: JudgeClock) =>
    new JudgeClient({
      baseUrl: fake.server.url,
      apiKey: 'k',
      model: 'm',
      embeddingModel: 'e',
      timeoutMs: 60_000,
      maxAttempts: 3,
      concurrency: 8,
      backoffMs: 5,
      random: () => 0,
      clock,
    });
  const asked = (word: string) => (request: RecordedRequest) => (request.body.messages[1].content as string).includes(word);
  const rateLimited = (headers: Record<string, string>) => ({ status: 429, headers, body: { error: { message: 'Rate limit reached' } } });

  it('waits the Retry-After seconds before retrying', async () => {
    const clock = manualClock();
    fake.server.handler = (_request, index) => (index === 0 ? rateLimited({ 'retry-after': '1' }) : undefined);
    const verdict = judgeCorrect(client(clock.clock), 'alpha?', 'yes', 'yes');
    await Promise.race([clock.sleeps(1), verdict]);
    expect(clock.slept).toEqual([1000]);
    expect(fake.server.requests).toHaveLength(1);
    clock.advance(1000);
    expect(await verdict).toBe(true);
    expect(fake.server.requests).toHaveLength(2);
  });

  it('holds back every call, not only the one that got it, while a 429 asks to wait', async () => {
    const clock = manualClock();
    const judgeClient = client(clock.clock);
    let limited = false;
    fake.server.handler = (request) => (asked('alpha')(request) && !limited ? ((limited = true), rateLimited({ 'retry-after-ms': '400' })) : undefined);
    let releaseBravo!: () => void;
    const bravoHeld = new Promise<void>((resolve) => (releaseBravo = resolve));
    fake.server.hold = (request) => (asked('bravo')(request) ? bravoHeld : undefined);

    const alpha = judgeCorrect(judgeClient, 'alpha?', 'yes', 'yes');
    const bravo = judgeCorrect(judgeClient, 'bravo?', 'yes', 'yes');
    await Promise.race([clock.sleeps(1), alpha]); // alpha got the 429 and waits
    expect(clock.slept).toEqual([400]);
    // Bravo was already in flight: its reply is not held back.
    releaseBravo();
    expect(await bravo).toBe(true);
    // A call started during the pause waits out the rest of it before sending anything.
    const charlie = judgeCorrect(judgeClient, 'charlie?', 'yes', 'yes');
    await Promise.race([clock.sleeps(2), charlie]);
    expect(clock.slept).toEqual([400, 400]);
    expect(fake.server.requests.filter(asked('charlie'))).toHaveLength(0);
    clock.advance(400);
    expect([await alpha, await charlie]).toEqual([true, true]);
    expect(clock.slept).toEqual([400, 400]);
    expect(fake.server.requests.map((r) => ['alpha', 'bravo', 'charlie'].find((word) => asked(word)(r))).sort()).toEqual([
      'alpha',
      'alpha',
      'bravo',
      'charlie',
    ]);
  });
});

describe('judge: concurrency, budget and cache', () => {
  const many = (n: number) =>
    Array.from({ length: n }, (_, i) => ({ ...REFUND, id: `q${i}`, question: `${REFUND.question} (${i})`, answer: `Answer number ${i}. ${REFUND.answer}` }));

  it('never has more than --concurrency requests in flight', async () => {
    // The first replies wait until three requests overlap, so reaching the limit does not depend on speed.
    const three = fake.server.inFlightReached(3);
    fake.server.hold = () => three;
    fake.server.delayMs = 30;
    const run = await judge(input(many(24)), ['--metrics', 'faithfulness,correctness', '--concurrency', '3']);
    expect(run.code, run.stderr).toBe(0);
    expect(fake.server.requests).toHaveLength(48);
    expect(fake.server.maxInFlight).toBe(3);
  });

  it('--max-calls is a budget: no more requests than it allows, the rest marked as budget errors', async () => {
    const run = await judge(input(many(8)), ['--metrics', 'faithfulness', '--max-calls', '3', '--concurrency', '2', '--json']);
    expect(fake.server.requests).toHaveLength(3);
    expect(run.code).toBe(1);
    const out = readJsonl(run.out);
    expect(out.filter((r) => Array.isArray(r.claims))).toHaveLength(3);
    const budget = out.filter((r) => (r.judge_errors as { kind: string }[] | undefined)?.[0]?.kind === 'budget');
    expect(budget).toHaveLength(5);
    expect((budget[0]!.judge_errors as { message: string }[])[0]!.message).toBe('the --max-calls budget of 3 calls is used up');
    expect(JSON.parse(run.stdout).failuresByKind).toEqual({ budget: 5 });
  });

  it('a second run is served entirely from the cache, with the same output', async () => {
    const cache = path('cache');
    const results = input(many(5));
    const first = await judge(results, ['--cache', cache]);
    expect(first.code, first.stderr).toBe(0);
    // Three chat calls an answer, and one embeddings call for the five answers' texts.
    expect(fake.server.requests).toHaveLength(5 * 3 + 1);
    // One JSON file per distinct call (the embeddings: one per answer, though they came in one call), under a two-hex-digit fan-out, no temporary files left behind.
    const entries = readdirSync(cache, { recursive: true, encoding: 'utf8' }).filter((name) => name.endsWith('.json') || name.endsWith('.tmp'));
    expect(entries).toHaveLength(20);
    for (const entry of entries) {
      expect(entry).toMatch(/^[0-9a-f]{2}[/\\][0-9a-f]{64}\.json$/);
      expect(JSON.parse(readFileSync(join(cache, entry), 'utf8')).key).toBe(entry.slice(3, -5));
    }

    fake.server.reset();
    fake.server.handler = () => ({ status: 500, body: 'the cache should have answered' });
    const second = await judge(results, ['--cache', cache]);
    expect(second.code, second.stderr).toBe(0);
    expect(fake.server.requests).toHaveLength(0);
    expect(readFileSync(second.out, 'utf8')).toBe(readFileSync(first.out, 'utf8'));
    expect(second.stderr).toMatch(/calls 0 \(0 retries\), tokens 0 \(prompt 0, completion 0\), cache hits 20/);

    // Another model is another judge: nothing cached for it.
    fake.server.reset();
    const other = await judge(results, ['--cache', cache, '--metrics', 'faithfulness', '--model', 'other-model']);
    expect(other.code, other.stderr).toBe(0);
    expect(fake.server.requests).toHaveLength(5);
  });

  it('identical calls within a run are made once', async () => {
    const results = input([REFUND, { ...REFUND, id: 'q2' }, { ...REFUND, id: 'q3' }]);
    const run = await judge(results, ['--metrics', 'faithfulness']);
    expect(run.code, run.stderr).toBe(0);
    expect(fake.server.requests).toHaveLength(1);
    expect(readJsonl(run.out).map((r) => (r.claims as unknown[]).length)).toEqual([2, 2, 2]);
    expect(run.stderr).toContain('cache hits 2');
  });
});

describe('judge: setup problems exit 2 with a clear message and write nothing', () => {
  it('no OPENAI_API_KEY', async () => {
    vi.stubEnv('OPENAI_API_KEY', undefined);
    const run = await judge(input([REFUND]));
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^rag-gate: error: no API key: set OPENAI_API_KEY/);
    expect(existsSync(run.out)).toBe(false);
    expect(fake.server.requests).toHaveLength(0);
  });

  it('an unreachable endpoint (connection refused on every attempt)', async () => {
    const port = await closedPort();
    const out = path('out.jsonl');
    const run = await runMain([
      'judge',
      '--results',
      input([REFUND, { ...REFUND, id: 'q2' }]),
      '--out',
      out,
      '--base-url',
      `http://127.0.0.1:${port}/v1`,
      '--no-cache',
    ]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      `rag-gate: error: cannot reach the judge endpoint http://127.0.0.1:${port}/v1/chat/completions (connection refused) on 4 attempts; check --base-url or OPENAI_BASE_URL`,
    );
    expect(existsSync(out)).toBe(false);
  });

  it('a rejected key (401)', async () => {
    fake.server.handler = () => ({ status: 401, body: { error: { message: 'Incorrect API key provided' } } });
    const run = await judge(input([REFUND, { ...REFUND, id: 'q2', answer: 'Other.' }]));
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('rejected the API key (HTTP 401: Incorrect API key provided); check OPENAI_API_KEY');
    expect(existsSync(run.out)).toBe(false);
  });

  it('a base URL that is not http(s)', async () => {
    const out = path('out.jsonl');
    const run = await runMain(['judge', '--results', input([REFUND]), '--out', out, '--base-url', 'ftp://example.com/v1', '--no-cache']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('"ftp://example.com/v1" must be an http or https URL');
  });

  it('the base URL comes from OPENAI_BASE_URL when --base-url is absent', async () => {
    vi.stubEnv('OPENAI_BASE_URL', fake.server.url);
    const out = path('out.jsonl');
    const run = await runMain(['judge', '--results', input([REFUND]), '--out', out, '--metrics', 'faithfulness', '--no-cache']);
    expect(run.code, run.stderr).toBe(0);
    expect(fake.server.requests).toHaveLength(1);
  });
});
