/** Byte classes for splitting a line into fields: a field byte, a blank between fields, or the line feed. */
const FIELD = 0;
const BLANK = 1;
const LINE_FEED = 2;

const SPACE = 0x20;

/** Space, tab, vertical tab, form feed and carriage return separate fields (C's isspace, as trec_eval reads). */
const BYTE_CLASS = new Uint8Array(256);
for (const blank of [0x20, 0x09, 0x0b, 0x0c, 0x0d]) BYTE_CLASS[blank] = BLANK;
BYTE_CLASS[0x0a] = LINE_FEED;

/**
 * The whitespace-separated fields of one line of raw bytes, as [start, end) offsets into the buffer, reused
 * from line to line so that splitting a line allocates nothing.
 */
export class LineFields {
  /** How many fields the line has, including any beyond the ones whose offsets are kept. */
  count = 0;
  /** Offset of the line's first byte. */
  lineStart = 0;
  /** Offset of the line's end: its line feed, or the carriage return before it. */
  contentEnd = 0;
  readonly starts: Int32Array;
  readonly ends: Int32Array;

  /** Keeps the offsets of the first `capacity` fields of each line. */
  constructor(readonly capacity: number) {
    this.starts = new Int32Array(capacity);
    this.ends = new Int32Array(capacity);
  }

  /**
   * Splits the line that starts at `start`; the bytes from there must contain a line feed (as every chunk from
   * readLineChunks does). Returns the offset just after that line feed, where the next line starts.
   */
  split(bytes: Uint8Array, start: number): number {
    const { starts, ends, capacity } = this;
    let count = 0;
    let i = start;
    for (;;) {
      let kind = BYTE_CLASS[bytes[i]!]!;
      while (kind === BLANK) kind = BYTE_CLASS[bytes[++i]!]!;
      if (kind === LINE_FEED) break;
      const fieldStart = i;
      // Bytes above the space are always field bytes; only the few at or below it need the table.
      let byte: number;
      do byte = bytes[++i]!;
      while (byte > SPACE || BYTE_CLASS[byte] === FIELD);
      if (count < capacity) {
        starts[count] = fieldStart;
        ends[count] = i;
      }
      count++;
    }
    this.count = count;
    this.lineStart = start;
    this.contentEnd = i > start && bytes[i - 1] === 0x0d ? i - 1 : i;
    return i + 1;
  }
}
