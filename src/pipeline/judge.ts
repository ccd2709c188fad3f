import type { CalibrationResult } from '../judge/calibration.js';
import type { JudgeClient } from '../judge/client.js';
import type { JudgeRunResult } from '../judge/run.js';
import type { BatchOutcome, BatchProgress, BatchReport } from '../judge/batch.js';
import type { Price } from '../core/catalog/settings.js';
import { costOf, priceOf } from '../judge/prices.js';
import { formatBatch, formatBatchProgress, formatPacing, renderBatchNotCollected, renderCalibration, renderJudgeSummary } from '../render/judge-report.js';

/** The words of the judge's runs, for both front ends: what a judged file, a calibration and a run's calls came to. */

/** After `judge`: per metric, what was judged, kept, skipped and failed, the calls and tokens, and the pacing. */
export function judgedFileText(
  client: JudgeClient,
  result: JudgeRunResult,
  out: string,
  maxFailureShare: number,
  batch?: { readonly report: BatchReport; readonly price: Price | undefined },
): string {
  const lines = batch === undefined ? undefined : batchSummaryLines(client, batch.report, batch.price);
  return renderJudgeSummary(result, client.stats, out, maxFailureShare, client.pacing, lines);
}

/** A collected batch's lines of the summary: requests, answers, tokens, and their cost at the batch and the synchronous price. */
export function batchSummaryLines(client: JudgeClient, report: BatchReport, option: Price | undefined): string[] {
  const price = priceOf(client.model, option);
  return formatBatch(report, client.model, price === undefined ? undefined : { price, cost: costOf(price, report.promptTokens, report.completionTokens) });
}

/** The commit status of a run whose judge batch is not collected yet. */
export const BATCH_PENDING_STATUS = 'rag-gate: the judge batch is not collected yet; a later run collects it';

/** A batch run that did not collect: submitted, or not finished within the wait, and the command that collects it. */
export function batchNotCollectedText(outcome: Exclude<BatchOutcome, { kind: 'collected' }>, out: string, collectWith: string): string {
  return renderBatchNotCollected(outcome, out, collectWith);
}

/** After `calibrate`: the agreement with the human labels, and whether it clears the kappa floor. */
export function calibrationText(client: JudgeClient, result: CalibrationResult, kappaFloor: number): string {
  return renderCalibration(result, client.stats, kappaFloor);
}

/** One line for the action's log: the run's calls, cache hits and rate limits, and the pacing in force. */
export function judgeUsageLine(client: JudgeClient): string {
  const { calls, cacheHits, rateLimited } = client.stats;
  return `judge: ${calls} calls, ${cacheHits} cache hits, ${rateLimited} rate limited (429); ${formatPacing(client.pacing)}`;
}

/** A batch's status as a poll found it. */
export function batchProgressText(batch: BatchProgress): string {
  return formatBatchProgress(batch);
}
