import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ListCellError, parseListCell } from '../../../src/sources/formats/list-cell.js';

/**
 * Python's repr of a str, as CPython writes it (Objects/unicodeobject.c, unicode_repr): single quotes unless the
 * text has a single quote and no double quote; \\, the quote, \t \n \r, \xNN below 0x20 and for 0x7f, and
 * \xNN / \uNNNN / \UNNNNNNNN for characters that are not printable. "Not printable" is approximated here by the
 * Unicode categories Python counts as such (Cc, Cf, Cs, Co, Cn, Zl, Zp, Zs except the ASCII space).
 */
function pythonRepr(text: string): string {
  const quote = text.includes("'") && !text.includes('"') ? '"' : "'";
  let out = quote;
  for (const ch of text) {
    const point = ch.codePointAt(0)!;
    if (ch === quote || ch === '\\') out += `\\${ch}`;
    else if (ch === '\t') out += '\\t';
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (point < 0x20 || point === 0x7f) out += `\\x${point.toString(16).padStart(2, '0')}`;
    else if (point < 0x7f) out += ch;
    else if (/[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Zs}]/u.test(ch)) {
      out +=
        point <= 0xff
          ? `\\x${point.toString(16).padStart(2, '0')}`
          : point <= 0xffff
            ? `\\u${point.toString(16).padStart(4, '0')}`
            : `\\U${point.toString(16).padStart(8, '0')}`;
    } else out += ch;
  }
  return out + quote;
}

/** Python's str() of a list of strings: what pandas' to_csv() writes for a list cell. */
const pythonList = (items: readonly string[]) => `[${items.map(pythonRepr).join(', ')}]`;

function errorOf(text: string): ListCellError {
  try {
    parseListCell(text);
  } catch (error) {
    if (error instanceof ListCellError) return error;
    throw error;
  }
  throw new Error(`${text} was accepted`);
}

describe('parseListCell', () => {
  it('is undefined for a cell that does not start with [', () => {
    expect(parseListCell('doc1')).toBeUndefined();
    expect(parseListCell('')).toBeUndefined();
    expect(parseListCell('  "[a]"')).toBeUndefined();
  });

  it('reads JSON arrays, nested values included', () => {
    expect(parseListCell('["a", "b"]')).toEqual(['a', 'b']);
    expect(parseListCell(' [1, 2.5, -3e2] ')).toEqual([1, 2.5, -300]);
    expect(parseListCell('[{"id": "d1", "grade": 2}, [true, null]]')).toEqual([{ id: 'd1', grade: 2 }, [true, null]]);
    expect(parseListCell('[]')).toEqual([]);
    expect(parseListCell('["caf\\u00e9 \\"x\\""]')).toEqual(['café "x"']);
  });

  it('reads Python list literals as pandas writes them', () => {
    expect(parseListCell("['Paris is the capital.', 'It has 2M people.']")).toEqual(['Paris is the capital.', 'It has 2M people.']);
    expect(parseListCell(`["it's", 'say "hi"', 'both \\' and "']`)).toEqual(["it's", 'say "hi"', `both ' and "`]);
    expect(parseListCell('[1, -2, 3.5, 1e-05, True, False, None]')).toEqual([1, -2, 3.5, 1e-5, true, false, null]);
    expect(parseListCell("[['a'], [], {'k': [1]}]")).toEqual([['a'], [], { k: [1] }]);
    expect(parseListCell("[u'old', 'trailing',]")).toEqual(['old', 'trailing']);
  });

  it('decodes every escape Python repr writes', () => {
    expect(parseListCell("['a\\\\b', 'line\\nnext\\ttab\\r', '\\x00\\x7f\\xe9', '\\u2028\\U0001f600', '\\'']")).toEqual([
      'a\\b',
      'line\nnext\ttab\r',
      '\0\x7f\u00e9',
      '\u2028\u{1f600}',
      "'",
    ]);
    expect(parseListCell("['\\a\\b\\f\\v\\0\\101\\\"']")).toEqual(['\x07\b\f\v\0A"']);
    // Python keeps an escape it does not know, backslash and all.
    expect(parseListCell("['C:\\dir']")).toEqual(['C:\\dir']);
  });

  it('reads numpy arrays printed by str(): elements separated by white space, wrapped over lines', () => {
    expect(parseListCell("['first context' 'second context'\n 'third']")).toEqual(['first context', 'second context', 'third']);
    expect(parseListCell('[1 2 3]')).toEqual([1, 2, 3]);
    expect(parseListCell("[['a' 'b']\n ['c' 'd']]")).toEqual([
      ['a', 'b'],
      ['c', 'd'],
    ]);
  });

  it('names the character where a cell that starts like a list goes wrong', () => {
    expect(errorOf("['a', 'b'").message).toBe('not a list (expected "," or "]" but the cell ends) at character 10');
    expect(errorOf("['a', 'b").message).toBe('not a list (a string is not closed) at character 7');
    expect(errorOf('[a, b]').message).toBe('not a list (unexpected word "a"; strings must be quoted) at character 2');
    expect(errorOf("['a'] x").message).toBe('not a list (text after the closing "]") at character 7');
    expect(errorOf("['a', 'b' 'c']").message).toBe('not a list (expected "," or "]" but unexpected "\'") at character 11');
    expect(errorOf("['a' 'b', 'c']").message).toBe('not a list (a comma in a list whose elements are separated by spaces) at character 9');
    expect(errorOf("['\\x4']").message).toBe('not a list (\\x needs 2 hexadecimal digits) at character 3');
    expect(errorOf("['\\U00110000']").message).toBe('not a list (\\U00110000 is beyond the last Unicode character) at character 3');
    expect(errorOf("['\\N{BULLET}']").message).toMatch(/^not a list \(\\N\{…\} escapes are not supported/);
    expect(errorOf("['a\nb']").message).toMatch(/line break inside a quoted string.* at character 4$/);
    expect(errorOf('[nan]').message).toBe('not a list (nan is not a finite number) at character 2');
    expect(errorOf('[1, -inf]').message).toBe('not a list (inf is not a finite number) at character 5');
    expect(errorOf('[1.2.3]').message).toBe('not a list (unexpected "." in a number) at character 5');
    expect(errorOf("[12345678901234567890, 'python']").message).toBe(
      'the integer 12345678901234567890 is too large to keep exactly; write it as a string at character 2',
    );
    expect(errorOf('[1, 12345678901234567890]').message).toBe(
      'the integer 12345678901234567890 is too large to keep exactly; write it as a string at character 5',
    );
    expect(parseListCell('["12345678901234567890", 9007199254740991, 1.12345678901234567890]')).toEqual([
      '12345678901234567890',
      9007199254740991,
      1.1234567890123457,
    ]);
    expect(errorOf("[{'k': 1, 'k': 2}]").message).toBe('not a list (duplicate key "k" in one dict) at character 11');
    expect(errorOf('[{"k": 1, "k": 2}]').message).toMatch(/^duplicate key "k" in one object; keep one \(in the JSON list\)/);
    expect(errorOf('[(1, 2)]').message).toBe('not a list (expected a value but unexpected "(") at character 2');
    expect(errorOf("['a'],").position).toBe(6);
  });

  it('reads back any list of strings written by Python repr or by JSON.stringify', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: 'binary' })), (items) => {
        expect(parseListCell(pythonList(items))).toEqual(items);
        expect(parseListCell(JSON.stringify(items))).toEqual(items);
      }),
      { numRuns: 500 },
    );
  });

  // Integers past 2^53 are refused (tested above), so the doubles stay clear of them.
  it('reads back any list of finite numbers and booleans in either spelling', () => {
    const python = (value: number | boolean | null) =>
      value === null ? 'None' : typeof value === 'boolean' ? (value ? 'True' : 'False') : Object.is(value, -0) ? '-0.0' : String(value);
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(
            fc.double({ noNaN: true, noDefaultInfinity: true }).filter((x) => !Number.isInteger(x) || Number.isSafeInteger(x)),
            fc.integer(),
            fc.boolean(),
            fc.constant(null),
          ),
        ),
        (items) => {
          expect(parseListCell(`[${items.map(python).join(', ')}]`)).toEqual(items);
          expect(parseListCell(JSON.stringify(items))).toEqual(items.map((item) => (Object.is(item, -0) ? 0 : item)));
        },
      ),
    );
  });
});
