import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { type InputProblem, ProblemCollector } from '../../../src/core/errors.js';
import { type DeepEvalRun, deepEvalMetricKey, deepEvalRun, readDeepEvalRun } from '../../../src/sources/formats/deepeval.js';
import { scratchDir } from '../../helpers/cli.js';

const scratch = scratchDir();
afterAll(() => scratch.cleanup());

const FIXTURE = new URL('../../fixtures/results/deepeval-test-run.json', import.meta.url).pathname;
const fixtureText = readFileSync(FIXTURE, 'utf8');
type Json = Record<string, unknown>;
const fixtureRun = () => JSON.parse(fixtureText) as { testCases: Json[] } & Json;

function run(text: string): { result: DeepEvalRun; problems: InputProblem[] } {
  const collector = new ProblemCollector();
  const result = deepEvalRun('run.json', text, collector);
  let problems: InputProblem[] = [];
  try {
    collector.throwIfAny();
  } catch (error) {
    problems = [...(error as { problems: InputProblem[] }).problems];
  }
  return { result, problems };
}

function clean(text: string): DeepEvalRun {
  const { result, problems } = run(text);
  expect(problems).toEqual([]);
  return result;
}

/** Renames every key of a JSON value by `rename`, recursively. */
function renameKeys(value: unknown, rename: (key: string) => string): unknown {
  if (Array.isArray(value)) return value.map((item) => renameKeys(item, rename));
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [rename(key), renameKeys(item, rename)]));
}
const snakeCase = (key: string) => key.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);

describe('deepEvalRun reads the test-run file DeepEval writes', () => {
  it('one record per test case, in rag-gate field names, at the column where its object starts', () => {
    const { rows, summary } = clean(fixtureText);
    expect(rows).toHaveLength(3);
    expect(rows.map((row) => row.line)).toEqual([1, 1, 1]);
    expect(rows.map((row) => fixtureText.slice(row.column - 1, row.column + 21))).toEqual([
      '{"name": "test_case_0"',
      '{"name": "test_case_1"',
      '{"name": "test_case_2"',
    ]);
    expect(rows[0]!.record).toEqual({
      question: 'When was the Eiffel Tower completed?',
      answer: 'It was completed in 1889.',
      expected_answer: '1889',
      retrieved_contexts: ["The Eiffel Tower was completed in March 1889 for the World's Fair.", "Gustave Eiffel's company designed and built the tower."],
      reference_contexts: ["The Eiffel Tower was completed in March 1889 for the World's Fair."],
      scores: {
        answer_relevancy: 1,
        answer_relevancy_success: true,
        faithfulness: 1,
        faithfulness_success: true,
        contextual_precision: 1,
        contextual_precision_success: true,
        contextual_recall: 1,
        contextual_recall_success: true,
        correctness: 0.9,
        correctness_success: true,
      },
    });
    expect(rows[2]!.record.answer).toBe('\u201cThe Iron Lady\u201d, or La dame de fer.');
    expect(summary).toEqual({
      testCases: 3,
      metrics: new Map([
        ['answer_relevancy', 'Answer Relevancy'],
        ['faithfulness', 'Faithfulness'],
        ['contextual_precision', 'Contextual Precision'],
        ['contextual_recall', 'Contextual Recall'],
        ['correctness', 'Correctness [GEval]'],
      ]),
      erroredMetrics: new Map([['contextual_recall', 1]]),
      ids: { from: 'none', reason: 'positional-names', example: 'test_case_0' },
    });
  });

  it('leaves an errored metric out of that test case only, its success too', () => {
    const { rows } = clean(fixtureText);
    const scores = rows[2]!.record.scores as Json;
    expect(scores).not.toHaveProperty('contextual_recall');
    expect(scores).not.toHaveProperty('contextual_recall_success');
    expect(scores).toMatchObject({ faithfulness: 0.5, faithfulness_success: false, correctness: 0.2, correctness_success: false });
    // A score written as null (a dump that keeps None) is the same.
    const data = fixtureRun();
    (data.testCases[0]!.metricsData as Json[])[0]!.score = null;
    const again = clean(JSON.stringify(data));
    expect(again.rows[0]!.record.scores).not.toHaveProperty('answer_relevancy');
    expect(again.summary.erroredMetrics).toEqual(
      new Map([
        ['answer_relevancy', 1],
        ['contextual_recall', 1],
      ]),
    );
  });

  it('the same run pretty-printed, with each test case at its own line', () => {
    const text = JSON.stringify(fixtureRun(), null, 2);
    const { rows } = clean(text);
    const lines = text.split('\n');
    expect(rows.map((row) => lines[row.line - 1]!.trim())).toEqual(['{', '{', '{']);
    expect(rows.map((row) => lines[row.line]!.trim())).toEqual(['"name": "test_case_0",', '"name": "test_case_1",', '"name": "test_case_2",']);
  });

  it('snake_case keys (model_dump() without aliases) give the same records', () => {
    const snake = JSON.stringify(renameKeys(fixtureRun(), snakeCase));
    expect(snake).toContain('"retrieval_context"');
    expect(clean(snake).rows.map((row) => row.record)).toEqual(clean(fixtureText).rows.map((row) => row.record));
  });

  it('the run wrapped as .latest_test_run.json keeps it, under "testRunData"', () => {
    const wrapped = `{"testRunData": ${fixtureText}}`;
    expect(clean(wrapped).rows.map((row) => row.record)).toEqual(clean(fixtureText).rows.map((row) => row.record));
  });

  it('names the user set as ids, when every test case has one and none repeats', () => {
    const data = fixtureRun();
    data.testCases.forEach((testCase, index) => (testCase.name = `eiffel-${index + 1}`));
    const { rows, summary } = clean(JSON.stringify(data));
    expect(rows.map((row) => row.record.id)).toEqual(['eiffel-1', 'eiffel-2', 'eiffel-3']);
    expect(summary.ids).toEqual({ from: 'names' });

    data.testCases[2]!.name = 'eiffel-1';
    const repeated = clean(JSON.stringify(data));
    expect(repeated.rows.every((row) => !('id' in row.record))).toBe(true);
    expect(repeated.summary.ids).toEqual({ from: 'none', reason: 'repeated-names', example: 'eiffel-1' });

    data.testCases[2]!.name = 'test_rag[test_case2]';
    expect(clean(JSON.stringify(data)).summary.ids).toEqual({ from: 'none', reason: 'positional-names', example: 'test_rag[test_case2]' });
    delete data.testCases[2]!.name;
    expect(clean(JSON.stringify(data)).summary.ids).toEqual({ from: 'none', reason: 'missing-names', example: 'null' });
  });

  it('tags, and absent or null outputs left out', () => {
    const data = fixtureRun();
    const testCase = data.testCases[0]!;
    testCase.tags = ['history'];
    delete testCase.actualOutput;
    testCase.expectedOutput = null;
    delete testCase.metricsData;
    const record = clean(JSON.stringify(data)).rows[0]!.record;
    expect(record.tags).toEqual(['history']);
    expect(record).not.toHaveProperty('answer');
    expect(record).not.toHaveProperty('expected_answer');
    expect(record).not.toHaveProperty('scores');
  });

  it('what a test case cost: its completion time (seconds, read as milliseconds), token cost and token counts', () => {
    const data = fixtureRun();
    Object.assign(data.testCases[0]!, { completionTime: 1.25, tokenCost: 0.0021, inputTokenCount: 812, outputTokenCount: 64 });
    Object.assign(data.testCases[1]!, { completion_time: 'slow', tokenCost: null });
    const [first, second] = clean(JSON.stringify(data)).rows.map((row) => row.record);
    expect(first).toMatchObject({ latency_ms: 1250, cost_usd: 0.0021, prompt_tokens: 812, completion_tokens: 64 });
    // A value that is no number reaches the record schema as it is, which says what the field must be.
    expect(second).toMatchObject({ latency_ms: 'slow' });
    expect(second).not.toHaveProperty('cost_usd');
  });
});

describe('deepEvalMetricKey', () => {
  it("turns DeepEval's metric names into score keys", () => {
    expect(deepEvalMetricKey('Answer Relevancy')).toBe('answer_relevancy');
    expect(deepEvalMetricKey('Contextual Precision')).toBe('contextual_precision');
    expect(deepEvalMetricKey('Correctness [GEval]')).toBe('correctness');
    expect(deepEvalMetricKey('Policy check [DAG]')).toBe('policy_check');
    expect(deepEvalMetricKey('Tone [v2] [GEval]')).toBe('tone_v2');
    expect(deepEvalMetricKey('Faithfulness (ragas)')).toBe('faithfulness_ragas');
    expect(deepEvalMetricKey('Non-Advice')).toBe('non_advice');
    expect(deepEvalMetricKey('PII Leakage')).toBe('pii_leakage');
    expect(deepEvalMetricKey('Multi-Turn MCP Use')).toBe('multi_turn_mcp_use');
    expect(deepEvalMetricKey('Qualité  Réponse')).toBe('qualité_réponse');
  });

  it('always gives lower snake case, and is idempotent', () => {
    fc.assert(
      fc.property(fc.string(), (name) => {
        const key = deepEvalMetricKey(name);
        expect(key).toMatch(/^(?:[\p{Ll}\p{Lo}\p{Lm}\p{N}\p{Lt}]+(?:_[\p{Ll}\p{Lo}\p{Lm}\p{N}\p{Lt}]+)*)?$/u);
        expect(deepEvalMetricKey(key)).toBe(key);
      }),
    );
  });
});

describe('deepEvalRun reports', () => {
  it('conversational test cases, which rag-gate does not read', () => {
    const data = fixtureRun();
    data.conversationalTestCases = [{ name: 'chat', success: true, metricsData: [], turns: [{ role: 'user', content: 'hi', order: 0 }] }];
    const { result, problems } = run(JSON.stringify(data));
    expect(problems).toEqual([
      {
        file: 'run.json',
        line: 1,
        column: expect.any(Number),
        field: 'conversationalTestCases',
        message: 'holds 1 conversational test case (turns); rag-gate reads single-turn test cases (input, actual output, retrieval context) only',
      },
    ]);
    expect(result.rows).toHaveLength(3);
    const { problems: turns } = run(JSON.stringify({ testCases: [{ name: 'x', input: 'q', turns: [] }] }));
    expect(turns).toEqual([expect.objectContaining({ field: 'testCases[0].turns', message: expect.stringMatching(/^is a conversational test case/) })]);
  });

  it('bad metric data at its line and column, and keeps reading', () => {
    const data = fixtureRun();
    (data.testCases[0]!.metricsData as Json[])[1]!.score = '0.9';
    (data.testCases[1]!.metricsData as Json[])[1]!.name = 'Answer relevancy!';
    const text = JSON.stringify(data, null, 1);
    const { result, problems } = run(text);
    const lines = text.split('\n');
    expect(problems).toEqual([
      { file: 'run.json', line: expect.any(Number), column: 6, field: 'testCases[0].metricsData[1].score', message: 'must be a number or null' },
      {
        file: 'run.json',
        line: expect.any(Number),
        column: 6,
        field: 'testCases[1].metricsData[1].name',
        message: '"Answer relevancy!" and "Answer Relevancy" both give the score "answer_relevancy"; rename one',
      },
    ]);
    expect(lines[problems[0]!.line! - 1]).toBe('     "score": "0.9",');
    expect(lines[problems[1]!.line! - 1]).toBe('     "name": "Answer relevancy!",');
    expect(result.rows).toHaveLength(1);
  });

  it('a key in both spellings, a key given twice, and text that is not JSON', () => {
    expect(run('{"testCases": [{"input": "q", "actualOutput": "a", "actual_output": "b"}]}').problems).toEqual([
      {
        file: 'run.json',
        line: 1,
        column: 52,
        field: 'testCases[0].actual_output',
        message: 'is given twice, as "actualOutput" and "actual_output"; keep one',
      },
    ]);
    expect(run('{"testCases": [{"input": "q",\n "input": "r"}]}').problems).toEqual([
      { file: 'run.json', line: 2, field: 'testCases[0].input', message: 'duplicate key "input" in one object; keep one' },
    ]);
    expect(run('{"testCases": [{"input": "q", "score": NaN}]}').problems).toEqual([
      { file: 'run.json', line: 1, column: 40, message: "not valid JSON (Unexpected character 'N' found.); expected a DeepEval test run" },
    ]);
  });

  it('a JSON document that is not a test run, or one without test cases', () => {
    expect(run('[{"input": "q"}]').problems).toEqual([
      { file: 'run.json', line: 1, column: 1, message: 'a DeepEval test run is one JSON object with "testCases"' },
    ]);
    expect(run('{"id": "q1"}').problems).toEqual([{ file: 'run.json', line: 1, column: 1, message: 'not a DeepEval test run: the object has no "testCases"' }]);
    expect(run('{"testCases": {}}').problems).toEqual([{ file: 'run.json', line: 1, column: 2, field: 'testCases', message: 'must be a list of test cases' }]);
    expect(run('{"testCases": [], "conversationalTestCases": []}').problems).toEqual([
      { file: 'run.json', line: 1, column: 2, field: 'testCases', message: 'holds no test cases' },
    ]);
    expect(run('{"testCases": [3]}').problems).toEqual([
      { file: 'run.json', line: 1, column: 16, field: 'testCases[0]', message: 'a test case must be a JSON object' },
    ]);
  });
});

describe('readDeepEvalRun', () => {
  it('reads the fixture file', async () => {
    const problems = new ProblemCollector();
    const { rows } = await readDeepEvalRun(FIXTURE, problems);
    expect(problems.count).toBe(0);
    expect(rows).toHaveLength(3);
  });

  it('reports lines that are not UTF-8 and a file that cannot be read', async () => {
    const path = scratch.file('bad.json', Buffer.concat([Buffer.from('{"testCases": [{"input": "caf'), Buffer.from([0xe9]), Buffer.from('"}]}')]));
    const problems = new ProblemCollector();
    expect((await readDeepEvalRun(path, problems)).rows).toEqual([]);
    expect(() => problems.throwIfAny()).toThrow(/bad\.json:1:30: not valid UTF-8 \(byte 0xE9/);
    await expect(readDeepEvalRun(scratch.dir + '/missing.json', new ProblemCollector())).rejects.toThrow(/missing\.json: cannot read: no such file$/);
  });
});
