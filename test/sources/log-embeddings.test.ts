import { execFileSync } from 'node:child_process';
import { createWriteStream, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { InputError } from '../../src/core/errors.js';
import { rephraseCandidates } from '../../src/core/monitor/turns.js';
import { logEmbeddingCosines } from '../../src/pipeline/monitor.js';
import { readLogs } from '../../src/sources/logs.js';
import { jsonl, scratchDir } from '../helpers/cli.js';

/**
 * The pairs' embeddings are read again from the log's lines (issue 40). A pipe cannot be read again: its
 * embeddings are kept from the first read while they are few, and refused beyond; a file changed between the
 * reads is refused.
 */
const scratch = scratchDir();
afterAll(() => scratch.cleanup());

const START = Date.parse('2026-03-01T09:00:00Z');
const DIMENSIONS = 1_000;

/** Sessions of two turns 10 s apart, each embedding DIMENSIONS small integers: 150 turns hold 1.2 MB of doubles. */
function turns(sessions: number, query = (s: number, t: number) => `question ${s}.${t}`): object[] {
  return Array.from({ length: sessions }, (_, s) =>
    [0, 1].map((t) => ({
      session_id: `s${s}`,
      timestamp: new Date(START + s * 1000 + t * 10_000).toISOString(),
      user_query: query(s, t),
      answer: 'Open Settings.',
      embedding: Array.from({ length: DIMENSIONS }, (_, i) => ((s * 7 + t * 3 + i) % 11) - 5),
    })),
  ).flat();
}

/** Reads `text` through a named pipe (as a shell's `<(…)` or /dev/stdin gives it). */
async function readThroughPipe(name: string, text: string, pipeEmbeddingBytes?: number) {
  const fifo = join(scratch.dir, name);
  execFileSync('mkfifo', [fifo]);
  const writing = new Promise<void>((resolve, reject) => createWriteStream(fifo).on('error', reject).end(text, resolve));
  const read = await readLogs([fifo], new Map(), pipeEmbeddingBytes);
  await writing;
  return { fifo, read };
}

describe("the pairs' embeddings read again", () => {
  const text = jsonl(turns(75));
  const file = scratch.file('log.jsonl', text);

  it('from a pipe: kept from the first read while they fit, the same cosines as from a file', async () => {
    const fromFile = await readLogs([file], new Map());
    const pairs = rephraseCandidates(fromFile.turns, 60_000);
    expect(pairs).toHaveLength(75);
    const expected = await logEmbeddingCosines(fromFile, pairs, 1);
    const { read } = await readThroughPipe('kept.pipe', text);
    expect(await logEmbeddingCosines(read, rephraseCandidates(read.turns, 60_000))).toEqual(expected);
  });

  it('from a pipe whose embeddings are more than it keeps: refused, naming it and what to do', async () => {
    const { fifo, read } = await readThroughPipe('refused.pipe', text, 1 << 20);
    await expect(logEmbeddingCosines(read, rephraseCandidates(read.turns, 60_000))).rejects.toThrow(
      new InputError([
        {
          file: fifo,
          message:
            'is not a regular file (a pipe?), so its turns cannot be read again, and their embeddings are more than 1 MiB to keep: write the log to a file and monitor that, or set similarity to lexical',
        },
      ]),
    );
  });

  it('whole from a pipe (monitor sample): refused rather than waiting for a writer', async () => {
    const { fifo, read } = await readThroughPipe('sample.pipe', text);
    await expect(read.turnsAt([0])).rejects.toThrow(
      `${fifo}: is not a regular file (a pipe?), so its turns cannot be read again: write the log to a file first`,
    );
  });

  it('from a file changed since the first read: refused', async () => {
    const changed = scratch.file('changed.jsonl', text);
    const read = await readLogs([changed], new Map());
    writeFileSync(changed, jsonl(turns(75, (s, t) => `QUESTION ${s}.${t}`)));
    await expect(logEmbeddingCosines(read, rephraseCandidates(read.turns, 60_000))).rejects.toThrow(
      `${changed}: is not what it was when it was first read; was it changed meanwhile?`,
    );
  });
});
