import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { evalConfig } from '../../src/core/compare/settings.js';
import { parseRetrievalOkRule } from '../../src/core/catalog/parse/retrieval-ok.js';
import { InputError, ProblemCollector } from '../../src/core/errors.js';
import { readLines, readLinesAt } from '../../src/sources/lines.js';
import { firstReadOf, readEvidence, readOutcomes } from '../../src/sources/outcomes.js';
import { idInText } from '../../src/sources/results.js';
import { jsonl, scratchDir } from '../helpers/cli.js';

const scratch = scratchDir();
afterAll(() => scratch.cleanup());

/** Settings as `compare` has them by default, with hit@5 as the retrieval-ok rule. */
const config = () =>
  evalConfig({
    k: [5],
    'retrieval-ok': parseRetrievalOkRule('hit@5'),
    correct: { kind: 'exact' },
    'relevance-level': 1,
    'ndcg-gains': new Map(),
  });

describe('idInText: a record id read without parsing, or undefined when the text does not settle it', () => {
  it('reads a plain string id and a whole-number id, wherever the key stands', () => {
    expect(idInText('{"id":"q-17","question":"Why?"}', ['id'])).toBe('q-17');
    expect(idInText('{"question":"Why?", "id" :  "q 17" }', ['id'])).toBe('q 17');
    expect(idInText('{"question":"Why?","id":42}', ['id'])).toBe('42');
    expect(idInText('{"id": -0 , "question":"Why?"}', ['id'])).toBe('0');
    expect(idInText('{"qid":"a","question":"id"}', ['qid'])).toBe('a');
  });

  it('leaves undecided what only a parse can settle', () => {
    // An escape sequence: a quote inside a string could fake a key.
    expect(idInText('{"id":"q1","answer":"say \\"id\\": \\"q2\\""}', ['id'])).toBeUndefined();
    // The key twice (a nested object's id, or two spellings mapped to it).
    expect(idInText('{"id":"q1","scores":{"id":1}}', ['id'])).toBeUndefined();
    expect(idInText('{"id":"q1","qid":"q2"}', ['id', 'qid'])).toBeUndefined();
    // Values that are not a plain string or whole number.
    expect(idInText('{"id":7.0}', ['id'])).toBeUndefined();
    expect(idInText('{"id":1e3}', ['id'])).toBeUndefined();
    expect(idInText('{"id":["q1"]}', ['id'])).toBeUndefined();
    expect(idInText('{"id":null}', ['id'])).toBeUndefined();
    // No id key at all.
    expect(idInText('{"question":"Why?"}', ['id'])).toBeUndefined();
  });

  it('takes the quoted name as a key only before a colon', () => {
    expect(idInText('{"tags":["id"],"id":"q1"}', ['id'])).toBe('q1');
    expect(idInText('{"answer":"id","tags":["x","id"]}', ['id'])).toBeUndefined();
    expect(idInText('{"paid":"q9","id":"q1"}', ['id'])).toBe('q1');
  });

  it('never disagrees with JSON.parse on a record with a top-level id', () => {
    const key = fc.constantFrom('id', 'question', 'answer', 'scores', 'tags', 'meta', 'x"id', 'i\\d');
    const value = fc.letrec((tie) => ({
      leaf: fc.oneof(fc.string(), fc.constantFrom('id', '"id":', 'id"', '\\'), fc.integer(), fc.double(), fc.boolean(), fc.constant(null)),
      node: fc.oneof({ depthSize: 'small' }, tie('leaf'), fc.array(tie('node'), { maxLength: 3 }), fc.dictionary(key, tie('node'), { maxKeys: 3 })),
    })).node;
    const id = fc.oneof(fc.string({ minLength: 1 }), fc.integer());
    fc.assert(
      fc.property(fc.dictionary(key, value, { maxKeys: 5 }), id, fc.nat(6), (rest, given, at) => {
        const entries = Object.entries(rest).filter(([name]) => name !== 'id');
        entries.splice(Math.min(at, entries.length), 0, ['id', given]);
        const text = JSON.stringify(Object.fromEntries(entries));
        const read = idInText(text, ['id']);
        if (read !== undefined) expect(read).toBe(String((JSON.parse(text) as { id: unknown }).id));
      }),
      { numRuns: 2_000 },
    );
  });
});

describe('readEvidence passes over the records of other questions', () => {
  const records = [
    { id: 'q1', question: 'One?', answer: 'a1', expected_answer: 'e1', retrieved_ids: ['d1', 'd2'], relevant_ids: ['d1'] },
    { id: 7, question: 'Seven?', answer: 'a7', retrieved_ids: ['d3'] },
    { id: 'q2', question: 'Say "id"?', answer: 'the "id": "q1" trick', scores: { id: 1 } },
    { id: 'q3', question: 'Three?', answer: 'a3', trace_url: 'https://trace.example/q3' },
  ];
  const path = scratch.file('evidence.jsonl', jsonl(records));

  it('finds the same evidence with the pass-over as with a full read', async () => {
    const ids = new Set(['q1', '7', 'q2']);
    const full = await readEvidence([path], ids, config(), { idsGiven: false });
    const passedOver = await readEvidence([path], ids, config(), { idsGiven: true });
    expect([...passedOver]).toEqual([...full]);
    expect(full.get('q1')).toEqual({ answer: 'a1', expectedAnswer: 'e1', top: ['d1', 'd2'] });
    expect(full.get('7')).toEqual({ answer: 'a7', top: ['d3'] });
    expect(full.get('q2')).toEqual({ answer: 'the "id": "q1" trick' });
    expect(full.has('q3')).toBe(false);
  });

  it('reads nothing but the ids of a file whose other records would not parse', async () => {
    // A second read meets lines that are not records only if the file changed since the first; passed-over lines
    // are not parsed at all, which is what makes the second read cheap.
    const changed = scratch.file('changed.jsonl', `${JSON.stringify(records[0])}\n{"id":"q9","answer": oops}\n`);
    expect((await readEvidence([changed], new Set(['q1']), config(), { idsGiven: true })).get('q1')).toMatchObject({ answer: 'a1' });
    await expect(readEvidence([changed], new Set(['q1']), config(), { idsGiven: false })).rejects.toThrow(/changed\.jsonl:2: not valid JSON/);
  });
});

describe('readEvidence reads only the lines of the listed questions', () => {
  const record = (id: string) => ({ id, question: `Question ${id}?`, answer: `answer ${id}`, retrieved_ids: [`d-${id}`], relevant_ids: [`d-${id}`] });

  it('notes each record’s file, line and bytes in the first read, blank lines, CR LF and a byte-order mark counted', async () => {
    const [a, b, c, d] = [record('a'), { ...record('b'), question: 'Qu’est-ce que « b » ?' }, record('c'), record('d')].map((r) => JSON.stringify(r)) as [
      string,
      string,
      string,
      string,
    ];
    const first = scratch.file('places-1.jsonl', `${a}\n\n${b}\n`);
    const second = scratch.file('places-2.jsonl', `\r\n${c}\r\n`);
    const third = scratch.file('places-3.jsonl', `\ufeff${d}`);
    const { places } = await readOutcomes([first, second, third], config());
    expect(places?.ids).toEqual(['a', 'b', 'c', 'd']);
    expect([...places!.files]).toEqual([0, 0, 1, 2]);
    expect([...places!.lines]).toEqual([1, 3, 2, 1]);
    const bytes = (text: string) => Buffer.byteLength(text);
    expect([...places!.offsets]).toEqual([0, bytes(a) + 2, 2, 3]);
    expect([...places!.byteLengths]).toEqual([bytes(a), bytes(b), bytes(c), bytes(d)]);
    expect(bytes(b)).toBeGreaterThan(b.length);
  });

  it('notes no places for a JSON array, a CSV file or repeated runs', async () => {
    const array = scratch.file('places.json', JSON.stringify([record('a'), record('b')]));
    const csv = scratch.file('places.csv', 'id,question,answer\na,Question a?,answer a\n');
    const repeats = scratch.file(
      'places-repeats.jsonl',
      jsonl([
        { ...record('a'), run: 1 },
        { ...record('a'), run: 2 },
      ]),
    );
    for (const file of [array, csv, repeats]) expect((await readOutcomes(file, config())).places).toBeUndefined();
    expect((await readOutcomes(scratch.file('places-one.jsonl', jsonl([record('a')])), config())).places).toBeDefined();
  });

  it('finds the same evidence as a full read, decoding no other line and opening no file without a listed question', async () => {
    const files = [
      scratch.file('listed-1.jsonl', jsonl([record('a'), record('b'), record('c')])),
      scratch.file('listed-2.jsonl', jsonl([record('d'), record('e')])),
      scratch.file('listed-3.jsonl', jsonl([record('f')])),
    ];
    const ids = new Set(['b', 'd', 'e']);
    const first = firstReadOf(await readOutcomes(files, config()));
    const full = await readEvidence(files, ids, config(), { idsGiven: false });
    expect(full.get('b')).toEqual({ answer: 'answer b', top: ['d-b'] });
    expect(await readEvidence(files, ids, config(), first)).toEqual(full);

    // The other lines may have become anything of their length since the first read, even two lines (so that the
    // listed records are no longer on the lines they were), and the file without a listed question may be gone:
    // only the bytes of the listed records are read.
    const garbled = (id: string) => `${'x'.repeat(JSON.stringify(record(id)).length - 2)}\nx`;
    const changed = [
      scratch.file('changed-1.jsonl', `${garbled('a')}\n${JSON.stringify(record('b'))}\n${garbled('c')}\n`),
      scratch.file('changed-2.jsonl', jsonl([record('d'), record('e')])),
      join(scratch.dir, 'gone.jsonl'),
    ];
    expect(await readEvidence(changed, ids, config(), first)).toEqual(full);
    await expect(readEvidence(changed, ids, config(), { idsGiven: true })).rejects.toThrow(/changed-1\.jsonl:1: not valid JSON/);
  });
});

describe('readLines and readLinesAt', () => {
  it('gives each line with where it is in the file, and reads those places back alone', async () => {
    const bytes = Buffer.concat([Buffer.from('\ufeffone\r\n'), Buffer.from([0xff, 0x0a]), Buffer.from('thrée\n\nfive')]);
    const file = scratch.file('lines-at.txt', bytes);
    const problems = new ProblemCollector();
    const read = [];
    for await (const line of readLines(file, problems)) read.push(line);
    expect(read.map(({ line, offset, byteLength }) => ({ line, offset, byteLength }))).toEqual([
      { line: 1, offset: 3, byteLength: 3 },
      { line: 2, offset: 8, byteLength: 1 },
      { line: 3, offset: 10, byteLength: 6 },
      { line: 4, offset: 17, byteLength: 0 },
      { line: 5, offset: 18, byteLength: 4 },
    ]);
    for (const { text, offset, byteLength, notUtf8 } of read) if (!notUtf8) expect(bytes.subarray(offset, offset! + byteLength!).toString()).toBe(text);
    expect(problems.count).toBe(1);

    const places = [read[0]!, read[2]!, read[4]!].map(({ line, offset, byteLength }) => ({ line, offset: offset!, byteLength: byteLength! }));
    const again = [];
    for await (const line of readLinesAt(file, places, new ProblemCollector())) again.push(line);
    expect(again).toEqual([read[0], read[2], read[4]]);
    // A line that is not UTF-8 is flagged as readLines flags it.
    const badProblems = new ProblemCollector();
    const bad = [];
    for await (const line of readLinesAt(file, [{ line: 2, offset: 8, byteLength: 1 }], badProblems)) bad.push(line);
    expect(bad).toEqual([read[1]]);
    expect(badProblems.count).toBe(1);
  });

  it('reads places far apart and lines longer than one read, in file order', async () => {
    const lines = ['a', 'b'.repeat(1_500_000), 'c', 'd'.repeat(1_200_000), 'e', 'f'];
    const file = scratch.file('lines-far.txt', `${lines.join('\n')}\n`);
    const all = [];
    for await (const line of readLines(file, new ProblemCollector())) all.push(line);
    const places = all.filter((_, i) => i !== 4).map(({ line, offset, byteLength }) => ({ line, offset: offset!, byteLength: byteLength! }));
    const again = [];
    for await (const line of readLinesAt(file, places, new ProblemCollector())) again.push(line.text);
    expect(again).toEqual(lines.filter((_, i) => i !== 4));
  });

  it('stops with an input error naming the file when it is shorter than the places read from it', async () => {
    const file = scratch.file('lines-short.txt', 'one\ntwo\n');
    const read = async () => {
      for await (const line of readLinesAt(file, [{ line: 3, offset: 8, byteLength: 5 }], new ProblemCollector())) void line;
    };
    const error = await read().then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(InputError);
    expect((error as InputError).problems).toEqual([{ file, message: 'is shorter than when it was first read; was it changed meanwhile?' }]);
  });
});
