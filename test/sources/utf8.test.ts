import { isUtf8 } from 'node:buffer';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { InputError, type InputProblem } from '../../src/core/errors.js';
import { readCalibrationRecord } from '../../src/judge/calibration.js';
import { readLabels } from '../../src/judge/labels.js';
import { readConfigFile } from '../../src/sources/config-file.js';
import { readGoldenIds } from '../../src/sources/golden.js';
import { CHUNK_BYTES } from '../../src/sources/line-chunks.js';
import { readResults } from '../../src/sources/results.js';
import { readQrelsTable, readRunTable } from '../../src/sources/trec.js';
import { firstBadByte } from '../../src/sources/utf8.js';
import { scratchDir } from '../helpers/cli.js';

const scratch = scratchDir();
afterAll(() => scratch.cleanup());

let counter = 0;
function file(content: Buffer | string, ext: string): string {
  counter++;
  return scratch.file(`bytes-${counter}.${ext}`, content);
}

async function problemsOf(read: (path: string) => Promise<unknown>, path: string): Promise<readonly InputProblem[]> {
  try {
    await read(path);
  } catch (error) {
    if (error instanceof InputError) return error.problems;
    throw error;
  }
  throw new Error(`${path} was accepted`);
}

const bytes = (...parts: (string | readonly number[] | Uint8Array)[]) =>
  Buffer.concat(parts.map((part) => (typeof part === 'string' ? Buffer.from(part) : Buffer.from(part))));

/** The problem a line that is not UTF-8 gets, its first bad byte at 1-based byte `column`. */
const notUtf8 = (file: string, line: number, column: number, byte: string): InputProblem => ({
  file,
  line,
  column,
  message: `not valid UTF-8 (byte ${byte} at byte ${column} of the line); save the file as UTF-8`,
});

describe('firstBadByte', () => {
  it.each([
    ['a stray continuation byte', [0x61, 0x80], 1],
    ['0xFF, never in UTF-8', [0x61, 0x62, 0xff], 2],
    ['an overlong encoding of "/"', [0xc0, 0xaf], 0],
    ['a surrogate', [0x61, 0xed, 0xa0, 0x80], 1],
    ['a code point above U+10FFFF', [0xf4, 0x90, 0x80, 0x80], 0],
    ['a sequence cut short by ASCII', [0xe2, 0x82, 0x41], 0],
    ['a sequence cut short by the end', [0x61, 0xf0, 0x9f, 0x98], 1],
    ['after a real U+FFFD', [0xef, 0xbf, 0xbd, 0x61, 0xfe], 4],
  ])('finds %s', (_name, input, offset) => {
    expect(firstBadByte(Buffer.from(input))).toBe(offset);
  });

  it('is -1 for UTF-8', () => {
    expect(firstBadByte(Buffer.from('plain, é, \u{1F600}, \uFFFD'))).toBe(-1);
  });

  it('points at the byte where UTF-8 stops: all before it is UTF-8, no character starts there (property)', () => {
    const byte = fc.oneof(fc.integer({ min: 0, max: 255 }), fc.constantFrom(0x80, 0xbf, 0xc2, 0xe0, 0xed, 0xef, 0xf0, 0xf4));
    const text = fc.string({ unit: 'grapheme' }).map((s) => [...Buffer.from(s)]);
    fc.assert(
      fc.property(fc.array(fc.oneof(text, fc.array(byte, { maxLength: 4 }))), (parts) => {
        const input = Buffer.from(parts.flat());
        const bad = firstBadByte(input);
        if (bad < 0) {
          expect(isUtf8(input)).toBe(true);
          return;
        }
        expect(isUtf8(input.subarray(0, bad))).toBe(true);
        for (let length = 1; length <= 4; length++) expect(isUtf8(input.subarray(bad, bad + length))).toBe(false);
      }),
      { numRuns: 2000 },
    );
  });
});

/** The line-by-line readers, each with a valid line that carries the given bytes in an id, and a line of padding. */
const streamingReaders = [
  {
    name: 'results (JSON Lines)',
    ext: 'jsonl',
    read: (path: string) => readResults(path, () => {}),
    line: (inner: Buffer, n: number) => bytes(`{"id":"q${n}","question":"a","retrieved_ids":["d`, inner, `"]}\n`),
    padding: (fill: string) => `{"id":"pad","question":"${fill}"}\n`,
  },
  {
    name: 'labels',
    ext: 'jsonl',
    read: readLabels,
    line: (inner: Buffer, n: number) => bytes(`{"id":"x${n}","claim":"c`, inner, `","context":"k","human_verdict":"SUPPORTED"}\n`),
    padding: (fill: string) => `{"id":"pad","claim":"${fill}","context":"k","human_verdict":"SUPPORTED"}\n`,
  },
  {
    name: 'TREC qrels',
    ext: 'qrels',
    read: (path: string) => readQrelsTable(path),
    line: (inner: Buffer, n: number) => bytes(`q${n} 0 d`, inner, ' 1\n'),
    padding: (fill: string) => `q0 0 ${fill} 1\n`,
  },
  {
    name: 'TREC run',
    ext: 'run',
    read: (path: string) => readRunTable(path),
    line: (inner: Buffer, n: number) => bytes(`q${n} Q0 d`, inner, ' 1 0.5 t\n'),
    padding: (fill: string) => `q0 Q0 ${fill} 1 0.5 t\n`,
  },
];

describe.each(streamingReaders)('$name: invalid UTF-8 is an error naming line and byte column', ({ ext, read, line, padding }) => {
  it('in any line, each reported, nothing replaced', async () => {
    const path = file(Buffer.concat([line(bytes('1'), 1), line(bytes([0xff]), 2), line(bytes('é'), 3), line(bytes('x', [0xc3, 0x28]), 4)]), ext);
    const ff = line(bytes([0xff]), 2).indexOf(0xff) + 1;
    const c3 = line(bytes('x', [0xc3, 0x28]), 4).indexOf(0xc3) + 1;
    expect(await problemsOf(read, path)).toEqual([notUtf8(path, 2, ff, '0xFF'), notUtf8(path, 4, c3, '0xC3')]);
  });

  it('after a byte-order mark, which is fine', async () => {
    await read(file(Buffer.concat([bytes([0xef, 0xbb, 0xbf]), line(bytes('é'), 1)]), ext));
    const path = file(Buffer.concat([bytes([0xef, 0xbb, 0xbf]), line(bytes([0xfe]), 1)]), ext);
    expect(await problemsOf(read, path)).toEqual([notUtf8(path, 1, line(bytes([0xfe]), 1).indexOf(0xfe) + 1, '0xFE')]);
  });

  /** A file whose second line has `inner` starting at the last byte of the first read. */
  const acrossFirstRead = (inner: Buffer) => {
    const second = line(inner, 2);
    const lengthBefore = CHUNK_BYTES - 1 - second.indexOf(inner);
    const first = padding('x'.repeat(lengthBefore - Buffer.byteLength(padding(''))));
    return Buffer.concat([Buffer.from(first), second, line(bytes('3'), 3)]);
  };

  it('a character split across two reads is read whole', async () => {
    const content = acrossFirstRead(bytes('é'));
    expect(content.indexOf(bytes('é'))).toBe(CHUNK_BYTES - 1);
    await read(file(content, ext));
  });

  it('a bad sequence split across two reads is found, at its first byte', async () => {
    const content = acrossFirstRead(bytes([0xe2, 0x41]));
    expect(content.indexOf(0xe2)).toBe(CHUNK_BYTES - 1);
    const path = file(content, ext);
    expect(await problemsOf(read, path)).toEqual([notUtf8(path, 2, line(bytes([0xe2, 0x41]), 2).indexOf(0xe2) + 1, '0xE2')]);
  });
});

describe('results: two ids that differ only in bytes that are not UTF-8 stay apart', () => {
  it.each([
    ['JSON Lines', 'jsonl', bytes('{"id":"q1","question":"a","retrieved_ids":["d', [0xff], '"],"relevant_ids":["d', [0xfe], '"]}\n'), 1],
    ['a JSON array', 'json', bytes('[\n  {"id":"q1","question":"a",\n   "retrieved_ids":["d', [0xff], '","d', [0xfe], '"]}\n]\n'), 3],
  ])('%s: an error, not hit@1 = 1 nor a duplicate id', async (_name, ext, content, line) => {
    const path = file(content, ext);
    const onRecord: unknown[] = [];
    const found = await problemsOf((p) => readResults(p, (record) => onRecord.push(record)), path);
    expect(found).toEqual([expect.objectContaining({ file: path, line, message: expect.stringMatching(/^not valid UTF-8 \(byte 0xFF/) as unknown })]);
    expect(onRecord).toEqual([]);
  });

  it('a JSON array reads on past a bad line, reporting the other problems', async () => {
    const path = file(bytes('[{"id":"q1","question":"', [0xff], '"},\n{"id":"q2"}]\n'), 'json');
    expect((await problemsOf((p) => readResults(p, () => {}), path)).map((p) => [p.line, p.field])).toEqual([
      [1, undefined],
      [2, 'question'],
    ]);
  });
});

describe('whole-file readers: invalid UTF-8 is an error naming line and byte column', () => {
  const calibration = (model: number[]) =>
    bytes(
      '{\n "model": "m',
      model,
      '",\n "promptVersion": "p", "kind": "faithfulness", "kappa": 0.7, "observed": 0.9, "expected": 0.5, "n": 10, "date": "x"\n}\n',
    );
  const config = (path: string) => readConfigFile(path, { required: true, tag: 'rag-gate' });
  const readers = { golden: readGoldenIds, config, calibration: readCalibrationRecord };

  it.each([
    ['golden ids as text', 'golden', 'txt', bytes('q1\nq', [0xff], '2\n'), 2, 2, '0xFF'],
    ['golden records as JSON Lines', 'golden', 'jsonl', bytes('{"id":"q1"}\n{"id":"q', [0x80], '"}\n'), 2, 9, '0x80'],
    ['golden records as a JSON array', 'golden', 'json', bytes('[{"id":"q1"},\n {"id":"', [0xf5], '"}]'), 2, 9, '0xF5'],
    ['the config file', 'config', 'yml', bytes('alpha: 0.05\nk: 5 # ', [0xfe], '\n'), 2, 8, '0xFE'],
    ['a calibration record', 'calibration', 'json', calibration([0xc0, 0xaf]), 2, 13, '0xC0'],
  ] as const)('%s', async (_name, reader, ext, content, line, column, byte) => {
    const path = file(content, ext);
    expect(await problemsOf(readers[reader], path)).toEqual([notUtf8(path, line, column, byte)]);
  });

  it('each after a byte-order mark, which is fine', async () => {
    const bom = [0xef, 0xbb, 0xbf];
    expect(await readGoldenIds(file(bytes(bom, '[{"id":"é"}]'), 'json'))).toEqual(new Set(['é']));
    expect((await config(file(bytes(bom, 'alpha: 0.01\n'), 'yml'))).top.get('alpha')?.text).toBe('0.01');
    expect((await readCalibrationRecord(file(bytes(bom, calibration([0xc3, 0xa9])), 'json'))).model).toBe('mé');
    const path = file(bytes(bom, 'q', [0xff], '\n'), 'txt');
    expect(await problemsOf(readGoldenIds, path)).toEqual([notUtf8(path, 1, 2, '0xFF')]);
  });
});
