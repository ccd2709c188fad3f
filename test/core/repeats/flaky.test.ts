import { afterAll, describe, expect, it } from 'vitest';
import { evalConfig } from '../../../src/core/compare/settings.js';
import { passAtK, summarizeRepeats } from '../../../src/core/scoring/repeats.js';
import { parseRetrievalOkRule } from '../../../src/core/catalog/parse/retrieval-ok.js';
import { readOutcomes } from '../../../src/sources/outcomes.js';
import { jsonl, scratchDir } from '../../helpers/cli.js';
import { runCli } from '../../helpers/files.js';

const scratch = scratchDir();
afterAll(() => scratch.cleanup());
const config = evalConfig({ k: [5], 'retrieval-ok': parseRetrievalOkRule('hit@5'), correct: { kind: 'exact' }, 'relevance-level': 1, 'ndcg-gains': new Map() });

/** q1 passes 2 of 5 runs, q2 5 of 5, q3 0 of 4 (mixed repeat counts), q4 once. */
const records = [
  ...[true, false, true, false, false].map((correct, i) => ({ id: 'q1', question: 'first?', run: i + 1, correct })),
  ...[1, 2, 3, 4, 5].map((run) => ({ id: 'q2', question: 'second?', run, correct: true })),
  ...[1, 2, 3, 4].map((run) => ({ id: 'q3', question: 'third?', run, correct: false })),
  { id: 'q4', question: 'fourth?', correct: true },
];

describe('pass@k and pass^k', () => {
  it('match the closed forms 1 − C(n−c,k)/C(n,k) and C(c,k)/C(n,k)', () => {
    expect(passAtK(2, 5, 1)).toEqual({ atK: 0.4, hatK: 0.4 });
    // C(3,2)/C(5,2) = 3/10 → pass@2 = 0.7; C(2,2)/C(5,2) = 0.1.
    const two = passAtK(2, 5, 2);
    expect(two.atK).toBeCloseTo(0.7, 12);
    expect(two.hatK).toBeCloseTo(0.1, 12);
    expect(passAtK(2, 5, 4)).toEqual({ atK: 1, hatK: 0 });
    expect(passAtK(5, 5, 5)).toEqual({ atK: 1, hatK: 1 });
  });
});

describe('flaky questions', () => {
  it('are those whose outcome differs across their runs; the rate is over questions run at least twice', async () => {
    const { outcomes } = await readOutcomes(scratch.file('flaky.jsonl', jsonl(records)), config);
    const summary = summarizeRepeats(outcomes)!;
    expect(summary.records).toBe(15);
    expect(summary.runsPerQuestion).toEqual({ 1: 1, 4: 1, 5: 2 });
    const correct = summary.outcomes.find((o) => o.metric === 'correct')!;
    expect(correct).toMatchObject({ repeated: 3, flaky: 1, flakyRate: 1 / 3, k: 1 });
    // k = 1 (q4 ran once): pass@1 = pass^1 = mean pass rate (0.4 + 1 + 0 + 1) / 4.
    expect(correct.passAtK).toBeCloseTo(0.6, 12);
    expect(correct.passHatK).toBeCloseTo(0.6, 12);
    expect(summary.flakyQuestions).toEqual([{ id: 'q1', question: 'first?', outcomes: { correct: { passes: 2, runs: 5 } } }]);
  });

  it('eval lists them with pass counts and the flaky rate; --json carries them and the definitions', async () => {
    const path = scratch.file('eval.jsonl', jsonl(records));
    const text = (await runCli(['eval', '--results', path])).stdout;
    expect(text).toContain('Repeated runs: 15 records of 4 questions (5 runs × 2 questions, 4 runs × 1 question, 1 run × 1 question)');
    expect(text).toMatch(/correct\s+1\/3\s+0\.333\s+1\s+0\.600\s+0\.600/);
    expect(text).toMatch(/q1\s+correct 2\/5\s+first\?/);
    const json = JSON.parse((await runCli(['eval', '--results', path, '--json'])).stdout);
    expect(json.metrics.correct).toBeCloseTo(0.6, 12);
    expect(json.repeats.flakyQuestions).toHaveLength(1);
    expect(json.repeats.definitions.passAtK).toMatch(/^pass@k: /);
  });

  it('a run without repeats has no repeats section', async () => {
    const path = scratch.file('plain.jsonl', jsonl([{ id: 'a', question: 'a?', correct: true }]));
    expect(JSON.parse((await runCli(['eval', '--results', path, '--json'])).stdout).repeats).toBeUndefined();
    expect((await runCli(['eval', '--results', path])).stdout).not.toContain('Repeated runs');
  });
});

describe('the eval table with repeats', () => {
  it('counts each question by its pass rate, printed to two decimals at most', async () => {
    const path = scratch.file('thirds.jsonl', jsonl([1, 2, 3].map((run) => ({ id: 'q1', question: 'a?', run, correct: run === 1 }))));
    expect((await runCli(['eval', '--results', path])).stdout).toMatch(/correct\s+0\.333\s+\[[^\]]+\]\s+0\.33\/1\n/);
  });
});
