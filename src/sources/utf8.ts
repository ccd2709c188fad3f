import { isUtf8 } from 'node:buffer';
import { type InputProblem, ProblemCollector } from '../core/errors.js';

/**
 * Input is UTF-8, strictly: a decoder that turns bad bytes into U+FFFD would make `d\xff` and `d\xfe` the same
 * document id. Readers check whole chunks with `isUtf8` (vectorised, nearly free next to decoding) and look
 * for the bad byte only in a chunk that fails.
 */

const LINE_FEED = 0x0a;
const REPLACEMENT = '\uFFFD';
const lenient = new TextDecoder('utf-8', { ignoreBOM: true });

/**
 * The offset of the first byte of `bytes` that is not UTF-8, or -1 when there is none. The standard decoder
 * marks the place: its first U+FFFD that the bytes do not spell out themselves (as EF BF BD).
 */
export function firstBadByte(bytes: Uint8Array): number {
  if (isUtf8(bytes)) return -1;
  const text = lenient.decode(bytes);
  let offset = 0;
  let decoded = 0;
  for (;;) {
    const at = text.indexOf(REPLACEMENT, decoded);
    offset += Buffer.byteLength(text.slice(decoded, at));
    if (bytes[offset] !== 0xef || bytes[offset + 1] !== 0xbf || bytes[offset + 2] !== 0xbd) return offset;
    offset += 3;
    decoded = at + 1;
  }
}

/** A line that is not UTF-8, located at its first bad byte; the column counts bytes, since the line has no characters to count. */
export function notUtf8Problem(file: string, line: number, byte: number, column: number): InputProblem {
  const hex = byte.toString(16).toUpperCase().padStart(2, '0');
  return { file, line, column, message: `not valid UTF-8 (byte 0x${hex} at byte ${column} of the line); save the file as UTF-8` };
}

/**
 * The text of a whole file read as bytes, without a leading byte-order mark; an InputError naming each line
 * that is not UTF-8 (up to the usual limit) when there is one.
 */
export function utf8Text(file: string, bytes: Buffer): string {
  const start = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  if (!isUtf8(bytes.subarray(start))) {
    const problems = new ProblemCollector();
    let line = 0;
    for (let from = start; from < bytes.length;) {
      const lineFeed = bytes.indexOf(LINE_FEED, from);
      const lineEnd = lineFeed < 0 ? bytes.length : lineFeed;
      line++;
      const bad = firstBadByte(bytes.subarray(from, lineEnd));
      if (bad >= 0) problems.add(notUtf8Problem(file, line, bytes[from + bad]!, bad + 1));
      from = lineEnd + 1;
    }
    problems.throwIfAny();
  }
  return bytes.toString('utf8', start);
}
