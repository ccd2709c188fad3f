import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/cli.js';
import { runCli, tempDir, writeJsonl } from '../helpers/files.js';

/** A pull request cannot pass the gate by measuring less: the demo's runs, edited the ways a PR could. */

const example = (name: string) => join(ROOT, 'examples', name);
type Row = Record<string, unknown> & { id: string };
const readJsonl = (file: string): Row[] =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Row);

const BASE = example('base.jsonl');
const CONFIG = ['--config', example('rag-gate.yml')];

async function compareWith(head: readonly Row[], extra: string[] = []) {
  const dir = tempDir();
  const headFile = writeJsonl(dir, 'head.jsonl', head);
  const markdown = join(dir, 'comment.md');
  const run = await runCli(['compare', ...CONFIG, '--base', BASE, '--head', headFile, '--json', '--markdown', markdown, ...extra]);
  return { ...run, json: run.code === 2 ? undefined : JSON.parse(run.stdout), comment: run.code === 2 ? '' : readFileSync(markdown, 'utf8'), dir };
}

describe('the demo, with the questions that got worse taken out of head', async () => {
  const head = readJsonl(example('head.jsonl'));
  const original = await compareWith(head);
  const worse = new Set<string>([...original.json.regressions, ...original.json.retrievalRegressions].map((q: { id: string }) => q.id));

  it('fails: a missing question counts as failed, and the comment names each one', async () => {
    expect(original.code).toBe(1);
    expect(worse.size).toBeGreaterThanOrEqual(16);
    const { code, json, comment } = await compareWith(head.filter((record) => !worse.has(record.id)));
    expect(code).toBe(1);
    expect(json.missing.map((m: { id: string }) => m.id).sort()).toEqual([...worse].sort());
    expect(json.reasons.map((r: { kind: string; gate?: string }) => r.gate ?? r.kind)).toContain('retrieval');
    expect(comment).toContain(`Missing from head: counted as failed (${worse.size})`);
    for (const id of worse) expect(comment).toContain(id);
  });

  it('fails when the same questions only got trailing spaces on their expected answers: labels are read by meaning', async () => {
    const spaced = head.map((record) => (worse.has(record.id) ? { ...record, expected_answer: `${String(record.expected_answer)}  ` } : record));
    const { code, json } = await compareWith(spaced);
    expect(code).toBe(1);
    expect(json.labelsChanged).toEqual([]);
    expect(json.paired).toBe(original.json.paired);
    expect(json.tests).toEqual(original.json.tests);
  });

  it('passes the missing questions only when told to, and then falls short of the coverage floor', async () => {
    const { code, json } = await compareWith(
      head.filter((record) => !worse.has(record.id)),
      ['--missing', 'exclude'],
    );
    expect(code).toBe(1);
    expect(json.excluded).toHaveLength(worse.size);
    expect(json.reasons).toEqual([expect.objectContaining({ kind: 'low-coverage', compared: 212 - worse.size, baseQuestions: 212, minCoverage: 0.95 })]);
    expect(json.reasons[0].message).toMatch(new RegExp(`^only ${212 - worse.size} of the base's 212 questions are compared`));
  });

  it('leaves out a question removed from the golden set on purpose', async () => {
    const dir = tempDir();
    const golden = join(dir, 'golden.txt');
    const kept = readJsonl(example('golden.jsonl')).filter((record) => !worse.has(record.id));
    writeFileSync(golden, `${kept.map((record) => record.id).join('\n')}\n`);
    const { json } = await compareWith(
      head.filter((record) => !worse.has(record.id)),
      ['--golden', golden],
    );
    expect(json.missing).toEqual([]);
    expect(json.removed.sort()).toEqual([...worse].sort());
    expect(json.coverage).toMatchObject({ compared: 212 - worse.size, baseQuestions: 212 - worse.size, share: 1 });
    // The golden file the pipeline reads (JSON Lines with ids) works the same.
    const goldenJsonl = writeJsonl(dir, 'golden.jsonl', kept);
    const fromJsonl = await compareWith(
      head.filter((record) => !worse.has(record.id)),
      ['--golden', goldenJsonl],
    );
    expect(fromJsonl.json.removed.sort()).toEqual([...worse].sort());
  });
});

describe('relabelled questions are re-scored, not dropped', () => {
  it('a base re-scored under head gold with a relevant document added gives the verdict of re-running base with the new labels', async () => {
    const base = readJsonl(BASE);
    const head = readJsonl(example('head.jsonl'));
    // Head adds, for a third of the questions, the base's first retrieved document as relevant.
    const relabel = (record: Row, from: Row) => {
      const extra = (from.retrieved_ids as string[] | undefined)?.[0];
      return extra === undefined ? record : { ...record, relevant_ids: [...new Set([...(record.relevant_ids as string[]), extra])] };
    };
    const baseById = new Map(base.map((record) => [record.id, record]));
    const chosen = new Set(head.filter((_, i) => i % 3 === 0).map((record) => record.id));
    const relabelledHead = head.map((record) => (chosen.has(record.id) ? relabel(record, baseById.get(record.id)!) : record));
    // Re-running base with the new labels: the same base records judged against the head's relevant ids.
    const headById = new Map(relabelledHead.map((record) => [record.id, record]));
    const rerunBase = base.map((record) => (chosen.has(record.id) ? { ...record, relevant_ids: headById.get(record.id)!.relevant_ids } : record));

    const dir = tempDir();
    const args = (baseFile: string) => ['compare', ...CONFIG, '--base', baseFile, '--head', writeJsonl(dir, 'head.jsonl', relabelledHead), '--json'];
    const rescored = JSON.parse((await runCli(args(BASE))).stdout);
    const rerun = JSON.parse((await runCli(args(writeJsonl(dir, 'rerun-base.jsonl', rerunBase)))).stdout);

    expect(rescored.rescored.length).toBeGreaterThan(0);
    expect(rescored.labelsChanged).toEqual([]);
    expect(rerun.rescored).toEqual([]);
    expect(rescored.tests).toEqual(rerun.tests);
    expect(rescored.verdict).toBe(rerun.verdict);
    expect(rescored.paired).toBe(212);
  });
});

describe('nothing measured is an error, not a pass', () => {
  // A dump whose every field is one rag-gate does not read.
  const records = Array.from({ length: 40 }, (_, i) => ({ id: `q${i}`, question: `q${i}?`, context: ['…'], response_text: 'x', ground_truths: ['y'] }));

  it('exits 2 naming the gates, the fields they need and the unknown fields with the names they probably mean', async () => {
    const dir = tempDir();
    const file = writeJsonl(dir, 'ragas.jsonl', records);
    const run = await runCli(['compare', '--base', file, '--head', file]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      'nothing to gate: no paired question carries what the gates need: retrieval (retrieval_ok, from retrieval_ok or retrieved_ids or relevant_ids)',
    );
    expect(run.stderr).toContain('"ground_truths" (40 records; did you mean "expected_answer"?)');
    expect(run.stderr).toContain('"context" (40 records; did you mean "reference_contexts"?)');
    expect(run.stderr).toContain('"response_text" (40 records)');
  });

  it('passes with --allow-ungated, for a report without a gate', async () => {
    const dir = tempDir();
    const file = writeJsonl(dir, 'ragas.jsonl', records);
    const run = await runCli(['compare', '--base', file, '--head', file, '--allow-ungated']);
    expect(run.code, run.stderr).toBe(0);
  });
});

describe('the coverage floor', () => {
  it('fails with fewer than min-paired questions, naming the numbers', async () => {
    const dir = tempDir();
    const records = Array.from({ length: 10 }, (_, i) => ({ id: `q${i}`, question: `q${i}?`, correct: true }));
    const file = writeJsonl(dir, 'r.jsonl', records);
    const failing = await runCli(['compare', '--base', file, '--head', file, '--json']);
    expect(failing.code).toBe(1);
    expect(JSON.parse(failing.stdout).reasons).toEqual([
      {
        kind: 'too-few-paired',
        paired: 10,
        minPaired: 30,
        message: 'only 10 questions are paired, fewer than min-paired 30: too few to tell a regression from noise',
      },
    ]);
    expect((await runCli(['compare', '--base', file, '--head', file, '--min-paired', '10'])).code).toBe(0);
  });
});
