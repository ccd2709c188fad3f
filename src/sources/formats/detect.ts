import { extname } from 'node:path';
import { KNOWN_FIELDS } from '../../core/record.js';
import { headerDelimiter } from './csv.js';
import type { ResultsFormat } from '../../core/catalog/formats.js';

/**
 * How much of the start of a file `detectResultsFormat` wants. DeepEval writes `testCases` first in its run
 * object; a run dumped with sorted keys still has it after a few small fields, well within this.
 */
export const DETECT_HEAD_BYTES = 64 * 1024;

/** Top-level keys that make a JSON object a DeepEval test run (the TestRun model's, both spellings, and the wrapper of .latest_test_run.json). */
const DEEPEVAL_KEYS: ReadonlySet<string> = new Set(['testCases', 'test_cases', 'conversationalTestCases', 'conversational_test_cases', 'testRunData']);
/** The TestRun model's other top-level keys, which may come before `testCases` when keys are sorted. */
const DEEPEVAL_OTHER_KEYS: ReadonlySet<string> = new Set([
  'testFile',
  'test_file',
  'metricsScores',
  'metrics_scores',
  'traceMetricsScores',
  'trace_metrics_scores',
  'identifier',
  'hyperparameters',
  'prompts',
  'testPassed',
  'test_passed',
  'testFailed',
  'test_failed',
  'runDuration',
  'run_duration',
  'evaluationCost',
  'evaluation_cost',
  'datasetAlias',
  'dataset_alias',
  'datasetId',
  'dataset_id',
  'official',
]);

/**
 * The top-level keys of the JSON object that starts at `text[start]` (a `{`), as far as `text` goes, and
 * whether the object closes within it.
 */
function topLevelKeys(text: string, start: number): { keys: string[]; closed: boolean } {
  const keys: string[] = [];
  let depth = 0;
  for (let at = start; at < text.length; at++) {
    const ch = text[at];
    if (ch === '"') {
      let end = at + 1;
      while (end < text.length && text[end] !== '"') end += text[end] === '\\' ? 2 : 1;
      if (end >= text.length) break;
      if (depth === 1 && /^\s*:/.test(text.slice(end + 1, end + 64))) {
        try {
          keys.push(JSON.parse(text.slice(at, end + 1)) as string);
        } catch {
          // Not a JSON string: the JSON reader will say so.
        }
      }
      at = end;
    } else if (ch === '{' || ch === '[') {
      depth++;
    } else if (ch === '}' || ch === ']') {
      depth--;
      if (depth === 0) return { keys, closed: true };
    }
  }
  return { keys, closed: false };
}

/** Whether a line is a header row naming at least one field rag-gate knows. */
function looksLikeHeader(line: string): boolean {
  return line
    .split(headerDelimiter(line))
    .map((cell) => cell.trim().replace(/^"(.*)"$/, '$1'))
    .some((cell) => KNOWN_FIELDS.has(cell));
}

/**
 * The format of a results file, from its name and the start of its text (`head`: up to DETECT_HEAD_BYTES,
 * decoded). `.csv` and `.tsv` files are CSV and TSV. Otherwise the text decides: `[` starts a JSON array; a
 * `{` whose object has DeepEval's `testCases` (or only TestRun keys as far as the head goes) is a DeepEval run,
 * any other `{` starts JSON Lines; a first line naming known fields, split by commas, semicolons or tabs, is a
 * CSV (TSV for tabs) header. Anything else is read as JSON Lines, whose reader says what is wrong.
 */
export function detectResultsFormat(file: string, head: string): ResultsFormat {
  const extension = extname(file).toLowerCase();
  if (extension === '.csv') return 'csv';
  if (extension === '.tsv') return 'tsv';
  const text = head.startsWith('\uFEFF') ? head.slice(1) : head;
  const start = text.search(/\S/);
  if (start < 0) return 'jsonl';
  if (text[start] === '[') return 'json-array';
  if (text[start] === '{') {
    const { keys, closed } = topLevelKeys(text, start);
    if (keys.some((key) => DEEPEVAL_KEYS.has(key))) return 'deepeval';
    if (!closed && keys.length > 0 && keys.every((key) => DEEPEVAL_OTHER_KEYS.has(key))) return 'deepeval';
    return 'jsonl';
  }
  const lineEnd = text.indexOf('\n', start);
  const firstLine = text.slice(start, lineEnd < 0 ? text.length : lineEnd).replace(/\r$/, '');
  if (looksLikeHeader(firstLine)) return headerDelimiter(firstLine) === '\t' ? 'tsv' : 'csv';
  return 'jsonl';
}
