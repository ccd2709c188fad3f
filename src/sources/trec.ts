import { isAscii, isUtf8 } from 'node:buffer';
import type { ReadProgress } from './lines.js';
import { ByteDictionary } from '../core/scoring/byte-dictionary.js';
import { type InputProblem, InputError, MAX_LISTED_PROBLEMS } from '../core/errors.js';
import { readLineChunks } from './line-chunks.js';
import { LineFields } from './line-fields.js';
import { parseIntegerBytes, parseNumberBytes } from './number-bytes.js';
import { readFailure } from './read-problems.js';
import { firstBadByte, notUtf8Problem } from './utf8.js';
import { type TrecTable, TrecTableBuilder } from '../core/scoring/trec-table.js';

/** Called after each chunk of a file is parsed: records (non-blank lines) and bytes read so far. */

/** What differs between reading qrels and reading a run. */
interface TrecFormat {
  readonly columns: readonly string[];
  /** Whether columns after the last are ignored (runs, as trec_eval) rather than an error (qrels, as trec_eval). */
  readonly extraColumns: boolean;
  /** Which column holds the value (grade or score), and its name in messages. */
  readonly valueColumn: number;
  readonly valueField: string;
  /** The value the bytes denote, or NaN when they are not a valid value. */
  readonly parseValue: (bytes: Uint8Array, start: number, end: number) => number;
  readonly invalidValue: (text: string) => string;
  readonly duplicate: (docno: string, qid: string, firstLine: number) => string;
}

const LINE_FEED = 0x0a;
const HASH = 0x23;
const QID_COLUMN = 0;
const DOCNO_COLUMN = 2;

/** A score as `Number(text)` reads it, or NaN when that is not finite. */
function parseFiniteScore(bytes: Uint8Array, start: number, end: number): number {
  const score = parseNumberBytes(bytes, start, end);
  return Number.isFinite(score) ? score : NaN;
}

const QRELS: TrecFormat = {
  columns: ['qid', 'iter', 'docno', 'rel'],
  extraColumns: false,
  valueColumn: 3,
  valueField: 'rel',
  parseValue: parseIntegerBytes,
  invalidValue: (text) => `relevance grade "${text}" ${/^[+-]?\d+$/.test(text) ? 'is too large a whole number to hold exactly' : 'is not an integer'}`,
  duplicate: (docno, qid) => `document "${docno}" is judged twice for query "${qid}"`,
};

const RUN: TrecFormat = {
  columns: ['qid', 'Q0', 'docno', 'rank', 'score', 'tag'],
  extraColumns: true,
  valueColumn: 4,
  valueField: 'score',
  parseValue: parseFiniteScore,
  invalidValue: (text) => `score "${text}" is not a finite number`,
  duplicate: (docno, qid, firstLine) => `document "${docno}" is listed twice for query "${qid}" (first on line ${firstLine})`,
};

/**
 * A file's problems, keeping the first MAX_LISTED_PROBLEMS in line order whatever order they are found in
 * (problems in a line are found while reading, a duplicate in a later stretch of a split query only once the
 * whole file is read).
 */
class ProblemsByLine {
  private readonly listed: InputProblem[] = [];
  private total = 0;

  add(problem: InputProblem): void {
    this.total++;
    const line = problem.line ?? 0;
    let at = this.listed.length;
    while (at > 0 && (this.listed[at - 1]!.line ?? 0) > line) at--;
    if (at >= MAX_LISTED_PROBLEMS) return;
    this.listed.splice(at, 0, problem);
    if (this.listed.length > MAX_LISTED_PROBLEMS) this.listed.pop();
  }

  throwIfAny(): void {
    if (this.total > 0) throw new InputError(this.listed, this.total);
  }
}

/** Whether the line from `start` is a comment: its first byte that is not blank (as C's isspace) is `#`. */
function isComment(bytes: Buffer, start: number): boolean {
  let i = start;
  while (bytes[i] === 0x20 || (bytes[i]! >= 0x09 && bytes[i]! <= 0x0d && bytes[i] !== LINE_FEED)) i++;
  return bytes[i] === HASH;
}

/** The 1-based column of byte `offset` in a line, counted in characters as an editor shows it (UTF-16 units). */
function columnOf(bytes: Buffer, lineStart: number, offset: number): number {
  for (let i = lineStart; i < offset; i++) {
    if (bytes[i]! >= 0x80) return bytes.toString('utf8', lineStart, offset).length + 1;
  }
  return offset - lineStart + 1;
}

/** Parses the lines of one qrels or run file, chunk by chunk, into a TrecTable. */
class TableParser {
  readonly table: TrecTableBuilder;
  /** Non-blank lines seen that are not comments. */
  records = 0;
  /** Lines seen. */
  line = 0;
  private readonly fields: LineFields;
  /** Qids as bytes, numbered in order of appearance, and the query each is (bytes that decode alike are one query). */
  private readonly qidBytes = new ByteDictionary();
  private readonly queryOfQid: number[] = [];
  /** The previous record's qid (in qidBytes) and query: the next line of the same query needs no lookup. */
  private qid = -1;
  private query = -1;
  /** Whether the chunk being parsed is all ASCII, so that a column in characters is one in bytes. */
  private ascii = false;

  constructor(
    private readonly file: string,
    private readonly format: TrecFormat,
    private readonly problems: ProblemsByLine,
  ) {
    this.fields = new LineFields(format.columns.length + 1);
    // A document listed twice for one query: the later line is the problem (in a run, naming the first).
    this.table = new TrecTableBuilder((duplicate) =>
      problems.add({
        file,
        line: duplicate.line,
        column: duplicate.docnoColumn,
        field: 'docno',
        message: format.duplicate(duplicate.docno, duplicate.qid, duplicate.firstLine),
      }),
    );
  }

  /**
   * Parses the whole lines in bytes [start, end); a line that is not UTF-8 is reported, and only counted, unless
   * it is a comment, which is skipped whatever its bytes.
   */
  parseChunk(bytes: Buffer, start: number, end: number): void {
    const chunk = bytes.subarray(start, end);
    this.ascii = isAscii(chunk);
    if (this.ascii || isUtf8(chunk)) {
      this.parseLines(bytes, start, end);
      return;
    }
    for (let next = start; next < end;) {
      const lineEnd = bytes.indexOf(LINE_FEED, next) + 1;
      const bad = firstBadByte(bytes.subarray(next, lineEnd));
      if (bad < 0) this.parseLines(bytes, next, lineEnd);
      else if (isComment(bytes, next)) this.line++;
      else {
        this.line++;
        this.records++;
        this.problems.add(notUtf8Problem(this.file, this.line, bytes[next + bad]!, bad + 1));
      }
      next = lineEnd;
    }
  }

  private parseLines(bytes: Buffer, start: number, end: number): void {
    const { fields } = this;
    for (let next = start; next < end;) {
      next = fields.split(bytes, next);
      this.line++;
      if (fields.count > 0 && bytes[fields.starts[0]!] !== HASH) this.parseRecord(bytes);
    }
  }

  /** One non-blank line: checks it and adds it to its query, or records what is wrong with it. */
  private parseRecord(bytes: Buffer): void {
    const { fields, format } = this;
    this.records++;
    if (fields.count !== format.columns.length && !(format.extraColumns && fields.count > format.columns.length)) {
      this.problems.add(this.columnCountProblem(bytes));
      return;
    }
    const { starts, ends } = fields;
    const valueStart = starts[format.valueColumn]!;
    const valueEnd = ends[format.valueColumn]!;
    const value = format.parseValue(bytes, valueStart, valueEnd);
    if (Number.isNaN(value)) {
      this.problems.add({
        file: this.file,
        line: this.line,
        column: columnOf(bytes, fields.lineStart, valueStart),
        field: format.valueField,
        message: format.invalidValue(bytes.toString('utf8', valueStart, valueEnd)),
      });
      return;
    }
    const query = this.queryOf(bytes, starts[QID_COLUMN]!, ends[QID_COLUMN]!);
    const docnoStart = starts[DOCNO_COLUMN]!;
    const docnoColumn = this.ascii ? docnoStart - fields.lineStart + 1 : columnOf(bytes, fields.lineStart, docnoStart);
    this.table.add(query, bytes, docnoStart, ends[DOCNO_COLUMN]!, value, this.line, docnoColumn);
  }

  /** The number of the query whose qid is in bytes [start, end): the previous record's when the bytes are the same. */
  private queryOf(bytes: Buffer, start: number, end: number): number {
    if (this.qid >= 0 && this.qidBytes.equals(this.qid, bytes, start, end)) return this.query;
    this.qid = this.qidBytes.intern(bytes, start, end);
    if (this.qid === this.queryOfQid.length) this.queryOfQid.push(this.table.queryNumber(bytes.toString('utf8', start, end)));
    this.query = this.queryOfQid[this.qid]!;
    return this.query;
  }

  private columnCountProblem(bytes: Buffer): InputProblem {
    const { fields, format } = this;
    const expected = format.columns.length;
    const column = fields.count > expected ? columnOf(bytes, fields.lineStart, fields.starts[expected]!) : columnOf(bytes, fields.lineStart, fields.contentEnd);
    return {
      file: this.file,
      line: this.line,
      column,
      message: `expected ${expected} columns (${format.columns.join(' ')}), found ${fields.count}`,
    };
  }
}

/**
 * Reads a whole qrels or run file, collecting problems instead of stopping at the first, then throws an
 * InputError listing up to 20 of them (file, line, column) if there were any.
 */
async function readTable(file: string, format: TrecFormat, onProgress?: ReadProgress): Promise<TrecTable> {
  const problems = new ProblemsByLine();
  const parser = new TableParser(file, format, problems);
  try {
    for await (const chunk of readLineChunks(file)) {
      parser.parseChunk(chunk.bytes, chunk.start, chunk.end);
      onProgress?.(parser.records, chunk.bytesRead);
    }
  } catch (error) {
    throw readFailure(file, error);
  }
  if (parser.records === 0) {
    const what = parser.line === 0 ? 'the file is empty' : 'the file holds only comments and blank lines';
    problems.add({ file, message: `${what}; expected lines of "${format.columns.join(' ')}"` });
  }
  const table = parser.table.build(file);
  problems.throwIfAny();
  return table;
}

/**
 * Reads TREC qrels (`qid iter docno rel`) into compact form: each query's judged documents and grades. Grades
 * must be integers; a docno may be judged once per query. Blank lines and comments (lines whose first non-blank
 * character is `#`) are skipped; a line with more or fewer than four columns is an error.
 */
export function readQrelsTable(file: string, onProgress?: ReadProgress): Promise<TrecTable> {
  return readTable(file, QRELS, onProgress);
}

/**
 * Reads a TREC run (`qid Q0 docno rank score tag`) into compact form: each query's documents and scores, in file
 * order (rank them with trecOrder or JudgedRanker; the rank column is ignored, as trec_eval does). Blank lines
 * and comments are skipped and columns after the sixth ignored, as trec_eval does. Unlike trec_eval, a score that
 * is not a finite number is an error (trec_eval reads it as 0), and so is a document listed twice for one query.
 */
export function readRunTable(file: string, onProgress?: ReadProgress): Promise<TrecTable> {
  return readTable(file, RUN, onProgress);
}
