import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';

/** A line of a text file with its 1-based number. */
export interface NumberedLine {
  readonly text: string;
  readonly line: number;
}

/** Told, now and then, how many lines and bytes of a file have been read (for a progress line). */
export type ReadProgress = (records: number, bytes: number) => void;

/** Lines between two progress reports. */
const PROGRESS_EVERY = 4096;

/**
 * Streams a UTF-8 file line by line: LF or CRLF line ends, an optional byte-order mark, and a missing final
 * newline are all fine. Only one line is held at a time.
 */
export async function* readLines(file: string, onProgress?: ReadProgress): AsyncGenerator<NumberedLine> {
  const input = createReadStream(file, { encoding: 'utf8', highWaterMark: 1 << 20 });
  const lines = createInterface({ input, crlfDelay: Infinity });
  let line = 0;
  for await (const raw of lines) {
    line++;
    if (onProgress !== undefined && line % PROGRESS_EVERY === 0) onProgress(line, input.bytesRead);
    const text = line === 1 && raw.charCodeAt(0) === 0xfeff ? raw.slice(1) : raw;
    yield { text, line };
  }
}
