import { open } from 'node:fs/promises';

/**
 * A part of a file read alone: it holds the lines whose first byte is in [start, end), the last of them read to its
 * end wherever that is, so that the ranges of one file hold each of its lines once.
 */
export interface ByteRange {
  readonly start: number;
  readonly end: number;
}

/** Whole lines of a file as raw bytes: `bytes[start, end)` holds complete lines, each ending in a line feed. */
interface LineChunk {
  readonly bytes: Buffer;
  readonly start: number;
  readonly end: number;
  /** Bytes of the file read so far, for progress reports. */
  readonly bytesRead: number;
  /** Where `bytes[0]` is in the file. */
  readonly offset: number;
}

const LINE_FEED = 0x0a;

/** 4 MiB: large enough that reads and chunk bookkeeping cost nothing next to parsing, small enough to stay in cache. */
export const CHUNK_BYTES = 1 << 22;

function startsWithByteOrderMark(bytes: Buffer, end: number): boolean {
  return end >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
}

/** A buffer twice as large holding the first `used` bytes of `buffer`: for a line longer than the buffer. */
function grown(buffer: Buffer, used: number): Buffer {
  const larger = Buffer.allocUnsafe(buffer.length * 2);
  buffer.copy(larger, 0, 0, used);
  return larger;
}

/**
 * Reads a file as chunks of whole lines, without decoding it: each read fills one reused buffer, the partial
 * line at its end is carried over to the start of the next read, and a final line without a line feed gets one.
 * A UTF-8 byte-order mark at the very start is skipped. Works on pipes as well as files (one pass, no seeking).
 *
 * The buffer is reused: a caller must be done with a chunk before asking for the next one.
 */
export async function* readLineChunks(file: string, chunkBytes = CHUNK_BYTES, range?: ByteRange): AsyncGenerator<LineChunk> {
  const handle = await open(file, 'r');
  try {
    let buffer: Buffer = Buffer.allocUnsafe(chunkBytes);
    let carried = 0;
    // A range starts reading one byte early: its first line is the one after the first line feed from there.
    const from = range === undefined ? 0 : Math.max(0, range.start - 1);
    let bytesRead = 0;
    let first = true;
    let skipPartial = range !== undefined && range.start > 0;
    for (;;) {
      if (carried === buffer.length) buffer = grown(buffer, carried);
      const position = range === undefined ? null : from + bytesRead;
      const { bytesRead: read } = await handle.read(buffer, carried, buffer.length - carried, position);
      bytesRead += read;
      let filled = carried + read;
      const offset = from + bytesRead - filled;
      const atEnd = read === 0;
      if (atEnd) {
        if (carried === 0) return;
        if (filled === buffer.length) buffer = grown(buffer, filled);
        buffer[filled++] = LINE_FEED;
      }
      const end = buffer.lastIndexOf(LINE_FEED, filled - 1) + 1;
      if (end === 0) {
        carried = filled;
        continue;
      }
      let start = first && offset === 0 && startsWithByteOrderMark(buffer, end) ? 3 : 0;
      first = false;
      // The partial line before the range belongs to the range before it.
      if (skipPartial) {
        start = buffer.indexOf(LINE_FEED) + 1;
        skipPartial = false;
      }
      yield { bytes: buffer, start, end, bytesRead, offset };
      if (atEnd) return;
      buffer.copy(buffer, 0, end, filled);
      carried = filled - end;
    }
  } finally {
    await handle.close();
  }
}
