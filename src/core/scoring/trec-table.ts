import { DocnoIndex } from './docno-index.js';
import { QueryEntries, grownBytes, grownInt32 } from './query-entries.js';

/** Entries per storage block: 64 Ki entries, 1 MiB over the three columns plus the block's docno bytes. */
const BLOCK_BITS = 16;
const BLOCK_SIZE = 1 << BLOCK_BITS;
const BLOCK_MASK = BLOCK_SIZE - 1;

/**
 * An integer function of entry numbers that changes at a few of them: the value set at the last key at or before an
 * entry holds there. Keys are set in ascending order.
 */
class StepFunction {
  private keys: Int32Array = new Int32Array(16);
  private values: Int32Array = new Int32Array(16);
  private count = 0;

  /** From entry `key` on, the value is `value`. */
  set(key: number, value: number): void {
    this.keys = grownInt32(this.keys, this.count + 1);
    this.values = grownInt32(this.values, this.count + 1);
    this.keys[this.count] = key;
    this.values[this.count] = value;
    this.count++;
  }

  /** The value at entry `key`; `before` when no key is at or before it. */
  at(key: number, before: number): number {
    let low = 0;
    let high = this.count;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.keys[middle]! <= key) low = middle + 1;
      else high = middle;
    }
    return low === 0 ? before : this.values[low - 1]!;
  }
}

/** A docno listed twice for one query: where the second listing is, and the line of the first. */
export interface Duplicate {
  readonly qid: string;
  readonly docno: string;
  readonly line: number;
  readonly docnoColumn: number;
  readonly firstLine: number;
}

/**
 * Every entry of a file in file order, in blocks of BLOCK_SIZE entries: appending never copies a block, and at
 * most one block is partly filled. Entry e lives in block e >> BLOCK_BITS at e & BLOCK_MASK. A block's docnos lie
 * end to end in its own byte array; an entry keeps only where its docno ends (it starts where the previous one
 * ended).
 *
 * Lines are not stored per entry: entry e is on line e + 1 plus the lines before it that were not entries
 * (blank, comments, errors), a number kept only where it changes.
 */
class EntryStore {
  count = 0;
  private readonly valueBlocks: Float64Array[] = [];
  private readonly docnoEndBlocks: Int32Array[] = [];
  private readonly hashBlocks: Int32Array[] = [];
  /** The docno bytes of every full block, exactly as long as they need to be. */
  private readonly byteBlocks: Uint8Array[] = [];
  // The last block, where entries are appended; its docno bytes are in `bytes` until it is full.
  private values: Float64Array = new Float64Array(0);
  private docnoEnds: Int32Array = new Int32Array(0);
  private hashes: Int32Array = new Int32Array(0);
  private bytes: Uint8Array = new Uint8Array(1 << 16);
  private byteCount = 0;
  /** An entry's line is its number + 1 + its shift (0 until the lines first skip). */
  private readonly lineShifts = new StepFunction();
  /** The shift of the entry last appended. */
  private lineShift = 0;

  /** Appends `entries`, which were read from `lines` (ascending). */
  append(entries: QueryEntries, lines: Int32Array): void {
    for (let i = 0; i < entries.count;) {
      const at = this.count & BLOCK_MASK;
      if (at === 0) this.addBlock();
      const length = Math.min(entries.count - i, BLOCK_SIZE - at);
      const byteStart = entries.docnoStarts[i]!;
      const byteEnd = entries.docnoEnds[i + length - 1]!;
      this.bytes = grownBytes(this.bytes, this.byteCount + byteEnd - byteStart);
      this.bytes.set(entries.docnoBytes.subarray(byteStart, byteEnd), this.byteCount);
      this.values.set(entries.values.subarray(i, i + length), at);
      this.hashes.set(entries.docnoHashes.subarray(i, i + length), at);
      // Docno offsets move from the query's bytes to the block's.
      const shift = this.byteCount - byteStart;
      for (let j = 0; j < length; j++) this.docnoEnds[at + j] = entries.docnoEnds[i + j]! + shift;
      this.noteLines(lines, i, length);
      this.byteCount += byteEnd - byteStart;
      this.count += length;
      i += length;
    }
  }

  /** How many docno bytes entries [start, end) have; start < end (a stretch is never empty). */
  bytesOf(start: number, end: number): number {
    const last = end - 1;
    const first = start & BLOCK_MASK ? this.docnoEndBlocks[start >> BLOCK_BITS]![(start & BLOCK_MASK) - 1]! : 0;
    if (start >> BLOCK_BITS === last >> BLOCK_BITS) return this.docnoEndBlocks[last >> BLOCK_BITS]![last & BLOCK_MASK]! - first;
    let total = this.blockBytes(start >> BLOCK_BITS) - first;
    for (let block = (start >> BLOCK_BITS) + 1; block < last >> BLOCK_BITS; block++) total += this.blockBytes(block);
    return total + this.docnoEndBlocks[last >> BLOCK_BITS]![last & BLOCK_MASK]!;
  }

  /** Appends entries [start, end) to `into`, which has room for them and their docno bytes. */
  copyTo(start: number, end: number, into: QueryEntries): void {
    for (let from = start; from < end;) {
      const block = from >> BLOCK_BITS;
      const offset = from & BLOCK_MASK;
      const length = Math.min(end - from, BLOCK_SIZE - offset);
      const docnoEnds = this.docnoEndBlocks[block]!;
      const byteStart = offset === 0 ? 0 : docnoEnds[offset - 1]!;
      const byteEnd = docnoEnds[offset + length - 1]!;
      into.docnoBytes.set(this.blockByteArray(block).subarray(byteStart, byteEnd), into.byteCount);
      into.values.set(this.valueBlocks[block]!.subarray(offset, offset + length), into.count);
      into.docnoHashes.set(this.hashBlocks[block]!.subarray(offset, offset + length), into.count);
      // Docno offsets move from the block's bytes to the query's.
      const shift = into.byteCount - byteStart;
      let previousEnd = into.byteCount;
      for (let i = 0, to = into.count; i < length; i++, to++) {
        into.docnoStarts[to] = previousEnd;
        previousEnd = docnoEnds[offset + i]! + shift;
        into.docnoEnds[to] = previousEnd;
      }
      into.count += length;
      into.byteCount = previousEnd;
      from += length;
    }
  }

  /** The line entry e was read from. */
  line(e: number): number {
    return e + 1 + this.lineShifts.at(e, 0);
  }

  private blockByteArray(block: number): Uint8Array {
    return block < this.byteBlocks.length ? this.byteBlocks[block]! : this.bytes;
  }

  private blockBytes(block: number): number {
    return block < this.byteBlocks.length ? this.byteBlocks[block]!.length : this.byteCount;
  }

  /** Notes the lines of the `length` entries from `lines[from]`, appended as entries count, count + 1, … */
  private noteLines(lines: Int32Array, from: number, length: number): void {
    const first = lines[from]!;
    // Usually the lines follow one another, from the one expected: nothing to note.
    if (first === this.count + 1 + this.lineShift && lines[from + length - 1]! - first === length - 1) return;
    for (let j = 0; j < length; j++) {
      const e = this.count + j;
      const line = lines[from + j]!;
      if (line !== e + 1 + this.lineShift) this.shiftLines(e, line - e - 1);
    }
  }

  private shiftLines(e: number, shift: number): void {
    this.lineShifts.set(e, shift);
    this.lineShift = shift;
  }

  private addBlock(): void {
    // The full block's bytes move out of the reused buffer into an array of their exact size.
    if (this.count > 0) this.byteBlocks.push(this.bytes.slice(0, this.byteCount));
    this.byteCount = 0;
    this.values = new Float64Array(BLOCK_SIZE);
    this.docnoEnds = new Int32Array(BLOCK_SIZE);
    this.hashes = new Int32Array(BLOCK_SIZE);
    this.valueBlocks.push(this.values);
    this.docnoEndBlocks.push(this.docnoEnds);
    this.hashBlocks.push(this.hashes);
  }
}

/**
 * A qrels or run file in compact form: every entry in file order, and for each query (numbered in order of
 * first appearance) the stretches of consecutive entries it has. A query's lines need not be contiguous in the
 * file; usually they are, and a query is one stretch.
 */
export class TrecTable {
  constructor(
    readonly file: string,
    /** Query ids by query number. */
    readonly qids: readonly string[],
    private readonly queryNumbers: ReadonlyMap<string, number>,
    private readonly store: EntryStore,
    /** Entries per query. */
    private readonly sizes: Int32Array,
    /** Query q's stretches are [stretchStarts[s], stretchEnds[s]) for s in [firstStretch[q], firstStretch[q + 1]). */
    private readonly firstStretch: Int32Array,
    private readonly stretchStarts: Int32Array,
    private readonly stretchEnds: Int32Array,
  ) {}

  /** The number of the query with this id, or undefined when the file does not have it. */
  queryNumber(qid: string): number | undefined {
    return this.queryNumbers.get(qid);
  }

  /** How many bytes query q's docnos have in all: what `entries` copies. */
  docnoByteCount(q: number): number {
    let bytes = 0;
    for (let s = this.firstStretch[q]!; s < this.firstStretch[q + 1]!; s++) bytes += this.store.bytesOf(this.stretchStarts[s]!, this.stretchEnds[s]!);
    return bytes;
  }

  /** Copies query q's entries, in file order, into `into` (replacing what it held) and returns it. */
  entries(q: number, into: QueryEntries = new QueryEntries()): QueryEntries {
    into.reset(this.sizes[q]!, this.docnoByteCount(q));
    for (let s = this.firstStretch[q]!; s < this.firstStretch[q + 1]!; s++) this.store.copyTo(this.stretchStarts[s]!, this.stretchEnds[s]!, into);
    return into;
  }

  /** How many stretches query q has. */
  stretchCount(q: number): number {
    return this.firstStretch[q + 1]! - this.firstStretch[q]!;
  }

  /** The entry of the file that is query q's entry i (as `entries` numbers them). */
  fileEntry(q: number, i: number): number {
    let rest = i;
    for (let s = this.firstStretch[q]!; ; s++) {
      const length = this.stretchEnds[s]! - this.stretchStarts[s]!;
      if (rest < length) return this.stretchStarts[s]! + rest;
      rest -= length;
    }
  }

  /** The line the file's entry e was read from. */
  line(e: number): number {
    return this.store.line(e);
  }
}

/**
 * Collects a file's entries as they are read, then groups them by query (build). A docno listed twice for one
 * query is reported to `onDuplicate`: while reading, from a hash table of the current stretch of lines, when that
 * stretch is its query's first (so the first listing is in it too); once the file is read (build) for the later
 * stretches of a query whose lines are not contiguous.
 */
export class TrecTableBuilder {
  private readonly store = new EntryStore();
  private readonly qids: string[] = [];
  private readonly queryNumbers = new Map<string, number>();
  private sizes: Int32Array = new Int32Array(64);
  /** Stretches in file order: which query, and the entry each starts at. */
  private stretchQueries: Int32Array = new Int32Array(64);
  private stretchStarts: Int32Array = new Int32Array(64);
  private stretches = 0;
  private lastQuery = -1;
  /** The current stretch's entries and lines, until the next stretch starts; its docnos indexed while it is its query's first. */
  private readonly stretch = new QueryEntries();
  private stretchLines: Int32Array = new Int32Array(64);
  private readonly stretchDocnos = new DocnoIndex();
  private firstOfQuery = false;
  /** Per query: the entries of its first stretch. */
  private firstStretchSizes: Int32Array = new Int32Array(64);
  /** The docno columns of the file entries of later stretches, for duplicates found in build. */
  private readonly laterColumns = new StepFunction();

  constructor(private readonly onDuplicate: (duplicate: Duplicate) => void) {}

  /** The number of a query id, numbering it if it is new. */
  queryNumber(qid: string): number {
    let q = this.queryNumbers.get(qid);
    if (q === undefined) {
      q = this.qids.length;
      this.qids.push(qid);
      this.queryNumbers.set(qid, q);
      this.sizes = grownInt32(this.sizes, q + 1);
      this.firstStretchSizes = grownInt32(this.firstStretchSizes, q + 1);
    }
    return q;
  }

  /**
   * Appends an entry of query q (a number from queryNumber) whose docno is `bytes[start, end)`, read from `line`
   * (lines count from 1 and only grow) with the docno at `docnoColumn`.
   */
  add(q: number, bytes: Uint8Array, start: number, end: number, value: number, line: number, docnoColumn: number): void {
    if (q !== this.lastQuery) this.startStretch(q);
    const { stretch } = this;
    const i = stretch.count;
    stretch.push(bytes, start, end, value);
    if (i === this.stretchLines.length) this.stretchLines = grownInt32(this.stretchLines, i + 1);
    this.stretchLines[i] = line;
    this.sizes[q]!++;
    if (this.firstOfQuery) {
      this.firstStretchSizes[q]!++;
      const first = this.stretchDocnos.firstWithDocnoOf(i);
      if (first >= 0) this.onDuplicate({ qid: this.qids[q]!, docno: stretch.docno(i), line, docnoColumn, firstLine: this.stretchLines[first]! });
    } else {
      this.laterColumns.set(this.store.count + i, docnoColumn);
    }
  }

  private startStretch(q: number): void {
    this.endStretch();
    this.stretchQueries = grownInt32(this.stretchQueries, this.stretches + 1);
    this.stretchStarts = grownInt32(this.stretchStarts, this.stretches + 1);
    this.stretchQueries[this.stretches] = q;
    this.stretchStarts[this.stretches] = this.store.count;
    this.stretches++;
    this.lastQuery = q;
    this.firstOfQuery = this.sizes[q] === 0;
    if (this.firstOfQuery) this.stretchDocnos.reset(this.stretch, this.stretch.count);
    this.stretch.reset(0, 0);
  }

  private endStretch(): void {
    this.store.append(this.stretch, this.stretchLines);
  }

  /** The table: stretches sorted by query (a counting sort, keeping file order within a query). */
  build(file: string): TrecTable {
    this.endStretch();
    this.stretch.reset(0, 0);
    const queries = this.qids.length;
    const firstStretch = new Int32Array(queries + 1);
    for (let s = 0; s < this.stretches; s++) firstStretch[this.stretchQueries[s]! + 1]!++;
    for (let q = 0; q < queries; q++) firstStretch[q + 1]! += firstStretch[q]!;
    const next = firstStretch.slice(0, queries);
    const starts = new Int32Array(this.stretches);
    const ends = new Int32Array(this.stretches);
    for (let s = 0; s < this.stretches; s++) {
      const at = next[this.stretchQueries[s]!]!++;
      starts[at] = this.stretchStarts[s]!;
      ends[at] = s + 1 < this.stretches ? this.stretchStarts[s + 1]! : this.store.count;
    }
    const table = new TrecTable(file, this.qids, this.queryNumbers, this.store, this.sizes, firstStretch, starts, ends);
    this.findLaterDuplicates(table);
    return table;
  }

  /** Duplicates in the later stretches of queries whose lines are not contiguous: against all of the query's entries before. */
  private findLaterDuplicates(table: TrecTable): void {
    const query = new QueryEntries();
    const seen = new DocnoIndex();
    for (let q = 0; q < this.qids.length; q++) {
      if (table.stretchCount(q) === 1) continue;
      table.entries(q, query);
      seen.reset(query);
      for (let i = 0; i < query.count; i++) {
        const first = seen.firstWithDocnoOf(i);
        if (first < 0 || i < this.firstStretchSizes[q]!) continue;
        const e = table.fileEntry(q, i);
        const docnoColumn = this.laterColumns.at(e, 0);
        this.onDuplicate({ qid: this.qids[q]!, docno: query.docno(i), line: table.line(e), docnoColumn, firstLine: table.line(table.fileEntry(q, first)) });
      }
    }
  }
}
