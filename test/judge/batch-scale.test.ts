import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { setTimeout as delay } from 'node:timers/promises';
import { describe, expect, it, vi } from 'vitest';
import { BUNDLED_CLI } from '../helpers/bundles.js';
import { ROOT, runMain } from '../helpers/cli.js';
import { fakeBatchApi, writeContractResults } from './fake-batch.js';
import { useFakeJudge } from './fake-openai.js';

/** Slow (in SLOW_SUITES): 6,000 requests each way, and the bundled CLI as a child process. */
const fake = useFakeJudge();

const results = (count: number) =>
  writeContractResults(
    fake.path('results.jsonl'),
    count,
    (i) => `Contract ${i} has a 14-day refund window. Contract ${i} was signed in ${2000 + (i % 25)}.`,
    (i) => (i % 3 === 0 ? 'a 30-day refund window' : '14-day refund window'),
  );

const requestsTo = (method: string, prefix: string) => fake.server.requests.filter((r) => r.method === method && r.path.startsWith(prefix)).length;

function exited(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve() : child.once('exit', () => resolve())));
}

/** The bundled CLI, judging in batch mode against the fake. */
function judgeChild(args: readonly string[], env: Record<string, string> = {}): ChildProcess {
  return spawn(process.execPath, [BUNDLED_CLI, 'judge', '--base-url', fake.server.url, '--no-cache', '--batch', ...args], {
    cwd: ROOT,
    env: { ...process.env, OPENAI_API_KEY: 'sk-test-key', RAG_GATE_JUDGE_BACKOFF_MS: '5', ...env },
    stdio: 'ignore',
  });
}

describe('judge --batch at scale (issue 39)', () => {
  // 12,000 judge requests each way, the synchronous ones over loopback HTTP: room for a busy machine.
  it('2,000 answers × 3 metrics: every record judged, --out byte for byte a synchronous run, the cost at half the price', { timeout: 180_000 }, async () => {
    const file = results(2000);
    vi.stubEnv('RAG_GATE_JUDGE_BATCH_POLL_MS', '1');
    const api = fakeBatchApi(fake.server, { polls: 3, outOfOrder: true });
    fake.server.handler = api.handler;
    const batchOut = fake.path('batch.jsonl');
    const batch = await runMain(['judge', '--base-url', fake.server.url, '--no-cache', '--batch', '--results', file, '--out', batchOut]);
    expect(batch.code, batch.stderr).toBe(0);
    expect(requestsTo('POST', '/v1/chat/completions')).toBe(0);
    expect([...api.uploads.values()][0]).toHaveLength(6000);
    expect(batch.stderr).toMatch(/batch: batch_\d+ completed; 6,000 requests, 6,000 answered;/);
    // The fake's usage, 100 prompt and 20 completion tokens a reply: 600,000 × $0.15 + 120,000 × $0.60 per million.
    expect(batch.stderr).toContain('batch tokens 720,000 (prompt 600,000, completion 120,000)');
    expect(batch.stderr).toContain('cost: $0.0810 at the batch price, $0.162 at the synchronous price');

    // The equivalent synchronous run: the same fake judge, answering each request as it comes.
    fake.server.reset();
    const syncOut = fake.path('sync.jsonl');
    const sync = await runMain(['judge', '--base-url', fake.server.url, '--no-cache', '--results', file, '--out', syncOut]);
    expect(sync.code, sync.stderr).toBe(0);
    expect(requestsTo('POST', '/v1/chat/completions')).toBe(6000);

    const batchText = readFileSync(batchOut, 'utf8');
    expect(batchText).toBe(readFileSync(syncOut, 'utf8'));
    const records = batchText
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(records).toHaveLength(2000);
    for (const record of records) {
      expect(record.judge_errors).toBeUndefined();
      expect(record.claims).toHaveLength(2);
      expect(typeof record.answer_relevance).toBe('number');
      expect(typeof record.correct).toBe('boolean');
    }
    expect(records.filter((record) => record.correct === false)).toHaveLength(667);
  });

  it('the CLI killed after the batch was asked for, before it heard back: the next run takes the batch over, without submitting again', async () => {
    const file = results(40);
    const out = fake.path('out.jsonl');
    const state = fake.path('state.json');
    const api = fakeBatchApi(fake.server);
    fake.server.handler = api.handler;
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    // The batch's creation is never answered while the process lives: it cannot have recorded the batch's id.
    fake.server.hold = (request) => (request.method === 'POST' && request.path === '/v1/batches' ? held : undefined);
    const child = judgeChild(['--results', file, '--out', out, '--batch-state', state]);
    vi.stubEnv('RAG_GATE_JUDGE_BATCH_POLL_MS', '1');
    await api.created;
    child.kill('SIGKILL');
    await exited(child);
    release();
    expect(child.signalCode).toBe('SIGKILL');
    expect(JSON.parse(readFileSync(state, 'utf8'))).toMatchObject({ inputFileId: expect.any(String) });
    expect(JSON.parse(readFileSync(state, 'utf8')).batchId).toBeUndefined();
    fake.server.hold = undefined;

    const resumed = await runMain(['judge', '--base-url', fake.server.url, '--no-cache', '--batch', '--results', file, '--out', out, '--batch-state', state]);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(requestsTo('POST', '/v1/files')).toBe(1);
    expect(requestsTo('POST', '/v1/batches')).toBe(1);
    expect(requestsTo('POST', '/v1/chat/completions')).toBe(0);
    expect(resumed.stderr).toMatch(/120 requests, 120 answered/);
    expect(readFileSync(out, 'utf8').trim().split('\n')).toHaveLength(40);
    expect(existsSync(state)).toBe(false);
  });

  it('the CLI killed while it waits for the batch: the next run collects it from the state file', async () => {
    const file = results(40);
    const out = fake.path('out.jsonl');
    const state = fake.path('state.json');
    const api = fakeBatchApi(fake.server, { polls: 2 });
    fake.server.handler = api.handler;
    // An hour between polls: the process is waiting when it is killed.
    const child = judgeChild(['--results', file, '--out', out, '--batch-state', state], { RAG_GATE_JUDGE_BATCH_POLL_MS: '3600000' });
    await api.created;
    while (!existsSync(state) || JSON.parse(readFileSync(state, 'utf8')).batchId === undefined) await delay(20);
    child.kill('SIGKILL');
    await exited(child);

    vi.stubEnv('RAG_GATE_JUDGE_BATCH_POLL_MS', '1');
    const resumed = await runMain(['judge', '--base-url', fake.server.url, '--no-cache', '--batch', '--results', file, '--out', out, '--batch-state', state]);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(requestsTo('POST', '/v1/batches')).toBe(1);
    expect(requestsTo('GET', '/v1/batches?')).toBe(0);
    expect(resumed.stderr).toMatch(/collected from the state file; 120 requests, 120 answered/);
    expect(existsSync(out)).toBe(true);
  });
});
