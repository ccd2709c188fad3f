import type { ResultRecord } from '../record.js';
import { contextUtilisation } from './generation/context-utilisation.js';
import { type CorrectnessRule, judgeCorrect } from './generation/correctness.js';
import { faithfulness } from './generation/faithfulness.js';
import { lengthRatio } from './generation/length-ratio.js';
import { type JudgedRanking, judgeRanking, relevantCount } from './ranking.js';
import type { RetrievalMetric } from '../catalog/retrieval-metrics.js';
import type { RetrievalOkRule } from './retrieval-ok.js';

/** How questions are scored: which retrieval metrics, when retrieval succeeded, how `correct` is computed. */
export interface EvalConfig {
  readonly retrievalMetrics: readonly RetrievalMetric[];
  readonly retrievalOk: RetrievalOkRule;
  readonly correctness: CorrectnessRule;
}

/** Per-question values; a key is absent when the question lacks that metric's inputs. 1/0 for yes/no. */
export type QuestionScores = Record<string, number>;

/** Document id → grade, from a list (grade 1 each) or graded relevance. */
function relevanceMap(relevant: ResultRecord['relevant_ids']): Map<string, number> {
  if (relevant === undefined) return new Map();
  if (Array.isArray(relevant)) return new Map(relevant.map((id) => [id, 1]));
  return new Map(Object.entries(relevant));
}

/** The judged ranking, or undefined when the question has no ranking or no relevant document to find. */
export function judgedRanking(record: ResultRecord): JudgedRanking | undefined {
  if (record.retrieved_ids === undefined) return undefined;
  const ranking = judgeRanking(record.retrieved_ids, relevanceMap(record.relevant_ids));
  return relevantCount(ranking) === 0 ? undefined : ranking;
}

/** Whether retrieval succeeded: the record's `retrieval_ok` if given, else the rule over its ranking. */
function retrievalSucceeded(record: ResultRecord, ranking: JudgedRanking | undefined, rule: RetrievalOkRule): boolean | undefined {
  if (record.retrieval_ok !== undefined) return record.retrieval_ok;
  return ranking === undefined ? undefined : rule.metric.compute(ranking) >= rule.threshold;
}

/** End-to-end correctness: the record's `correct` if given, else the rule over answer and expected answer. */
function answerCorrect(record: ResultRecord, rule: CorrectnessRule): boolean | undefined {
  if (record.correct !== undefined) return record.correct;
  if (record.answer === undefined || record.expected_answer === undefined) return undefined;
  return judgeCorrect(rule, record.answer, record.expected_answer) === 1;
}

const bit = (value: boolean) => (value ? 1 : 0);

/** Scores one question with every metric whose inputs it carries; `ranking` is its judged ranking, if any. */
export function scoreQuestion(record: ResultRecord, config: EvalConfig, ranking: JudgedRanking | undefined = judgedRanking(record)): QuestionScores {
  const scores: QuestionScores = {};
  if (ranking !== undefined) for (const metric of config.retrievalMetrics) scores[metric.name] = metric.compute(ranking);

  const ok = retrievalSucceeded(record, ranking, config.retrievalOk);
  if (ok !== undefined) scores.retrieval_ok = bit(ok);
  const correct = answerCorrect(record, config.correctness);
  if (correct !== undefined) scores.correct = bit(correct);
  scores.answerable = bit(record.answerable ?? true);
  if (record.refused !== undefined) scores.refused = bit(record.refused);
  if (record.closed_book_correct !== undefined) scores.closed_book_correct = bit(record.closed_book_correct);
  if (record.answer_relevance !== undefined) scores.answer_relevance = record.answer_relevance;

  const faithful = record.claims === undefined ? undefined : faithfulness(record.claims);
  if (faithful !== undefined) scores.faithfulness = faithful;
  if (record.answer !== undefined && record.expected_answer !== undefined) {
    const ratio = lengthRatio(record.answer, record.expected_answer);
    if (ratio !== undefined) scores.length_ratio = ratio;
  }
  if (record.cited_ids !== undefined && record.retrieved_ids !== undefined) {
    const utilisation = contextUtilisation(record.retrieved_ids, record.cited_ids);
    if (utilisation !== undefined) scores.context_utilisation = utilisation;
  }
  return scores;
}
