import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DocnoIndex } from '../../../src/core/scoring/docno-index.js';
import { QueryEntries } from '../../../src/core/scoring/query-entries.js';

/** Entries with these docnos (values 0, 1, 2, …), each read from between other bytes, as a reader copies them. */
function entriesOf(docnos: readonly string[]): QueryEntries {
  const entries = new QueryEntries();
  docnos.forEach((docno, i) => {
    const bytes = Buffer.from(`<${docno}>`, 'utf8');
    entries.push(bytes, 1, bytes.length - 1, i);
  });
  return entries;
}

/** Every docno's hash made the same, so that only the byte comparison tells docnos apart. */
function colliding(entries: QueryEntries): QueryEntries {
  entries.docnoHashes.fill(0);
  return entries;
}

const docnoArb = fc.string({ unit: fc.constantFrom('a', 'b', 'é', '\u{1F600}', '1'), maxLength: 3 });

describe('QueryEntries', () => {
  it('keeps each docno as its bytes and compares them in byte order, as strcmp (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: 'binary', maxLength: 6 }), { minLength: 2, maxLength: 20 }), (docnos) => {
        const entries = entriesOf(docnos);
        docnos.forEach((docno, i) => expect(entries.docno(i)).toBe(docno));
        for (let i = 0; i < docnos.length; i++) {
          for (let j = 0; j < docnos.length; j++) {
            const expected = Math.sign(Buffer.compare(Buffer.from(docnos[i]!, 'utf8'), Buffer.from(docnos[j]!, 'utf8')));
            expect(Math.sign(entries.compareDocnos(i, j))).toBe(expected);
          }
        }
      }),
      { numRuns: 300 },
    );
  });

  it('gives equal docnos equal hashes, read from anywhere', () => {
    const entries = entriesOf(['doc-1', 'doc-2', 'doc-1']);
    expect(entries.docnoHashes[0]).toBe(entries.docnoHashes[2]);
    expect(entries.docnoHashes[0]).not.toBe(entries.docnoHashes[1]);
  });
});

describe('DocnoIndex', () => {
  it('finds the first earlier entry with the same docno, growing as entries come (property)', () => {
    fc.assert(
      // At least 40 entries against at most 32 expected: the table (sized for 64) must grow while entries come.
      fc.property(fc.array(docnoArb, { minLength: 40, maxLength: 300 }), fc.boolean(), fc.nat(32), (docnos, collide, expected) => {
        const entries = entriesOf(docnos);
        if (collide) colliding(entries);
        const index = new DocnoIndex();
        index.reset(entries, expected);
        docnos.forEach((docno, i) => expect(index.firstWithDocnoOf(i)).toBe(docnos.indexOf(docno) === i ? -1 : docnos.indexOf(docno)));
      }),
    );
  });

  it("finds another query's docnos among the indexed ones by their bytes (property)", () => {
    fc.assert(
      fc.property(fc.uniqueArray(docnoArb, { maxLength: 100 }), fc.array(docnoArb, { maxLength: 100 }), (judged, retrieved) => {
        const index = new DocnoIndex();
        index.index(entriesOf(judged));
        const run = entriesOf(retrieved);
        retrieved.forEach((docno, i) => expect(index.find(run, i)).toBe(judged.indexOf(docno)));
      }),
    );
    const judged = colliding(entriesOf(['ab', 'ba', 'a']));
    const index = new DocnoIndex();
    index.index(judged);
    const run = colliding(entriesOf(['a', 'b', 'ba', 'ab', '']));
    expect([0, 1, 2, 3, 4].map((i) => index.find(run, i))).toEqual([2, -1, 1, 0, -1]);
  });

  it('keeps at least twice as many slots as entries, a power of two, doubling when more than half are taken', () => {
    const index = new DocnoIndex();
    expect(index.slotCount).toBe(16);
    const sizes = [0, 8, 9, 16, 17, 100].map((expected) => {
      index.reset(entriesOf([]), expected);
      return index.slotCount;
    });
    expect(sizes).toEqual([16, 16, 32, 32, 64, 256]);
    const entries = entriesOf(Array.from({ length: 40 }, (_, i) => `d${i}`));
    index.reset(entries, 0);
    const slotsAfter = Array.from({ length: 40 }, (_, i) => {
      index.firstWithDocnoOf(i);
      return index.slotCount;
    });
    // 16 slots hold 8 entries; the 9th doubles them, the 17th again, the 33rd again.
    expect([slotsAfter[7], slotsAfter[8], slotsAfter[15], slotsAfter[16], slotsAfter[31], slotsAfter[32]]).toEqual([16, 32, 32, 64, 64, 128]);
  });

  it('is reused from query to query: a reset forgets what was indexed', () => {
    const index = new DocnoIndex();
    index.index(entriesOf(Array.from({ length: 500 }, (_, i) => `d${i}`)));
    const next = entriesOf(['d1', 'd2', 'd1']);
    index.reset(next, 0);
    expect([0, 1, 2].map((i) => index.firstWithDocnoOf(i))).toEqual([-1, -1, 0]);
  });
});
