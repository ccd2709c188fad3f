import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, scratchDir, spawnBin } from '../../helpers/cli.js';

/**
 * `compare` through the bundle, its runs read in parts on worker threads: the same report, byte for byte, as one
 * thread's, on the bench's realistic data (its generator, its depth of 100 ids).
 */
const scratch = scratchDir();
afterAll(() => scratch.cleanup());

const SIZES = [1_000, 10_000] as const;
const files = new Map<number, { base: string; head: string }>();

beforeAll(() => {
  for (const questions of SIZES) {
    const dir = join(scratch.dir, String(questions));
    const script = `import('./scripts/bench/generate.mjs').then(async (g) => console.log(JSON.stringify(await g.generateResultsRealistic(${JSON.stringify(dir)}, ${questions}, 100))))`;
    files.set(questions, JSON.parse(execFileSync(process.execPath, ['-e', script], { cwd: ROOT, encoding: 'utf8' })) as { base: string; head: string });
  }
}, 240_000);

const run = (argv: readonly string[], env: NodeJS.ProcessEnv) => spawnBin(argv, { env });

describe.each(SIZES)('compare at %i questions', (questions) => {
  /** The JSON, the text and the comment of one run, and how it read. */
  async function reports(threads: number) {
    const { base, head } = files.get(questions)!;
    const markdown = join(scratch.dir, `comment-${questions}-${threads}.md`);
    // Every JSON Lines file cut into the most ranges (8 per thread), so that even 1,000 questions are read in parts; the graded
    // tests are then shared with the same workers.
    const env = { RAG_GATE_READER_THREAD_MIN_BYTES: '0', RAG_GATE_REPORT_PARTS: '1' };
    const common = ['compare', '--base', base, '--head', head, '--threads', String(threads)];
    const [json, text] = await Promise.all([run([...common, '--json'], env), run([...common, '--markdown', markdown], env)]);
    // 0 or 1: the gate passes or fails, as it will on every number of threads.
    expect([0, 1]).toContain(json.code);
    return { code: [json.code, text.code], json: json.stdout, text: text.stdout, markdown: readFileSync(markdown, 'utf8'), how: json.stderr.split('\n')[0] };
  }

  it('reports the same bytes on 1, 2 and 4 threads', async () => {
    const one = await reports(1);
    expect(one.how).not.toMatch(/parts on/);
    expect(one.json.length).toBeGreaterThan(10_000);
    for (const threads of [2, 4]) {
      const { how, ...report } = await reports(threads);
      expect(how).toBe(`rag-gate: read ${16 * threads} parts on ${threads} threads`);
      expect(report).toEqual({ code: one.code, json: one.json, text: one.text, markdown: one.markdown });
    }
  }, 240_000);
});
