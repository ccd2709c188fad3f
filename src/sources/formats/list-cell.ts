import { DuplicateKeyError, parseJsonUniqueKeys } from '../unique-keys.js';

/**
 * A CSV cell that holds a list. Spreadsheets and rag-gate's own examples write JSON arrays; pandas writes a
 * list column with `str(list)`, which is Python's repr: `['a', "it's"]`, `[1, 2.5, None, True]`. Ragas'
 * `EvaluationResult.to_pandas()` holds plain Python lists, so that is what its `to_csv()` files carry. Older
 * exports that went through Hugging Face datasets hold numpy arrays instead, which print without commas
 * (`['a' 'b']`, wrapped over lines when long); those are read too, as separate elements. Python would join
 * adjacent string literals into one, but repr never writes two in a row, so the numpy reading is the one meant.
 */

/** A cell that starts like a list but is not one; `position` is the 1-based character where reading stopped. */
export class ListCellError extends Error {
  constructor(
    message: string,
    readonly position: number,
  ) {
    super(`${message} at character ${position}`);
    this.name = 'ListCellError';
  }
}

/**
 * The list a cell holds, written as a JSON array or as a Python list literal; undefined when the cell does not
 * start with `[` (after white space), so it holds no list at all. Throws a ListCellError naming the character
 * where a cell that starts like a list stops making sense. Call it only for columns that hold lists: a free
 * text such as an answer may well start with `[`.
 */
export function parseListCell(text: string): unknown[] | undefined {
  const start = skipSpace(text, 0);
  if (text[start] !== '[') return undefined;
  try {
    const value = parseJsonUniqueKeys(text);
    if (Array.isArray(value)) {
      rejectInexactJsonIntegers(text);
      return value;
    }
  } catch (error) {
    if (error instanceof DuplicateKeyError) throw new ListCellError(`${error.message} (in the JSON list)`, start + 1);
  }
  return new PythonLiteral(text).list(start);
}

/** A JSON string (skipped), or an integer literal long enough to pass 2^53. */
const JSON_LONG_INTEGER = /"(?:[^"\\]|\\.)*"|(?<![\d.eE+-])-?\d{16,}(?![\d.eE])/g;

/** JSON.parse rounds an integer past 2^53 without a word; an id written so would silently become another. */
function rejectInexactJsonIntegers(text: string): void {
  for (const match of text.matchAll(JSON_LONG_INTEGER)) {
    if (!match[0].startsWith('"') && !Number.isSafeInteger(Number(match[0]))) {
      throw new ListCellError(`the integer ${match[0]} is too large to keep exactly; write it as a string`, match.index + 1);
    }
  }
}

const SPACE = /\s/;

function skipSpace(text: string, at: number): number {
  while (at < text.length && SPACE.test(text[at]!)) at++;
  return at;
}

/** Escapes with a fixed meaning in a Python string literal (not raw, not bytes). */
const SIMPLE_ESCAPES: Readonly<Record<string, string>> = {
  '\\': '\\',
  "'": "'",
  '"': '"',
  a: '\x07',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
  v: '\v',
  '\n': '',
};

/** Hexadecimal escapes and the number of digits each takes. */
const HEX_ESCAPES: Readonly<Record<string, number>> = { x: 2, u: 4, U: 8 };

const NUMBER = /[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?/y;
const WORD = /[A-Za-z_]\w*/y;
const WORDS: Readonly<Record<string, unknown>> = { True: true, False: false, None: null };

/** Reads the subset of Python literals that repr writes for lists of strings, numbers, booleans, None, lists and dicts. */
class PythonLiteral {
  constructor(private readonly text: string) {}

  private fail(message: string, at: number): never {
    throw new ListCellError(`not a list (${message})`, at + 1);
  }

  private describe(at: number): string {
    return at >= this.text.length ? 'the cell ends' : `unexpected ${JSON.stringify(this.text[at])}`;
  }

  /** The list whose `[` is at `start`; nothing but white space may follow it. */
  list(start: number): unknown[] {
    const [value, end] = this.sequence(start);
    const after = skipSpace(this.text, end);
    if (after < this.text.length) this.fail(`text after the closing "]"`, after);
    return value;
  }

  /**
   * Elements from the `[` at `start` to its `]`: separated by commas (Python) or by white space only
   * (numpy), the same way throughout one list. Returns the elements and the index after the `]`.
   */
  private sequence(start: number): [unknown[], number] {
    const items: unknown[] = [];
    let at = skipSpace(this.text, start + 1);
    let separator: 'comma' | 'space' | undefined;
    if (this.text[at] === ']') return [items, at + 1];
    for (;;) {
      const [item, end] = this.value(at);
      items.push(item);
      at = skipSpace(this.text, end);
      const spaced = at > end;
      if (this.text[at] === ',') {
        if (separator === 'space') this.fail('a comma in a list whose elements are separated by spaces', at);
        separator = 'comma';
        at = skipSpace(this.text, at + 1);
        // Python allows one trailing comma.
        if (this.text[at] === ']') return [items, at + 1];
      } else if (this.text[at] === ']') {
        return [items, at + 1];
      } else if (spaced && separator !== 'comma' && at < this.text.length) {
        separator = 'space';
      } else {
        this.fail(`expected "," or "]" but ${this.describe(at)}`, at);
      }
    }
  }

  /** One value starting at `at`; returns it and the index after it. */
  private value(at: number): [unknown, number] {
    const ch = this.text[at];
    if (ch === '[') return this.sequence(at);
    if (ch === '{') return this.dict(at);
    if (ch === "'" || ch === '"') return this.string(at + 1, ch);
    if ((ch === 'u' || ch === 'U') && (this.text[at + 1] === "'" || this.text[at + 1] === '"')) return this.string(at + 2, this.text[at + 1]!);
    if (ch === '.' || ch === '+' || ch === '-' || (ch !== undefined && ch >= '0' && ch <= '9')) return this.number(at);
    WORD.lastIndex = at;
    const word = WORD.exec(this.text)?.[0];
    if (word !== undefined && Object.hasOwn(WORDS, word)) return [WORDS[word], at + word.length];
    if (word === 'nan' || word === 'inf') this.fail(`${word} is not a finite number`, at);
    if (word !== undefined) this.fail(`unexpected word ${JSON.stringify(word)}; strings must be quoted`, at);
    return this.fail(`expected a value but ${this.describe(at)}`, at);
  }

  private number(at: number): [number, number] {
    NUMBER.lastIndex = at;
    const match = NUMBER.exec(this.text)?.[0];
    if (match === undefined) {
      if (/^[+-]inf\b/.test(this.text.slice(at, at + 5))) this.fail('inf is not a finite number', at);
      return this.fail(`expected a number but ${this.describe(at)}`, at);
    }
    const end = at + match.length;
    if (/[\w.]/.test(this.text[end] ?? '')) this.fail(`${this.describe(end)} in a number`, end);
    const value = Number(match);
    if (/^[+-]?\d+$/.test(match) && !Number.isSafeInteger(value)) {
      throw new ListCellError(`the integer ${match} is too large to keep exactly; write it as a string`, at + 1);
    }
    return [value, end];
  }

  /** A string whose opening quote is just before `at`. */
  private string(at: number, quote: string): [string, number] {
    let out = '';
    for (let i = at; ;) {
      const ch = this.text[i];
      if (ch === undefined) this.fail('a string is not closed', at - 1);
      if (ch === quote) return [out, i + 1];
      if (ch === '\n' || ch === '\r') this.fail('a line break inside a quoted string (Python writes it as \\n)', i);
      if (ch !== '\\') {
        out += ch;
        i++;
        continue;
      }
      const code = this.text[i + 1];
      if (code === undefined) this.fail('a string is not closed', at - 1);
      if (Object.hasOwn(SIMPLE_ESCAPES, code)) {
        out += SIMPLE_ESCAPES[code];
        i += 2;
      } else if (Object.hasOwn(HEX_ESCAPES, code)) {
        const digits = this.text.slice(i + 2, i + 2 + HEX_ESCAPES[code]!);
        if (!new RegExp(`^[0-9a-fA-F]{${HEX_ESCAPES[code]!}}$`).test(digits)) this.fail(`\\${code} needs ${HEX_ESCAPES[code]!} hexadecimal digits`, i);
        const point = parseInt(digits, 16);
        if (point > 0x10ffff) this.fail(`\\${code}${digits} is beyond the last Unicode character`, i);
        out += String.fromCodePoint(point);
        i += 2 + digits.length;
      } else if (code >= '0' && code <= '7') {
        const digits = /^[0-7]{1,3}/.exec(this.text.slice(i + 1, i + 4))![0];
        out += String.fromCodePoint(parseInt(digits, 8));
        i += 1 + digits.length;
      } else if (code === 'N') {
        this.fail('\\N{…} escapes are not supported; write the character itself', i);
      } else {
        // Python keeps an unknown escape as it is, backslash included.
        out += `\\${code}`;
        i += 2;
      }
    }
  }

  /** A dict with string keys, as an object; a key given twice is an error (Python would keep the last). */
  private dict(start: number): [Record<string, unknown>, number] {
    const out: Record<string, unknown> = {};
    let at = skipSpace(this.text, start + 1);
    if (this.text[at] === '}') return [out, at + 1];
    for (;;) {
      const quote = this.text[at];
      if (quote !== "'" && quote !== '"') this.fail(`expected a quoted key but ${this.describe(at)}`, at);
      const [key, keyEnd] = this.string(at + 1, quote);
      if (Object.hasOwn(out, key)) this.fail(`duplicate key ${JSON.stringify(key)} in one dict`, at);
      at = skipSpace(this.text, keyEnd);
      if (this.text[at] !== ':') this.fail(`expected ":" but ${this.describe(at)}`, at);
      const [value, valueEnd] = this.value(skipSpace(this.text, at + 1));
      Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
      at = skipSpace(this.text, valueEnd);
      if (this.text[at] === ',') {
        at = skipSpace(this.text, at + 1);
        if (this.text[at] === '}') return [out, at + 1];
      } else if (this.text[at] === '}') {
        return [out, at + 1];
      } else {
        this.fail(`expected "," or "}" but ${this.describe(at)}`, at);
      }
    }
  }
}
