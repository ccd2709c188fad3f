import { parse as parseJsonTree, type ValueNode } from '@humanwhocodes/momoa';
import { z } from 'zod';
import { InputError, type InputProblem, type ProblemCollector } from '../../core/errors.js';
import { formatFieldPath } from '../read-problems.js';
import { readFileBytes } from '../read-file.js';
import { DuplicateKeyError, parseJsonUniqueKeys } from '../unique-keys.js';
import { utf8Text } from '../utf8.js';

/**
 * DeepEval's test-run JSON: the `TestRun` model of deepeval/test_run/test_run.py, written by `TestRun.save()`
 * and `deepeval.evaluate.local_store` as `model_dump(by_alias=True, exclude_none=True)` (camelCase keys, absent
 * rather than null), one line of JSON. The files: `.deepeval/.latest_run_full.json` (every run),
 * `test_run_<YYYYMMDD_HHMMSS>.json` under `DEEPEVAL_RESULTS_FOLDER`, `.deepeval/.temp_test_run_data.json` while
 * a run is going, and `.deepeval/.latest_test_run.json`, which wraps the run as `{"testRunData": …}`. The same
 * model dumped without aliases has snake_case keys; both spellings are read.
 *
 * Each single-turn test case (`LLMApiTestCase` in deepeval/test_run/api.py) becomes one record:
 *   input → question, actualOutput → answer, expectedOutput → expected_answer,
 *   retrievalContext → retrieved_contexts, context → reference_contexts, tags → tags, tokenCost → cost_usd,
 *   inputTokenCount → prompt_tokens, outputTokenCount → completion_tokens, completionTime (seconds) → latency_ms,
 *   metricsData[] (`MetricData` in deepeval/tracing/api.py) → scores: {<metric>: score, <metric>_success: success}.
 * A metric's key is its DeepEval name in lower snake case (`Answer Relevancy` → `answer_relevancy`), without
 * the type tag DeepEval appends to a metric the user named (`Correctness [GEval]` → `correctness`; also
 * `[DAG]`); `Faithfulness (ragas)` keeps its `(ragas)` (`faithfulness_ragas`), being a different
 * implementation from DeepEval's own `Faithfulness`. A metric that errored has no score: it is left out of that
 * test case's scores (its `_success` too) and counted in the summary.
 * A test case's `name` is its id only when the user set it: DeepEval names the others by position
 * (`test_case_<order>` from evaluate(); under pytest the test's name, with `[<argument><index>]` when
 * parametrized), which would pair different questions when the order changes.
 * Conversational test cases (turns) are refused.
 */

/** One test case as a record in rag-gate's field names, with where its object starts in the file. */
export interface DeepEvalRow {
  readonly line: number;
  /** DeepEval writes the whole run on one line, so the column tells test cases apart. */
  readonly column: number;
  readonly record: Record<string, unknown>;
}

/** Where a run's ids came from: the test cases' names, or nowhere (and why). */
export type DeepEvalIds =
  { readonly from: 'names' } | { readonly from: 'none'; readonly reason: 'missing-names' | 'positional-names' | 'repeated-names'; readonly example: string };

export interface DeepEvalSummary {
  readonly testCases: number;
  /** Each score key with the DeepEval metric name it came from, in order of first appearance. */
  readonly metrics: ReadonlyMap<string, string>;
  /** Score key → test cases where that metric errored (no score): they carry neither the score nor its `_success`. */
  readonly erroredMetrics: ReadonlyMap<string, number>;
  readonly ids: DeepEvalIds;
}

export interface DeepEvalRun {
  readonly rows: readonly DeepEvalRow[];
  readonly summary: DeepEvalSummary;
}

/** The tags DeepEval appends to the name the user gave a custom metric. */
const METRIC_TYPE_TAG = /\s*\[(?:GEval|DAG|Arena GEval|Conversational GEval|ConversationalDAG)\]$/;

/** A DeepEval metric name as a score key: `Answer Relevancy` → `answer_relevancy`, `Correctness [GEval]` → `correctness`. */
export function deepEvalMetricKey(name: string): string {
  return name
    .replace(METRIC_TYPE_TAG, '')
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '_')
    .replace(/^_+|_+$/g, '');
}

/** Names DeepEval gives a test case by its position (evaluate(): `test_case_3`; pytest parametrized: `test_rag[test_case3]`). */
const POSITIONAL_NAME = /^test_case_\d+$|\[[A-Za-z_]\w*?\d+\]$/;

/** Each field in both spellings DeepEval writes: pydantic aliases (camelCase) and field names (snake_case). */
const SPELLINGS = {
  testCases: ['testCases', 'test_cases'],
  conversationalTestCases: ['conversationalTestCases', 'conversational_test_cases'],
  actualOutput: ['actualOutput', 'actual_output'],
  expectedOutput: ['expectedOutput', 'expected_output'],
  retrievalContext: ['retrievalContext', 'retrieval_context'],
  metricsData: ['metricsData', 'metrics_data'],
  tokenCost: ['tokenCost', 'token_cost'],
  inputTokenCount: ['inputTokenCount', 'input_token_count'],
  outputTokenCount: ['outputTokenCount', 'output_token_count'],
  completionTime: ['completionTime', 'completion_time'],
} as const;

/** Test-case fields copied into the record as they are (the record schema judges their types). */
const COPIED: readonly (readonly [keyof typeof SPELLINGS | 'input' | 'context' | 'tags', string])[] = [
  ['input', 'question'],
  ['actualOutput', 'answer'],
  ['expectedOutput', 'expected_answer'],
  ['retrievalContext', 'retrieved_contexts'],
  ['context', 'reference_contexts'],
  ['tags', 'tags'],
  ['tokenCost', 'cost_usd'],
  ['inputTokenCount', 'prompt_tokens'],
  ['outputTokenCount', 'completion_tokens'],
];

const metricSchema = z.looseObject({
  name: z.string({ error: 'must be the metric name (a string)' }).min(1, 'must not be empty'),
  score: z.number({ error: 'must be a number or null' }).nullish(),
  success: z.boolean({ error: 'must be true, false or null' }).nullish(),
});
const metricsSchema = z.array(metricSchema, { error: 'must be a list of metric results' }).nullish();

/** What a file that is not a test run gives, besides its problems. */
const NO_RUN: DeepEvalRun = {
  rows: [],
  summary: { testCases: 0, metrics: new Map(), erroredMetrics: new Map(), ids: { from: 'none', reason: 'missing-names', example: 'null' } },
};

type Path = readonly (string | number)[];

/**
 * Where the thing at `path` under `node` starts: an object member's key, an array element's value; or the
 * deepest node on the way when the path goes further than the text.
 */
function startOf(node: ValueNode, path: Path): { line: number; column: number } {
  let current = node;
  let start = node.loc.start;
  for (const key of path) {
    if (current.type === 'Array' && typeof key === 'number' && key < current.elements.length) {
      current = current.elements[key]!.value;
      start = current.loc.start;
    } else if (current.type === 'Object') {
      const member = current.members.find(({ name }) => name.type === 'String' && name.value === key);
      if (member === undefined) break;
      current = member.value;
      start = member.name.loc.start;
    } else {
      break;
    }
  }
  return { line: start.line, column: start.column };
}

/** The value of the first of `spellings` an object has, naming it; a problem when it has two. */
function field(
  object: Record<string, unknown>,
  spellings: readonly string[],
  problem: (key: string, message: string) => void,
): { key: string; value: unknown } | undefined {
  const present = spellings.filter((key) => Object.hasOwn(object, key));
  if (present.length > 1) problem(present[1]!, `is given twice, as "${present[0]}" and "${present[1]}"; keep one`);
  return present.length === 0 ? undefined : { key: present[0]!, value: object[present[0]!] };
}

/**
 * The records of a DeepEval test run given as text (read from `file`): problems go to `problems` with line,
 * column and field path; a test case with a problem gives no row.
 */
export function deepEvalRun(file: string, text: string, problems: ProblemCollector): DeepEvalRun {
  let tree: ValueNode;
  let data: unknown;
  try {
    tree = parseJsonTree(text).body;
    data = parseJsonUniqueKeys(text);
  } catch (error) {
    if (error instanceof DuplicateKeyError) {
      problems.add({ file, line: error.lineInText + 1, field: formatFieldPath(error.path), message: error.message });
    } else {
      const { line, column } = error as { line?: number; column?: number };
      const detail = error instanceof Error ? error.message.replace(/ \(\d+:\d+\)$/, '') : String(error);
      problems.add({ file, line, column, message: `not valid JSON (${detail}); expected a DeepEval test run` });
    }
    return NO_RUN;
  }

  const problemAt = (path: Path, message: string): InputProblem => {
    return { file, ...startOf(tree, path), field: formatFieldPath(path) || undefined, message };
  };
  const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

  if (!isObject(data)) {
    problems.add(problemAt([], 'a DeepEval test run is one JSON object with "testCases"'));
    return NO_RUN;
  }
  let root: Path = [];
  let run = data;
  if (Object.hasOwn(run, 'testRunData') && isObject(run.testRunData)) {
    root = ['testRunData'];
    run = run.testRunData;
  }
  const fieldOf = (object: Record<string, unknown>, at: Path, spellings: readonly string[]) =>
    field(object, spellings, (key, message) => problems.add(problemAt([...at, key], message)));

  const conversational = fieldOf(run, root, SPELLINGS.conversationalTestCases);
  const conversationalCount = Array.isArray(conversational?.value) ? conversational.value.length : 0;
  if (conversational !== undefined && conversationalCount > 0) {
    const cases = `${conversationalCount} conversational test case${conversationalCount === 1 ? '' : 's'}`;
    problems.add(
      problemAt([...root, conversational.key], `holds ${cases} (turns); rag-gate reads single-turn test cases (input, actual output, retrieval context) only`),
    );
  }
  const cases = fieldOf(run, root, SPELLINGS.testCases);
  if (cases === undefined) {
    if (conversational === undefined) problems.add(problemAt(root, 'not a DeepEval test run: the object has no "testCases"'));
    return NO_RUN;
  }
  if (!Array.isArray(cases.value)) {
    problems.add(problemAt([...root, cases.key], 'must be a list of test cases'));
    return NO_RUN;
  }
  const casesPath = [...root, cases.key];
  if (cases.value.length === 0 && conversationalCount === 0) problems.add(problemAt(casesPath, 'holds no test cases'));

  const rows: DeepEvalRow[] = [];
  /** Each object test case's name, and the row it gave (if any). */
  const named: { name: unknown; row?: DeepEvalRow }[] = [];
  const metrics = new Map<string, string>();
  const erroredMetrics = new Map<string, number>();
  for (const [index, testCase] of (cases.value as unknown[]).entries()) {
    const at = [...casesPath, index];
    if (!isObject(testCase)) {
      problems.add(problemAt(at, 'a test case must be a JSON object'));
      continue;
    }
    if (Object.hasOwn(testCase, 'turns')) {
      problems.add(problemAt([...at, 'turns'], 'is a conversational test case; rag-gate reads single-turn test cases only'));
      continue;
    }
    const before = problems.count;
    const record: Record<string, unknown> = {};
    for (const [source, target] of COPIED) {
      const found = fieldOf(testCase, at, source in SPELLINGS ? SPELLINGS[source as keyof typeof SPELLINGS] : [source]);
      if (found !== undefined && found.value !== null) record[target] = found.value;
    }
    // DeepEval times the test case's generation in seconds (`LLMTestCase.completion_time`); rag-gate reads milliseconds.
    const completion = fieldOf(testCase, at, SPELLINGS.completionTime);
    if (completion !== undefined && completion.value !== null)
      record.latency_ms = typeof completion.value === 'number' ? completion.value * 1000 : completion.value;
    const scores: Record<string, number | boolean> = {};
    const keyNames = new Map<string, string>();
    const metricsData = fieldOf(testCase, at, SPELLINGS.metricsData);
    const parsed = metricsSchema.safeParse(metricsData?.value);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) problems.add(problemAt([...at, metricsData!.key, ...(issue.path as (string | number)[])], issue.message));
    } else {
      for (const [metricIndex, metric] of (parsed.data ?? []).entries()) {
        const metricPath = [...at, metricsData!.key, metricIndex, 'name'];
        const key = deepEvalMetricKey(metric.name);
        if (key === '') {
          problems.add(problemAt(metricPath, `"${metric.name}" has no letter or digit to name a score by`));
          continue;
        }
        const clash =
          keyNames.get(key) ?? keyNames.get(`${key}_success`) ?? (key.endsWith('_success') ? keyNames.get(key.slice(0, -'_success'.length)) : undefined);
        if (clash !== undefined) {
          problems.add(problemAt(metricPath, `"${metric.name}" and "${clash}" both give the score "${key}"; rename one`));
          continue;
        }
        keyNames.set(key, metric.name);
        if (!metrics.has(key)) metrics.set(key, metric.name);
        if (typeof metric.score !== 'number') {
          erroredMetrics.set(key, (erroredMetrics.get(key) ?? 0) + 1);
          continue;
        }
        scores[key] = metric.score;
        if (typeof metric.success === 'boolean') scores[`${key}_success`] = metric.success;
      }
    }
    if (Object.keys(scores).length > 0) record.scores = scores;
    if (problems.count > before) {
      named.push({ name: testCase.name });
      continue;
    }
    const row = { ...startOf(tree, at), record };
    rows.push(row);
    named.push({ name: testCase.name, row });
  }

  const ids = idSource(named.map(({ name }) => name));
  if (ids.from === 'names') for (const { name, row } of named) if (row !== undefined) row.record.id = name;
  return { rows, summary: { testCases: cases.value.length, metrics, erroredMetrics, ids } };
}

/** Names are ids only when every test case has one that the user set (not positional) and none repeats. */
function idSource(names: readonly unknown[]): DeepEvalIds {
  const seen = new Set<string>();
  for (const name of names) {
    if (typeof name !== 'string' || name === '') return { from: 'none', reason: 'missing-names', example: JSON.stringify(name ?? null) };
    if (POSITIONAL_NAME.test(name)) return { from: 'none', reason: 'positional-names', example: name };
    if (seen.has(name)) return { from: 'none', reason: 'repeated-names', example: name };
    seen.add(name);
  }
  return { from: 'names' };
}

/** Reads a DeepEval test-run file; see `deepEvalRun`. Lines that are not UTF-8 are problems; a file that cannot be read throws an InputError. */
export async function readDeepEvalRun(file: string, problems: ProblemCollector): Promise<DeepEvalRun> {
  const bytes = await readFileBytes(file);
  let text: string;
  try {
    text = utf8Text(file, bytes);
  } catch (error) {
    if (!(error instanceof InputError)) throw error;
    for (const problem of error.problems) problems.add(problem);
    return NO_RUN;
  }
  return deepEvalRun(file, text, problems);
}
