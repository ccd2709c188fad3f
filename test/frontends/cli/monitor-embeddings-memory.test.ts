import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { afterAll, describe, expect, it } from 'vitest';
import { scratchDir, spawnBin } from '../../helpers/cli.js';

/**
 * The log's own embeddings are not all held (issue 40): the pairs' turns are read again in batches of a few MiB of
 * lines. A log whose embeddings alone are more than the heap it is given is monitored within it; the monitor that
 * kept every turn's embedding until the pairs were known ran out of heap on this log and crashed.
 */
const scratch = scratchDir();
afterAll(() => scratch.cleanup());

const HEAP_MIB = 64;
const SESSIONS = 2_000;
const DIMENSIONS = 1_536;
const START = Date.parse('2026-03-02T00:00:00Z');

/** A direction of DIMENSIONS components of four decimals, as an embedding model's (the same for the same seed). */
const embedding = (seed: number, wobble = 0) =>
  Array.from({ length: DIMENSIONS }, (_, i) => (0.03 * Math.sin(seed * 1.7 + i * 0.37) + wobble * Math.cos(seed + i * 1.3)).toFixed(4));

/**
 * Sessions a minute apart of three turns: a query, its rephrase 20 s later (the same direction, a little moved), and
 * another question 200 s later. 6,000 turns of 1,536 dimensions: 74 MB of doubles, about 80 MB of log.
 */
async function writeLog(path: string): Promise<void> {
  const out = createWriteStream(path);
  for (let s = 0; s < SESSIONS; s++) {
    const at = START + s * 60_000;
    const turns = [
      { at, query: `How do I reset my password ${s}?`, embedding: embedding(s) },
      { at: at + 20_000, query: `password reset ${s}, how`, embedding: embedding(s, 0.005) },
      { at: at + 200_000, query: 'Where are my invoices?', embedding: embedding(s + 0.5) },
    ];
    const lines = turns.map(
      ({ at, query, embedding }) =>
        `{"session_id":"s${s}","timestamp":"${new Date(at).toISOString()}","user_query":"${query}","answer":"Open Settings.","embedding":[${embedding.join(',')}]}`,
    );
    if (!out.write(`${lines.join('\n')}\n`)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
}

describe(`monitor within ${HEAP_MIB} MiB of heap on a log whose embeddings are 74 MB of doubles`, () => {
  const log = scratch.file('logs.jsonl', '');
  const ready = writeLog(log);

  it("takes every pair's cosine from the log's embeddings", async () => {
    await ready;
    const run = await spawnBin(['monitor', '--logs', log, '--json'], { nodeArgs: [`--max-old-space-size=${HEAP_MIB}`] });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout) as { turns: number; similarity: { measure: string }; candidatePairs: number; rephrases: number };
    expect(report).toMatchObject({ turns: 3 * SESSIONS, similarity: { measure: 'embeddings' }, candidatePairs: SESSIONS, rephrases: SESSIONS });
  }, 120_000);
});
