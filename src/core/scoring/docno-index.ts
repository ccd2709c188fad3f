import { hashBytes } from './byte-dictionary.js';
import type { QueryEntries } from './trec-table.js';

/**
 * One query's docnos, found by their bytes: an open-addressing hash table (linear probing, at most half full)
 * from docno to the query's entry. A query has at most a few thousand entries, so the table stays in cache, which
 * a table of every docno in a collection (millions) cannot. Reused from query to query.
 */
export class DocnoIndex {
  /** A slot holds entry + 1; 0 marks an empty slot. */
  private slots: Int32Array = new Int32Array(1 << 10);
  private mask = 0;
  /** Per entry: the hash of its docno (to reject most other docnos without comparing bytes). */
  private hashes: Int32Array = new Int32Array(1 << 9);
  private entries: QueryEntries | undefined;

  /** Empties the index, to hold entries of `entries` (added with firstWithDocnoOf). */
  reset(entries: QueryEntries): void {
    const size = Math.max(16, 2 ** Math.ceil(Math.log2(entries.count * 2 + 1)));
    if (this.slots.length < size) this.slots = new Int32Array(size);
    else this.slots.fill(0, 0, size);
    if (this.hashes.length < entries.count) this.hashes = new Int32Array(size >> 1);
    this.mask = size - 1;
    this.entries = entries;
  }

  /** Indexes every entry of `entries` (whose docnos must be distinct), to look docnos up with `find`. */
  index(entries: QueryEntries): void {
    this.reset(entries);
    for (let i = 0; i < entries.count; i++) this.firstWithDocnoOf(i);
  }

  /**
   * The earlier entry (added before) that has entry i's docno, or −1 when none has, and then entry i is added.
   * Entries are added in order, so the earlier one is the first.
   */
  firstWithDocnoOf(i: number): number {
    const entries = this.entries!;
    const bytes = entries.docnoBytes;
    const start = entries.docnoStarts[i]!;
    const end = entries.docnoEnds[i]!;
    const hash = hashBytes(bytes, start, end);
    const { slots, mask } = this;
    let slot = hash & mask;
    for (; ; slot = (slot + 1) & mask) {
      const entry = slots[slot]! - 1;
      if (entry < 0) break;
      if (this.hashes[entry] === hash && this.sameDocno(entry, bytes, start, end)) return entry;
    }
    slots[slot] = i + 1;
    this.hashes[i] = hash;
    return -1;
  }

  /** The indexed entry whose docno is `bytes[start, end)`, or −1 when there is none. */
  find(bytes: Uint8Array, start: number, end: number): number {
    const hash = hashBytes(bytes, start, end);
    const { slots, mask } = this;
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const entry = slots[slot]! - 1;
      if (entry < 0) return -1;
      if (this.hashes[entry] === hash && this.sameDocno(entry, bytes, start, end)) return entry;
    }
  }

  private sameDocno(entry: number, bytes: Uint8Array, start: number, end: number): boolean {
    const entries = this.entries!;
    const own = entries.docnoBytes;
    const ownStart = entries.docnoStarts[entry]!;
    if (entries.docnoEnds[entry]! - ownStart !== end - start) return false;
    for (let i = start, j = ownStart; i < end; i++, j++) if (own[j] !== bytes[i]) return false;
    return true;
  }
}
