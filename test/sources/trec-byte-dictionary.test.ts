import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ByteDictionary } from '../../src/core/scoring/byte-dictionary.js';

function intern(dictionary: ByteDictionary, text: string): number {
  const bytes = Buffer.from(`<${text}>`, 'utf8');
  return dictionary.intern(bytes, 1, bytes.length - 1);
}

describe('ByteDictionary', () => {
  it('gives each distinct byte string the next id, and the same id again when it comes back', () => {
    const dictionary = new ByteDictionary();
    expect(['b', 'a', 'b', '', 'ab', 'a'].map((text) => intern(dictionary, text))).toEqual([0, 1, 0, 2, 3, 1]);
    expect(dictionary.size).toBe(4);
    const bytes = (text: string) => Buffer.from(text, 'utf8');
    expect(['b', 'a', '', 'ab'].map((text, id) => dictionary.equals(id, bytes(text), 0, bytes(text).length))).toEqual([true, true, true, true]);
    expect(dictionary.equals(3, bytes('ba'), 0, 2)).toBe(false);
    // Neither a prefix of an id's string nor a longer string that begins with it is that string.
    expect(dictionary.equals(3, bytes('a'), 0, 1)).toBe(false);
    expect(dictionary.equals(1, bytes('ab'), 0, 2)).toBe(false);
  });

  it('keeps an id longer than twice its arena', () => {
    const dictionary = new ByteDictionary();
    const long = 'd'.repeat(200_000);
    expect([intern(dictionary, 'q1'), intern(dictionary, long), intern(dictionary, long)]).toEqual([0, 1, 1]);
    const bytes = Buffer.from(long, 'utf8');
    expect(dictionary.equals(1, bytes, 0, bytes.length)).toBe(true);
  });

  it('tells apart byte strings whose 32-bit hashes are equal', () => {
    // Known FNV-1a collisions: the finished hash is a bijection of FNV-1a's, so they share a table hash too.
    const dictionary = new ByteDictionary();
    const pairs = ['costarring', 'liquid', 'declinate', 'macallums', 'altarage', 'zinke'];
    expect(pairs.map((text) => intern(dictionary, text))).toEqual([0, 1, 2, 3, 4, 5]);
    expect(pairs.map((text) => intern(dictionary, text))).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it('keeps every id through many rehashes and arena growths', () => {
    const dictionary = new ByteDictionary();
    const texts = Array.from({ length: 50_000 }, (_, i) => `clueweb09-en${String(i * 7919).padStart(10, '0')}`);
    const ids = texts.map((text) => intern(dictionary, text));
    expect(ids).toEqual(texts.map((_, i) => i));
    expect(texts.map((text) => intern(dictionary, text))).toEqual(ids);
    expect(dictionary.size).toBe(texts.length);
    const bytes = Buffer.from(texts[12_345]!, 'utf8');
    expect(dictionary.equals(12_345, bytes, 0, bytes.length)).toBe(true);
  });

  it('keys on bytes: equal bytes share an id, different bytes never do (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: 'grapheme-ascii', maxLength: 4 }), { maxLength: 200 }), (texts) => {
        const dictionary = new ByteDictionary();
        const ids = texts.map((text) => intern(dictionary, text));
        const firstId = new Map<string, number>();
        texts.forEach((text, i) => {
          if (!firstId.has(text)) firstId.set(text, ids[i]!);
          expect(ids[i]).toBe(firstId.get(text));
        });
        expect(dictionary.size).toBe(firstId.size);
      }),
    );
  });
});
