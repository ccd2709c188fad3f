import { grouped } from '../core/grouped.js';
/**
 * Bounds on the shape of a results file, far above any real one and far below what exhausts the job: each field
 * name rag-gate does not read becomes a warning, and each score a column of the run, so a file that names
 * hundreds of thousands of them (one record can) would take minutes and gigabytes before saying anything.
 * Past a bound the file is refused at the line that passes it. docs/results.md lists them under "Limits".
 */

/** Distinct field names a results file may carry that are not rag-gate's: unknown fields and scores together. */
export const MAX_OTHER_FIELDS = 1_000;

/** Columns a CSV or TSV results file may have (rag-gate reads about 30 fields; the rest are scores or unknown). */
export const MAX_CSV_COLUMNS = 2_000;

export const OTHER_FIELDS_MESSAGE = `carries more than ${grouped(MAX_OTHER_FIELDS)} distinct field names that rag-gate does not read (unknown fields and scores together), the most a results file may; it passes that on this line. Remove the fields nobody reads, or map yours to ours with --field`;

export const csvColumnsMessage = (columns: number) =>
  `the header row has ${grouped(columns)} columns, more than the ${grouped(MAX_CSV_COLUMNS)} a results file may have; drop the columns nobody reads`;
