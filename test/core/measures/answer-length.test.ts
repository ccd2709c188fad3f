import { describe, expect, it } from 'vitest';
import { textCounts } from '../../../src/core/measures/generation/text.js';
import { runCli, tempDir, writeJsonl } from '../../helpers/files.js';

/** answer_length: the metric added to show that an answer metric is one catalog row and its function. */

describe('textCounts: words', () => {
  it.each<[string, number]>([
    ['', 0],
    ['   ', 0],
    ['Paris', 1],
    ['The capital is Paris.', 4],
    ['  two\twords\n', 2],
    ['Don’t panic — it is fine.', 6],
  ])('%j has %i words', (text, words) => {
    expect(textCounts(text).words).toBe(words);
  });
});

describe('answer_length through eval and compare', () => {
  // Base answers are 2 words long, head answers 6 (questions 0–19) or 2 (20–39).
  const base = Array.from({ length: 40 }, (_, i) => ({ id: `q${i}`, question: `q${i}?`, answer: 'short answer' }));
  const head = base.map((record, i) => ({ ...record, answer: i < 20 ? 'a much longer answer than before' : 'short answer' }));

  it('eval reports its mean, and leaves out questions without an answer', async () => {
    const dir = tempDir();
    const file = writeJsonl(dir, 'head.jsonl', [...head, { id: 'none', question: 'no answer?' }]);
    const run = await runCli(['eval', '--results', file, '--json']);
    expect(run.code, run.stderr).toBe(0);
    const json = JSON.parse(run.stdout);
    expect(json.metrics.answer_length).toBe((20 * 6 + 20 * 2) / 40);
    expect(json.details.answer_length.n).toBe(40);
  });

  it('takes a ceiling as a floor, and a paired randomization test', async () => {
    const dir = tempDir();
    const args = [
      'compare',
      '--base',
      writeJsonl(dir, 'base.jsonl', base),
      '--head',
      writeJsonl(dir, 'head.jsonl', head),
      '--graded',
      'answer_length',
      '--json',
    ];
    const broken = await runCli([...args, '--floor', 'answer_length<=3']);
    expect(broken.code, broken.stderr).toBe(1);
    const json = JSON.parse(broken.stdout);
    expect(json.reasons).toEqual([expect.objectContaining({ kind: 'floor-broken', floor: { metric: 'answer_length', op: '<=', value: 3 }, value: 4 })]);
    const test = json.tests.find((t: { metric: string }) => t.metric === 'answer_length');
    expect(test).toMatchObject({ kind: 'randomization', base: 2, head: 4, delta: 2, n: 40, significant: true });
    const holds = await runCli([...args, '--floor', 'answer_length<=4']);
    expect(holds.code, holds.stderr).toBe(0);
  });
});
