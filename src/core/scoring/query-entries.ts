import { EMPTY_HASH, finishHash, hashStep } from './byte-dictionary.js';

const utf8 = new TextDecoder();

/** A grown copy of an Int32Array holding at least `length` elements (contents kept). */
export function grownInt32(array: Int32Array, length: number): Int32Array {
  if (array.length >= length) return array;
  const grown = new Int32Array(Math.max(length, array.length * 2));
  grown.set(array);
  return grown;
}

export function grownFloat64(array: Float64Array, length: number): Float64Array {
  if (array.length >= length) return array;
  const grown = new Float64Array(Math.max(length, array.length * 2));
  grown.set(array);
  return grown;
}

export function grownBytes(array: Uint8Array, length: number): Uint8Array {
  if (array.length >= length) return array;
  const grown = new Uint8Array(Math.max(length, array.length * 2));
  grown.set(array);
  return grown;
}

/**
 * One query's entries (lines) as parallel arrays: the value (the grade in qrels, the score in a run) and the
 * docno, as the bytes [docnoStarts[i], docnoEnds[i]) of `docnoBytes`, with their hash (hashBytes), computed once
 * as they are read. Docnos are kept as bytes, not ids: a document is its bytes, the same in the qrels and the
 * run, and only matters within its query (DocnoIndex). Entries [0, count) are in use. Reused from query to
 * query: TrecTable.entries copies a query into one.
 */
export class QueryEntries {
  count = 0;
  values: Float64Array = new Float64Array(64);
  docnoStarts: Int32Array = new Int32Array(64);
  docnoEnds: Int32Array = new Int32Array(64);
  docnoHashes: Int32Array = new Int32Array(64);
  docnoBytes: Uint8Array = new Uint8Array(1024);
  /** Bytes of docnoBytes in use. */
  byteCount = 0;

  /** Empties the entries and makes room for `length` of them with `byteLength` docno bytes in all. */
  reset(length: number, byteLength: number): void {
    this.count = 0;
    this.byteCount = 0;
    this.values = grownFloat64(this.values, length);
    this.docnoStarts = grownInt32(this.docnoStarts, length);
    this.docnoEnds = grownInt32(this.docnoEnds, length);
    this.docnoHashes = grownInt32(this.docnoHashes, length);
    this.docnoBytes = grownBytes(this.docnoBytes, byteLength);
  }

  /** Appends an entry whose docno is `bytes[start, end)`. */
  push(bytes: Uint8Array, start: number, end: number, value: number): void {
    const i = this.count++;
    if (i === this.values.length) {
      this.values = grownFloat64(this.values, i + 1);
      this.docnoStarts = grownInt32(this.docnoStarts, i + 1);
      this.docnoEnds = grownInt32(this.docnoEnds, i + 1);
      this.docnoHashes = grownInt32(this.docnoHashes, i + 1);
    }
    if (this.byteCount + end - start > this.docnoBytes.length) this.docnoBytes = grownBytes(this.docnoBytes, this.byteCount + end - start);
    const into = this.docnoBytes;
    this.values[i] = value;
    this.docnoStarts[i] = this.byteCount;
    // Byte by byte, hashing as it copies: docnos are short, and a loop beats making a view to copy from.
    let to = this.byteCount;
    let hash = EMPTY_HASH;
    for (let from = start; from < end; from++) {
      const byte = bytes[from]!;
      into[to++] = byte;
      hash = hashStep(hash, byte);
    }
    this.byteCount = to;
    this.docnoEnds[i] = to;
    this.docnoHashes[i] = finishHash(hash);
  }

  /** Entry i's docno, decoded as UTF-8 (for messages and for callers that want strings). */
  docno(i: number): string {
    return utf8.decode(this.docnoBytes.subarray(this.docnoStarts[i]!, this.docnoEnds[i]!));
  }

  /** Byte order of entries a's and b's docnos (negative, 0, positive), as C's strcmp: trec_eval's tie order. */
  compareDocnos(a: number, b: number): number {
    const bytes = this.docnoBytes;
    const aStart = this.docnoStarts[a]!;
    const aLength = this.docnoEnds[a]! - aStart;
    const bStart = this.docnoStarts[b]!;
    const bLength = this.docnoEnds[b]! - bStart;
    const common = Math.min(aLength, bLength);
    for (let i = 0; i < common; i++) {
      const difference = bytes[aStart + i]! - bytes[bStart + i]!;
      if (difference !== 0) return difference;
    }
    return aLength - bLength;
  }
}
