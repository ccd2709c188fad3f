import { afterAll, describe, expect, it } from 'vitest';
import { InputError } from '../../src/core/errors.js';
import { MAX_CUTOFFS, parseCutoffs } from '../../src/core/catalog/settings.js';
import { SettingError } from '../../src/core/errors.js';
import { readResults } from '../../src/sources/results.js';
import { MAX_CSV_COLUMNS, MAX_OTHER_FIELDS } from '../../src/sources/read-limits.js';
import { jsonl, scratchDir } from '../helpers/cli.js';

const scratch = scratchDir();
afterAll(() => scratch.cleanup());

let counter = 0;
function file(content: string, ext = 'jsonl'): string {
  counter++;
  return scratch.file(`limits-${counter}.${ext}`, content);
}

/** The read's problems as `line: message`, or 'read' when it passes. */
async function outcome(path: string): Promise<string> {
  try {
    await readResults(path, () => {});
    return 'read';
  } catch (error) {
    if (!(error instanceof InputError)) throw error;
    return error.problems.map((p) => `${p.line}: ${p.message}`).join('\n');
  }
}

const names = (count: number, prefix: string) => Array.from({ length: count }, (_, i) => `${prefix}${i}`);

describe('a results file carries at most MAX_OTHER_FIELDS field names that are not ours', () => {
  it('counts unknown fields and scores (top-level or in `scores`) together, across records, and names the line that passes it', async () => {
    const half = MAX_OTHER_FIELDS / 2;
    const record = (id: string, extra: Record<string, unknown>) => ({ id, question: 'q', ...extra });
    const atLimit = [
      record('q1', Object.fromEntries(names(half, 'note_').map((n) => [n, 'x']))),
      record('q2', { scores: Object.fromEntries(names(half - 1, 's').map((n) => [n, 0.5])), extra_score: 1 }),
    ];
    expect(await outcome(file(jsonl(atLimit)))).toBe('read');
    const over = [...atLimit, record('q3', { one_more: 'x' })];
    expect(await outcome(file(jsonl(over)))).toBe(
      `3: carries more than 1,000 distinct field names that rag-gate does not read (unknown fields and scores together), the most a results file may; it passes that on this line. Remove the fields nobody reads, or map yours to ours with --field`,
    );
    // A name seen before does not count again.
    expect(await outcome(file(jsonl([...atLimit, record('q3', { note_0: 'y', extra_score: 2 })])))).toBe('read');
  });

  it('in a CSV file too, whose columns past the header are bounded first', async () => {
    const header = (columns: readonly string[]) =>
      `${columns.join(',')}\nq1,question,${columns
        .slice(2)
        .map(() => '1')
        .join(',')}\n`;
    const scoreColumns = (count: number) => ['id', 'question', ...names(count, 'score_')];
    expect(await outcome(file(header(scoreColumns(MAX_OTHER_FIELDS)), 'csv'))).toBe('read');
    expect(await outcome(file(header(scoreColumns(MAX_OTHER_FIELDS + 1)), 'csv'))).toMatch(/^2: carries more than 1,000 distinct field names/);
    const wide = ['id', 'question', ...names(MAX_CSV_COLUMNS - 1, 'c')];
    expect(await outcome(file(`${wide.join(',')}\n`, 'csv'))).toBe(
      '1: the header row has 2,001 columns, more than the 2,000 a results file may have; drop the columns nobody reads',
    );
  });
});

describe('cut-offs', () => {
  it(`are at most ${MAX_CUTOFFS}`, () => {
    const list = (count: number) => Array.from({ length: count }, (_, i) => i + 1).join(',');
    expect(parseCutoffs(list(MAX_CUTOFFS))).toHaveLength(MAX_CUTOFFS);
    expect(() => parseCutoffs(list(MAX_CUTOFFS + 1))).toThrow(new SettingError('lists 101 cut-offs, more than the 100 a run may ask for'));
  });
});
