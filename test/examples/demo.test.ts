import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, scratchDir } from '../helpers/cli.js';

const scratch = scratchDir();
afterAll(() => scratch.cleanup());

function demo(args: readonly string[]) {
  const run = spawnSync(process.execPath, [join(ROOT, 'scripts', 'demo.mjs'), ...args], { cwd: ROOT, encoding: 'utf8' });
  if (run.error) throw run.error;
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

/** The committed files the demo reads or could write (with --update-docs only). */
function trackedInputs(): string[] {
  return [
    'examples/base.jsonl',
    'examples/head.jsonl',
    'examples/golden.jsonl',
    'docs/example-comment.md',
    ...readdirSync(join(ROOT, 'examples', 'corpus')).map((name) => `examples/corpus/${name}`),
  ];
}

function fingerprints(files: readonly string[]): Record<string, string> {
  return Object.fromEntries(
    files.map((file) => [
      file,
      createHash('sha256')
        .update(readFileSync(join(ROOT, file)))
        .digest('hex'),
    ]),
  );
}

describe('npm run demo', () => {
  let run: ReturnType<typeof demo>;
  beforeAll(() => {
    run = demo(['--out', scratch.dir]);
  });

  it('prints the failing verdict, the evidence and the decomposition, writes the comment and the JSON, and exits 0', () => {
    expect(run.code, run.stderr).toBe(0);
    for (const text of ['rag-gate compare: FAIL', 'McNemar', 'Regressed questions', 'retrieval', 'Decomposition', 'r moved significantly']) {
      expect(run.stdout).toContain(text);
    }
    expect(run.stdout).toContain('in CI this verdict would fail the check');
    expect(run.stdout).toContain('--retrieval-ok hit@5');
    // The three correctness rules on the same answers, each with its count.
    for (const rule of ['contains', 'exact', 'f1:0.75']) expect(run.stdout).toMatch(new RegExp(`--correct ${rule} +\\d+ of 180 answers correct`));
    const comparison = JSON.parse(readFileSync(join(scratch.dir, 'comparison.json'), 'utf8')) as { verdict: string };
    expect(comparison.verdict).toBe('fail');
  });

  it('keeps docs/example-comment.md equal to the comment the demo writes', () => {
    expect(run.code, run.stderr).toBe(0);
    const fresh = readFileSync(join(scratch.dir, 'comment.md'), 'utf8');
    const committed = readFileSync(join(ROOT, 'docs', 'example-comment.md'), 'utf8');
    expect(fresh === committed, 'docs/example-comment.md is out of date: run `node scripts/demo.mjs --update-docs` and commit the result').toBe(true);
  });

  it('writes only to its ignored output folder by default', () => {
    const before = fingerprints(trackedInputs());
    const defaultRun = demo([]);
    expect(defaultRun.code, defaultRun.stderr).toBe(0);
    expect(defaultRun.stdout).toContain('out/demo/comment.md');
    expect(existsSync(join(ROOT, 'out', 'demo', 'comparison.json'))).toBe(true);
    expect(fingerprints(trackedInputs())).toEqual(before);
  });

  it('says to run npm run build when dist/cli.js is missing', () => {
    const copy = join(scratch.dir, 'unbuilt', 'scripts');
    mkdirSync(copy, { recursive: true });
    copyFileSync(join(ROOT, 'scripts', 'demo.mjs'), join(copy, 'demo.mjs'));
    const unbuilt = spawnSync(process.execPath, [join(copy, 'demo.mjs')], { cwd: ROOT, encoding: 'utf8' });
    expect(unbuilt.status).toBe(1);
    expect(unbuilt.stderr).toContain('npm run build');
  });

  it('rejects unknown arguments with exit code 2', () => {
    const bad = demo(['--bogus']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('usage');
  });
});
