import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { jsonl, parseJsonOutput, runBin, runMain, scratchDir } from '../../helpers/cli.js';

const scratch = scratchDir();
afterAll(() => scratch.cleanup());

const TAGS = [['billing'], ['auth'], ['search'], []];

function goldenRecords(prefix: string, count: number) {
  return Array.from({ length: count }, (_, i) => ({ id: `${prefix}${i}`, question: `question ${i}`, tags: TAGS[i % TAGS.length] }));
}

interface SplitJson {
  holdout: string[];
  development: string[];
  byTag: Record<string, { questions: number; holdout: number; share: number }>;
  overall: { questions: number; holdout: number; share: number };
  seed: string;
  rotation: number;
}

describe('split', () => {
  const golden = scratch.file('golden.jsonl', jsonl(goldenRecords('q', 400)));

  it('writes the holdout file and prints the same split on every run: 30% ± 2 points overall and per tag', async () => {
    const out = join(scratch.dir, 'holdout-a.json');
    const first = await runMain(['split', '--golden', golden, '--out', out, '--json']);
    expect(first.code).toBe(0);
    const split = parseJsonOutput<SplitJson>(first.stdout);
    expect(JSON.parse(readFileSync(out, 'utf8'))).toEqual(split);
    expect(split.holdout.length + split.development.length).toBe(400);
    expect(Math.abs(split.overall.share - 0.3)).toBeLessThanOrEqual(0.02);
    for (const tag of ['billing', 'auth', 'search']) expect(Math.abs(split.byTag[tag]!.share - 0.3)).toBeLessThanOrEqual(0.02);
    // Another file, another process (the bundled CLI): the same split.
    const other = join(scratch.dir, 'holdout-b.json');
    const again = runBin(['split', '--golden', golden, '--out', other, '--json']);
    expect(again.code).toBe(0);
    expect(parseJsonOutput<SplitJson>(again.stdout).holdout).toEqual(split.holdout);
  });

  it('keeps every existing question on its side when 50 questions are added, and reports the sizes', async () => {
    const out = join(scratch.dir, 'holdout-grow.json');
    const before = parseJsonOutput<SplitJson>((await runMain(['split', '--golden', golden, '--out', out, '--json'])).stdout);
    const grown = scratch.file('golden-grown.jsonl', jsonl([...goldenRecords('q', 400), ...goldenRecords('new', 50)]));
    const run = await runMain(['split', '--golden', grown, '--out', out]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('400 questions kept on their side, 50 new questions assigned');
    expect(run.stdout).toMatch(/billing\s+113\s+34\s+79\s+30\.1%/);
    const after = JSON.parse(readFileSync(out, 'utf8')) as SplitJson;
    const held = new Set(after.holdout);
    expect(before.holdout.every((id) => held.has(id))).toBe(true);
    expect(before.development.some((id) => held.has(id))).toBe(false);
  });

  it('refuses to change the seed of an existing holdout without --rotate, and --rotate draws anew', async () => {
    const out = join(scratch.dir, 'holdout-rotate.json');
    const first = parseJsonOutput<SplitJson>((await runMain(['split', '--golden', golden, '--out', out, '--json'])).stdout);
    const refused = await runMain(['split', '--golden', golden, '--out', out, '--seed', 'other']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('was drawn with seed "rag-gate"');
    const rotated = parseJsonOutput<SplitJson>((await runMain(['split', '--golden', golden, '--out', out, '--rotate', '--json'])).stdout);
    expect(rotated.rotation).toBe(1);
    expect(rotated.holdout).not.toEqual(first.holdout);
  });

  it('names the line of a duplicate id', async () => {
    const bad = scratch.file('dup.jsonl', jsonl([{ id: 'a' }, { id: 'b' }, { id: 'a' }]));
    const run = await runMain(['split', '--golden', bad, '--out', join(scratch.dir, 'never.json')]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('dup.jsonl:3: id: "a" is also the id on line 1');
  });
});

/** Results for every golden question: development questions right with probability `dev`, holdout ones with `held` (deterministic). */
function results(split: SplitJson, dev: number, held: number) {
  const right = (i: number, share: number) => (i * 7919) % 100 < share * 100;
  return [
    ...split.development.map((id, i) => ({ id, question: id, correct: right(i, dev), retrieval_ok: true })),
    ...split.holdout.map((id, i) => ({ id, question: id, correct: right(i, held), retrieval_ok: true })),
  ];
}

describe('a pull request leaves the holdout out', () => {
  it('compare --holdout compares the development questions only and counts the holdout left out', async () => {
    const golden = scratch.file('golden-pr.jsonl', jsonl(goldenRecords('q', 300)));
    const out = join(scratch.dir, 'holdout-pr.json');
    const split = parseJsonOutput<SplitJson>((await runMain(['split', '--golden', golden, '--out', out, '--json'])).stdout);
    const base = scratch.file('base.jsonl', jsonl(results(split, 0.8, 0.8)));
    // The head breaks every holdout question: a pull request must not see it.
    const head = scratch.file('head.jsonl', jsonl(results(split, 0.8, 0)));
    const run = await runMain(['compare', '--base', base, '--head', head, '--holdout', out, '--json']);
    expect(run.code).toBe(0);
    const report = parseJsonOutput<{ paired: number; holdoutLeftOut: string[]; verdict: string; head: { questions: number } }>(run.stdout);
    expect(report.verdict).toBe('pass');
    expect(report.paired).toBe(split.development.length);
    expect(report.holdoutLeftOut).toHaveLength(split.holdout.length);
    expect(report.head.questions).toBe(split.development.length);
    const text = await runMain(['compare', '--base', base, '--head', head, '--holdout', out]);
    expect(text.stdout).toContain(`${split.holdout.length} holdout questions not looked at`);
    const markdown = join(scratch.dir, 'comment.md');
    await runMain(['compare', '--base', base, '--head', head, '--holdout', out, '--markdown', markdown]);
    expect(readFileSync(markdown, 'utf8')).toContain(`${split.holdout.length} holdout questions not looked at`);
    // Without the holdout file the same runs fail the gate: the holdout is what broke.
    expect((await runMain(['compare', '--base', base, '--head', head])).code).toBe(1);
    const evaluated = parseJsonOutput<{ questions: number; holdoutLeftOut: string[] }>(
      (await runMain(['eval', '--results', head, '--holdout', out, '--json'])).stdout,
    );
    expect(evaluated.questions).toBe(split.development.length);
    expect(evaluated.holdoutLeftOut).toHaveLength(split.holdout.length);
  });
});

describe('holdout: the release evaluation and its ledger', () => {
  it('reports the gap and its reading, and flags a second look for another commit', async () => {
    const golden = scratch.file('golden-release.jsonl', jsonl(goldenRecords('q', 1000)));
    const out = join(scratch.dir, 'holdout-release.json');
    const ledger = join(scratch.dir, 'ledger.jsonl');
    const split = parseJsonOutput<SplitJson>((await runMain(['split', '--golden', golden, '--out', out, '--json'])).stdout);
    const run = scratch.file('release.jsonl', jsonl(results(split, 0.75, 0.7)));
    const argv = ['holdout', '--results', run, '--holdout', out, '--ledger', ledger];
    const first = await runMain([...argv, '--commit', 'aaa111', '--by', 'release 1.0', '--json']);
    expect(first.code).toBe(0);
    const report = parseJsonOutput<{
      development: number;
      holdout: number;
      headline: { metric: string; gap: number; ci: [number, number] };
      reading: { kind: string; message: string };
      ledger: { looks: number; clean: boolean; message: string };
    }>(first.stdout);
    expect(report.development).toBe(700);
    expect(report.holdout).toBe(300);
    expect(report.headline.metric).toBe('correct');
    expect(report.headline.gap).toBeCloseTo(0.75 - 0.7, 2);
    expect(report.reading.kind).toBe('expected');
    expect(report.reading.message).toContain('within the 3–8 points the reference expects');
    expect(report.ledger).toMatchObject({ looks: 1, clean: true });

    // A re-run of the same commit is not a new look.
    const rerun = await runMain([...argv, '--commit', 'aaa111', '--json']);
    expect(parseJsonOutput<{ ledger: { looks: number } }>(rerun.stdout).ledger.looks).toBe(1);
    const second = await runMain([...argv, '--commit', 'bbb222']);
    expect(second.code).toBe(0);
    expect(second.stdout).toContain('The holdout has been looked at 2 times (for 2 commits) since it was drawn: it is no longer a clean holdout');
    const third = await runMain([...argv, '--commit', 'ccc333']);
    expect(third.stdout).toContain('looked at 3 times');
    expect(readFileSync(ledger, 'utf8').trim().split('\n')).toHaveLength(4);

    // A new draw starts a clean count.
    await runMain(['split', '--golden', golden, '--out', out, '--rotate']);
    const fresh = await runMain([...argv, '--commit', 'ddd444', '--json']);
    expect(parseJsonOutput<{ ledger: { looks: number; clean: boolean } }>(fresh.stdout).ledger).toMatchObject({ looks: 1, clean: true });
  });

  it('reads a large drop as overfitting', async () => {
    const golden = scratch.file('golden-overfit.jsonl', jsonl(goldenRecords('q', 1000)));
    const out = join(scratch.dir, 'holdout-overfit.json');
    const split = parseJsonOutput<SplitJson>((await runMain(['split', '--golden', golden, '--out', out, '--json'])).stdout);
    const run = scratch.file('overfit.jsonl', jsonl(results(split, 0.9, 0.6)));
    const report = await runMain(['holdout', '--results', run, '--holdout', out, '--ledger', join(scratch.dir, 'l2.jsonl'), '--commit', 'x']);
    expect(report.stdout).toContain('more than the 3–8 points the reference expects: the pipeline was fitted to the development questions');
  });

  it('fails with the fix when the holdout file is missing', async () => {
    const run = await runMain(['holdout', '--results', 'examples/head.jsonl']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('no holdout file: give --holdout FILE');
  });
});
