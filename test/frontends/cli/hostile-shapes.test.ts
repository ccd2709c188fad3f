import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { scratchDir, spawnBin } from '../../helpers/cli.js';

/**
 * The shapes that once took minutes and gigabytes (issue 40), run through the bundle as a child capped at 1 GiB of
 * heap: each is refused as bad input (exit 2, not a crash for want of memory), and the child's peak resident
 * memory, written by a preloaded exit hook, stays under 1 GiB (typed arrays live outside the capped heap).
 */
const scratch = scratchDir();
afterAll(() => scratch.cleanup());

const GIB = 1024 * 1024 * 1024;
const RSS_FILE = scratch.file('rss.txt', '');
const PRELOAD = scratch.file(
  'peak-rss.cjs',
  `process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(RSS_FILE)}, String(process.resourceUsage().maxRSS * 1024)));\n`,
);

async function runCapped(argv: readonly string[]): Promise<{ code: number | null; stdout: string; stderr: string; peakBytes: number }> {
  const run = await spawnBin(argv, { nodeArgs: ['--max-old-space-size=1024', '--require', PRELOAD] });
  return { ...run, peakBytes: Number(readFileSync(RSS_FILE, 'utf8')) };
}

const RECORD = { id: 'q1', question: 'q', answer: 'a', expected_answer: 'a', retrieved_ids: ['d1'], relevant_ids: ['d1'] };
const many = (count: number, name: (i: number) => string) => Array.from({ length: count }, (_, i) => name(i));

describe('hostile shapes are refused within 1 GiB', () => {
  // A generous timeout for a loaded machine, not a speed target: each took 26-104 s and 6-13 GB before.
  const TIMEOUT = 120_000;

  it(
    'one 2.7 MB record with 200,000 distinct unknown fields (numbers, so each would be a score)',
    async () => {
      const record: Record<string, unknown> = { ...RECORD };
      for (const name of many(200_000, (i) => `u${i}`)) record[name] = 0.5;
      const path = scratch.file('wide.jsonl', `${JSON.stringify(record)}\n`);
      const run = await runCapped(['eval', '--results', path]);
      expect(run.stderr).toBe(
        `rag-gate: error: bad input\n${path}:1: carries more than 1,000 distinct field names that rag-gate does not read (unknown fields and scores together), the most a results file may; it passes that on this line. Remove the fields nobody reads, or map yours to ours with --field\n`,
      );
      expect(run.code).toBe(2);
      expect(run.peakBytes).toBeGreaterThan(0);
      expect(run.peakBytes).toBeLessThan(GIB);
    },
    TIMEOUT,
  );

  it(
    'a 0.9 MB CSV with 100,000 columns',
    async () => {
      const columns = ['id', 'question', 'answer', ...many(99_997, (i) => `c${i}`)];
      const path = scratch.file('wide.csv', `${columns.join(',')}\n${columns.map((_, i) => (i < 3 ? 'q1' : '1')).join(',')}\n`);
      const run = await runCapped(['eval', '--results', path]);
      expect(run.stderr).toBe(
        `rag-gate: error: bad input\n${path}:1: the header row has 100,000 columns, more than the 2,000 a results file may have; drop the columns nobody reads\n`,
      );
      expect(run.code).toBe(2);
      expect(run.peakBytes).toBeLessThan(GIB);
    },
    TIMEOUT,
  );

  const results = () => scratch.file('one.jsonl', `${JSON.stringify(RECORD)}\n`);

  it(
    '--k with 20,000 cut-offs',
    async () => {
      const run = await runCapped(['eval', '--results', results(), '--k', many(20_000, (i) => String(i + 1)).join(',')]);
      expect(run.stderr).toBe('rag-gate: error: option --k: lists 20,000 cut-offs, more than the 100 a run may ask for\n');
      expect(run.code).toBe(2);
      expect(run.peakBytes).toBeLessThan(GIB);
    },
    TIMEOUT,
  );

  it(
    '3,000 cut-offs in the config file, named by its file and line',
    async () => {
      const config = scratch.file('rag-gate.yml', `# cut-offs\nk:\n${many(3_000, (i) => `  - ${i + 1}`).join('\n')}\n`);
      const run = await runCapped(['eval', '--results', results(), '--config', config]);
      expect(run.stderr).toBe(`rag-gate: error: ${config}:2: k: lists 3,000 cut-offs, more than the 100 a run may ask for\n`);
      expect(run.code).toBe(2);
      expect(run.peakBytes).toBeLessThan(GIB);
    },
    TIMEOUT,
  );
});
