import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseJsonOutput, type EvalJson } from '../helpers/cli.js';
import { runCli, tempDir, writeJsonl } from '../helpers/files.js';

const records = [
  { prompt: 'What is the refund window?', output: 'The refund window is 30 days.', gold: '30 days', hits: ['d1', 'd2'], gold_docs: ['d2'] },
  { prompt: 'How do I export?', output: 'Use the CSV button.', gold: 'the export menu', hits: ['d3'], gold_docs: ['d4'] },
];
const map = ['question=prompt', 'answer=output', 'expected_answer=gold', 'retrieved_ids=hits', 'relevant_ids=gold_docs'];

describe('the field map', () => {
  it('--field ours=yours reads any field names, with nothing reported unknown', async () => {
    const dir = tempDir();
    const file = writeJsonl(dir, 'custom.jsonl', records);
    const run = await runCli(['eval', '--results', file, '--json', ...map.flatMap((item) => ['--field', item])]);
    expect(run.stderr).toBe('');
    const json = parseJsonOutput<EvalJson>(run.stdout);
    expect(json.details.correct).toMatchObject({ count: 1, n: 2 });
    expect(json.metrics['recall@5']).toBe(0.5);
    expect(json.metrics.mrr).toBe(0.25);
  });

  it('rag-gate.yml takes the map as a mapping', async () => {
    const dir = tempDir();
    const file = writeJsonl(dir, 'custom.jsonl', records);
    const config = join(dir, 'rag-gate.yml');
    writeFileSync(config, `fields:\n${map.map((item) => `  ${item.split('=')[0]}: ${item.split('=')[1]}`).join('\n')}\n`);
    const run = await runCli(['eval', '--results', file, '--json', '--config', config]);
    expect(run.stderr).toBe('');
    expect(parseJsonOutput<EvalJson>(run.stdout).metrics.mrr).toBe(0.25);
  });

  it.each([
    ['question:prompt', /"question:prompt" must be ours=yours, such as question=prompt/],
    ['questoin=prompt', /"questoin" is not a field of the results format; did you mean "question"\?/],
    ['question=prompt,question=title', /"question" is mapped twice/],
    ['question=prompt,answer=prompt', /"prompt" is mapped to both question and answer/],
  ])('refuses %j', async (value, message) => {
    const dir = tempDir();
    const run = await runCli(['eval', '--results', writeJsonl(dir, 'r.jsonl', records), '--field', value]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(message);
  });
});
