import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import { judgeMayGate } from '../../src/core/compare/calibration.js';
import { readCalibrationRecord } from '../../src/judge/calibration.js';
import { FAITHFULNESS_RUBRIC, PROMPT_VERSIONS } from '../../src/judge/prompts.js';
import { jsonl, runMain } from '../helpers/cli.js';
import { useFakeJudge } from './fake-openai.js';

const fake = useFakeJudge();
const path = (name: string) => fake.path(name);

function labelsFile(records: readonly object[]): string {
  const file = path('labels.jsonl');
  writeFileSync(file, jsonl(records));
  return file;
}

/**
 * The evaluation article's 100 claim–context pairs: the human marks 70 SUPPORTED, the judge 76, and they
 * agree on 88. The fake judge says SUPPORTED exactly when the context contains the claim, so each pair is
 * built to get the judge verdict it needs.
 */
function articlePairs(): object[] {
  const pairs: object[] = [];
  const add = (count: number, human: string, judgeSupports: boolean) => {
    for (let i = 0; i < count; i++) {
      const n = pairs.length;
      const claim = `Item ${n} ships within ${n + 2} days.`;
      const context = judgeSupports
        ? `Policy ${n}: item ${n} ships within ${n + 2} days of the order.`
        : `Policy ${n}: item ${n} ships from the central warehouse.`;
      pairs.push({ id: `p${n}`, claim, context, human_verdict: human });
    }
  };
  add(67, 'SUPPORTED', true);
  add(3, 'SUPPORTED', false);
  add(9, 'NOT_STATED', true);
  add(21, 'NOT_STATED', false);
  return pairs;
}

async function calibrate(labels: string, extra: readonly string[] = []) {
  return runMain(['calibrate', '--labels', labels, '--base-url', fake.server.url, '--no-cache', ...extra]);
}

describe('calibrate: claim–context pairs', () => {
  it("the article's 100 pairs give kappa 0.697 (observed 0.88, chance 0.604), and the record is written", async () => {
    const labels = labelsFile(articlePairs());
    const out = path('calibration.json');
    const run = await calibrate(labels, ['--model', 'judge-model-x', '--out', out]);
    expect(run.code, run.stderr).toBe(0);
    expect(fake.server.requests).toHaveLength(100);
    const request = fake.server.requests[0]!;
    expect(request.body.response_format.json_schema.name).toBe('claim_verdict');
    expect(request.body.messages[0].content).toContain(FAITHFULNESS_RUBRIC);
    expect(request.body.messages[1].content).toContain('Claim:\n<<<\nItem 0 ships within 2 days.\n>>>');

    expect(run.stdout).toMatch(/kappa\s+0\.697/);
    expect(run.stdout).toMatch(/observed agreement\s+0\.880/);
    expect(run.stdout).toMatch(/chance agreement\s+0\.604/);
    expect(run.stdout).toMatch(/\bn\s+100\b/);
    expect(run.stdout).toMatch(/SUPPORTED\s+67\s+0\s+3/);
    expect(run.stdout).toMatch(/NOT_STATED\s+9\s+0\s+21/);
    expect(run.stdout).toContain('this judge may gate');
    expect(run.stderr).not.toContain('warning');

    const record = JSON.parse(readFileSync(out, 'utf8'));
    expect(record).toMatchObject({ model: 'judge-model-x', promptVersion: PROMPT_VERSIONS.faithfulness, kind: 'faithfulness', n: 100 });
    expect(record.kappa).toBeCloseTo(0.276 / 0.396, 12);
    expect(record.kappa.toFixed(3)).toBe('0.697');
    // No pair carries CONTRADICTED, so collapsing it changes nothing: the three-label kappa is the same.
    expect(record.threeLabelKappa).toBeCloseTo(record.kappa, 12);
    expect(run.stdout).toMatch(/kappa on all three verdicts \(reported, does not decide\)\s+0\.697/);
    expect(record.observed).toBeCloseTo(0.88, 12);
    expect(record.expected).toBeCloseTo(0.604, 12);
    expect(Number.isNaN(Date.parse(record.date))).toBe(false);
    expect(record.confusion).toEqual({
      SUPPORTED: { SUPPORTED: 67, CONTRADICTED: 0, NOT_STATED: 3 },
      CONTRADICTED: { SUPPORTED: 0, CONTRADICTED: 0, NOT_STATED: 0 },
      NOT_STATED: { SUPPORTED: 9, CONTRADICTED: 0, NOT_STATED: 21 },
    });

    const read = await readCalibrationRecord(out);
    expect(judgeMayGate(read, 'judge-model-x', PROMPT_VERSIONS.faithfulness)).toMatchObject({ allowed: true });
    expect(judgeMayGate(read, 'judge-model-x', PROMPT_VERSIONS.faithfulness, 0.7)).toMatchObject({ allowed: false });
  });

  it('kappa below the floor warns clearly but exits 0; --json prints the record', async () => {
    // Half the pairs disagree: the judge supports what the human rejects.
    const pairs = articlePairs().map((pair, i) =>
      i % 2 === 0 ? { ...pair, human_verdict: (pair as { human_verdict: string }).human_verdict === 'SUPPORTED' ? 'NOT_STATED' : 'SUPPORTED' } : pair,
    );
    const run = await calibrate(labelsFile(pairs), ['--json']);
    expect(run.code, run.stderr).toBe(0);
    const json = JSON.parse(run.stdout);
    expect(json.record.kappa).toBeLessThan(0.6);
    expect(json.written).toBeNull();
    expect(run.stderr).toMatch(/rag-gate: warning: kappa -?\d\.\d{3} is below 0\.6: the judge does not agree with the human labels well enough/);
  });

  it('a second calibration is served from the cache', async () => {
    const cache = path('cache');
    const labels = labelsFile(articlePairs().slice(0, 10));
    const first = await runMain(['calibrate', '--labels', labels, '--base-url', fake.server.url, '--cache', cache]);
    expect(first.code, first.stderr).toBe(0);
    expect(fake.server.requests).toHaveLength(10);
    fake.server.reset();
    const second = await runMain(['calibrate', '--labels', labels, '--base-url', fake.server.url, '--cache', cache]);
    expect(second.code, second.stderr).toBe(0);
    expect(fake.server.requests).toHaveLength(0);
    expect(second.stdout).toContain('cache hits 10');
  });

  it('labels the judge cannot rate are left out and counted; too many fail → exit 1 and no record', async () => {
    fake.server.handler = (request) =>
      request.body.messages[1].content.includes('Item 0 ') ? { status: 400, body: { error: { message: 'nope' } } } : undefined;
    const out = path('calibration.json');
    const run = await calibrate(labelsFile(articlePairs().slice(0, 10)), ['--out', out]);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('1 label could not be judged and is left out of kappa: p0 (http)');
    expect(run.stderr).toContain('no calibration record is written from an incomplete run');
    expect(existsSync(out)).toBe(false);
  });
});

describe('calibrate: answers with human correct / incorrect', () => {
  it('judges each answer with the correctness prompt and reports kappa on CORRECT or not', async () => {
    const labels = labelsFile([
      { id: 'a1', question: 'Window?', answer: 'A 14-day window.', expected_answer: '14-day', human_correct: true },
      { id: 'a2', question: 'Window?', answer: 'Thirty days.', expected_answer: '14-day', human_correct: false },
      { id: 'a3', question: 'Who approves?', answer: 'Two signatories approve.', expected_answer: 'two signatories', human_correct: true },
      { id: 'a4', question: 'Who approves?', answer: 'The CFO.', expected_answer: 'two signatories', human_correct: true },
    ]);
    const out = path('calibration.json');
    const run = await calibrate(labels, ['--out', out, '--json']);
    expect(run.code, run.stderr).toBe(0);
    expect(fake.server.requests).toHaveLength(4);
    expect(fake.server.requests[0]!.body.response_format.json_schema.name).toBe('correctness_verdict');
    const record = JSON.parse(readFileSync(out, 'utf8'));
    expect(record).toMatchObject({ kind: 'correctness', promptVersion: PROMPT_VERSIONS.correctness, n: 4, observed: 0.75 });
    // human 3 correct / 1 not, judge 2 / 2, agree on 3: p_e = 0.75·0.5 + 0.25·0.5 = 0.5, kappa = 0.5
    expect(record.kappa).toBeCloseTo(0.5, 12);
    expect(record).not.toHaveProperty('threeLabelKappa');
    expect(record.confusion).toEqual({ CORRECT: { CORRECT: 2, INCORRECT: 1 }, INCORRECT: { CORRECT: 0, INCORRECT: 1 } });
    expect(run.stderr).toContain('kappa 0.500 is below 0.6');
  });
});

describe('calibrate: bad labels exit 2 naming file, line and field, before any call', () => {
  it.each([
    [
      'a verdict outside the three',
      [{ id: 'x', claim: 'c', context: 'k', human_verdict: 'TRUE' }],
      ':1: human_verdict: must be one of SUPPORTED, CONTRADICTED, NOT_STATED',
    ],
    ['a missing context', [{ id: 'x', claim: 'c', human_verdict: 'SUPPORTED' }], ':1: context: is required'],
    [
      'human_correct as a string',
      [{ id: 'x', question: 'q', answer: 'a', expected_answer: 'e', human_correct: 'yes' }],
      ':1: human_correct: is required and must be true or false',
    ],
    [
      'two kinds in one file',
      [
        { id: 'x', claim: 'c', context: 'k', human_verdict: 'SUPPORTED' },
        { id: 'y', question: 'q', answer: 'a', expected_answer: 'e', human_correct: true },
      ],
      ':2: holds an answer but line 1 holds a claim–context pair; a labels file holds one kind',
    ],
    [
      'a duplicate id',
      [
        { id: 'x', claim: 'c', context: 'k', human_verdict: 'SUPPORTED' },
        { id: 'x', claim: 'd', context: 'k', human_verdict: 'SUPPORTED' },
      ],
      ':2: id: duplicate id "x" (first on line 1)',
    ],
    ['neither kind', [{ id: 'x', text: 'hello' }], ':1: is neither a claim–context pair'],
  ])('%s', async (_name, records, expected) => {
    const labels = labelsFile(records);
    const run = await calibrate(labels);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`${labels}${expected}`);
    expect(fake.server.requests).toHaveLength(0);
  });

  it('no key exits 2', async () => {
    vi.stubEnv('OPENAI_API_KEY', '');
    const run = await calibrate(labelsFile(articlePairs().slice(0, 2)));
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('no API key: set OPENAI_API_KEY');
  });
});
