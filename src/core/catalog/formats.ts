/** The catalog of results formats: the `format` setting's values, the report's words and the README's list derive from it. */

/** The shapes of results file rag-gate reads. */
export type ResultsFormat = 'jsonl' | 'json-array' | 'csv' | 'tsv' | 'deepeval';

/** Each format with a line saying what it is (for the `format` setting, the reports and the README). */
export const RESULTS_FORMATS: readonly { readonly name: ResultsFormat; readonly description: string }[] = [
  { name: 'jsonl', description: 'JSON Lines: one result object per line' },
  { name: 'json-array', description: 'one JSON array of result objects' },
  { name: 'csv', description: 'CSV with a header row (comma- or semicolon-separated), as spreadsheets and pandas to_csv() write it' },
  { name: 'tsv', description: 'tab-separated values with a header row' },
  { name: 'deepeval', description: "DeepEval's test-run JSON (.deepeval/.latest_run_full.json, or test_run_*.json under DEEPEVAL_RESULTS_FOLDER)" },
];

/** The format's line of words. */
export function formatDescription(format: ResultsFormat): string {
  return RESULTS_FORMATS.find((entry) => entry.name === format)!.description;
}
