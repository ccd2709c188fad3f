import type { ByteDictionary } from './byte-dictionary.js';

/** Entries per storage block: 64 Ki entries, 1.25 MiB over the four columns. */
const BLOCK_BITS = 16;
const BLOCK_SIZE = 1 << BLOCK_BITS;
const BLOCK_MASK = BLOCK_SIZE - 1;

/** A grown copy of an Int32Array holding at least `length` elements (contents kept). */
function grownInt32(array: Int32Array, length: number): Int32Array {
  if (array.length >= length) return array;
  const grown = new Int32Array(Math.max(length, array.length * 2));
  grown.set(array);
  return grown;
}

function grownFloat64(array: Float64Array, length: number): Float64Array {
  if (array.length >= length) return array;
  const grown = new Float64Array(Math.max(length, array.length * 2));
  grown.set(array);
  return grown;
}

function copyInt32(from: Int32Array, fromOffset: number, to: Int32Array, toOffset: number, length: number): void {
  for (let i = 0; i < length; i++) to[toOffset + i] = from[fromOffset + i]!;
}

function copyFloat64(from: Float64Array, fromOffset: number, to: Float64Array, toOffset: number, length: number): void {
  for (let i = 0; i < length; i++) to[toOffset + i] = from[fromOffset + i]!;
}

/**
 * One query's entries (lines) as parallel typed arrays: document id (from a ByteDictionary), value (the grade in
 * qrels, the score in a run), and where the line was (line and docno column, to name both lines of a duplicate).
 * Entries [0, count) are in use. Reused from query to query: TrecTable.entries copies a query into one.
 */
export class QueryEntries {
  count = 0;
  docIds: Int32Array = new Int32Array(64);
  values: Float64Array = new Float64Array(64);
  lines: Int32Array = new Int32Array(64);
  docnoColumns: Int32Array = new Int32Array(64);

  /** Empties the entries and makes room for `length` of them. */
  reset(length: number): void {
    this.count = 0;
    this.docIds = grownInt32(this.docIds, length);
    this.values = grownFloat64(this.values, length);
    this.lines = grownInt32(this.lines, length);
    this.docnoColumns = grownInt32(this.docnoColumns, length);
  }

  push(docId: number, value: number, line: number, docnoColumn: number): void {
    if (this.count === this.docIds.length) this.grow();
    const i = this.count++;
    this.docIds[i] = docId;
    this.values[i] = value;
    this.lines[i] = line;
    this.docnoColumns[i] = docnoColumn;
  }

  private grow(): void {
    const length = this.count * 2;
    this.docIds = grownInt32(this.docIds, length);
    this.values = grownFloat64(this.values, length);
    this.lines = grownInt32(this.lines, length);
    this.docnoColumns = grownInt32(this.docnoColumns, length);
  }
}

/**
 * Every entry of a file in file order, in blocks of BLOCK_SIZE entries per column: appending never copies, and
 * at most one block is partly empty. Entry e lives in block e >> BLOCK_BITS at e & BLOCK_MASK.
 */
class EntryStore {
  count = 0;
  private readonly docIdBlocks: Int32Array[] = [];
  private readonly valueBlocks: Float64Array[] = [];
  private readonly lineBlocks: Int32Array[] = [];
  private readonly columnBlocks: Int32Array[] = [];
  // The last block of each column, where entries are appended.
  private docIds: Int32Array = new Int32Array(0);
  private values: Float64Array = new Float64Array(0);
  private lines: Int32Array = new Int32Array(0);
  private columns: Int32Array = new Int32Array(0);

  push(docId: number, value: number, line: number, docnoColumn: number): void {
    const at = this.count & BLOCK_MASK;
    if (at === 0) this.addBlock();
    this.docIds[at] = docId;
    this.values[at] = value;
    this.lines[at] = line;
    this.columns[at] = docnoColumn;
    this.count++;
  }

  /**
   * Appends entries [start, end) to `into`, which has room for them; their lines and columns only if asked.
   * Element by element: stretches are often short, and then this beats creating views to copy from.
   */
  copyTo(start: number, end: number, into: QueryEntries, withLocations: boolean): void {
    for (let from = start; from < end;) {
      const block = from >> BLOCK_BITS;
      const offset = from & BLOCK_MASK;
      const length = Math.min(end - from, BLOCK_SIZE - offset);
      copyInt32(this.docIdBlocks[block]!, offset, into.docIds, into.count, length);
      copyFloat64(this.valueBlocks[block]!, offset, into.values, into.count, length);
      if (withLocations) {
        copyInt32(this.lineBlocks[block]!, offset, into.lines, into.count, length);
        copyInt32(this.columnBlocks[block]!, offset, into.docnoColumns, into.count, length);
      }
      into.count += length;
      from += length;
    }
  }

  private addBlock(): void {
    this.docIds = new Int32Array(BLOCK_SIZE);
    this.values = new Float64Array(BLOCK_SIZE);
    this.lines = new Int32Array(BLOCK_SIZE);
    this.columns = new Int32Array(BLOCK_SIZE);
    this.docIdBlocks.push(this.docIds);
    this.valueBlocks.push(this.values);
    this.lineBlocks.push(this.lines);
    this.columnBlocks.push(this.columns);
  }
}

/**
 * A qrels or run file in compact form: every entry in file order, and for each query (numbered in order of
 * first appearance) the stretches of consecutive entries it has. A query's lines need not be contiguous in the
 * file; usually they are, and a query is one stretch. Document ids refer to `docnos`, which qrels and run share
 * when they are read for one evaluation.
 */
export class TrecTable {
  constructor(
    readonly file: string,
    readonly docnos: ByteDictionary,
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

  /**
   * Copies query q's entries, in file order, into `into` (replacing what it held) and returns it. Lines and
   * docno columns are copied only `withLocations` (they are for messages); otherwise `into` holds stale ones.
   */
  entries(q: number, into: QueryEntries = new QueryEntries(), withLocations = false): QueryEntries {
    into.reset(this.sizes[q]!);
    for (let s = this.firstStretch[q]!; s < this.firstStretch[q + 1]!; s++) {
      this.store.copyTo(this.stretchStarts[s]!, this.stretchEnds[s]!, into, withLocations);
    }
    return into;
  }
}

/** Collects a file's entries as they are read, then groups them by query (build). */
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

  /** The number of a query id, numbering it if it is new. */
  queryNumber(qid: string): number {
    let q = this.queryNumbers.get(qid);
    if (q === undefined) {
      q = this.qids.length;
      this.qids.push(qid);
      this.queryNumbers.set(qid, q);
      this.sizes = grownInt32(this.sizes, q + 1);
    }
    return q;
  }

  /** Appends an entry of query q (a number from queryNumber). */
  add(q: number, docId: number, value: number, line: number, docnoColumn: number): void {
    if (q !== this.lastQuery) this.startStretch(q);
    this.sizes[q]!++;
    this.store.push(docId, value, line, docnoColumn);
  }

  private startStretch(q: number): void {
    this.stretchQueries = grownInt32(this.stretchQueries, this.stretches + 1);
    this.stretchStarts = grownInt32(this.stretchStarts, this.stretches + 1);
    this.stretchQueries[this.stretches] = q;
    this.stretchStarts[this.stretches] = this.store.count;
    this.stretches++;
    this.lastQuery = q;
  }

  /** The table: stretches sorted by query (a counting sort, keeping file order within a query). */
  build(file: string, docnos: ByteDictionary): TrecTable {
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
    return new TrecTable(file, docnos, this.qids, this.queryNumbers, this.store, this.sizes, firstStretch, starts, ends);
  }
}
