import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseRecordJson } from '../../src/sources/record-json.js';
import { DuplicateKeyError } from '../../src/sources/unique-keys.js';

/** parseRecordJson must give exactly what JSON.parse gives, or throw the same error (for text without repeated keys). */
function same(text: string): void {
  let expected: unknown;
  let expectedError: string | undefined;
  try {
    expected = JSON.parse(text);
  } catch (error) {
    expectedError = (error as Error).message;
  }
  if (expectedError !== undefined) {
    expect(() => parseRecordJson(text)).toThrow(expectedError);
    return;
  }
  expect(parseRecordJson(text)).toStrictEqual(expected);
}

function thrown(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error('nothing was thrown');
}

describe('parseRecordJson', () => {
  it.each([
    ['compact', '{"id":"q1","question":"a","retrieved_ids":["d1","d2","d3"]}'],
    ['spaces as Python writes them', '{"id": "q1", "question": "a", "retrieved_ids": ["d1", "d2"], "cited_ids": ["d1"]}'],
    ['an empty list', '{"id":"q1","retrieved_ids":[]}'],
    ['both lifted keys', '{"retrieved_ids":["a"],"retrieved_context_ids":["b","c"]}'],
    ['both lifted keys, the first with long ids', '{"retrieved_ids":["doc-1873ec8aaa"],"retrieved_context_ids":["b","c"]}'],
    ['both lifted keys, the second first in the text', '{"retrieved_context_ids":["b","c"],"retrieved_ids":["a"]}'],
    ['the other spelling alone', '{"id":"q","retrieved_context_ids":["b","c"]}'],
    ['escapes in an id (falls back)', '{"retrieved_ids":["d\\"1","d\\\\2","\\u0064"]}'],
    ['a non-string element (falls back)', '{"retrieved_ids":["d1",2,null]}'],
    ['the key inside a string value', '{"question":"what is \\"retrieved_ids\\": [\\"x\\"] ?","retrieved_ids":["d1"]}'],
    ['the key in a nested object only', '{"meta":{"retrieved_ids":["x"]},"id":"q"}'],
    ['the key nested before the real one', '{"meta":{"retrieved_ids":["x"]},"retrieved_ids":[]}'],
    ['the key as a string value', '{"note":"retrieved_ids","retrieved_ids":["a"]}'],
    ['not an array value', '{"retrieved_ids":"d1"}'],
    ['unicode and long ids', `{"retrieved_ids":["é","\u{1F600}","${'x'.repeat(300)}"]}`],
    ['broken JSON after the list', '{"retrieved_ids":["a"],"question":}'],
    ['broken JSON inside the list', '{"retrieved_ids":["a",]}'],
    ['an unclosed list', '{"retrieved_ids":["a"'],
    ['a control character in an id', '{"retrieved_ids":["a\tb"]}'],
    ['top level is an array', '[{"retrieved_ids":["a"]}]'],
  ])('%s', (_, text) => same(text));

  it('returns ids as their own strings, in order, for a plain list', () => {
    const record = parseRecordJson('{"id": "q", "retrieved_ids": ["b", "a", "c"]}') as { retrieved_ids: string[] };
    expect(record.retrieved_ids).toEqual(['b', 'a', 'c']);
  });

  it.each([
    ['a lifted key twice', '{"retrieved_ids":["a"],"retrieved_ids":["b"]}', ['retrieved_ids'], 0],
    ['another key twice beside a lifted list', '{"id":"q","retrieved_ids":["a"],\n"id":"r"}', ['id'], 1],
    ['a grade twice', '{"retrieved_ids":["a"],"relevant_ids":{"a":1,"\\u0061":2}}', ['relevant_ids', 'a'], 0],
    ['a key twice deep in a list', '{"claims":[{},{"x":{"v":1,"v":2}}]}', ['claims', 1, 'x', 'v'], 0],
  ])('%s: a DuplicateKeyError with its path and line', (_, text, path, lineInText) => {
    expect(() => JSON.parse(text)).not.toThrow();
    const error = thrown(() => parseRecordJson(text));
    expect(error).toBeInstanceOf(DuplicateKeyError);
    expect(error).toMatchObject({ path, lineInText });
  });

  const text = fc.string({ unit: fc.constantFrom('a', 'b', '"', '\\', ' ', ',', '[', ']', '{', '}', ':', 'é', '\n') });
  const json = fc.jsonValue({ maxDepth: 3 });

  it('agrees with JSON.parse on random records built around id lists (property)', () => {
    fc.assert(
      fc.property(
        fc.dictionary(
          fc.constantFrom('id', 'question', 'retrieved_ids', 'retrieved_context_ids', 'meta', 'x'),
          fc.oneof(json, fc.array(fc.string()), fc.array(text)),
        ),
        fc.constantFrom(0, 2),
        (record, indent) => same(JSON.stringify(record, null, indent)),
      ),
      { numRuns: 3000 },
    );
  });

  it('agrees with JSON.parse on mangled text (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.string()), text, fc.nat(60), (ids, junk, at) => {
        const source = JSON.stringify({ id: 'q', retrieved_ids: ids, question: 'x' });
        const cut = Math.min(at, source.length);
        same(source.slice(0, cut) + junk + source.slice(cut));
      }),
      { numRuns: 3000 },
    );
  });

  /** JSON text of an object, with every object in it built from entries that may repeat a key. */
  interface Built {
    readonly text: string;
    /** The path to the first key given a second time in one object, in the order of the text. */
    readonly repeated: readonly (string | number)[] | undefined;
  }
  const key = fc.constantFrom('id', 'question', 'retrieved_ids', 'retrieved_context_ids', 'relevant_ids', 'judged_by', 'd1', '__proto__', 'a":', 'é', '');
  const space = fc.constantFrom('', ' ', '\n  ');
  const { object } = fc.letrec<{ value: Built; object: Built }>((tie) => ({
    value: fc.oneof(
      { depthSize: 'small' },
      fc
        .oneof(fc.string(), fc.integer(), fc.boolean(), fc.constant(null), fc.array(fc.string(), { maxLength: 4 }))
        .map((v) => ({ text: JSON.stringify(v), repeated: undefined })),
      tie('object'),
      fc.array(tie('value'), { maxLength: 4 }).map((items) => ({
        text: `[${items.map((item) => item.text).join(',')}]`,
        repeated: items.flatMap((item, i) => (item.repeated === undefined ? [] : [[i, ...item.repeated]]))[0],
      })),
    ),
    object: fc.array(fc.tuple(key, space, tie('value')), { maxLength: 6 }).map((entries) => {
      const seen = new Set<string>();
      let repeated: (string | number)[] | undefined;
      for (const [name, , item] of entries) {
        if (seen.has(name)) repeated ??= [name];
        else if (item.repeated !== undefined) repeated ??= [name, ...item.repeated];
        seen.add(name);
      }
      return { text: `{${entries.map(([name, gap, item]) => `${gap}${JSON.stringify(name)}:${gap}${item.text}`).join(',')}}`, repeated };
    }),
  }));

  it('agrees with JSON.parse on objects without repeated keys, and reports the first repeated key of the others (property)', () => {
    fc.assert(
      fc.property(object, ({ text, repeated }) => {
        if (repeated === undefined) {
          same(text);
          return;
        }
        const error = thrown(() => parseRecordJson(text));
        expect(error).toBeInstanceOf(DuplicateKeyError);
        expect((error as DuplicateKeyError).path).toEqual(repeated);
      }),
      { numRuns: 3000 },
    );
  });
});
