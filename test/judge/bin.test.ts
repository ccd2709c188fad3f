import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIST_CLI, ROOT, jsonl, scratchDir } from '../helpers/cli.js';
import { type FakeOpenAI, closedPort, startFakeOpenAI } from './fake-openai.js';

const scratch = scratchDir();
let server: FakeOpenAI;

beforeAll(async () => {
  server = await startFakeOpenAI();
});
afterAll(async () => {
  await server.close();
  scratch.cleanup();
});

/**
 * `node dist/cli.js ARGV` without blocking the event loop (the fake server runs in this process). `started` gets
 * the child, e.g. to kill it.
 */
function runBinAsync(
  argv: readonly string[],
  env: Record<string, string | undefined>,
  started?: (child: ReturnType<typeof spawn>) => void,
): Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [DIST_CLI, ...argv], { cwd: ROOT, env: { PATH: process.env.PATH, ...env } });
    started?.(child);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

describe('the bundled CLI: node dist/cli.js judge / calibrate', () => {
  const results = () => {
    const file = join(scratch.dir, 'in.jsonl');
    writeFileSync(
      file,
      jsonl([
        { id: 'q1', question: 'Refund window?', answer: 'The window is 14 days.', expected_answer: '14 days', retrieved_contexts: ['The window is 14 days'] },
        {
          id: 'q2',
          question: 'Who approves?',
          answer: 'The CFO approves.',
          expected_answer: 'two signatories',
          retrieved_contexts: ['Two signatories approve refunds.'],
        },
      ]),
    );
    return file;
  };

  it('judges through the endpoint, exit 0, summary on stderr, nothing on stdout; a rerun uses the cache', async () => {
    const out = join(scratch.dir, 'out.jsonl');
    const cache = join(scratch.dir, 'cache');
    const env = { OPENAI_API_KEY: 'sk-bin', OPENAI_BASE_URL: server.url };
    const argv = ['judge', '--results', results(), '--out', out, '--cache', cache];
    const run = await runBinAsync(argv, env);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain('rag-gate judge: 2 records');
    // Three chat calls an answer; the two answers' embeddings in one call.
    expect(server.requests.length).toBe(2 * 3 + 1);
    const records = readFileSync(out, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(records.map((r) => r.claims[0].verdict)).toEqual(['SUPPORTED', 'NOT_STATED']);
    expect(records.map((r) => r.correct)).toEqual([true, false]);
    expect(records.every((r) => r.answer_relevance >= 0 && r.answer_relevance <= 1)).toBe(true);

    server.reset();
    const again = await runBinAsync(argv, env);
    expect(again.code, again.stderr).toBe(0);
    expect(server.requests).toHaveLength(0);
    expect(again.stderr).toContain('cache hits 8');
  });

  it('a run killed mid-way loses no reply it received: the rerun asks only for the rest', async () => {
    const file = join(scratch.dir, 'crash.jsonl');
    const records = Array.from({ length: 30 }, (_, i) => ({ id: `q${i}`, question: `Window ${i}?`, answer: `It is ${i} days.`, expected_answer: `${i} days` }));
    writeFileSync(file, jsonl(records));
    const out = join(scratch.dir, 'crash-out.jsonl');
    const cache = join(scratch.dir, 'crash-cache');
    const env = { OPENAI_API_KEY: 'sk-bin', OPENAI_BASE_URL: server.url };
    const argv = ['judge', '--results', file, '--out', out, '--cache', cache, '--metrics', 'correctness', '--concurrency', '4'];
    const cached = () => (existsSync(cache) ? readdirSync(cache, { recursive: true, encoding: 'utf8' }).filter((name) => name.endsWith('.json')).length : 0);

    // Ten replies go out; every later request is held for ever. Once the ten are in the cache, the process is killed.
    const answered: string[] = [];
    let release!: () => void;
    const never = new Promise<void>((resolve) => (release = resolve));
    server.hold = (request, index) => (index < 10 ? (answered.push(JSON.stringify(request.body.messages)), undefined) : never);
    let child!: ReturnType<typeof spawn>;
    const killed = runBinAsync(argv, env, (spawned) => (child = spawned));
    while (cached() < 10) await new Promise((resolve) => setTimeout(resolve, 10));
    child.kill('SIGKILL');
    const first = await killed;
    release();
    expect(first.signal).toBe('SIGKILL');
    expect(cached()).toBe(10);
    expect(existsSync(out)).toBe(false);

    server.reset();
    const rerun = await runBinAsync(argv, env);
    expect(rerun.code, rerun.stderr).toBe(0);
    expect(server.requests).toHaveLength(20);
    const asked = server.requests.map((request) => JSON.stringify(request.body.messages));
    expect(asked.filter((messages) => answered.includes(messages))).toEqual([]);
    expect(new Set(asked).size).toBe(20);
    expect(rerun.stderr).toContain('cache hits 10');
    expect(readFileSync(out, 'utf8').trim().split('\n')).toHaveLength(30);
  });

  it('exits 2 without a key and with an unreachable endpoint', async () => {
    const out = join(scratch.dir, 'never.jsonl');
    const noKey = await runBinAsync(['judge', '--results', results(), '--out', out, '--no-cache'], { OPENAI_BASE_URL: server.url });
    expect(noKey.code).toBe(2);
    expect(noKey.stderr).toContain('rag-gate: error: no API key: set OPENAI_API_KEY');
    const port = await closedPort();
    const unreachable = await runBinAsync(['judge', '--results', results(), '--out', out, '--no-cache', '--base-url', `http://127.0.0.1:${port}/v1`], {
      OPENAI_API_KEY: 'k',
      RAG_GATE_JUDGE_BACKOFF_MS: '5',
    });
    expect(unreachable.code).toBe(2);
    expect(unreachable.stderr).toContain('(connection refused)');
  });

  it('calibrate writes the record', async () => {
    const labels = join(scratch.dir, 'labels.jsonl');
    writeFileSync(
      labels,
      jsonl([
        { id: 'a', claim: 'The window is 14 days.', context: 'The window is 14 days.', human_verdict: 'SUPPORTED' },
        { id: 'b', claim: 'The CFO approves.', context: 'Two signatories approve.', human_verdict: 'NOT_STATED' },
      ]),
    );
    const out = join(scratch.dir, 'calibration.json');
    const run = await runBinAsync(['calibrate', '--labels', labels, '--out', out, '--no-cache', '--model', 'm1'], {
      OPENAI_API_KEY: 'k',
      OPENAI_BASE_URL: server.url,
    });
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(readFileSync(out, 'utf8'))).toMatchObject({ model: 'm1', promptVersion: 'faithfulness-v1', kappa: 1, n: 2 });
  });
});
