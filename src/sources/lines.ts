import { isAscii, isUtf8 } from 'node:buffer';
import type { ProblemCollector } from '../core/errors.js';
import { readLineChunks } from './line-chunks.js';
import { firstBadByte, notUtf8Problem } from './utf8.js';

/** A line of a text file with its 1-based number. */
export interface NumberedLine {
  readonly text: string;
  readonly line: number;
  /**
   * The line is not UTF-8 (and reported as such): its text has U+FFFD for the bad bytes, only so that reading
   * can go on to find other problems. Nothing in it may be taken as data.
   */
  readonly notUtf8: boolean;
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
 * bad byte) and flagged. Only one chunk of lines is held at a time. With `onlyLines`, the other lines are
 * counted but neither decoded nor checked.
 */
export async function* readLines(
  file: string,
  problems: ProblemCollector,
  onProgress?: ReadProgress,
  onlyLines?: ReadonlySet<number>,
): AsyncGenerator<NumberedLine> {
  let line = 0;
  for await (const { bytes, start, end, bytesRead } of readLineChunks(file)) {
    const chunkIsUtf8 = onlyLines === undefined && isUtf8(bytes.subarray(start, end));
    // ASCII reads the same as Latin-1, which Node copies without decoding.
    const encoding = chunkIsUtf8 && isAscii(bytes.subarray(start, end)) ? 'latin1' : 'utf8';
    for (let from = start; from < end;) {
      const lineFeed = bytes.indexOf(LINE_FEED, from);
      const contentEnd = lineFeed > from && bytes[lineFeed - 1] === CARRIAGE_RETURN ? lineFeed - 1 : lineFeed;
      line++;
      if (onProgress !== undefined && line % PROGRESS_EVERY === 0) onProgress(line, bytesRead);
      if (onlyLines !== undefined && !onlyLines.has(line)) {
        from = lineFeed + 1;
        continue;
      }
      const text = bytes.toString(encoding, from, contentEnd);
      const bad = chunkIsUtf8 ? -1 : firstBadByte(bytes.subarray(from, contentEnd));
      if (bad >= 0) problems.add(notUtf8Problem(file, line, bytes[from + bad]!, bad + 1));
      yield { text, line, notUtf8: bad >= 0 };
      from = lineFeed + 1;
    }
  }
}
