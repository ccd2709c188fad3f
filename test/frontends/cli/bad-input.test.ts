import { afterAll, describe, expect, it } from 'vitest';
import { jsonl, runBin, runMain, scratchDir } from '../../helpers/cli.js';

const scratch = scratchDir();
afterAll(() => scratch.cleanup());

let counter = 0;
function file(content: string | Buffer, ext = 'jsonl'): string {
  counter++;
  return scratch.file(`input-${counter}.${ext}`, content);
}

const OK_LINE = '{"id": "ok", "question": "fine"}';
const HEADER = 'rag-gate: error: bad input\n';

/** Runs `eval --results PATH` in-process and checks the common shape of a bad-input failure. */
async function evalFails(path: string, extra: readonly string[] = []) {
  const run = await runMain(['eval', '--results', path, ...extra]);
  expect(run.code).toBe(2);
  expect(run.stdout).toBe('');
  expect(run.stderr.startsWith(HEADER)).toBe(true);
  return run.stderr.slice(HEADER.length);
}

describe('eval: bad results files exit 2 naming file, line and field', () => {
  it.each([
    ['not JSON', '{"id": "q1", "question": "a",}', /^:2: not valid JSON \(.*\); each line must hold one complete JSON object$/],
    [
      'a NaN literal',
      '{"id": "q1", "question": "a", "answer_relevance": NaN}',
      /^:2: answer_relevance: NaN is not a number in JSON; write a finite number or leave the field out$/,
    ],
    ['an Infinity literal', '{"id": "q1", "question": "a", "answer_relevance": Infinity}', /^:2: answer_relevance: Infinity is not a number in JSON/],
    ['a -Infinity literal', '{"id": "q1", "question": "a", "answer_relevance": -Infinity}', /^:2: answer_relevance: -Infinity is not a number in JSON/],
    [
      '1e999, which parses to Infinity',
      '{"id": "q1", "question": "a", "answer_relevance": 1e999}',
      /^:2: answer_relevance: Infinity is not a finite number \(too large for a double\?\)$/,
    ],
    ['a grade of 1e999', '{"id": "q1", "question": "a", "relevant_ids": {"d1": 1e999}}', /^:2: relevant_ids\.d1: /],
    ['an id that is a list', '{"id": ["q1"], "question": "a"}', /^:2: id: must be an id \(a string or a whole number\)$/],
    ['a missing question', '{"id": "q1"}', /^:2: question: is required and must be a string$/],
    ['an id that is a fraction', '{"id": 1.5, "question": "a"}', /^:2: id: must be an id \(a string or a whole number\)$/],
    ['tags as a string', '{"id": "q1", "question": "a", "tags": "billing"}', /^:2: tags: must be a list of strings$/],
    ['correct as "yes"', '{"id": "q1", "question": "a", "correct": "yes"}', /^:2: correct: must be true or false$/],
    [
      'a negative grade',
      '{"id": "q1", "question": "a", "relevant_ids": {"d1": -2}}',
      /^:2: relevant_ids\.d1: must not be negative \(grades are 0 or more; 1 and up is relevant\)$/,
    ],
    ['a non-integer grade', '{"id": "q1", "question": "a", "relevant_ids": {"d1": 2.5}}', /^:2: relevant_ids\.d1: must be a whole-number grade$/],
    [
      'duplicate ids inside retrieved_ids',
      '{"id": "q1", "question": "a", "retrieved_ids": ["d1", "d2", "d2"]}',
      /^:2: retrieved_ids\[2\]: duplicate document id "d2" \(also at position 1\)$/,
    ],
    [
      'a verdict outside the three words',
      '{"id": "q1", "question": "a", "claims": [{"text": "t", "verdict": "UNSUPPORTED"}]}',
      /^:2: claims\[0\]\.verdict: must be one of SUPPORTED, CONTRADICTED, NOT_STATED$/,
    ],
    ['answer_relevance above 1', '{"id": "q1", "question": "a", "answer_relevance": 1.5}', /^:2: answer_relevance: must be in \[0, 1\]$/],
    ['answer_relevance below 0', '{"id": "q1", "question": "a", "answer_relevance": -0.5}', /^:2: answer_relevance: must be in \[0, 1\]$/],
    [
      'an alias and its canonical name',
      '{"id": "q1", "question": "a", "response": "x", "answer": "y"}',
      /^:2: answer: gives "answer" twice \(as "response" and "answer"\); keep one$/,
    ],
  ])('%s', async (_name, line, expected) => {
    const path = file(`${OK_LINE}\n${line}\n`);
    const message = await evalFails(path);
    const lines = message.trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]!.startsWith(path)).toBe(true);
    expect(lines[0]!.slice(path.length)).toMatch(expected);
  });

  it('a duplicate id names the line of its first appearance', async () => {
    const path = file(
      jsonl([
        { id: 'q1', question: 'a' },
        { id: 'q2', question: 'b' },
        { id: 'q1', question: 'c' },
      ]),
    );
    expect(await evalFails(path)).toBe(`${path}:3: id: duplicate id "q1" (first on line 1)\n`);
  });

  it('an empty file', async () => {
    const path = file('');
    expect(await evalFails(path)).toBe(`${path}: the file holds no records; expected JSON Lines or a JSON array of result objects\n`);
  });

  it('a whitespace-only file', async () => {
    const path = file('\n   \r\n\t\n');
    expect(await evalFails(path)).toBe(`${path}: the file holds no records; expected JSON Lines or a JSON array of result objects\n`);
  });

  it('a file that does not exist', async () => {
    const path = `${scratch.dir}/does-not-exist.jsonl`;
    expect(await evalFails(path)).toBe(`${path}: cannot read: no such file\n`);
  });

  it('a JSON array that is not closed', async () => {
    const path = file('[\n  {"id": "q1", "question": "a"},\n  {"id": "q2", "question": "b"}\n', 'json');
    expect(await evalFails(path)).toBe(`${path}:3: the JSON array is not closed with "]"\n`);
  });

  it('more than 20 problems: exactly 20 listed, then "… and N more problems"', async () => {
    const path = file(jsonl(Array.from({ length: 27 }, (_, i) => ({ id: `q${i}`, question: 'a', correct: 'yes' }))));
    const lines = (await evalFails(path)).trimEnd().split('\n');
    expect(lines).toHaveLength(21);
    lines.slice(0, 20).forEach((line, i) => expect(line).toBe(`${path}:${i + 1}: correct: must be true or false`));
    expect(lines[20]).toBe('… and 7 more problems');
  });

  it('exactly 21 problems: "… and 1 more problem"', async () => {
    const path = file(jsonl(Array.from({ length: 21 }, (_, i) => ({ id: `q${i}` }))));
    const lines = (await evalFails(path)).trimEnd().split('\n');
    expect(lines).toHaveLength(21);
    expect(lines[20]).toBe('… and 1 more problem');
  });

  it('two document ids that differ only in bytes that are not UTF-8: an error at the first bad byte, not hit@1 = 1', async () => {
    const line = Buffer.concat([
      Buffer.from('{"id":"q1","question":"a","retrieved_ids":["d'),
      Buffer.from([0xff]),
      Buffer.from('"],"relevant_ids":["d'),
      Buffer.from([0xfe]),
      Buffer.from('"]}\n'),
    ]);
    const path = file(line);
    expect(await evalFails(path)).toBe(`${path}:1:46: not valid UTF-8 (byte 0xFF at byte 46 of the line); save the file as UTF-8\n`);
  });

  it('a key given twice in one record, even nested', async () => {
    const path = file('{"id": "q1", "question": "a", "correct": true, "correct": false}\n{"id": "q2", "question": "b", "relevant_ids": {"d1": 1, "d1": 0}}\n');
    expect(await evalFails(path)).toBe(
      `${path}:1: correct: duplicate key "correct" in one object; keep one\n${path}:2: relevant_ids.d1: duplicate key "d1" in one object; keep one\n`,
    );
  });

  it('errors in a pretty-printed JSON array name the line each element starts on', async () => {
    const text = [
      '[',
      '  {',
      '    "id": "q1",',
      '    "question": "a"',
      '  },',
      '  {',
      '    "id": "q2",',
      '    "question": "b",',
      '    "relevant_ids": {"d1": -1}',
      '  }',
      ']',
      '',
    ].join('\n');
    const path = file(text, 'json');
    expect(await evalFails(path)).toBe(`${path}:6: relevant_ids.d1: must not be negative (grades are 0 or more; 1 and up is relevant)\n`);
  });
});

describe('eval: inputs that are fine', () => {
  const expectQuestions = async (path: string, questions: number) => {
    const run = await runMain(['eval', '--results', path, '--json']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect((JSON.parse(run.stdout) as { questions: number }).questions).toBe(questions);
  };

  it('CRLF line ends', async () => {
    await expectQuestions(file('{"id":"q1","question":"a","correct":true}\r\n{"id":"q2","question":"b","correct":false}\r\n'), 2);
  });

  it('a UTF-8 byte-order mark', async () => {
    await expectQuestions(file(Buffer.from('\uFEFF{"id":"q1","question":"a"}\n{"id":"q2","question":"b"}\n', 'utf8')), 2);
  });

  it('a missing final newline', async () => {
    await expectQuestions(file('{"id":"q1","question":"a"}\n{"id":"q2","question":"b"}'), 2);
  });

  it('blank lines between and around records', async () => {
    await expectQuestions(file('\n\n{"id":"q1","question":"a"}\n\n  \n{"id":"q2","question":"b"}\n\n'), 2);
  });

  it('a pretty-printed multi-line JSON array', async () => {
    await expectQuestions(
      file(
        JSON.stringify(
          [
            { id: 'q1', question: 'a', tags: ['x'] },
            { id: 'q2', question: 'b', claims: [{ text: 't', verdict: 'SUPPORTED' }] },
          ],
          null,
          2,
        ),
        'json',
      ),
      2,
    );
  });

  it('all of them at once: BOM, CRLF, a pretty array, no final newline', async () => {
    await expectQuestions(file(Buffer.from(`\uFEFF${JSON.stringify([{ id: 'q1', question: 'a' }], null, 2).replace(/\n/g, '\r\n')}`, 'utf8'), 'json'), 1);
  });
});

describe('trec: bad files exit 2 naming file, line and column', () => {
  const QRELS_OK = 'q1 0 d1 1\n';
  const RUN_OK = 'q1 Q0 d1 1 0.5 t\n';

  async function trecFails(qrels: string, run: string) {
    const qrelsPath = file(qrels, 'qrels');
    const runPath = file(run, 'run');
    const result = await runMain(['trec', '--qrels', qrelsPath, '--run', runPath]);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr.startsWith(HEADER)).toBe(true);
    return { qrelsPath, runPath, message: result.stderr.slice(HEADER.length) };
  }

  it.each([
    ['too few columns', 'q1 Q0 d1 1 0.5\n', ':1:15: expected 6 columns (qid Q0 docno rank score tag), found 5'],
    ['a score "abc"', 'q1 Q0 d1 1 abc t\n', ':1:12: score: score "abc" is not a finite number'],
    ['a score "nan"', 'q1 Q0 d1 1 nan t\n', ':1:12: score: score "nan" is not a finite number'],
    ['a score "inf"', 'q1 Q0 d1 1 inf t\n', ':1:12: score: score "inf" is not a finite number'],
    [
      'a docno listed twice (names the first line)',
      'q1 Q0 d1 1 0.5 t\nq1 Q0 d2 2 0.4 t\nq1 Q0 d1 3 0.3 t\n',
      ':3:7: docno: document "d1" is listed twice for query "q1" (first on line 1)',
    ],
  ])('run with %s', async (_name, run, expected) => {
    const { runPath, message } = await trecFails(QRELS_OK, run);
    expect(message).toBe(`${runPath}${expected}\n`);
  });

  it.each([
    ['too few columns', 'q1 0 d1\n', ':1:8: expected 4 columns (qid iter docno rel), found 3'],
    ['a non-integer grade', 'q1 0 d1 0.5\n', ':1:9: rel: relevance grade "0.5" is not an integer'],
    ['a docno judged twice', 'q1 0 d1 1\nq1 0 d1 0\n', ':2:6: docno: document "d1" is judged twice for query "q1"'],
  ])('qrels with %s', async (_name, qrels, expected) => {
    const { qrelsPath, message } = await trecFails(qrels, RUN_OK);
    expect(message).toBe(`${qrelsPath}${expected}\n`);
  });

  it('an empty run', async () => {
    const { runPath, message } = await trecFails(QRELS_OK, '');
    expect(message).toBe(`${runPath}: the file is empty; expected lines of "qid Q0 docno rank score tag"\n`);
  });

  it('qrels of blank lines and comments only', async () => {
    const { qrelsPath, message } = await trecFails('\n# 0 note 1\n', RUN_OK);
    expect(message).toBe(`${qrelsPath}: the file holds only comments and blank lines; expected lines of "qid iter docno rel"\n`);
  });
});

describe('bad option values exit 2 with a helpful message', () => {
  const EXAMPLE = 'examples/results.jsonl';
  const TREC = ['--qrels', 'test/fixtures/trec-cli/small.qrels', '--run', 'test/fixtures/trec-cli/small.run'];

  it.each([
    [
      ['trec', ...TREC, '--metrics', 'ndcg@10,foo'],
      /option '--metrics <list>' argument 'ndcg@10,foo' is invalid\. unknown retrieval metric "foo"; use one of precision@k, recall\[@k\], hit@k, mrr\[@k\], map\[@k\], ndcg\[@k\], ndcg_exp\[@k\], r_precision/,
    ],
    [['trec', ...TREC, '--metrics', 'precision'], /metric "precision" needs a cut-off, for example "precision@10"/],
    [['trec', ...TREC, '--metrics', 'r_precision@10'], /metric "r_precision" takes no cut-off/],
    [['trec', ...TREC, '--metrics', ','], /give at least one metric/],
    [['trec', ...TREC, '--k', '0'], /option '--k <list>' argument '0' is invalid\. "0" is not a comma list of positive whole numbers/],
    [['eval', '--results', EXAMPLE, '--k', '1,x'], /"1,x" is not a comma list of positive whole numbers such as 1,3,5,10/],
    [['eval', '--results', EXAMPLE, '--k', '2.5'], /is not a comma list of positive whole numbers/],
    [['eval', '--results', EXAMPLE, '--k', ''], /is not a comma list of positive whole numbers/],
    [
      ['eval', '--results', EXAMPLE, '--retrieval-ok', 'recall@5'],
      /retrieval-ok rule "recall@5" needs a threshold, for example "recall@5>=0\.8" \(or use "hit@k"\)/,
    ],
    [['eval', '--results', EXAMPLE, '--retrieval-ok', 'recall@5>=high'], /the threshold must be a number, for example "recall@5>=0\.8"/],
    [['eval', '--results', EXAMPLE, '--retrieval-ok', 'recall@5>=0.5>=0.6'], /the threshold must be a number/],
    [['eval', '--results', EXAMPLE, '--retrieval-ok', 'hits@5'], /unknown retrieval metric "hits@5"/],
    [
      ['eval', '--results', EXAMPLE, '--correct', 'fuzzy'],
      /invalid correctness rule "fuzzy"; use "contains", "exact" or "f1:T" with 0 < T ≤ 1, e\.g\. "f1:0\.5"/,
    ],
    [['eval', '--results', EXAMPLE, '--correct', 'f1:1.5'], /invalid correctness rule "f1:1\.5"/],
    [['eval'], /no results to score: give --results FILE/],
    [['trec', '--qrels', 'x'], /required option '--run <file>' not specified/],
    [['evaluate'], /unknown command 'evaluate'/],
    [['eval', '--results', EXAMPLE, '--bogus'], /unknown option '--bogus'/],
  ])('%j', async (argv, message) => {
    const run = await runMain(argv);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(message);
  });
});

describe('through node dist/cli.js: the real exit code, stdout empty', () => {
  it.each([
    ['not JSON', 'nope\n', ':1: not valid JSON'],
    ['a duplicate id', '{"id":"a","question":"x"}\n{"id":"a","question":"y"}\n', ':2: id: duplicate id "a" (first on line 1)'],
    ['a NaN literal', '{"id":"a","question":"x","answer_relevance":NaN}\n', ':1: answer_relevance: NaN is not a number in JSON'],
    ['an empty file', '', ': the file holds no records'],
  ])('eval on a file with %s', (_name, content, expected) => {
    const path = file(content);
    const run = runBin(['eval', '--results', path, '--json']);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain(`${path}${expected}`);
  });

  it('eval on a file that does not exist', () => {
    const path = `${scratch.dir}/nope.jsonl`;
    const run = runBin(['eval', '--results', path]);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe(`${HEADER}${path}: cannot read: no such file\n`);
  });

  it('trec with a non-finite score', () => {
    const qrels = file('q1 0 d1 1\n', 'qrels');
    const runFile = file('q1 Q0 d1 1 nan t\n', 'run');
    const run = runBin(['trec', '--qrels', qrels, '--run', runFile]);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain(`${runFile}:1:12: score: score "nan" is not a finite number`);
  });

  it('trec with an unknown metric', () => {
    const run = runBin(['trec', '--qrels', 'test/fixtures/trec-cli/small.qrels', '--run', 'test/fixtures/trec-cli/small.run', '--metrics', 'bleu']);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain('unknown retrieval metric "bleu"');
  });

  it('eval with a bad --correct', () => {
    const run = runBin(['eval', '--results', 'examples/results.jsonl', '--correct', 'f1:0']);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain('invalid correctness rule "f1:0"');
  });
});
