import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';

/** A line of a text file with its 1-based number. */
export interface NumberedLine {
  readonly text: string;
  readonly line: number;
}

/**
 * Streams a UTF-8 file line by line: LF or CRLF line ends, an optional byte-order mark, and a missing final
 * newline are all fine. Only one line is held at a time.
 */
export async function* readLines(file: string): AsyncGenerator<NumberedLine> {
  const input = createReadStream(file, { encoding: 'utf8', highWaterMark: 1 << 20 });
  const lines = createInterface({ input, crlfDelay: Infinity });
  let line = 0;
  for await (const raw of lines) {
    line++;
    const text = line === 1 && raw.charCodeAt(0) === 0xfeff ? raw.slice(1) : raw;
    yield { text, line };
  }
}
