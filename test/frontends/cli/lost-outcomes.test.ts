import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { jsonl, runBin, scratchDir } from '../../helpers/cli.js';

/**
 * `node dist/cli.js compare` when a pull request hides a regression by dropping outcomes: 40 questions right in
 * base, of which q0…q9 lost their gold document and their right answer in head, and then the field that would show
 * it. Each way of dropping it fails (exit 1) naming what was lost; a gate fail-on names with no data is bad input.
 */

const scratch = scratchDir();
afterAll(() => scratch.cleanup());

type Row = Record<string, unknown>;
const QUESTIONS = 40;
const REGRESSED = new Set(Array.from({ length: 10 }, (_, i) => `q${i}`));

/** Retrieval from `retrieved_ids`, correctness from `answer` against `expected_answer` (or stated, with `stated`). */
function record(i: number, regressed: boolean, stated = false): Row {
  const right = !regressed;
  return {
    id: `q${i}`,
    question: `What is fact ${i}?`,
    relevant_ids: [`d${i}`],
    retrieved_ids: right ? [`d${i}`, `x${i}`] : [`x${i}`, `y${i}`],
    expected_answer: `fact ${i}`,
    ...(stated ? { correct: right } : { answer: right ? `It is fact ${i}.` : 'I think it is something else.' }),
  };
}

const runs = (stated = false) => ({
  base: Array.from({ length: QUESTIONS }, (_, i) => record(i, false, stated)),
  head: Array.from({ length: QUESTIONS }, (_, i) => record(i, REGRESSED.has(`q${i}`), stated)),
});

let counter = 0;
function compare(base: readonly Row[], head: readonly Row[], extra: readonly string[] = []) {
  counter++;
  const baseFile = scratch.file(`base-${counter}.jsonl`, jsonl(base));
  const headFile = scratch.file(`head-${counter}.jsonl`, jsonl(head));
  const markdown = `${scratch.dir}/comment-${counter}.md`;
  const run = runBin(['compare', '--base', baseFile, '--head', headFile, '--json', '--markdown', markdown, ...extra]);
  return { ...run, json: run.code === 2 ? undefined : JSON.parse(run.stdout), comment: () => readFileSync(markdown, 'utf8') };
}

/** The head with `edit` applied to the regressed questions only. */
const hiding = (head: readonly Row[], edit: (row: Row) => Row) => head.map((row) => (REGRESSED.has(row.id as string) ? edit(row) : row));
const without =
  (...fields: string[]) =>
  (row: Row) =>
    Object.fromEntries(Object.entries(row).filter(([field]) => !fields.includes(field)));

describe('outcomes dropped on the regressed questions only count as failed', () => {
  it('as the truth does: the unedited head fails on retrieval and end to end', () => {
    const { base, head } = runs();
    const { code, json } = compare(base, head);
    expect(code).toBe(1);
    expect(json.reasons.map((r: { gate: string }) => r.gate)).toEqual(['retrieval', 'end-to-end']);
    expect(json.lostOutcomes).toEqual([]);
  });

  it.each([
    ['`correct` dropped', true, without('correct'), ['correct'], ['end-to-end']],
    ['`correct` set to null', true, (row: Row) => ({ ...row, correct: null }), ['correct'], ['end-to-end']],
    ['`answer` dropped', false, without('answer'), ['correct'], ['end-to-end']],
    ['`retrieved_ids` dropped', false, without('retrieved_ids'), ['retrieval_ok'], ['retrieval']],
    [
      '`retrieved_ids` and `answer` set to null',
      false,
      (row: Row) => ({ ...row, retrieved_ids: null, answer: null }),
      ['retrieval_ok', 'correct'],
      ['retrieval', 'end-to-end'],
    ],
  ] as const)('%s: exit 1, each question listed with what it lost and the fix', (_, stated, edit, columns, gates) => {
    const { base, head } = runs(stated);
    const { code, json, comment } = compare(base, hiding(head, edit));
    expect(code).toBe(1);
    const regressed = json.reasons.filter((r: { kind: string }) => r.kind === 'regressed');
    expect(regressed.map((r: { gate: string }) => r.gate)).toEqual(expect.arrayContaining([...gates]));
    for (const reason of regressed) expect(reason).toMatchObject({ broken: 10, fixed: 0 });
    expect(json.lostOutcomes.map((l: { id: string }) => l.id)).toEqual([...REGRESSED]);
    for (const lost of json.lostOutcomes) {
      expect(lost.columns).toEqual(columns);
      expect(lost.message).toMatch(new RegExp(`^the head record has no ${columns[0]} \\(from [^)]*\\)`));
      expect(lost.message).toContain('write it, or remove the question from the golden set'.replace('it,', columns.length === 1 ? 'it,' : 'them,'));
    }
    expect(json.coverage).toMatchObject({ paired: QUESTIONS, lostOutcomes: 10, compared: QUESTIONS, share: 1 });
    const markdown = comment();
    expect(markdown).toContain('#### Outcomes lost in head: counted as failed (10)');
    for (const id of REGRESSED) expect(markdown).toContain(`\`${id}\``);
    expect(markdown).toContain(`write ${columns[0]} (from `);
    expect(markdown).not.toContain('no question went from right to wrong');
  });

  it('says so in the terminal report too', () => {
    const { base, head } = runs(true);
    const baseFile = scratch.file('text-base.jsonl', jsonl(base));
    const headFile = scratch.file('text-head.jsonl', jsonl(hiding(head, without('correct'))));
    const { code, stdout } = runBin(['compare', '--base', baseFile, '--head', headFile]);
    expect(code).toBe(1);
    expect(stdout).toContain('10 with an outcome lost in head (counted as failed)');
    expect(stdout).toContain('Outcomes lost in head, counted as failed (10)');
    expect(stdout).toMatch(/ q9 +What is fact 9\? +no correct +correct\n/);
    expect(stdout).toContain('write correct (from correct or answer) in the head results, or remove the question from the golden set');
  });

  it('with --missing exclude they leave their tests, and coverage falls below the floor', () => {
    const { base, head } = runs(true);
    const { code, json } = compare(base, hiding(head, without('correct')), ['--missing', 'exclude', '--fail-on', 'end-to-end']);
    expect(code).toBe(1);
    expect(json.coverage).toMatchObject({ lostOutcomes: 10, compared: 30, baseQuestions: 40, share: 0.75 });
    expect(json.reasons).toEqual([expect.objectContaining({ kind: 'low-coverage', compared: 30, baseQuestions: 40 })]);
  });
});

describe('a gate whose data the head lost entirely', () => {
  it('a misspelt retrieval field fails retrieval, naming the fields it is read from', () => {
    const { base, head } = runs();
    const misspelt = head.map(({ retrieved_ids, ...row }) => ({ ...row, retrieved_id: retrieved_ids }));
    const { code, json, stderr } = compare(base, misspelt);
    expect(code).toBe(1);
    const lost = json.reasons.find((r: { kind: string }) => r.kind === 'gate-data-lost');
    expect(lost).toMatchObject({ gate: 'retrieval', columns: ['retrieval_ok'], baseQuestions: QUESTIONS });
    expect(lost.message).toBe(
      'retrieval cannot be tested: 40 paired questions carry its outcome in base, and no paired head question carries retrieval_ok (from retrieval_ok or retrieved_ids): write it in the head results',
    );
    expect(stderr).toContain('retrieved_id');
  });

  it('no correctness in head fails end to end, also when it is the only gate', () => {
    const { base, head } = runs();
    const { code, json, comment } = compare(base, head.map(without('answer')), ['--fail-on', 'end-to-end']);
    expect(code).toBe(1);
    expect(json.reasons).toEqual([expect.objectContaining({ kind: 'gate-data-lost', gate: 'end-to-end', columns: ['correct'] })]);
    expect(comment()).toContain('the head results lost the data of end-to-end correctness');
  });
});

describe('fail-on naming a gate neither run has data for', () => {
  it('exits 2 naming the gate and the fields it needs', () => {
    const { base, head } = runs();
    const { code, stderr } = compare(base, head, ['--fail-on', 'retrieval,end-to-end,refusal']);
    expect(code).toBe(2);
    expect(stderr).toContain(
      'fail-on names refusal, but neither run carries what it needs: refusal (refusal, from refused or answer, on questions with answerable: false)',
    );
  });

  it('allow-ungated does not turn a named gate without data into a pass', () => {
    const records = Array.from({ length: QUESTIONS }, (_, i) => ({ id: `q${i}`, question: `q${i}?`, correct: true }));
    const { code, stderr } = compare(records, records, ['--fail-on', 'retrieval', '--allow-ungated']);
    expect(code).toBe(2);
    expect(stderr).toContain(
      'fail-on names retrieval, but neither run carries what it needs: retrieval (retrieval_ok, from retrieval_ok or retrieved_ids or relevant_ids)',
    );
  });

  it('the default gates only warn when a run lacks their data, as before', () => {
    const records = Array.from({ length: QUESTIONS }, (_, i) => ({ id: `q${i}`, question: `q${i}?`, correct: true }));
    const { code, json } = compare(records, records);
    expect(code).toBe(0);
    expect(json.warnings).toEqual([expect.objectContaining({ kind: 'gate-untestable', gate: 'retrieval' })]);
  });
});
