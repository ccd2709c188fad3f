import { afterAll, describe, expect, it } from 'vitest';
import { runMain, scratchDir } from '../../helpers/cli.js';

const scratch = scratchDir();
afterAll(() => scratch.cleanup());

let counter = 0;
function file(content: string, ext = 'jsonl'): string {
  counter++;
  return scratch.file(`hints-${counter}.${ext}`, content);
}

/** `count` records with the question under `key` (20 by default: as many as an error lists). */
function recordsWith(key: string, count = 20): string {
  return Array.from({ length: count }, (_, i) => `${JSON.stringify({ id: `q${i}`, [key]: `question ${i}?`, answer: 'a' })}\n`).join('');
}

const HEADER = 'rag-gate: error: bad input\n';

async function evalFails(path: string): Promise<string[]> {
  const run = await runMain(['eval', '--results', path]);
  expect(run.code).toBe(2);
  expect(run.stdout).toBe('');
  expect(run.stderr.startsWith(HEADER)).toBe(true);
  return run.stderr.slice(HEADER.length).trimEnd().split('\n');
}

describe('eval: a required field every record misspells is one problem with the fix', () => {
  it.each([
    ['capitalised', 'Question', 'question', ''],
    ['misspelt as an alias', 'user_inptu', 'user_input', ' (read as question)'],
    ['in camelCase', 'userInput', 'user_input', ' (read as question)'],
    ['with a hyphen', 'user-input', 'user_input', ' (read as question)'],
  ])('%s (%s)', async (_, key, meant, read) => {
    const path = file(recordsWith(key));
    expect(await evalFails(path)).toEqual([
      `${path}:1: question: is required, and all 20 records lack it but carry "${key}": did you mean "${meant}"${read}? ` +
        `Rename that field, or map it with --field question=${key} (fields: {question: ${key}} in rag-gate.yml)`,
    ]);
  });

  it('in a CSV header, naming the first row', async () => {
    const path = file('id,Question\nq1,what?\nq2,who?\n', 'csv');
    expect(await evalFails(path)).toEqual([
      `${path}:2: question: is required, and all 2 records lack it but carry "Question": did you mean "question"? ` +
        'Rename that field, or map it with --field question=Question (fields: {question: Question} in rag-gate.yml)',
    ]);
  });

  it("keeps the file's other problems, in order, after the hint", async () => {
    const path = file(`${recordsWith('Question', 2)}{"id": "q9", "Question": "x", "tags": "billing"}\n`);
    const problems = await evalFails(path);
    expect(problems).toHaveLength(2);
    expect(problems[0]).toMatch(new RegExp(`^${path}:1: question: is required, and all 3 records lack it but carry "Question"`));
    expect(problems[1]).toBe(`${path}:3: tags: must be a list of strings`);
  });

  it('leaves an unrelated missing field as one problem a record', async () => {
    const path = file(recordsWith('prompt', 3));
    expect(await evalFails(path)).toEqual([1, 2, 3].map((line) => `${path}:${line}: question: is required and must be a string`));
  });

  it('leaves the problem on each record when some records have the field', async () => {
    const path = file(`{"id": "q0", "question": "fine"}\n${recordsWith('Question', 2)}`);
    expect(await evalFails(path)).toEqual([2, 3].map((line) => `${path}:${line}: question: is required and must be a string`));
  });
});

describe('eval: a score named near a known metric', () => {
  it('is one warning with the count of records', async () => {
    const path = file('{"id": "a", "question": "q", "faithfullness": 0.5}\n{"id": "b", "question": "q2", "faithfullness": 0.7}\n');
    const run = await runMain(['eval', '--results', path]);
    expect(run.code).toBe(0);
    expect(run.stderr).toBe(
      `rag-gate: warning: ${path}: "faithfullness" in 2 records is read as a new score, score:faithfullness; did you mean "faithfulness"? Rename it if so\n`,
    );
  });

  it('is no warning when spelt as the metric', async () => {
    const path = file('{"id": "a", "question": "q", "faithfulness": 0.5, "bleu": 0.2}\n');
    const run = await runMain(['eval', '--results', path]);
    expect(run.code).toBe(0);
    expect(run.stderr).toBe('');
  });
});
