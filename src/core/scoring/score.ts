import { QUESTION_COLUMNS, type ScoringRules } from '../catalog/metrics.js';
import { textCounts } from '../measures/generation/text.js';
import type { RetrievalMetric } from '../catalog/retrieval-metrics.js';
import type { FieldMap, ResultRecord } from '../record.js';
import type { ResultsFormat } from '../catalog/formats.js';
import { hasRelevant, type JudgedRanking, type Judging, judgeRanking } from '../measures/ranking.js';

/** How questions are scored: which retrieval metrics, how grades are read, when retrieval succeeded, how `correct` is computed. */
export interface EvalConfig extends ScoringRules {
  readonly retrievalMetrics: readonly RetrievalMetric[];
  /** The user's field names for ours, applied as records are read. */
  readonly fields: FieldMap;
  /** The results files' format, or auto to detect each file's. */
  readonly format: ResultsFormat | 'auto';
  readonly judging: Judging;
}

/** Document id → grade, from a list (grade 1 each) or graded relevance. */
function relevanceMap(relevant: ResultRecord['relevant_ids']): Map<string, number> {
  const map = new Map<string, number>();
  // Set one by one: no [id, grade] pair per id to build the map from.
  if (Array.isArray(relevant)) for (const id of relevant) map.set(id, 1);
  else if (relevant !== undefined) for (const id in relevant) map.set(id, relevant[id]!);
  return map;
}

/**
 * The judged ranking, or undefined when the question has no ranking or no relevant document to find. The
 * record's `relevant_ids` are its judgments: any other retrieved document is unjudged. `grades`, as `judgeRanking`'s
 * `into`, may hold the ranking's grades.
 */
export function judgedRanking(record: ResultRecord, judging: Judging, grades?: Float64Array): JudgedRanking | undefined {
  if (record.retrieved_ids === undefined) return undefined;
  const relevance = relevanceMap(record.relevant_ids);
  // Undefined as the judged ranking's relevantCount would say, without judging it.
  return hasRelevant(relevance, judging) ? judgeRanking(record.retrieved_ids, relevance, judging, grades) : undefined;
}

/** The names of the columns `scoreQuestion` fills, by the index it hands to `put`: the retrieval metrics, then the question columns. */
export function scoredColumnNames(config: EvalConfig): string[] {
  return [...config.retrievalMetrics.map((metric) => metric.name), ...QUESTION_COLUMNS.map((column) => column.name)];
}

/**
 * Scores one question with every metric whose inputs it carries, handing each value (1/0 for yes/no) to `put` with
 * its column's index in `scoredColumnNames` (an index, not a name: 45 look-ups by name a question cost more than
 * some metrics); `ranking` is its judged ranking, if any. A metric whose inputs the question lacks is not handed over.
 */
export function scoreQuestion(
  record: ResultRecord,
  config: EvalConfig,
  ranking: JudgedRanking | undefined,
  put: (column: number, value: number) => void,
): void {
  const metrics = config.retrievalMetrics;
  if (ranking !== undefined) for (let i = 0; i < metrics.length; i++) put(i, metrics[i]!.compute(ranking));
  const answer = record.answer === undefined ? undefined : textCounts(record.answer);
  for (let j = 0; j < QUESTION_COLUMNS.length; j++) {
    const value = QUESTION_COLUMNS[j]!.compute(record, ranking, config, answer);
    if (value !== undefined) put(metrics.length + j, value);
  }
}
