import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DETECT_HEAD_BYTES, detectResultsFormat } from '../../../src/sources/formats/detect.js';
import { RESULTS_FORMATS } from '../../../src/core/catalog/formats.js';

const fixture = (name: string) => readFileSync(new URL(`../../fixtures/results/${name}`, import.meta.url), 'utf8').slice(0, DETECT_HEAD_BYTES);

describe('detectResultsFormat', () => {
  it('knows every fixture by its text alone', () => {
    expect(detectResultsFormat('results', fixture('ragas.csv'))).toBe('csv');
    expect(detectResultsFormat('results', fixture('ragas-0.1.csv'))).toBe('csv');
    expect(detectResultsFormat('results', fixture('plain.csv'))).toBe('csv');
    expect(detectResultsFormat('results', fixture('deepeval-test-run.json'))).toBe('deepeval');
    expect(detectResultsFormat('results', fixture('ragas.jsonl'))).toBe('jsonl');
    expect(detectResultsFormat('results', fixture('generation.jsonl'))).toBe('jsonl');
  });

  it('takes .csv and .tsv at their word', () => {
    expect(detectResultsFormat('out/eval.CSV', '{"id": "q1"}\n')).toBe('csv');
    expect(detectResultsFormat('eval.tsv', 'id,question\n')).toBe('tsv');
  });

  it('tells a JSON array, JSON Lines and DeepEval runs apart', () => {
    expect(detectResultsFormat('r.json', '\uFEFF\n  [\n {"id": "q1"}]')).toBe('json-array');
    expect(detectResultsFormat('r.json', '{"id": "q1", "scores": {"testCases": 1}}\n{"id": "q2"}\n')).toBe('jsonl');
    expect(detectResultsFormat('r.json', '{"testRunData": {"testCases": []}}')).toBe('deepeval');
    expect(detectResultsFormat('r.json', '{\n  "test_cases": [')).toBe('deepeval');
    // Sorted keys put small fields first; a head cut inside the run still shows only TestRun keys.
    expect(
      detectResultsFormat(
        'r.json',
        '{"conversationalTestCases": [], "evaluationCost": 0.1, "hyperparameters": {"model": "x"}, "metricsScores": [{"metric": "a", "scores": [0.1, 0.2',
      ),
    ).toBe('deepeval');
    expect(detectResultsFormat('r.json', '{"evaluationCost": 0.1, "hyperparameters": {"model": "x"}, "metricsScores": [{"metric": "a", "scores": [0.1')).toBe(
      'deepeval',
    );
    // A long JSON Lines record cut by the head stays JSON Lines.
    expect(detectResultsFormat('r.jsonl', '{"id": "q1", "retrieved_ids": ["d1", "d2"')).toBe('jsonl');
    expect(detectResultsFormat('r.jsonl', '{"say \\"testCases\\"": 1, "id": "q1"}')).toBe('jsonl');
  });

  it('takes a first line naming known fields for a CSV or TSV header', () => {
    expect(detectResultsFormat('results.txt', 'id,question,answer\nq1,a,b\n')).toBe('csv');
    expect(detectResultsFormat('results.txt', '"user_input";"response"\r\n')).toBe('csv');
    expect(detectResultsFormat('results', 'question\tanswer\n')).toBe('tsv');
    expect(detectResultsFormat('results', ',user_input,retrieved_contexts,response\n')).toBe('csv');
  });

  it('leaves anything else to the JSON Lines reader, which says what is wrong', () => {
    expect(detectResultsFormat('results', '')).toBe('jsonl');
    expect(detectResultsFormat('results', 'prompt,completion\nx,y\n')).toBe('jsonl');
    expect(detectResultsFormat('results', 'hello')).toBe('jsonl');
  });

  it('finds a DeepEval run however many other keys come first, and never takes a result record for one', () => {
    const other = fc
      .string()
      .filter((key) => !['testCases', 'test_cases', 'conversationalTestCases', 'conversational_test_cases', 'testRunData'].includes(key));
    fc.assert(
      fc.property(fc.dictionary(other, fc.jsonValue({ maxDepth: 2 })), fc.dictionary(other, fc.jsonValue({ maxDepth: 2 })), (before, after) => {
        const run = JSON.stringify({ ...before, testCases: [{ input: 'q' }], ...after });
        expect(detectResultsFormat('run.json', run)).toBe('deepeval');
        const record = JSON.stringify({ id: 'q1', ...before, ...after });
        expect(detectResultsFormat('run.json', `${record}\n${record}\n`)).toBe('jsonl');
      }),
    );
  });
});

describe('RESULTS_FORMATS', () => {
  it('describes each format once', () => {
    expect(RESULTS_FORMATS.map((format) => format.name)).toEqual(['jsonl', 'json-array', 'csv', 'tsv', 'deepeval']);
    for (const { description } of RESULTS_FORMATS) expect(description).toMatch(/^\S.*\S$/);
  });
});
