import { readFileSync, writeFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonl, runMain } from '../helpers/cli.js';
import { startProxy, type TestProxy } from '../helpers/proxy.js';
import { useFakeJudge } from './fake-openai.js';

const fake = useFakeJudge();
let proxy: TestProxy;

beforeEach(async () => {
  proxy = await startProxy();
  for (const name of ['http_proxy', 'HTTP_PROXY', 'https_proxy', 'HTTPS_PROXY', 'no_proxy', 'NO_PROXY']) vi.stubEnv(name, undefined);
});
afterEach(() => proxy.close());

/** Records that each need the chat (faithfulness, the generated questions) and the embeddings (answer relevance). */
const RECORDS = Array.from({ length: 6 }, (_, i) => ({
  id: `q${i}`,
  question: `What is the refund window of plan ${i}?`,
  answer: `Plan ${i} has a ${10 + i}-day refund window.`,
  retrieved_ids: ['d1'],
  retrieved_contexts: [`Plan ${i} has a ${10 + i}-day refund window.`],
}));

async function judgeThrough(host: string) {
  const results = fake.path('in.jsonl');
  writeFileSync(results, jsonl(RECORDS));
  const out = fake.path('out.jsonl');
  const base = `http://${host}:${new URL(fake.server.url).port}/v1`;
  const run = await runMain(['judge', '--results', results, '--out', out, '--base-url', base, '--no-cache', '--metrics', 'faithfulness,answer_relevance']);
  return { ...run, out, base };
}

describe('the judge behind a proxy', () => {
  it('judges every record through http_proxy, its endpoint at a host name only the proxy resolves', async () => {
    vi.stubEnv('http_proxy', proxy.url);
    const run = await judgeThrough('judge.invalid');
    expect(run.code, run.stderr).toBe(0);
    const judged = readFileSync(run.out, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(judged.map((record) => [record.id, Array.isArray(record.claims), typeof record.answer_relevance, record.judge_errors])).toEqual(
      RECORDS.map((record) => [record.id, true, 'number', undefined]),
    );
    // Every request went through the proxy, with its credentials: the chat calls and the embeddings.
    const paths = fake.server.requests.map((request) => request.path);
    expect(new Set(paths)).toEqual(new Set(['/v1/chat/completions', '/v1/embeddings']));
    expect(proxy.log.map((entry) => entry.request).sort()).toEqual(paths.map((path) => `POST ${run.base}${path.slice('/v1'.length)}`).sort());
    expect(proxy.log.every((entry) => entry.authorized)).toBe(true);
    expect(fake.server.requests.filter((request) => !proxy.upstreamPorts.has(request.remotePort))).toEqual([]);
    for (const text of [run.stdout, run.stderr, readFileSync(run.out, 'utf8')]) expect(text).not.toContain(proxy.password);
  });

  it('with no_proxy covering the endpoint, stops: the host is not found without the proxy', async () => {
    vi.stubEnv('HTTP_PROXY', proxy.url);
    vi.stubEnv('no_proxy', '.invalid');
    const run = await judgeThrough('judge.invalid');
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`cannot reach the judge endpoint http://judge.invalid:${new URL(fake.server.url).port}/v1/chat/completions (host not found)`);
    expect(proxy.log).toEqual([]);
    expect(fake.server.requests).toEqual([]);
  });
});
