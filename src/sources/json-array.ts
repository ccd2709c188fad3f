import type { NumberedLine } from './lines.js';

export class JsonArrayShapeError extends Error {
  constructor(
    message: string,
    readonly line: number,
  ) {
    super(message);
  }
}

/**
 * Splits a top-level JSON array into the source text of its elements without parsing the whole document,
 * so a large array is never held as text and as objects at once, and each element keeps its line number.
 * Only string and nesting state is tracked; each element's text is parsed (and judged) by JSON.parse later.
 * Each element is yielded as the line it starts on, flagged when any of its lines is not UTF-8.
 */
export async function* jsonArrayElements(lines: AsyncIterable<NumberedLine>): AsyncGenerator<NumberedLine> {
  let state: 'before' | 'inside' | 'after' = 'before';
  let depth = 0;
  let inString = false;
  let escaped = false;
  let parts: string[] = [];
  let start = 0;
  let elementLine = 0;
  let lastLine = 0;
  let closed = false;
  let sawElement = false;
  /** Whether a line of the element being read is not UTF-8. */
  let notUtf8 = false;

  for await (const { text, line, notUtf8: lineNotUtf8 } of lines) {
    lastLine = line;
    if (elementLine !== 0) notUtf8 ||= lineNotUtf8;
    start = 0;
    for (let i = 0; i < text.length; i++) {
      const ch = text[i]!;
      if (inString) {
        if (escaped) escaped = false;
        else if (ch === '\\') escaped = true;
        else if (ch === '"') inString = false;
        continue;
      }
      if (ch === ' ' || ch === '\t' || ch === '\r') continue;
      if (state === 'before') {
        if (ch !== '[') throw new JsonArrayShapeError('expected a JSON array or JSON Lines', line);
        state = 'inside';
        start = i + 1;
        continue;
      }
      if (state === 'after') throw new JsonArrayShapeError('unexpected text after the closing "]" of the array', line);
      if (depth === 0 && (ch === ',' || ch === ']')) {
        parts.push(text.slice(start, i));
        // From its first character, so that a line within the text counts from the line the element starts on.
        const element = parts.join('\n').trimStart();
        parts = [];
        start = i + 1;
        if (element !== '') yield { text: element, line: elementLine, notUtf8 };
        else if (ch === ',') throw new JsonArrayShapeError('empty element in the array (two commas in a row?)', line);
        else if (sawElement) throw new JsonArrayShapeError('a comma before the closing "]" (JSON allows no trailing comma)', line);
        sawElement = true;
        elementLine = 0;
        if (ch === ']') {
          state = 'after';
          closed = true;
        }
        continue;
      }
      if (elementLine === 0) {
        elementLine = line;
        notUtf8 = lineNotUtf8;
      }
      if (ch === '"') inString = true;
      else if (ch === '{' || ch === '[') depth++;
      else if (ch === '}' || ch === ']') depth--;
    }
    if (state === 'inside') parts.push(text.slice(start));
  }
  if (!closed) throw new JsonArrayShapeError('the JSON array is not closed with "]"', lastLine);
}
