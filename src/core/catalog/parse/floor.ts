import { isScoreMetric, scoreMetric, scoreNameOf } from '../scores.js';
import { answerMetric } from '../metrics.js';
import { MetricNameError, parseRetrievalMetric } from '../retrieval-metrics.js';
import { scoreName } from '../../record.js';

/** A floor names a metric of the catalogs or a score, so it is read here; the gate (core/compare/gate.ts) checks it. */

/** An absolute bound on a head metric: `recall@5>=0.8` (a floor) or `false_refusal_rate<=0.1` (a ceiling). */
export interface Floor {
  readonly metric: string;
  readonly op: '>=' | '<=';
  readonly value: number;
}

/**
 * Parses `metric=x`, `metric>=x` or `metric<=x`. The metric is one rag-gate computes, or a score another tool
 * wrote (`score:NAME`, or a bare NAME that names no metric of rag-gate's).
 */
export function parseFloor(text: string): Floor {
  const match = /^\s*([^<>=\s]+)\s*(>=|<=|=)\s*([^\s]+)\s*$/.exec(text);
  if (!match) throw new MetricNameError(`floor "${text}" must look like "recall@5=0.8" (head at least 0.8) or "false_refusal_rate<=0.1"`);
  const [, name = '', op, valueText = ''] = match;
  const value = Number(valueText);
  if (!Number.isFinite(value)) throw new MetricNameError(`floor "${text}": "${valueText}" is not a number`);
  return { metric: floorMetric(name), op: op === '<=' ? '<=' : '>=', value };
}

function floorMetric(name: string): string {
  if (answerMetric(name) !== undefined) return name;
  const score = isScoreMetric(name) ? scoreNameOf(name) : name;
  try {
    return parseRetrievalMetric(name).name;
  } catch (error) {
    if (!(error instanceof MetricNameError) || scoreName(score) !== score) throw error;
    return scoreMetric(score);
  }
}
