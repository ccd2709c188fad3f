import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { EMBEDDING_BATCH_ANSWERS } from '../../src/judge/embedding-batch.js';
import { jsonl, runMain } from '../helpers/cli.js';
import { type RecordedRequest, useFakeJudge } from './fake-openai.js';

const fake = useFakeJudge();

/** `count` answers with distinct questions (answer relevance's embeddings differ by the question). */
function answers(count: number, question = (i: number) => `What is the refund window of contract ${i}?`): string {
  const file = fake.path('in.jsonl');
  writeFileSync(file, jsonl(Array.from({ length: count }, (_, i) => ({ id: `q${i}`, question: question(i), answer: `It is ${i} days.` }))));
  return file;
}

async function judgeRelevance(results: string, extra: readonly string[] = []) {
  const out = fake.path('out.jsonl');
  const cache = extra.includes('--cache') ? [] : ['--no-cache'];
  const run = await runMain(['judge', '--results', results, '--out', out, '--base-url', fake.server.url, '--metrics', 'answer_relevance', ...cache, ...extra]);
  const records = readFileSync(out, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { id: string; answer_relevance?: number; judge_errors?: unknown[] });
  return { ...run, records };
}

const embeddingsCalls = () => fake.server.requests.filter((request: RecordedRequest) => request.path === '/v1/embeddings');

describe("answer relevance's embeddings, batched across answers", () => {
  it('70 answers take 5 embeddings calls (16 answers each, then 6), each answer scored as it is alone; a rerun makes no call', async () => {
    expect(EMBEDDING_BATCH_ANSWERS).toBe(16);
    const results = answers(70);
    const cache = fake.path('cache');
    const batched = await judgeRelevance(results, ['--cache', cache, '--json']);
    expect(batched.code, batched.stderr).toBe(0);
    expect(embeddingsCalls().map((request) => request.body.input.length)).toEqual([16 * 4, 16 * 4, 16 * 4, 16 * 4, 6 * 4]);
    expect(JSON.parse(batched.stdout).metrics.answer_relevance.calls).toEqual({ chat: 70, embeddings: 5 });
    expect(batched.stderr).toMatch(/answer_relevance\s+70\s+0\s+0\s+0\s+1\.07 \(1\.00 chat \+ 0\.07 embeddings\)/);

    // The same answers one a request (an endpoint that takes one input list per answer) give the same scores.
    fake.server.reset();
    fake.server.handler = (request) =>
      request.path === '/v1/embeddings' && request.body.input.length > 4
        ? { status: 400, body: { error: { message: "'input' has too many items" } } }
        : undefined;
    const single = await judgeRelevance(results);
    expect(single.code, single.stderr).toBe(0);
    expect(single.records.map((r) => r.answer_relevance)).toEqual(batched.records.map((r) => r.answer_relevance));
    expect(batched.records.every((r) => typeof r.answer_relevance === 'number')).toBe(true);
    // The first list of 16 answers refused (and any list sent before its refusal came back), then one request an answer.
    const sizes = embeddingsCalls().map((request) => request.body.input.length);
    expect(sizes[0]).toBe(16 * 4);
    expect(sizes.filter((size) => size === 4)).toHaveLength(70);
    expect(single.stderr).toContain('warning: the embeddings endpoint refused the texts of 16 answers in one request');

    fake.server.reset();
    const again = await judgeRelevance(results, ['--cache', cache]);
    expect(again.code, again.stderr).toBe(0);
    expect(fake.server.requests).toHaveLength(0);
    expect(again.stderr).toContain('cache hits 140');
  });

  it('a batch whose call fails loses only its own answers: the rerun asks for their embeddings alone, in one call', async () => {
    const results = answers(40);
    const cache = fake.path('cache');
    // The third batch (the last 8 answers) fails.
    fake.server.handler = (request) =>
      request.path === '/v1/embeddings' && request.body.input.length === 8 * 4 ? { status: 500, body: { error: { message: 'down' } } } : undefined;
    const first = await judgeRelevance(results, ['--cache', cache, '--max-attempts', '1']);
    expect(first.code).toBe(1);
    expect(first.records.filter((r) => r.judge_errors !== undefined)).toHaveLength(8);

    fake.server.reset();
    const rerun = await judgeRelevance(results, ['--cache', cache]);
    expect(rerun.code, rerun.stderr).toBe(0);
    expect(fake.server.requests.map((request) => [request.path, request.body.input?.length])).toEqual([['/v1/embeddings', 8 * 4]]);
    expect(rerun.records.every((r) => typeof r.answer_relevance === 'number')).toBe(true);
  });

  it('a request carries at most 100,000 estimated tokens: 20 answers of about 7,500 go in two calls', async () => {
    // A question of 30,000 characters is about 7,500 tokens: 13 answers fit in one request, the other 7 in the next.
    const results = answers(20, (i) => `${i} ${'refund '.repeat(4_285)}`);
    const run = await judgeRelevance(results);
    expect(run.code, run.stderr).toBe(0);
    expect(embeddingsCalls().map((request) => request.body.input.length)).toEqual([13 * 4, 7 * 4]);
  });

  it('identical texts in two answers are embedded once', async () => {
    const results = answers(10, () => 'The same question?');
    const run = await judgeRelevance(results);
    expect(run.code, run.stderr).toBe(0);
    expect(embeddingsCalls().map((request) => request.body.input.length)).toEqual([4]);
  });
});
