import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, tempDir, writeJsonl } from '../../helpers/files.js';

/**
 * 40 questions run 5 times in each run. Base: q0–q29 pass 5/5, q30–q39 pass 3/5 (flaky). Head: q0–q9 drop to
 * 1/5, the rest as in base (the flaky ones shuffled).
 */
function runs() {
  const records = (side: 'base' | 'head') =>
    Array.from({ length: 40 }, (_, q) =>
      Array.from({ length: 5 }, (_, r) => {
        const passes = q >= 30 ? 3 : side === 'head' && q < 10 ? 1 : 5;
        const shifted = side === 'head' && q >= 30 ? (r + 2) % 5 : r;
        return { id: `q${q}`, question: `Question ${q}?`, run: r + 1, correct: shifted < passes };
      }),
    ).flat();
  return { base: records('base'), head: records('head') };
}

describe('compare with repeated runs', () => {
  it('tests pass rates, states the noise floor, and lists regressions by their runs', async () => {
    const dir = tempDir();
    const { base, head } = runs();
    const out = join(dir, 'comment.md');
    const args = ['compare', '--base', writeJsonl(dir, 'b.jsonl', base), '--head', writeJsonl(dir, 'h.jsonl', head)];
    const text = await runCli([...args, '--markdown', out]);
    expect(text.stdout).toContain('rag-gate compare: FAIL');
    // Noise: a question's 10 runs dealt at random 5 and 5 between the sides. The 10 flaky ones (3/5 and 3/5) and
    // the 10 regressed ones (5/5 and 1/5) both pool 6 passes: base gets 4 or 5 of them, a lower head rate, with
    // (C(5,4)·C(5,2) + C(5,5)·C(5,1)) / C(10,6) = 55/210 each, 20 × 55/210 = 5.238. The 20 that pass every run of
    // both sides add nothing.
    expect(text.stdout).toContain('10 broken, 5.2 expected from run-to-run noise; 0 fixed, 5.2 expected');
    expect(text.stdout).toContain("95% CI of Δ: Student's t (fewer than 100 pairs) over questions, of pass-rate differences");
    expect(text.stdout).toMatch(/q0\s+unknown\s+Question 0\?\s+correct in 1\/5 head runs vs 5\/5 base runs/);
    const comment = readFileSync(out, 'utf8');
    expect(comment).toContain('sign-flip randomization on pass rates');
    expect(comment).toContain('correct in 1/5 head runs vs 5/5 base runs');
    expect(comment).toContain('<summary>Flaky questions in base and head</summary>');
    expect(comment).toContain('**Base**: flaky questions: 10 of 40 on correct (0.250).');
    expect(comment).toContain('… and 10 more in the JSON report.');
    expect(text.stdout).toContain('Repeated runs\n  base: flaky questions: 10 of 40 on correct (0.250)\n  head: flaky questions: 20 of 40 on correct (0.500)');
    const json = JSON.parse((await runCli([...args, '--json'])).stdout);
    const correct = json.tests.find((t: { metric: string }) => t.metric === 'correct');
    expect(correct.kind).toBe('randomization');
    expect(correct.rates.broken).toBe(10);
    expect(correct.rates.noise.broken).toBeCloseTo((20 * 55) / 210, 12);
    expect(correct.rates.noise.fixed).toBeCloseTo((20 * 55) / 210, 12);
    expect(correct.delta).toBeCloseTo(-0.2, 12);
    expect(correct.ciMethod).toBe('student-t');
    expect(json.regressions[0].correctRuns).toEqual({ base: { passes: 5, runs: 5 }, head: { passes: 1, runs: 5 } });
    expect(json.head.repeats.flakyQuestions).toHaveLength(20);
    expect(json.flaky.base.flakyQuestions).toHaveLength(10);
  });
});

describe('one run per question', () => {
  it('records all marked run 1 compare exactly as records without run: McNemar, the same numbers', async () => {
    const dir = tempDir();
    const base = Array.from({ length: 60 }, (_, q) => ({ id: `q${q}`, question: `Q${q}?`, correct: q % 3 !== 0 }));
    const head = base.map((r, q) => ({ ...r, correct: q % 4 !== 0 }));
    const report = async (b: object[], h: object[], name: string) => {
      const json = JSON.parse(
        (await runCli(['compare', '--base', writeJsonl(dir, `b-${name}.jsonl`, b), '--head', writeJsonl(dir, `h-${name}.jsonl`, h), '--json'])).stdout,
      );
      return { tests: json.tests, regressions: json.regressions, verdict: json.verdict, flaky: json.flaky };
    };
    const plain = await report(base, head, 'plain');
    const runOne = await report(
      base.map((r) => ({ ...r, run: 1 })),
      head.map((r) => ({ ...r, run: 1 })),
      'run1',
    );
    expect(runOne).toEqual(plain);
    expect(plain.tests.find((t: { metric: string }) => t.metric === 'correct').kind).toBe('mcnemar');
    expect(plain.flaky).toBeUndefined();
  });
});
