/** The catalog of results formats: the `format` setting's values, the report's words and the README's list derive from it. */

/** The shapes of results file rag-gate reads. */
export type ResultsFormat = 'jsonl' | 'json-array' | 'csv' | 'tsv' | 'deepeval';

/**
 * Each format with a line saying what it is (for the `format` setting, the reports and the README) and its short
 * name (for the list of formats read, in `--help`).
 */
export const RESULTS_FORMATS: readonly { readonly name: ResultsFormat; readonly label: string; readonly description: string }[] = [
  { name: 'jsonl', label: 'JSON Lines', description: 'JSON Lines: one result object per line' },
  { name: 'json-array', label: 'a JSON array', description: 'one JSON array of result objects' },
  { name: 'csv', label: 'CSV', description: 'CSV with a header row (comma- or semicolon-separated), as spreadsheets and pandas to_csv() write it' },
  { name: 'tsv', label: 'TSV', description: 'tab-separated values with a header row' },
  {
    name: 'deepeval',
    label: "DeepEval's test-run JSON",
    description: "DeepEval's test-run JSON (.deepeval/.latest_run_full.json, or test_run_*.json under DEEPEVAL_RESULTS_FOLDER)",
  },
];

/** Every format read, as words: "JSON Lines, a JSON array, CSV, TSV or DeepEval's test-run JSON". */
export const RESULTS_FORMATS_READ = RESULTS_FORMATS.map((format) => format.label)
  .join(', ')
  .replace(/, ([^,]*)$/, ' or $1');

/** The format's line of words. */
export function formatDescription(format: ResultsFormat): string {
  return RESULTS_FORMATS.find((entry) => entry.name === format)!.description;
}
