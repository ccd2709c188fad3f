import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAction } from '../../../src/frontends/github/run.js';
import { tempDir, writeJsonl } from '../../helpers/files.js';
import { type FakeOpenAI, startFakeOpenAI } from '../../judge/fake-openai.js';
import { fakeBatchApi } from '../../judge/fake-batch.js';
import { FakeGitHub, fakeRuntime } from './fakes.js';

let judge: FakeOpenAI;
beforeAll(async () => {
  judge = await startFakeOpenAI();
});
afterAll(() => judge.close());

/** 40 questions whose answers the fake judge finds correct in base and wrong in head for 30 of them. */
function judgedRuns(dir: string): { base: string; head: string } {
  const records = (wrong: (i: number) => boolean) =>
    Array.from({ length: 40 }, (_, i) => ({
      id: `q${i}`,
      question: `Q${i}?`,
      expected_answer: `answer ${i}`,
      answer: wrong(i) ? 'no idea' : `it is answer ${i}`,
    }));
  return {
    base: writeJsonl(
      dir,
      'base.jsonl',
      records(() => false),
    ),
    head: writeJsonl(
      dir,
      'results.jsonl',
      records((i) => i < 30),
    ),
  };
}

async function run(dir: string, files: { base: string; head: string }, inputs: Record<string, string> = {}, reset = true) {
  if (reset) judge.reset();
  const fake = fakeRuntime({
    api: new FakeGitHub(),
    inputs: {
      results: files.head,
      baseline: files.base,
      judge: 'openai',
      'judge-model': 'judge-1',
      'judge-cache': join(dir, 'cache'),
      'fail-on': 'end-to-end',
      ...inputs,
    },
    env: { RUNNER_TEMP: dir, OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: judge.url, RAG_GATE_JUDGE_BACKOFF_MS: '5', RAG_GATE_JUDGE_BATCH_POLL_MS: '1' },
  });
  await runAction(fake.runtime);
  return fake;
}

describe('the action with judge-mode: batch', () => {
  it('judge-batch-wait 0 submits and stops without a verdict; the next run with the same cache collects and compares', async () => {
    const dir = tempDir();
    const files = judgedRuns(dir);
    judge.reset();
    const api = fakeBatchApi(judge);
    judge.handler = api.handler;
    const submitted = await run(dir, files, { 'judge-mode': 'batch', 'judge-batch-wait': '0' }, false);
    expect(submitted.failures).toEqual([]);
    expect(submitted.outputs.get('verdict')).toBeUndefined();
    expect(submitted.infos.join('\n')).toMatch(/submitted batch batch_\d+ \(51 requests\); recorded in .*cache\/batches\/head-0-results\.jsonl\.batch\.json/);
    expect(judge.requests.filter((r) => r.path === '/v1/chat/completions')).toHaveLength(0);

    // The next run: the head's batch is collected, the base's submitted and, with the default wait, collected too.
    const collected = await run(dir, files, { 'judge-mode': 'batch', 'judge-price': '0.15/0.60' }, false);
    expect(collected.failures).toEqual([]);
    expect(collected.outputs.get('verdict')).toBe('pass');
    expect(collected.outputs.get('broken')).toBe('30');
    expect(judge.requests.filter((r) => r.method === 'POST' && r.path === '/v1/batches')).toHaveLength(2);
    expect(judge.requests.filter((r) => r.path === '/v1/chat/completions')).toHaveLength(0);
    expect(collected.infos.join('\n')).toMatch(/batch: batch_\d+ completed, collected from the state file; 51 requests, 51 answered/);
    expect(collected.infos.join('\n')).toMatch(/cost: \$0\.\d+ at the batch price, \$0\.\d+ at the synchronous price \(--price: /);
  });
});

describe('the action with judge: openai', () => {
  it('judges correctness where records lack it, and an uncalibrated judge does not fail the check', async () => {
    const dir = tempDir();
    const { outputs, failures, warnings } = await run(dir, judgedRuns(dir));
    expect(failures).toEqual([]);
    // Identical calls are made once. Correctness: 40 base answers and the 30 head answers that changed (the other
    // 10 are the base's) = 70. Answer relevance asks for questions from the answer alone: 40 distinct base answers
    // and the one head answer "no idea" = 41. Its embeddings: the 40 questions with the same three generated ones,
    // embedded for the head, which is judged first, 16 answers a call (3 calls); the base's are the same texts.
    const chat = judge.requests.filter((r) => r.path === '/v1/chat/completions');
    expect(chat).toHaveLength(111);
    expect(chat.filter((r) => JSON.stringify(r.body).includes('You grade an an'))).toHaveLength(70);
    const embeddings = judge.requests.filter((r) => r.path === '/v1/embeddings');
    expect(embeddings.map((r) => r.body.input.length)).toEqual([16 * 4, 16 * 4, 8 * 4]);
    expect(outputs.get('verdict')).toBe('pass');
    expect(outputs.get('broken')).toBe('30');
    const report = JSON.parse(readFileSync(outputs.get('report-json')!, 'utf8'));
    expect(report.judges.map((j: { field: string; allowed: boolean }) => [j.field, j.allowed])).toEqual([
      ['answer_relevance', false],
      ['correct', false],
    ]);
    const comment = readFileSync(outputs.get('report-markdown')!, 'utf8');
    expect(comment).toMatch(/### ⚠️ rag-gate: end-to-end correctness dropped, but the judge is uncalibrated, so it does not gate/);
    expect(comment).toMatch(/\*\*Judge\*\*: .*judge `judge-1` \(`correctness-v1`\) is uncalibrated/);
    expect(warnings).toEqual([]);
  });

  it('a calibration record for the same judge lets the drop fail the check, and the cache makes the rerun call nothing', async () => {
    const dir = tempDir();
    const files = judgedRuns(dir);
    await run(dir, files);
    const record = join(dir, 'calibration.json');
    writeFileSync(
      record,
      JSON.stringify({
        model: 'judge-1',
        promptVersion: 'correctness-v1',
        kind: 'correctness',
        kappa: 0.8,
        observed: 0.9,
        expected: 0.5,
        n: 100,
        date: '2026-11-01T00:00:00Z',
      }),
    );
    const { failures, outputs } = await run(dir, files, { 'judge-calibration': record });
    expect(judge.requests).toEqual([]);
    expect(outputs.get('verdict')).toBe('fail');
    expect(failures.join('\n')).toMatch(/end-to-end regressed significantly/);
  });

  it('fails with a clear message when no key is set, before reading anything', async () => {
    const dir = tempDir();
    const files = judgedRuns(dir);
    const fake = fakeRuntime({
      api: new FakeGitHub(),
      inputs: { results: files.head, baseline: files.base, judge: 'openai', 'judge-cache': join(dir, 'cache') },
      env: { RUNNER_TEMP: dir },
    });
    await runAction(fake.runtime);
    expect(fake.failures.join('\n')).toMatch(/no API key: set OPENAI_API_KEY/);
    expect(existsSync(join(dir, 'rag-gate', 'default', 'report.json'))).toBe(false);
  });

  it('takes user:password from judge-base-url as Basic authentication, and the settings it logs do not show them', async () => {
    const dir = tempDir();
    const baseUrl = judge.url.replace('http://', 'http://ci-user:pw-from-a-secret@');
    const fake = await run(dir, judgedRuns(dir), { 'judge-base-url': baseUrl });
    expect(fake.failures).toEqual([]);
    expect(judge.requests[0]!.headers.authorization).toBe(`Basic ${Buffer.from('ci-user:pw-from-a-secret').toString('base64')}`);
    const logged = [...fake.infos, ...fake.warnings.map((w) => w.message)].join('\n');
    expect(logged).toMatch(/judge-base-url +http:\/\/\*\*\*@127\.0\.0\.1:\d+\/v1 +input/);
    expect(logged).not.toContain('pw-from-a-secret');
  });

  it('passes judge-concurrency to the client: that many requests in flight, never more', async () => {
    const dir = tempDir();
    judge.reset();
    // Every reply waits until three requests are in flight: a client that sent fewer at once would never finish.
    const release = judge.inFlightReached(3);
    const fake = fakeRuntime({
      api: new FakeGitHub(),
      // The base's answers are all different: no two calls are the same, and made once.
      inputs: { results: judgedRuns(dir).base, judge: 'openai', 'judge-cache': join(dir, 'cache'), 'judge-concurrency': '3', 'fail-on': 'end-to-end' },
      env: { RUNNER_TEMP: dir, OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: judge.url, RAG_GATE_JUDGE_BACKOFF_MS: '5', RAG_GATE_JUDGE_BATCH_POLL_MS: '1' },
    });
    judge.hold = () => release;
    await runAction(fake.runtime);
    expect(fake.failures).toEqual([]);
    expect(judge.maxInFlight).toBe(3);
  });

  it('passes judge-max-attempts to the client: a judge answering 500 gets that many attempts per call', async () => {
    const dir = tempDir();
    judge.reset();
    judge.handler = () => ({ status: 500, body: { error: { message: 'down' } } });
    const head = writeJsonl(dir, 'results.jsonl', [{ id: 'q1', question: 'Q?', expected_answer: 'a', answer: 'it is a' }]);
    const fake = fakeRuntime({
      api: new FakeGitHub(),
      inputs: { results: head, judge: 'openai', 'judge-cache': join(dir, 'cache'), 'judge-max-attempts': '2' },
      env: { RUNNER_TEMP: dir, OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: judge.url, RAG_GATE_JUDGE_BACKOFF_MS: '5', RAG_GATE_JUDGE_BATCH_POLL_MS: '1' },
    });
    await runAction(fake.runtime);
    // Correctness and answer relevance's questions: one chat call each, two attempts each.
    expect(judge.requests).toHaveLength(4);
    expect(fake.failures.join('\n')).toMatch(/the judge failed on 1 of 1 records/);
  });

  it('passes judge-timeout-seconds to the client: a reply slower than it is a timeout', async () => {
    const dir = tempDir();
    judge.reset();
    // No reply at all, rather than a late one, so the outcome cannot depend on which timer fires first.
    judge.hold = () => new Promise(() => {});
    const head = writeJsonl(dir, 'results.jsonl', [{ id: 'q1', question: 'Q?', expected_answer: 'a', answer: 'it is a' }]);
    const fake = fakeRuntime({
      api: new FakeGitHub(),
      inputs: { results: head, judge: 'openai', 'judge-cache': join(dir, 'cache'), 'judge-timeout-seconds': '0.05', 'judge-max-attempts': '1' },
      env: { RUNNER_TEMP: dir, OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: judge.url, RAG_GATE_JUDGE_BACKOFF_MS: '5', RAG_GATE_JUDGE_BATCH_POLL_MS: '1' },
    });
    await runAction(fake.runtime);
    const judged = readFileSync(join(dir, 'rag-gate', 'default', 'judged', 'head', '0-results.jsonl'), 'utf8');
    expect(JSON.parse(judged).judge_errors.map((error: { kind: string; message: string }) => [error.kind, error.message])).toEqual([
      ['timeout', expect.stringContaining('within 50 ms')],
      ['timeout', expect.stringContaining('within 50 ms')],
    ]);
    expect(fake.failures.join('\n')).toMatch(/the judge failed on 1 of 1 records/);
  });

  it('rejects an unknown judge', async () => {
    const dir = tempDir();
    const files = judgedRuns(dir);
    const fake = fakeRuntime({ api: new FakeGitHub(), inputs: { results: files.head, judge: 'claude' }, env: { RUNNER_TEMP: dir } });
    await runAction(fake.runtime);
    expect(fake.failures.join('\n')).toMatch(/input "judge": must be none or openai/);
  });
});
