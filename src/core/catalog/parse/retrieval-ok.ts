import { MetricNameError, type RetrievalMetric, parseRetrievalMetric } from '../retrieval-metrics.js';

/** When retrieval counts as a success for one question (unless the record says so with `retrieval_ok`). */
export interface RetrievalOkRule {
  /** As the user wrote it, normalised: `hit@5`, `recall@5>=0.8`. */
  readonly name: string;
  readonly metric: RetrievalMetric;
  readonly threshold: number;
}

/**
 * Parses `hit@k` (a relevant document in the top k) or `METRIC>=x` for any retrieval metric, such as
 * `recall@5>=0.8` or `ndcg@10>=0.5`.
 */
export function parseRetrievalOkRule(text: string): RetrievalOkRule {
  const [metricText, thresholdText, ...extra] = text.split('>=') as [string, ...string[]];
  const metric = parseRetrievalMetric(metricText);
  if (thresholdText === undefined) {
    if (metric.family !== 'hit') {
      throw new MetricNameError(`retrieval-ok rule "${text}" needs a threshold, for example "${metric.name}>=0.8" (or use "hit@k")`);
    }
    return { name: metric.name, metric, threshold: 1 };
  }
  const threshold = Number(thresholdText);
  if (extra.length > 0 || thresholdText.trim() === '' || !Number.isFinite(threshold)) {
    throw new MetricNameError(`retrieval-ok rule "${text}": the threshold must be a number, for example "${metric.name}>=0.8"`);
  }
  return { name: `${metric.name}>=${threshold}`, metric, threshold };
}
