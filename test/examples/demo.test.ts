import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, scratchDir } from '../helpers/cli.js';
import { BUNDLES } from '../helpers/bundles.js';

const scratch = scratchDir();
afterAll(() => scratch.cleanup());

function demo(args: readonly string[]) {
  const run = spawnSync(process.execPath, [join(ROOT, 'scripts', 'demo.mjs'), ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, RAG_GATE_BUNDLES: BUNDLES },
  });
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

describe('npm run demo -- --repeats 3: a pipeline that samples', () => {
  const out = join(scratch.dir, 'repeats');
  let run: ReturnType<typeof demo>;
  beforeAll(() => {
    run = demo(['--repeats', '3', '--out', out]);
  });

  const records = (name: string) =>
    readFileSync(join(out, name), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { id: string; run: number; answer: string; retrieved_ids: string[]; correct: boolean });

  it('writes every question 3 times: the same retrieval in each run, answers that vary on some questions', () => {
    expect(run.code, run.stderr).toBe(0);
    const base = records('base.jsonl');
    expect(base).toHaveLength(3 * 212);
    const byId = new Map<string, typeof base>();
    for (const record of base) byId.set(record.id, [...(byId.get(record.id) ?? []), record]);
    expect(byId.size).toBe(212);
    let varied = 0;
    for (const runs of byId.values()) {
      expect(runs.map((record) => record.run)).toEqual([1, 2, 3]);
      expect(new Set(runs.map((record) => JSON.stringify(record.retrieved_ids))).size).toBe(1);
      if (new Set(runs.map((record) => record.correct)).size > 1) varied++;
    }
    // The flaky count the comment and eval report for base.
    expect(varied).toBe(31);
    expect(records('base-again.jsonl').map((record) => record.run)).toEqual(base.map((record) => record.run + 3));
  });

  it('reports the pass-rate tests with their noise floor, the flaky questions, and the pure-noise check', () => {
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('retrieval ok (recall@5>=1) 0.950 → 0.867, 15 broken vs 0 fixed');
    expect(run.stdout).toContain('correct: sign-flip randomization on pass rates: 20 broken, 14.7 expected from run-to-run noise; 21 fixed, 14.7 expected');
    expect(run.stdout).toMatch(/correct +flaky +26 of 212 \(0\.123\), pass@3 0\.764, pass\^3 0\.642/);
    expect(run.stdout).toContain('one run per question (run 1 against run 4): correct 0.759 → 0.722, 15 broken, 7 fixed, McNemar p = 0.1338, not significant');
    expect(run.stdout).toContain(
      "3 runs per question: 18 questions' pass rate fell (14.1 expected from noise), 16 rose (14.1 expected), sign-flip p = 1.0000, not significant; verdict pass",
    );
    const comment = readFileSync(join(out, 'comment.md'), 'utf8');
    expect(comment).toContain('<summary>Flaky questions in base and head</summary>');
    expect(comment).toContain('**Base**: flaky questions: 0 of 180 on retrieval_ok (0.000), 31 of 212 on correct (0.146)');
    expect(comment).toContain('correct in 0/3 head runs vs 3/3 base runs');
    expect((JSON.parse(readFileSync(join(out, 'comparison.json'), 'utf8')) as { verdict: string }).verdict).toBe('fail');
  });

  it('takes 2 to 20 runs, and not with --update-docs', () => {
    for (const args of [['--repeats', '1'], ['--repeats', 'x'], ['--repeats'], ['--repeats', '3', '--update-docs']]) {
      const bad = demo([...args, '--out', join(scratch.dir, 'bad')]);
      expect(bad.code, args.join(' ')).toBe(2);
      expect(bad.stderr).toMatch(/--repeats takes a whole number of runs from 2 to 20|--update-docs writes the single-run documents/);
    }
    expect(existsSync(join(scratch.dir, 'bad'))).toBe(false);
  });
});
