import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseRecordJson } from '../../src/sources/record-json.js';

/** parseRecordJson must give exactly what JSON.parse gives, or throw the same error. */
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

describe('parseRecordJson', () => {
  it.each([
    ['compact', '{"id":"q1","question":"a","retrieved_ids":["d1","d2","d3"]}'],
    ['spaces as Python writes them', '{"id": "q1", "question": "a", "retrieved_ids": ["d1", "d2"], "cited_ids": ["d1"]}'],
    ['an empty list', '{"id":"q1","retrieved_ids":[]}'],
    ['both lifted keys', '{"retrieved_ids":["a"],"retrieved_context_ids":["b","c"]}'],
    ['escapes in an id (falls back)', '{"retrieved_ids":["d\\"1","d\\\\2","\\u0064"]}'],
    ['a non-string element (falls back)', '{"retrieved_ids":["d1",2,null]}'],
    ['the key inside a string value', '{"question":"what is \\"retrieved_ids\\": [\\"x\\"] ?","retrieved_ids":["d1"]}'],
    ['the key in a nested object only', '{"meta":{"retrieved_ids":["x"]},"id":"q"}'],
    ['the key nested before the real one', '{"meta":{"retrieved_ids":["x"]},"retrieved_ids":[]}'],
    ['the key twice (JSON.parse keeps the last)', '{"retrieved_ids":["a"],"retrieved_ids":["b"]}'],
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

  const text = fc.string({ unit: fc.constantFrom('a', 'b', '"', '\\', ' ', ',', '[', ']', '{', '}', ':', 'é', '\n') });
  const json = fc.jsonValue({ maxDepth: 3 });

  it('agrees with JSON.parse on random records built around id lists (property)', () => {
    fc.assert(
      fc.property(
        fc.dictionary(fc.constantFrom('id', 'question', 'retrieved_ids', 'retrieved_context_ids', 'meta', 'x'), fc.oneof(json, fc.array(fc.string()), fc.array(text))),
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
});
