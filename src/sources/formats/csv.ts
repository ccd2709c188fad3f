import { extname } from 'node:path';
import { CsvError, parse } from 'csv-parse/sync';
import { InputError, type InputProblem, type ProblemCollector } from '../../core/errors.js';
import { type NumberedLine, type ReadProgress, readLines } from '../lines.js';
import { readFailure } from '../read-problems.js';
import { csvColumnsMessage, MAX_CSV_COLUMNS } from '../read-limits.js';

/**
 * CSV results, as spreadsheets and pandas' `to_csv()` write them: a header row naming the columns, then one row
 * per question. Cells are split by csv-parse; this module finds where each row starts, checks the header and
 * the row lengths, and reports every problem with its line.
 */

/** One data row: the physical line it starts on (a quoted cell may hold line breaks) and its non-empty cells by column name. */
export interface CsvRow {
  readonly line: number;
  readonly cells: Readonly<Record<string, string>>;
}

export type CsvDelimiter = ',' | ';' | '\t';

export interface CsvOptions {
  /** The cell separator; by default a tab for a `.tsv` file, else whichever of `,` `;` tab the header row uses most (a comma on a tie). */
  readonly delimiter?: CsvDelimiter;
}

/** A record's text (its lines joined by `\n`) and where it starts. */
interface RecordText {
  readonly text: string;
  readonly line: number;
  /** A line of it is not UTF-8 (already reported): it is not read as data. */
  readonly notUtf8: boolean;
}

/** Records parsed together: csv-parse's fixed cost per call is three times its cost per short row. */
const BATCH_RECORDS = 1024;

const QUOTE = '"';

/**
 * Whether a record is still inside a quoted cell at the end of `text`, given whether it was at the start. A
 * quote opens a quoted cell only at the start of a cell (as csv-parse reads it); inside one, a doubled quote
 * stands for a quote and a single one closes it. A stray quote elsewhere is left to csv-parse to report, and
 * does not swallow the rows after it.
 */
function endsInQuotedCell(text: string, delimiter: CsvDelimiter, quoted: boolean): boolean {
  for (let at = 0; ;) {
    const quote = text.indexOf(QUOTE, at);
    if (quote < 0) return quoted;
    if (quoted) {
      if (text[quote + 1] === QUOTE) {
        at = quote + 2;
        continue;
      }
      quoted = false;
    } else {
      // Outside quotes at 0 only on a line that starts outside them: a quote there starts its first cell.
      quoted = quote === 0 || text[quote - 1] === delimiter;
    }
    at = quote + 1;
  }
}

/**
 * Groups lines into records: a record ends at the first line end outside a quoted cell. Blank lines between
 * records are skipped, as pandas reads them. The delimiter is chosen from the first non-blank line.
 */
async function* recordTexts(lines: AsyncIterable<NumberedLine>, delimiterFor: (header: string) => CsvDelimiter): AsyncGenerator<RecordText> {
  let parts: string[] = [];
  let start = 0;
  let quoted = false;
  let notUtf8 = false;
  let delimiter: CsvDelimiter | undefined;
  for await (const { text, line, notUtf8: lineNotUtf8 } of lines) {
    if (parts.length === 0) {
      if (text === '') continue;
      start = line;
      notUtf8 = false;
      delimiter ??= delimiterFor(text);
    }
    parts.push(text);
    notUtf8 ||= lineNotUtf8;
    quoted = endsInQuotedCell(text, delimiter!, quoted);
    if (!quoted) {
      yield { text: parts.join('\n'), line: start, notUtf8 };
      parts = [];
    }
  }
  // A quoted cell open to the end of the file: csv-parse says so.
  if (parts.length > 0) yield { text: parts.join('\n'), line: start, notUtf8 };
}

/** The delimiter the header row uses most outside quoted cells; a comma on a tie or when it has none. */
export function headerDelimiter(header: string): CsvDelimiter {
  const counts = { ',': 0, ';': 0, '\t': 0 };
  let quoted = false;
  for (const ch of header) {
    if (ch === QUOTE) quoted = !quoted;
    else if (!quoted && (ch === ',' || ch === ';' || ch === '\t')) counts[ch]++;
  }
  if (counts[';'] > counts[','] && counts[';'] >= counts['\t']) return ';';
  if (counts['\t'] > counts[',']) return '\t';
  return ',';
}

/** What a csv-parse error means for the user, at the record's line plus the line within it. */
function parseProblem(file: string, record: RecordText, error: CsvError, columns: readonly string[] | undefined): InputProblem {
  const line = record.line + Math.max(0, Number(error.lines ?? 1) - 1);
  const index = typeof error.index === 'number' ? error.index : undefined;
  const name = index === undefined ? undefined : columns?.[index];
  const field = name === undefined || name === '' ? undefined : name;
  switch (error.code) {
    case 'INVALID_OPENING_QUOTE':
      return {
        file,
        line,
        field,
        message: 'a quote inside a cell that does not start with one; quote the whole cell and double each quote in it ("say ""hi""")',
      };
    case 'CSV_INVALID_CLOSING_QUOTE':
      return { file, line, field, message: 'text right after the closing quote of a cell; double each quote inside a quoted cell ("say ""hi""")' };
    case 'CSV_QUOTE_NOT_CLOSED':
      return { file, line: record.line, field, message: 'a quoted cell opened on this line is never closed' };
    default:
      return { file, line, field, message: `not valid CSV: ${error.message}` };
  }
}

/** A record's cells, or a problem; throws only what is not a CSV error. */
function cellsOf(file: string, record: RecordText, delimiter: CsvDelimiter, columns?: readonly string[]): string[] | InputProblem {
  try {
    return parse(record.text, { delimiter, record_delimiter: '\n', relax_column_count: true })[0]!;
  } catch (error) {
    if (error instanceof CsvError) return parseProblem(file, record, error, columns);
    throw error;
  }
}

/** Cells of a batch of records: one csv-parse call, or one call per record to find the bad ones. */
function batchCells(file: string, batch: readonly RecordText[], delimiter: CsvDelimiter, columns: readonly string[]): (string[] | InputProblem)[] {
  try {
    const rows = parse(batch.map((record) => record.text).join('\n'), { delimiter, record_delimiter: '\n', relax_column_count: true });
    if (rows.length === batch.length) return rows;
  } catch (error) {
    if (!(error instanceof CsvError)) throw error;
  }
  return batch.map((record) => cellsOf(file, record, delimiter, columns));
}

/** The header's column names, with problems for names that are empty or given twice. */
function readHeader(file: string, line: number, names: readonly string[], problems: ProblemCollector): { columns: string[]; dropFirst: boolean } {
  // pandas' to_csv() writes the index as an unnamed first column.
  const dropFirst = names.length > 1 && names[0] === '';
  const columns = [...names];
  const firstColumn = new Map<string, number>();
  names.forEach((name, index) => {
    if (index === 0 && dropFirst) return;
    if (name === '') {
      problems.add({ file, line, message: `column ${index + 1} of the header row has no name; name it or remove the column` });
      return;
    }
    const first = firstColumn.get(name);
    if (first !== undefined) {
      problems.add({ file, line, field: name, message: `names columns ${first + 1} and ${index + 1} of the header row; keep one` });
      return;
    }
    firstColumn.set(name, index);
  });
  return { columns, dropFirst };
}

/**
 * Reads a CSV (or TSV) results file row by row: UTF-8 with an optional byte-order mark, LF or CRLF line ends,
 * quoted cells holding delimiters, line breaks (read as `\n`) and doubled quotes. An unnamed first column (the
 * index pandas writes) is dropped. An empty cell means the field is absent: its key is left out of `cells`.
 *
 * Problems (a header naming a column twice or not at all, a row with more or fewer cells than the header, a
 * quote out of place, a line that is not UTF-8, no data rows) are added to `problems` with file, line and
 * column name, and reading goes on to find the others; a row with a problem is not yielded. Callers check
 * `problems` when the rows are done. A file that cannot be read throws an InputError saying why.
 */
export async function* csvRows(file: string, problems: ProblemCollector, onProgress?: ReadProgress, options: CsvOptions = {}): AsyncGenerator<CsvRow> {
  try {
    yield* rowsOf(file, problems, onProgress, options);
  } catch (error) {
    throw readFailure(file, error);
  }
}

async function* rowsOf(file: string, problems: ProblemCollector, onProgress: ReadProgress | undefined, options: CsvOptions): AsyncGenerator<CsvRow> {
  let delimiter: CsvDelimiter = ',';
  const records = recordTexts(readLines(file, problems, onProgress), (header) => {
    delimiter = options.delimiter ?? (extname(file).toLowerCase() === '.tsv' ? '\t' : headerDelimiter(header));
    return delimiter;
  });
  // However this ends (a refused header, a return before the rows), the file is closed now, not on collection.
  try {
    yield* headerAndRows(file, problems, records, () => delimiter);
  } finally {
    await records.return(undefined);
  }
}

async function* headerAndRows(
  file: string,
  problems: ProblemCollector,
  records: AsyncGenerator<RecordText>,
  delimiterOf: () => CsvDelimiter,
): AsyncGenerator<CsvRow> {
  const first = await records.next();
  if (first.done) {
    problems.add({ file, message: 'the file is empty; expected a header row naming the columns, then one row per question' });
    return;
  }
  const headerRecord = first.value;
  const delimiter = delimiterOf();
  const names = cellsOf(file, headerRecord, delimiter);
  if (!Array.isArray(names)) {
    problems.add(names);
    return;
  }
  // Refused before any row: each row would otherwise build an object of this many cells.
  if (names.length > MAX_CSV_COLUMNS) throw InputError.single({ file, line: headerRecord.line, message: csvColumnsMessage(names.length) });
  const { columns, dropFirst } = readHeader(file, headerRecord.line, names, problems);
  let rows = 0;

  function* toRows(batch: readonly RecordText[]): Generator<CsvRow> {
    const parsed = batchCells(file, batch, delimiter, columns);
    for (const [index, record] of batch.entries()) {
      const cells = parsed[index]!;
      rows++;
      if (record.notUtf8) continue;
      if (!Array.isArray(cells)) {
        problems.add(cells);
        continue;
      }
      if (cells.length !== columns.length) {
        const hint =
          cells.length > columns.length
            ? `quote a cell that holds "${delimiter === '\t' ? '\\t' : delimiter}"`
            : `leave a cell empty (${delimiter === '\t' ? 'two tabs in a row' : delimiter.repeat(2)}) for a missing value`;
        problems.add({
          file,
          line: record.line,
          message: `has ${cells.length} cell${cells.length === 1 ? '' : 's'} but the header row has ${columns.length} columns; ${hint}`,
        });
        continue;
      }
      const present: [string, string][] = [];
      for (let column = dropFirst ? 1 : 0; column < columns.length; column++) if (cells[column] !== '') present.push([columns[column]!, cells[column]!]);
      yield { line: record.line, cells: Object.fromEntries(present) };
    }
  }

  let batch: RecordText[] = [];
  for await (const record of records) {
    batch.push(record);
    if (batch.length === BATCH_RECORDS) {
      yield* toRows(batch);
      batch = [];
    }
  }
  yield* toRows(batch);
  if (rows === 0) problems.add({ file, line: headerRecord.line, message: 'the file has a header row but no rows of results under it' });
}
