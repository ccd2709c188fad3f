import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runBin } from '../../helpers/cli.js';
import { runCli, tempDir, writeJsonl } from '../../helpers/files.js';
import { sketchScenario } from '../../helpers/paired-runs.js';

/** The bundled CLI reads the runs in parts on worker threads (given a second core); the result must be the in-process one, exactly. */
const ON_THREAD = { RAG_GATE_READER_THREAD_MIN_BYTES: '0' };
describe('compare through node dist/cli.js (runs read in parts on worker threads)', () => {
  it('gives the same comparison and exit code as the in-process run', async () => {
    const { base, head } = sketchScenario();
    const dir = tempDir();
    const argv = ['compare', '--base', writeJsonl(dir, 'base.jsonl', base), '--head', writeJsonl(dir, 'head.jsonl', head), '--json'];
    const bundled = runBin(argv, ON_THREAD);
    const inProcess = await runCli(argv);
    expect(bundled.code).toBe(1);
    expect(bundled.stderr).toBe('');
    expect(JSON.parse(bundled.stdout)).toEqual(JSON.parse(inProcess.stdout));
  });

  it('reports bad input in both files from the reader thread and this one, with exit 2', () => {
    const dir = tempDir();
    const base = join(dir, 'base.jsonl');
    const head = join(dir, 'head.jsonl');
    writeFileSync(base, '{"id": "a", "question": "a?"}\n{"id": "a", "question": "again?"}\n');
    writeFileSync(head, '{"id": "a"}\n');
    const run = runBin(['compare', '--base', base, '--head', head], ON_THREAD);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain('base.jsonl:2: id: duplicate id "a" (first on line 1)');
    expect(run.stderr).toContain('head.jsonl:1: question: is required and must be a string');
  });
});
