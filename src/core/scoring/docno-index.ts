import type { QueryEntries } from './query-entries.js';

const MIN_SLOTS = 16;

/** The power of two that keeps `count` entries at most half a table. */
function slotsFor(count: number): number {
  let slots = MIN_SLOTS;
  while (slots < count * 2) slots *= 2;
  return slots;
}

/**
 * One query's docnos, found by their bytes: an open-addressing hash table (linear probing, at most half full)
 * from docno to the query's entry, using the hashes QueryEntries keeps. A query has at most a few thousand
 * entries, so the table stays in cache, which a table of every docno in a collection (millions) cannot. Reused
 * from query to query.
 */
export class DocnoIndex {
  /** A slot holds entry + 1; 0 marks an empty slot. Only the first `mask + 1` slots are in use. */
  private slots: Int32Array = new Int32Array(MIN_SLOTS);
  private mask = MIN_SLOTS - 1;
  private added = 0;
  private entries: QueryEntries | undefined;

  /** The slots in use: a power of two, at least twice the entries (which keeps probes short). */
  get slotCount(): number {
    return this.mask + 1;
  }

  /**
   * Empties the index, to hold entries of `entries`, added in order with firstWithDocnoOf; `expected` of them
   * fit without growing the table.
   */
  reset(entries: QueryEntries, expected = entries.count): void {
    const size = slotsFor(expected);
    if (this.slots.length < size) this.slots = new Int32Array(size);
    else this.slots.fill(0, 0, size);
    this.mask = size - 1;
    this.added = 0;
    this.entries = entries;
  }

  /** Indexes every entry of `entries` (whose docnos must be distinct), to look docnos up with `find`. */
  index(entries: QueryEntries): void {
    this.reset(entries);
    for (let i = 0; i < entries.count; i++) this.firstWithDocnoOf(i);
  }

  /**
   * The earlier entry that has entry i's docno, or −1 when none has, and then entry i is added. Entries are
   * added in order, 0, 1, 2, …, so the earlier one is the first with that docno.
   */
  firstWithDocnoOf(i: number): number {
    const entries = this.entries!;
    const hash = entries.docnoHashes[i]!;
    const { slots, mask } = this;
    let slot = hash & mask;
    for (; ; slot = (slot + 1) & mask) {
      const entry = slots[slot]! - 1;
      if (entry < 0) break;
      if (entries.docnoHashes[entry] === hash && sameDocno(entries, entry, entries, i)) return entry;
    }
    slots[slot] = i + 1;
    this.added = i + 1;
    if (this.added * 2 > mask + 1) this.grow();
    return -1;
  }

  /** The indexed entry with the docno of `other`'s entry i, or −1 when there is none. */
  find(other: QueryEntries, i: number): number {
    const entries = this.entries!;
    const hash = other.docnoHashes[i]!;
    const { slots, mask } = this;
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const entry = slots[slot]! - 1;
      if (entry < 0) return -1;
      if (entries.docnoHashes[entry] === hash && sameDocno(entries, entry, other, i)) return entry;
    }
  }

  /** Doubles the table and puts every entry back in its slot. */
  private grow(): void {
    const size = (this.mask + 1) * 2;
    const slots = this.slots.length >= size ? this.slots.fill(0, 0, size) : new Int32Array(size);
    const hashes = this.entries!.docnoHashes;
    const mask = size - 1;
    for (let entry = 0; entry < this.added; entry++) {
      let slot = hashes[entry]! & mask;
      while (slots[slot] !== 0) slot = (slot + 1) & mask;
      slots[slot] = entry + 1;
    }
    this.slots = slots;
    this.mask = mask;
  }
}

/** Whether a's entry i and b's entry j have the same docno bytes. */
function sameDocno(a: QueryEntries, i: number, b: QueryEntries, j: number): boolean {
  const aStart = a.docnoStarts[i]!;
  const bStart = b.docnoStarts[j]!;
  const length = a.docnoEnds[i]! - aStart;
  if (b.docnoEnds[j]! - bStart !== length) return false;
  const aBytes = a.docnoBytes;
  const bBytes = b.docnoBytes;
  for (let k = 0; k < length; k++) if (aBytes[aStart + k] !== bBytes[bStart + k]) return false;
  return true;
}
