import { afterAll, describe, expect, it, vi } from 'vitest';
import { jsonl, parseJsonOutput, runMain, scratchDir } from '../helpers/cli.js';
import { useFakeJudge } from './fake-openai.js';

const judge = useFakeJudge();
const scratch = scratchDir();
afterAll(() => scratch.cleanup());

/** Two sessions, each a query and a quick next one: "reset password" then "password help" (a rephrase by its embeddings) and an unrelated pair. */
function logFile(): string {
  const at = Date.parse('2026-03-01T09:00:00Z');
  return scratch.file(
    `logs-${Math.random().toString(36).slice(2)}.jsonl`,
    jsonl([
      { session_id: 'a', timestamp: new Date(at).toISOString(), user_query: 'reset password', answer: 'Open Settings.' },
      { session_id: 'a', timestamp: new Date(at + 20_000).toISOString(), user_query: 'password help', answer: 'Open Settings.' },
      { session_id: 'b', timestamp: new Date(at).toISOString(), user_query: 'cancel plan', answer: 'Billing page.' },
      { session_id: 'b', timestamp: new Date(at + 20_000).toISOString(), user_query: 'invoice pdf', answer: 'Billing page.' },
    ]),
  );
}

interface MonitorJson {
  similarity: { measure: string; threshold: number; model?: string };
  windows: { rephraseRate: { count: number; n: number } }[];
}

describe('monitor --similarity openai: the judge client embeds the queries', () => {
  it('embeds the pairs in one batched request, and a rerun is served from the cache', async () => {
    judge.server.embeddings.set('reset password', [1, 0, 0]);
    judge.server.embeddings.set('password help', [0.9, 0.2, 0]);
    judge.server.embeddings.set('cancel plan', [0, 1, 0]);
    judge.server.embeddings.set('invoice pdf', [0, 0, 1]);
    const cache = judge.path('cache');
    const args = [
      'monitor',
      '--logs',
      logFile(),
      '--similarity',
      'openai',
      '--base-url',
      judge.server.url,
      '--cache',
      cache,
      '--embedding-model',
      'embed-small',
      '--json',
    ];
    const first = await runMain(args);
    expect(first.stderr).toBe('');
    const report = parseJsonOutput<MonitorJson>(first.stdout);
    expect(report.similarity).toMatchObject({ measure: 'openai', threshold: 0.8, model: 'embed-small' });
    // cos([1,0,0], [0.9,0.2,0]) = 0.976 ≥ 0.8; the other pair is orthogonal.
    expect(report.windows[0]!.rephraseRate).toMatchObject({ count: 1, n: 4 });
    expect(judge.server.requests.map((request) => request.path)).toEqual(['/v1/embeddings']);
    expect(judge.server.requests[0]!.body).toEqual({ model: 'embed-small', input: ['reset password', 'password help', 'cancel plan', 'invoice pdf'] });
    expect(judge.server.requests[0]!.headers.authorization).toBe('Bearer sk-test-key');

    const again = await runMain(args);
    expect(parseJsonOutput<MonitorJson>(again.stdout).windows[0]!.rephraseRate.count).toBe(1);
    expect(judge.server.requests).toHaveLength(1);
  });

  it('stops with the fix when there is no key (exit 2), before any call', async () => {
    vi.stubEnv('OPENAI_API_KEY', undefined);
    const run = await runMain(['monitor', '--logs', logFile(), '--similarity', 'openai', '--base-url', judge.server.url, '--cache', judge.path('cache')]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('no API key: set OPENAI_API_KEY');
    expect(judge.server.requests).toHaveLength(0);
  });
});
