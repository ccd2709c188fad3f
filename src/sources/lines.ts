import { open } from 'node:fs/promises';
import { isAscii, isUtf8 } from 'node:buffer';
import { InputError, type ProblemCollector } from '../core/errors.js';
import { type ByteRange, CHUNK_BYTES, readLineChunks } from './line-chunks.js';
import { firstBadByte, notUtf8Problem } from './utf8.js';

/** Where a line's text is in its file: its first byte, and how many bytes it has before its line end. */
export interface LineBytes {
  readonly offset: number;
  readonly byteLength: number;
}

/** A line of a text file with its 1-based number. */
export interface NumberedLine extends Partial<LineBytes> {
  readonly text: string;
  readonly line: number;
  /**
   * The line is not UTF-8 (and reported as such): its text has U+FFFD for the bad bytes, only so that reading
   * can go on to find other problems. Nothing in it may be taken as data.
   */
  readonly notUtf8: boolean;
}

/** A line the caller read before: its number and its bytes. */
export interface LinePlace extends LineBytes {
  readonly line: number;
}

/** Told, now and then, how many lines and bytes of a file have been read (for a progress line). */
export type ReadProgress = (records: number, bytes: number) => void;

/** Lines between two progress reports. */
const PROGRESS_EVERY = 4096;

const LINE_FEED = 0x0a;
const CARRIAGE_RETURN = 0x0d;

/**
 * Streams a UTF-8 file line by line: LF or CRLF line ends, an optional byte-order mark, and a missing final
 * newline are all fine. A line that is not UTF-8 is added to `problems` (with the byte column of its first
 * bad byte) and flagged. Only one chunk of lines is held at a time. Each line comes with where it is in the file.
 */
export async function* readLines(file: string, problems: ProblemCollector, onProgress?: ReadProgress, range?: ByteRange): AsyncGenerator<NumberedLine> {
  let line = 0;
  for await (const { bytes, start, end, bytesRead, offset } of readLineChunks(file, CHUNK_BYTES, range)) {
    const chunkIsUtf8 = isUtf8(bytes.subarray(start, end));
    // ASCII reads the same as Latin-1, which Node copies without decoding.
    const encoding = chunkIsUtf8 && isAscii(bytes.subarray(start, end)) ? 'latin1' : 'utf8';
    for (let from = start; from < end;) {
      // Numbered from 1 within a range: the caller adds the lines of the ranges before it. The file's first line
      // starts at byte 0 whatever byte-order mark was skipped before it.
      if (range !== undefined && (range.start === 0 && offset === 0 && from === start ? 0 : offset + from) >= range.end) return;
      const lineFeed = bytes.indexOf(LINE_FEED, from);
      const contentEnd = lineFeed > from && bytes[lineFeed - 1] === CARRIAGE_RETURN ? lineFeed - 1 : lineFeed;
      line++;
      if (onProgress !== undefined && line % PROGRESS_EVERY === 0) onProgress(line, bytesRead);
      const text = bytes.toString(encoding, from, contentEnd);
      const bad = chunkIsUtf8 ? -1 : firstBadByte(bytes.subarray(from, contentEnd));
      if (bad >= 0) problems.add(notUtf8Problem(file, line, bytes[from + bad]!, bad + 1));
      yield { text, line, notUtf8: bad >= 0, offset: offset + from, byteLength: contentEnd - from };
      from = lineFeed + 1;
    }
  }
}

/** Most bytes read at once by `readLinesAt`: lines nearer each other than this come from one read. */
const PLACES_READ_BYTES = 1 << 20;

/**
 * The lines at `places` (which `readLines` gave, in file order) read where they are, and nothing else of the file:
 * lines within `PLACES_READ_BYTES` of each other are read together. Checked for UTF-8 as `readLines` checks them.
 */
export async function* readLinesAt(file: string, places: readonly LinePlace[], problems: ProblemCollector): AsyncGenerator<NumberedLine> {
  const handle = await open(file, 'r');
  try {
    let buffer = Buffer.allocUnsafe(PLACES_READ_BYTES);
    for (let first = 0; first < places.length;) {
      const from = places[first]!.offset;
      let last = first;
      while (last + 1 < places.length && placeEnd(places[last + 1]!) - from <= PLACES_READ_BYTES) last++;
      const length = placeEnd(places[last]!) - from;
      if (length > buffer.length) buffer = Buffer.allocUnsafe(length);
      for (let got = 0; got < length;) {
        const { bytesRead } = await handle.read(buffer, got, length - got, from + got);
        if (bytesRead === 0) throw InputError.single({ file, message: 'is shorter than when it was first read; was it changed meanwhile?' });
        got += bytesRead;
      }
      for (let i = first; i <= last; i++) {
        const { line, offset, byteLength } = places[i]!;
        const bytes = buffer.subarray(offset - from, offset - from + byteLength);
        const bad = firstBadByte(bytes);
        if (bad >= 0) problems.add(notUtf8Problem(file, line, bytes[bad]!, bad + 1));
        yield { text: bytes.toString('utf8'), line, notUtf8: bad >= 0, offset, byteLength };
      }
      first = last + 1;
    }
  } finally {
    await handle.close();
  }
}

const placeEnd = (place: LinePlace) => place.offset + place.byteLength;
