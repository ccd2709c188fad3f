import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { InputError, type InputProblem, MAX_LISTED_PROBLEMS } from '../../src/core/errors.js';
import { readResults } from '../../src/sources/results.js';
import type { ResultRecord } from '../../src/core/record.js';
import { judgedRanking } from '../../src/core/scoring/score.js';
import { DEFAULT_JUDGING, UNJUDGED } from '../../src/core/measures/ranking.js';
import { jsonl, scratchDir } from '../helpers/cli.js';

const scratch = scratchDir();
afterAll(() => scratch.cleanup());

let counter = 0;
/** Writes `content` to a fresh file and returns its path. */
function file(content: string | Buffer, ext = 'jsonl'): string {
  counter++;
  return scratch.file(`results-${counter}.${ext}`, content);
}

async function read(path: string) {
  const records: { record: ResultRecord; line: number }[] = [];
  const summary = await readResults(path, (record, line) => records.push({ record, line }));
  return { records, warnings: summary.warnings };
}

/** Reads a file that must be rejected and returns the InputError. */
async function reject(path: string): Promise<InputError> {
  try {
    await readResults(path, () => {});
  } catch (error) {
    if (error instanceof InputError) return error;
    throw error;
  }
  throw new Error(`${path} was accepted`);
}

async function problemsOf(content: string): Promise<{ path: string; problems: readonly InputProblem[] }> {
  const path = file(content);
  return { path, problems: (await reject(path)).problems };
}

describe('readResults accepts', () => {
  it('JSON Lines with every field, keeping file order and line numbers', async () => {
    const path = file(
      jsonl([
        {
          id: 'q1',
          question: 'What?',
          retrieved_ids: ['d1', 'd2'],
          relevant_ids: { d1: 3, d2: 0 },
          answer: 'a',
          expected_answer: 'b',
          correct: true,
          retrieval_ok: false,
          answerable: true,
          refused: false,
          claims: [{ text: 'c', verdict: 'SUPPORTED' }, { verdict: 'NOT_STATED' }],
          cited_ids: ['d1'],
          answer_relevance: 0.5,
          human_label: true,
          judge_label: 'SUPPORTED',
          closed_book_correct: false,
          tags: ['x'],
        },
        { id: 'q2', question: 'Why?', relevant_ids: ['d3'] },
      ]),
    );
    const result = await read(path);
    expect(result.records.map((r) => [r.record.id, r.line])).toEqual([
      ['q1', 1],
      ['q2', 2],
    ]);
    expect(result.records[0]!.record.relevant_ids).toEqual({ d1: 3, d2: 0 });
    expect(result.records[1]!.record.relevant_ids).toEqual(['d3']);
    expect(result.warnings).toEqual([]);
  });

  it('CRLF line ends, a UTF-8 byte-order mark, blank lines and a missing final newline', async () => {
    const text = '\uFEFF{"id":"q1","question":"Á?"}\r\n\r\n   \r\n{"id":"q2","question":"b"}\r\n{"id":"q3","question":"c"}';
    const result = await read(file(Buffer.from(text, 'utf8')));
    expect(result.records.map((r) => [r.record.id, r.line])).toEqual([
      ['q1', 1],
      ['q2', 4],
      ['q3', 5],
    ]);
    expect(result.records[0]!.record.question).toBe('Á?');
  });

  it('a pretty-printed multi-line JSON array, each record keeping the line it starts on', async () => {
    const text = ['[', '  {', '    "id": "q1",', '    "question": "a, [b] and {c}"', '  },', '  {"id": "q2", "question": "d\\"]"}', ']', ''].join('\n');
    const result = await read(file(text, 'json'));
    expect(result.records.map((r) => [r.record.id, r.line])).toEqual([
      ['q1', 2],
      ['q2', 6],
    ]);
    expect(result.records[1]!.record.question).toBe('d"]');
  });

  it('a one-line JSON array with a byte-order mark', async () => {
    const result = await read(file(Buffer.from('\uFEFF[{"id":"q1","question":"a"},{"id":"q2","question":"b"}]', 'utf8'), 'json'));
    expect(result.records.map((r) => r.record.id)).toEqual(['q1', 'q2']);
  });

  it('Ragas-style field names, renamed to the canonical ones', async () => {
    const path = file(
      jsonl([
        {
          id: 'q1',
          user_input: 'Q?',
          response: 'A',
          reference: 'B',
          retrieved_context_ids: ['d1', 'd2'],
          reference_context_ids: ['d2'],
        },
      ]),
    );
    const { records, warnings } = await read(path);
    expect(records[0]!.record).toMatchObject({
      id: 'q1',
      question: 'Q?',
      answer: 'A',
      expected_answer: 'B',
      retrieved_ids: ['d1', 'd2'],
      relevant_ids: ['d2'],
    });
    expect(warnings).toEqual([]);
  });

  it('warns once per unknown field, with the number of records carrying it and the name it probably means', async () => {
    const path = file(
      jsonl([
        { id: 'q1', question: 'a', ground_truths: ['x'] },
        { id: 'q2', question: 'b', retreived_ids: [] },
        { id: 'q3', question: 'c', retreived_ids: [], zzz_extra: 'x' },
      ]),
    );
    const { warnings } = await read(path);
    expect(warnings).toEqual([
      `${path}: unknown field "ground_truths" in 1 record is ignored (did you mean "expected_answer"?)`,
      `${path}: unknown field "retreived_ids" in 2 records is ignored (did you mean "retrieved_ids"?)`,
      `${path}: unknown field "zzz_extra" in 1 record is ignored (check its spelling against the results format)`,
    ]);
  });
  it('reads a field named like a property of every object ("constructor", "__proto__", "toString") as any unknown field', async () => {
    const path = file('{"id": "q1", "question": "a", "constructor": "x", "__proto__": "y", "toString": {"z": 1}}\n');
    const { records, warnings } = await read(path);
    expect(records[0]!.record).toMatchObject({ id: 'q1', question: 'a' });
    // No name is taken from Object.prototype: no "did you mean "function Object() { … }"?".
    expect(warnings).toEqual(
      ['constructor', '__proto__', 'toString'].map(
        (name) => `${path}: unknown field "${name}" in 1 record is ignored (check its spelling against the results format)`,
      ),
    );
  });

  it('reads such a column of a CSV file as any unknown field', async () => {
    const path = file('id,question,answer,constructor,valueOf\nq1,What?,An answer,x,y\n', 'csv');
    const { records, warnings } = await read(path);
    expect(records[0]!.record).toMatchObject({ id: 'q1', question: 'What?', answer: 'An answer' });
    expect(warnings).toEqual(
      ['constructor', 'valueOf'].map((name) => `${path}: unknown field "${name}" in 1 record is ignored (check its spelling against the results format)`),
    );
  });
});

describe('readResults: document ids are ids, whatever their text', () => {
  it('"__proto__" is a graded document id and a retrieved one like any other', async () => {
    const { records } = await read(
      file('{"id": "q1", "question": "a", "retrieved_ids": ["d2", "__proto__", "d1"], "relevant_ids": {"__proto__": 2, "d1": 1}}\n'),
    );
    const { record } = records[0]!;
    expect(Object.entries(record.relevant_ids!)).toEqual([
      ['__proto__', 2],
      ['d1', 1],
    ]);
    expect(Object.getPrototypeOf(record.relevant_ids)).toBe(Object.prototype);
    expect(Array.from(judgedRanking(record, DEFAULT_JUDGING)!.grades)).toEqual([UNJUDGED, 2, 1]);
  });
});

describe('readResults rejects, naming file, line and field', () => {
  it.each([
    ['not JSON', '{"id": "q1", "question": }', undefined, /^not valid JSON .*each line must hold one complete JSON object$/],
    ['a NaN literal', '{"id": "q1", "question": "a", "answer_relevance": NaN}', 'answer_relevance', /^NaN is not a number in JSON/],
    ['an Infinity literal', '{"id": "q1", "question": "a", "answer_relevance": Infinity}', 'answer_relevance', /^Infinity is not a number in JSON/],
    ['a -Infinity literal', '{"id": "q1", "question": "a", "answer_relevance": -Infinity}', 'answer_relevance', /^-Infinity is not a number in JSON/],
    [
      '1e999 (parses to Infinity)',
      '{"id": "q1", "question": "a", "answer_relevance": 1e999}',
      'answer_relevance',
      /^Infinity is not a finite number \(too large for a double\?\)$/,
    ],
    ['a grade of 1e999', '{"id": "q1", "question": "a", "relevant_ids": {"d1": 1e999}}', 'relevant_ids.d1', /^Infinity is not a finite number/],
    ['an id that is a fraction', '{"id": 7.5, "question": "a"}', 'id', /^must be an id \(a string or a whole number\)$/],
    ['an id that is true', '{"id": true, "question": "a"}', 'id', /^must be an id \(a string or a whole number\)$/],
    ['an empty id', '{"id": "", "question": "a"}', 'id', /^must not be empty or only white space$/],
    ['an id of white space only', '{"id": " \\t\\u00a0", "question": "a"}', 'id', /^must not be empty or only white space$/],
    ['a missing question', '{"id": "q1"}', 'question', /^is required and must be a string$/],
    [
      'a document id that is a fraction',
      '{"id": "q1", "question": "a", "retrieved_ids": ["d1", 2.5]}',
      'retrieved_ids[1]',
      /must be a document id \(a string or a whole number\)/,
    ],
    [
      'the same document id as a number and a string',
      '{"id": "q1", "question": "a", "retrieved_ids": [7, "7"]}',
      'retrieved_ids[1]',
      /duplicate document id "7" \(also at position 0\)/,
    ],
    ['a score that is text inside scores', '{"id": "q1", "question": "a", "scores": {"f": "high"}}', 'scores.f', /must be a finite number or true\/false/],
    ['scores as a list', '{"id": "q1", "question": "a", "scores": [0.5]}', 'scores', /must be an object of scores/],
    [
      'gold contexts as text with retrieved ids only',
      '{"id": "q1", "question": "a", "retrieved_ids": ["d1"], "reference_contexts": ["x"]}',
      'reference_contexts',
      /add retrieved_contexts \(the retrieved texts\) or give relevant_ids/,
    ],
    [
      'relevant ids with retrieved texts only',
      '{"id": "q1", "question": "a", "retrieved_contexts": ["x"], "relevant_ids": ["d1"]}',
      'relevant_ids',
      /add retrieved_ids or give the gold contexts as reference_contexts/,
    ],
    [
      'the same retrieved text twice, matched by text',
      '{"question": "a", "retrieved_contexts": ["Alpha  beta", "x", "Alpha beta"], "reference_contexts": ["x"]}',
      'retrieved_contexts[2]',
      /has the same text as retrieved_contexts\[0\]/,
    ],
    ['tags as a string', '{"id": "q1", "question": "a", "tags": "x"}', 'tags', /must be a list of strings/],
    ['a tag that is not a string', '{"id": "q1", "question": "a", "tags": ["x", 3]}', 'tags[1]', /must be a string/],
    ['correct as "yes"', '{"id": "q1", "question": "a", "correct": "yes"}', 'correct', /must be true or false/],
    ['a negative grade', '{"id": "q1", "question": "a", "relevant_ids": {"d1": -1}}', 'relevant_ids.d1', /must not be negative/],
    ['a non-integer grade', '{"id": "q1", "question": "a", "relevant_ids": {"doc-1": 1.5}}', 'relevant_ids["doc-1"]', /whole-number grade/],
    ['relevant_ids as a string', '{"id": "q1", "question": "a", "relevant_ids": "d1"}', 'relevant_ids', /list of document ids or an object of grades/],
    [
      'a duplicate id inside retrieved_ids',
      '{"id": "q1", "question": "a", "retrieved_ids": ["d1", "d2", "d1"]}',
      'retrieved_ids[2]',
      /duplicate document id "d1" \(also at position 0\)/,
    ],
    ['an empty document id', '{"id": "q1", "question": "a", "retrieved_ids": ["d1", ""]}', 'retrieved_ids[1]', /^must not be empty or only white space$/],
    [
      'a retrieved id of white space only',
      '{"id": "q1", "question": "a", "retrieved_ids": ["d1", "  "]}',
      'retrieved_ids[1]',
      /^must not be empty or only white space$/,
    ],
    [
      'a relevant id of white space only',
      '{"id": "q1", "question": "a", "relevant_ids": ["\\u2003"]}',
      'relevant_ids[0]',
      /^must not be empty or only white space$/,
    ],
    [
      'a graded id of white space only',
      '{"id": "q1", "question": "a", "relevant_ids": {"d1": 1, " ": 2}}',
      'relevant_ids[" "]',
      /^must not be empty or only white space$/,
    ],
    ['an empty graded id', '{"id": "q1", "question": "a", "relevant_ids": {"": 1}}', 'relevant_ids[""]', /^must not be empty or only white space$/],
    ['a cited id of white space only', '{"id": "q1", "question": "a", "cited_ids": ["\\n"]}', 'cited_ids[0]', /^must not be empty or only white space$/],
    ['a key given twice', '{"id": "q1", "question": "a", "correct": true, "correct": false}', 'correct', /^duplicate key "correct" in one object; keep one$/],
    ['a graded id given twice', '{"id": "q1", "question": "a", "relevant_ids": {"d1": 2, "d2": 1, "d1": 0}}', 'relevant_ids.d1', /^duplicate key "d1"/],
    [
      'a key given twice in judged_by',
      '{"id": "q1", "question": "a", "judged_by": {"correct": {"model": "m", "prompt_version": "p", "model": "n"}}}',
      'judged_by.correct.model',
      /^duplicate key "model"/,
    ],
    [
      'a key given twice in a claim',
      '{"id": "q1", "question": "a", "claims": [{"verdict": "SUPPORTED"}, {"verdict": "SUPPORTED", "verdict": "NOT_STATED"}]}',
      'claims[1].verdict',
      /^duplicate key "verdict"/,
    ],
    [
      'retrieved_ids given twice (the fast path)',
      '{"id": "q1", "question": "a", "retrieved_ids": ["d1"], "retrieved_ids": ["d2"]}',
      'retrieved_ids',
      /^duplicate key "retrieved_ids"/,
    ],
    [
      'a key given twice beside a plain id list',
      '{"id": "q1", "retrieved_ids": ["d1", "d2"], "question": "a", "question": "b"}',
      'question',
      /^duplicate key "question"/,
    ],
    [
      'a verdict outside the three words',
      '{"id": "q1", "question": "a", "claims": [{"text": "t", "verdict": "SUPPORTED"}, {"text": "t", "verdict": "supported"}]}',
      'claims[1].verdict',
      /must be one of SUPPORTED, CONTRADICTED, NOT_STATED/,
    ],
    ['answer_relevance above 1', '{"id": "q1", "question": "a", "answer_relevance": 1.2}', 'answer_relevance', /must be in \[0, 1\]/],
    ['answer_relevance below 0', '{"id": "q1", "question": "a", "answer_relevance": -0.1}', 'answer_relevance', /must be in \[0, 1\]/],
    [
      'an alias and its canonical name both given',
      '{"id": "q1", "question": "a", "user_input": "b"}',
      'user_input',
      /gives "question" twice \(as "question" and "user_input"\); keep one/,
    ],
    ['a wrong type under an alias', '{"id": "q1", "user_input": 5}', 'user_input', /must be a string/],
    ['a record that is not an object', '["q1", "a"]', undefined, /must be a JSON object/],
  ])('%s', async (_name, line, field, message) => {
    const { path, problems } = await problemsOf(`{"id": "ok", "question": "fine"}\n${line}\n`);
    expect(problems).toHaveLength(1);
    const [problem] = problems;
    expect(problem).toMatchObject({ file: path, line: 2 });
    expect(problem!.field).toBe(field);
    expect(problem!.message).toMatch(message);
  });

  it('a duplicate id names the line where the id first appeared', async () => {
    const { path, problems } = await problemsOf(
      jsonl([
        { id: 'q1', question: 'a' },
        { id: 'q2', question: 'b' },
        { id: 'q1', question: 'c' },
      ]),
    );
    expect(problems).toEqual([{ file: path, line: 3, field: 'id', message: 'duplicate id "q1" (first on line 1)' }]);
  });

  it('collects every problem of a record and of the file, not just the first', async () => {
    const { problems } = await problemsOf(jsonl([{ id: 5.5, question: 'a', tags: 'x', correct: 'yes' }, { id: 'q2' }]));
    expect(problems.map((p) => [p.line, p.field])).toEqual([
      [1, 'id'],
      [1, 'correct'],
      [1, 'tags'],
      [2, 'question'],
    ]);
  });

  it('lists at most 20 problems and counts the rest', async () => {
    const lines = Array.from({ length: 25 }, (_, i) => JSON.stringify({ id: `q${i}` }));
    const error = await reject(file(lines.join('\n')));
    expect(MAX_LISTED_PROBLEMS).toBe(20);
    expect(error.problems).toHaveLength(20);
    expect(error.totalProblems).toBe(25);
    expect(error.problems.map((p) => p.line)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    const messageLines = error.message.split('\n');
    expect(messageLines).toHaveLength(21);
    expect(messageLines[20]).toBe('… and 5 more problems');
  });

  it('errors in a pretty-printed array name the line each element starts on', async () => {
    const text = [
      '[',
      '  {"id": "q1", "question": "a"},',
      '  {',
      '    "id": "q2",',
      '    "question": 3',
      '  },',
      '  {',
      '    "id": "q1",',
      '    "question": "b"',
      '  }',
      ']',
    ].join('\n');
    const path = file(text, 'json');
    const { problems } = await reject(path);
    expect(problems).toEqual([
      { file: path, line: 3, field: 'question', message: 'is required and must be a string' },
      { file: path, line: 7, field: 'id', message: 'duplicate id "q1" (first on line 2)' },
    ]);
  });

  it('a key given twice in a pretty-printed array names the line of the second', async () => {
    const text = ['[', '  {', '    "id": "q1",', '    "question": "a",', '    "retrieved_ids": ["d1",', '      "d2"],', '    "question": "b"', '  }', ']'].join(
      '\n',
    );
    const path = file(text, 'json');
    expect((await reject(path)).problems).toEqual([{ file: path, line: 7, field: 'question', message: 'duplicate key "question" in one object; keep one' }]);
  });

  it('an array element that is not JSON names its starting line', async () => {
    const path = file(['[', '  {"id": "q1", "question": "a"},', '  {"id": "q2",', '   "question": nope}', ']'].join('\n'), 'json');
    const { problems } = await reject(path);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({ file: path, line: 3 });
    expect(problems[0]!.message).toMatch(/not valid JSON/);
  });

  it.each([
    ['an empty file', ''],
    ['a whitespace-only file', ' \n\t\n\r\n   '],
    ['an empty JSON array', '[\n]\n'],
  ])('%s holds no records', async (_name, content) => {
    const path = file(content);
    const { problems } = await reject(path);
    expect(problems).toEqual([{ file: path, message: 'the file holds no records; expected JSON Lines or a JSON array of result objects' }]);
  });

  it('a file that does not exist', async () => {
    const path = `${scratch.dir}/missing.jsonl`;
    const { problems } = await reject(path);
    expect(problems).toEqual([{ file: path, message: 'cannot read: no such file' }]);
  });

  it('a directory instead of a file', async () => {
    const { problems } = await reject(scratch.dir);
    expect(problems).toEqual([{ file: scratch.dir, message: 'cannot read: is a directory, not a file' }]);
  });

  it('a JSON array that is not closed', async () => {
    const path = file('[\n  {"id": "q1", "question": "a"},\n  {"id": "q2", "question": "b"}\n', 'json');
    const { problems } = await reject(path);
    expect(problems).toEqual([{ file: path, line: 3, message: 'the JSON array is not closed with "]"' }]);
  });

  it('a trailing comma before the closing bracket of an array', async () => {
    const path = file('[\n  {"id": "q1", "question": "a"},\n]\n', 'json');
    const { problems } = await reject(path);
    expect(problems).toEqual([{ file: path, line: 3, message: 'a comma before the closing "]" (JSON allows no trailing comma)' }]);
  });

  it('text after the closing bracket of an array', async () => {
    const path = file('[{"id": "q1", "question": "a"}]\n{"id": "q2", "question": "b"}\n', 'json');
    const { problems } = await reject(path);
    expect(problems).toEqual([{ file: path, line: 2, message: 'unexpected text after the closing "]" of the array' }]);
  });

  it('hands no record to the caller once the file has a problem', async () => {
    const path = file(jsonl([{ id: 'q1' }, { id: 'q2', question: 'b' }]));
    const seen: string[] = [];
    await expect(readResults(path, (record) => seen.push(record.id))).rejects.toBeInstanceOf(InputError);
    expect(seen).toEqual([]);
  });
});

describe('readResults: a record already in canonical form is read as it is', () => {
  // Canonical fields, another tool's names for them, nulls, unknown fields (scores among them) and __proto__, in any order.
  const member = fc.constantFrom<[string, unknown]>(
    ['id', 'q1'],
    ['id', 7],
    ['question', 'Q?'],
    ['user_input', 'Q?'],
    ['retrieved_ids', ['d1', 'd2']],
    ['retrieved_context_ids', ['d1']],
    ['relevant_ids', { d1: 2 }],
    ['answer', 'Paris'],
    ['answer', null],
    ['correct', true],
    ['scores', { faithfulness: 0.5 }],
    ['faithfulness', 0.75],
    ['note', 'kept out'],
    ['__proto__', 'odd'],
  );
  const texts = fc
    .uniqueArray(member, { selector: ([key]) => key, maxLength: 8 })
    .map((members) => `{${members.map(([key, value]) => `${JSON.stringify(key)}: ${JSON.stringify(value)}`).join(', ')}}`);

  it('gives the record, or the problems, that the same record copied field by field gives (property)', async () => {
    const outcome = async (text: string) => {
      const path = file(`${text}\n`);
      try {
        return { records: (await read(path)).records.map(({ record }) => record) };
      } catch (error) {
        if (!(error instanceof InputError)) throw error;
        return { problems: error.problems.map(({ field, message }) => ({ field, message })) };
      }
    };
    await fc.assert(
      fc.asyncProperty(texts, async (text) => {
        // An unknown field first makes the reader copy every field of the record into a new one.
        const copied = await outcome(text.replace(/^\{/, text === '{}' ? '{"zz_first": "x"' : '{"zz_first": "x", '));
        expect(await outcome(text)).toEqual(copied);
      }),
      { numRuns: 300 },
    );
  });
});
