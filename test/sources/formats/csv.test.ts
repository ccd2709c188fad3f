import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { type InputProblem, ProblemCollector } from '../../../src/core/errors.js';
import { type CsvOptions, type CsvRow, csvRows, headerDelimiter } from '../../../src/sources/formats/csv.js';
import { parseListCell } from '../../../src/sources/formats/list-cell.js';
import { scratchDir } from '../../helpers/cli.js';

const scratch = scratchDir();
afterAll(() => scratch.cleanup());

const fixture = (name: string) => new URL(`../../fixtures/results/${name}`, import.meta.url).pathname;

let counter = 0;
function file(content: string | Buffer, ext = 'csv'): string {
  counter++;
  return scratch.file(`results-${counter}.${ext}`, content);
}

async function read(path: string, options?: CsvOptions): Promise<{ rows: CsvRow[]; problems: InputProblem[] }> {
  const collector = new ProblemCollector();
  const rows: CsvRow[] = [];
  for await (const row of csvRows(path, collector, undefined, options)) rows.push(row);
  try {
    collector.throwIfAny();
    return { rows, problems: [] };
  } catch (error) {
    return { rows, problems: [...(error as { problems: InputProblem[] }).problems] };
  }
}

/** Reads a file that must be clean. */
async function rowsOf(path: string, options?: CsvOptions): Promise<CsvRow[]> {
  const { rows, problems } = await read(path, options);
  expect(problems).toEqual([]);
  return rows;
}

describe('csvRows reads', () => {
  it("Ragas' EvaluationResult.to_pandas().to_csv(): the index column dropped, list cells in Python repr, a NaN score absent", async () => {
    const rows = await rowsOf(fixture('ragas.csv'));
    expect(rows.map((row) => row.line)).toEqual([2, 3, 5, 6]);
    expect(Object.keys(rows[0]!.cells)).toEqual([
      'user_input',
      'retrieved_contexts',
      'reference_contexts',
      'response',
      'reference',
      'faithfulness',
      'answer_relevancy',
      'context_precision',
      'context_recall',
      'factual_correctness(mode=f1)',
    ]);
    const second = rows[1]!.cells;
    expect(second.response).toBe('About 330 metres,\nroughly an 81-storey building.');
    expect(parseListCell(second.retrieved_contexts!)).toEqual([
      'The tower is 330 metres (1,083 ft) tall,\nabout the height of an 81-storey building.',
      'Its nickname is "La dame de fer".',
      'Paris is the capital of France.',
    ]);
    const third = rows[2]!.cells;
    expect(third.user_input).toBe('What is the tower\'s nickname, "La dame de fer", in English?');
    expect(third.response).toBe('"The Iron Lady"');
    expect(third.answer_relevancy).toBeUndefined();
    expect(parseListCell(third.retrieved_contexts!)).toEqual([
      'Its nickname is "La dame de fer".',
      'Café owners near the Champ de Mars call it \\ la Tour \\.',
    ]);
    expect(parseListCell(rows[3]!.cells.retrieved_contexts!)).toEqual([]);
    expect(rows[3]!.cells['factual_correctness(mode=f1)']).toBe('0.0');
  });

  it('Ragas 0.1 exports, whose list cells are numpy arrays printed over several lines', async () => {
    const rows = await rowsOf(fixture('ragas-0.1.csv'));
    expect(rows.map((row) => row.line)).toEqual([2, 4]);
    expect(parseListCell(rows[0]!.cells.contexts!)).toEqual([
      "The Eiffel Tower was completed in March 1889 for the World's Fair.",
      "Gustave Eiffel's company designed and built the tower.",
    ]);
    expect(parseListCell(rows[1]!.cells.contexts!)).toHaveLength(3);
    expect(rows[1]!.cells.ground_truth).toBe('330 metres');
  });

  it('a plain CSV with JSON list cells and no index column', async () => {
    const rows = await rowsOf(fixture('plain.csv'));
    expect(rows).toHaveLength(3);
    expect(rows[0]).toEqual({
      line: 2,
      cells: {
        id: 'q1',
        question: 'When was the Eiffel Tower completed?',
        retrieved_ids: '["eiffel-1889", "eiffel-company"]',
        relevant_ids: '["eiffel-1889"]',
        answer: 'It was completed in 1889.',
        expected_answer: '1889',
        tags: '["history"]',
      },
    });
    expect(rows[2]!.cells.tags).toBeUndefined();
    expect(rows[2]!.line).toBe(5);
  });

  it('a byte-order mark, CRLF line ends, blank lines between rows and no final newline', async () => {
    const rows = await rowsOf(file('\uFEFFid,question\r\nq1,"a,\r\nb"\r\n\r\n\r\nq2,"say ""hi"""'));
    expect(rows).toEqual([
      { line: 2, cells: { id: 'q1', question: 'a,\nb' } },
      { line: 6, cells: { id: 'q2', question: 'say "hi"' } },
    ]);
  });

  it('semicolon-separated files (spreadsheets in comma-decimal locales) and TSV by extension', async () => {
    expect(await rowsOf(file('id;question;score\nq1;"a;b";0,5\n'))).toEqual([{ line: 2, cells: { id: 'q1', question: 'a;b', score: '0,5' } }]);
    expect(await rowsOf(file('id\tquestion\nq1\ta, b; c\n', 'tsv'))).toEqual([{ line: 2, cells: { id: 'q1', question: 'a, b; c' } }]);
    // A one-column file named .tsv keeps its commas.
    expect(await rowsOf(file('question\na, b\n', 'tsv'))).toEqual([{ line: 2, cells: { question: 'a, b' } }]);
    // A delimiter given explicitly wins over the header's count.
    expect(await rowsOf(file('id;note,more\nq1;x,y\n'), { delimiter: ';' })).toEqual([{ line: 2, cells: { id: 'q1', 'note,more': 'x,y' } }]);
  });

  it('keeps white space and a header named __proto__ as they are', async () => {
    const rows = await rowsOf(file('__proto__,question\n x , y \n'));
    expect(Object.getPrototypeOf(rows[0]!.cells)).toBe(Object.prototype);
    expect(Object.entries(rows[0]!.cells)).toEqual([
      ['__proto__', ' x '],
      ['question', ' y '],
    ]);
  });

  it('rows of any text pandas could write, wherever their line breaks fall', async () => {
    const cell = fc.string({ unit: fc.constantFrom('a', 'b', ',', '"', '\n', ' ', 'é') });
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(cell, cell), { minLength: 1, maxLength: 8 }), async (table) => {
        const quote = (text: string) => (/[,"\n]/.test(text) || text === '' ? `"${text.replaceAll('"', '""')}"` : text);
        let text = 'question,answer\n';
        let line = 2;
        const lines: number[] = [];
        for (const [question, answer] of table) {
          lines.push(line);
          const row = `${quote(question)},${quote(answer)}\n`;
          text += row;
          line += row.split('\n').length - 1;
        }
        const rows = await rowsOf(file(text));
        expect(rows.map((row) => row.line)).toEqual(lines);
        expect(rows.map((row) => row.cells)).toEqual(
          table.map(([question, answer]) => ({ ...(question === '' ? {} : { question }), ...(answer === '' ? {} : { answer }) })),
        );
      }),
      { numRuns: 60 },
    );
  });
});

describe('headerDelimiter', () => {
  it('picks the separator the header uses most outside quotes, a comma on a tie', () => {
    expect(headerDelimiter('a,b,c')).toBe(',');
    expect(headerDelimiter('a;b;"c,d"')).toBe(';');
    expect(headerDelimiter('a\tb\t"c;d;e"')).toBe('\t');
    expect(headerDelimiter('a;b,c')).toBe(',');
    expect(headerDelimiter('question')).toBe(',');
  });
});

describe('csvRows reports', () => {
  it('a column named twice, and an unnamed column that is not the first', async () => {
    const { problems } = await read(file('id,question,id,,answer\nq1,a,q1,x,b\n'));
    expect(problems).toEqual([
      { file: expect.stringMatching(/\.csv$/), line: 1, field: 'id', message: 'names columns 1 and 3 of the header row; keep one' },
      { file: expect.stringMatching(/\.csv$/), line: 1, message: 'column 4 of the header row has no name; name it or remove the column' },
    ]);
  });

  it('each row with more or fewer cells than the header, and goes on to the end', async () => {
    const path = file('id,question\nq1,a\nq2,a,b\nq3\nq4,"multi\nline",extra\nq5,ok\n');
    const { rows, problems } = await read(path);
    expect(rows.map((row) => row.cells.id)).toEqual(['q1', 'q5']);
    expect(problems).toEqual([
      { file: path, line: 3, message: 'has 3 cells but the header row has 2 columns; quote a cell that holds ","' },
      { file: path, line: 4, message: 'has 1 cell but the header row has 2 columns; leave a cell empty (,,) for a missing value' },
      { file: path, line: 5, message: 'has 3 cells but the header row has 2 columns; quote a cell that holds ","' },
    ]);
  });

  it('quotes out of place, naming the line and the column', async () => {
    const path = file('id,question,answer\nq1,say "hi",x\nq2,"a"b,x\nq3,"two\nlines"!,x\nq4,fine,x\n');
    const { rows, problems } = await read(path);
    expect(rows.map((row) => row.cells.id)).toEqual(['q4']);
    expect(problems).toEqual([
      {
        file: path,
        line: 2,
        field: 'question',
        message: 'a quote inside a cell that does not start with one; quote the whole cell and double each quote in it ("say ""hi""")',
      },
      {
        file: path,
        line: 3,
        field: 'question',
        message: 'text right after the closing quote of a cell; double each quote inside a quoted cell ("say ""hi""")',
      },
      {
        file: path,
        line: 5,
        field: 'question',
        message: 'text right after the closing quote of a cell; double each quote inside a quoted cell ("say ""hi""")',
      },
    ]);
  });

  it('the right lines in a long file, rows spanning lines and bad rows included', async () => {
    let text = 'id,question\n';
    for (let i = 1; i <= 2500; i++) text += i % 700 === 0 ? `q${i},"two\nlines"\n` : i === 1500 ? `q${i},x"y\n` : `q${i},plain\n`;
    const path = file(text);
    const { rows, problems } = await read(path);
    expect(rows).toHaveLength(2499);
    // Rows 700, 1400 and 2100 take two lines each.
    const lineOf = (i: number) => i + 1 + Math.floor((i - 1) / 700);
    expect(rows.map((row) => row.line)).toEqual(
      Array.from({ length: 2500 }, (_, k) => k + 1)
        .filter((i) => i !== 1500)
        .map(lineOf),
    );
    expect(problems).toEqual([expect.objectContaining({ line: lineOf(1500), field: 'question' })]);
  });

  it('a quoted cell never closed', async () => {
    const path = file('id,question\nq1,ok\nq2,"open\nq3,more\n');
    const { rows, problems } = await read(path);
    expect(rows).toHaveLength(1);
    expect(problems).toEqual([{ file: path, line: 3, field: 'question', message: 'a quoted cell opened on this line is never closed' }]);
  });

  it('a header with no rows, and an empty file', async () => {
    const headerOnly = file(',user_input,response\n\n');
    expect((await read(headerOnly)).problems).toEqual([{ file: headerOnly, line: 1, message: 'the file has a header row but no rows of results under it' }]);
    const empty = file('\n\n');
    expect((await read(empty)).problems).toEqual([
      { file: empty, message: 'the file is empty; expected a header row naming the columns, then one row per question' },
    ]);
  });

  it('a line that is not UTF-8 once, with its byte column, and does not yield its row', async () => {
    const path = file(Buffer.concat([Buffer.from('id,question\nq1,"caf'), Buffer.from([0xe9]), Buffer.from('\nmore"\nq2,ok\n')]));
    const { rows, problems } = await read(path);
    expect(rows.map((row) => row.cells.id)).toEqual(['q2']);
    expect(problems).toEqual([{ file: path, line: 2, column: 8, message: 'not valid UTF-8 (byte 0xE9 at byte 8 of the line); save the file as UTF-8' }]);
  });

  it('a file that cannot be read, as an input error', async () => {
    await expect(read(scratch.dir + '/missing.csv')).rejects.toThrow(/missing\.csv: cannot read: no such file$/);
  });
});
