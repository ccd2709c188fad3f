import { plural } from './format.js';
import { fixed3, textTable } from './text-table.js';
import type { CalibrationResult } from '../judge/calibration.js';
import type { JudgeStats } from '../judge/client.js';
import type { JudgeMetric } from '../judge/metrics.js';
import type { LimitInForce, PacingReport } from '../judge/pacing.js';
import type { JudgeRunResult } from '../judge/run.js';
import type { BatchOutcome, BatchProgress, BatchReport } from '../judge/batch.js';
import type { PriceInForce } from '../judge/prices.js';
import { grouped } from '../core/grouped.js';

const count = (n: number) => grouped(n);
const percent = (share: number) => `${(share * 100).toFixed(1)}%`;

/** "calls 12 (2 retries, 1 rate limited), tokens 3,456 (prompt 3,000, completion 456), cache hits 7" */
function formatStats(stats: JudgeStats): string {
  const limited = stats.rateLimited > 0 ? `, ${count(stats.rateLimited)} rate limited` : '';
  return (
    `calls ${count(stats.calls)} (${plural(stats.retries, 'retry', 'retries')}${limited}), ` +
    `tokens ${count(stats.totalTokens)} (prompt ${count(stats.promptTokens)}, completion ${count(stats.completionTokens)}), ` +
    `cache hits ${count(stats.cacheHits)}`
  );
}

/** "120 requests/min (--rpm)" or "500 requests/min (headers of gpt-4o-mini)", one per limit in force. */
function formatLimits(limits: readonly LimitInForce[], unit: string, option: string): string[] {
  const source = (limit: LimitInForce) => {
    switch (limit.source) {
      case 'option':
        return option;
      case 'headers':
        return `x-ratelimit headers of ${limit.model ?? 'the endpoint'}`;
      case 'adaptive':
        return `learnt from 429s of ${limit.model ?? 'the endpoint'}, ${plural(limit.cuts ?? 0, 'cut')}`;
    }
  };
  return limits.map((limit) => `${count(limit.perMinute)} ${unit}/min (${source(limit)})`);
}

/** The rate limits the calls were paced to, or that there were none and why: no 429, or none repeated after its wait. */
export function formatPacing(pacing: PacingReport): string {
  const limits = [...formatLimits(pacing.requests, 'requests', '--rpm'), ...formatLimits(pacing.tokens, 'tokens', '--tpm')];
  if (limits.length > 0) return `pacing: ${limits.join(', ')}`;
  if (pacing.rateLimited === 0) return 'pacing: none (no --rpm or --tpm, no x-ratelimit headers from the endpoint, no 429)';
  const times = pacing.rateLimited === 1 ? 'once' : `${count(pacing.rateLimited)} times`;
  return (
    `pacing: none (no --rpm or --tpm, no x-ratelimit headers from the endpoint); rate limited (429) ${times}, waited out, ` +
    'the rate not cut: no request sent after the wait was refused'
  );
}

const perAnswer = (amount: number, answers: number, digits: number) => (answers === 0 ? '-' : (amount / answers).toFixed(digits));

/**
 * The end-of-run report of `judge`, for stderr: per metric the records judged, kept, skipped and failed, and what
 * each answer cost (requests and tokens of this run over the answers sent to the judge, cache hits free) beside
 * what Ragas sends for the same metric.
 */
export function renderJudgeSummary(
  result: JudgeRunResult,
  stats: JudgeStats,
  out: string,
  maxFailureShare: number,
  pacing: PacingReport,
  batch?: readonly string[],
): string {
  const rows = [['metric', 'judged', 'kept', 'skipped', 'failed', 'calls/answer', 'tokens/answer', 'Ragas calls/answer']];
  for (const [metric, report] of Object.entries(result.metrics) as [JudgeMetric, NonNullable<JudgeRunResult['metrics'][JudgeMetric]>][]) {
    const skipped = Object.values(report.skipped).reduce((a, b) => a + b, 0);
    const reasons = Object.entries(report.skipped)
      .map(([reason, n]) => `${reason}: ${count(n)}`)
      .join(', ');
    const answers = report.judged + report.failed;
    rows.push([
      metric,
      count(report.judged),
      count(report.kept),
      skipped === 0 ? '0' : `${count(skipped)} (${reasons})`,
      count(report.failed),
      report.calls.embeddings === 0
        ? perAnswer(report.cost.calls, answers, 2)
        : `${perAnswer(report.cost.calls, answers, 2)} (${perAnswer(report.calls.chat, answers, 2)} chat + ${perAnswer(report.calls.embeddings, answers, 2)} embeddings)`,
      perAnswer(report.cost.totalTokens, answers, 0),
      `${report.ragas.chat + report.ragas.embeddings} (${report.ragas.metric})`,
    ]);
  }
  const lines = [
    `rag-gate judge: ${plural(result.records, 'record')} → ${out}`,
    textTable(rows),
    `  ${formatStats(stats)}`,
    `  ${formatPacing(pacing)}`,
    ...(batch ?? []),
  ];
  if (result.recordsFailed > 0) {
    const kinds = Object.entries(result.failuresByKind)
      .map(([kind, n]) => `${kind} ${count(n)}`)
      .join(', ');
    lines.push(
      `  judge errors: ${count(result.recordsFailed)} of ${plural(result.recordsToJudge, 'record')} judged (${percent(result.failureShare)}; ` +
        `allowed ${percent(maxFailureShare)}); by kind: ${kinds}; each is marked with "judge_errors" in ${out}`,
    );
  }
  return `${lines.join('\n')}\n`;
}

/** The calibration report: kappa with its parts, and the confusion table (rows human, columns judge). */
export function renderCalibration(result: CalibrationResult, stats: JudgeStats, kappaFloor: number): string {
  const { record, agreement } = result;
  const what = result.kind === 'faithfulness' ? 'claim–context pairs' : 'answers';
  const decision = result.kind === 'faithfulness' ? 'SUPPORTED or not' : 'CORRECT or not';
  const rows = [
    ['kappa', fixed3(record.kappa)],
    ['observed agreement', fixed3(agreement?.observed)],
    ['chance agreement', fixed3(agreement?.expected)],
    ['n', count(record.n)],
  ];
  if (result.threeWay) rows.push(['kappa on all three verdicts (reported, does not decide)', fixed3(result.threeWay.kappa)]);
  const confusion = [['human \\ judge', ...result.labelValues]];
  for (const human of result.labelValues) confusion.push([human, ...result.labelValues.map((judge) => count(result.confusion[human]?.[judge] ?? 0))]);
  const lines = [
    `Judge calibration: ${result.kind}, model ${record.model}, prompt ${record.promptVersion}`,
    `${plural(result.total, 'labelled item')} (${what}); agreement on ${decision}`,
    '',
    textTable(rows),
    '',
    'Confusion (rows: human label, columns: judge label)',
    textTable(confusion),
    '',
    `  ${formatStats(stats)}`,
  ];
  if (result.failures.length > 0) {
    lines.push(
      `  ${plural(result.failures.length, 'label')} could not be judged and ${result.failures.length === 1 ? 'is' : 'are'} left out of kappa: ${result.failures
        .slice(0, 5)
        .map((f) => `${f.id} (${f.kind})`)
        .join(', ')}${result.failures.length > 5 ? ', …' : ''}`,
    );
  }
  const verdict =
    record.kappa !== null && record.kappa >= kappaFloor
      ? `kappa ${fixed3(record.kappa)} ≥ ${kappaFloor}: this judge may gate metrics computed with model ${record.model} and prompt ${record.promptVersion}`
      : `kappa ${fixed3(record.kappa)} is below ${kappaFloor}: this judge does not agree with the human labels well enough to gate`;
  lines.push('', verdict);
  return `${lines.join('\n')}\n`;
}

/** Dollars: cents from a dollar up, else three significant digits (a small run costs fractions of a cent). */
const dollars = (value: number) => `$${value >= 1 ? value.toFixed(2) : value.toPrecision(3)}`;

/** Where a price came from, and what it is. */
function formatPrice(price: PriceInForce): string {
  const source = price.source === 'option' ? '--price' : `${price.model} in rag-gate's list of OpenAI's prices, which may be out of date (set --price)`;
  return `${source}: $${price.input}/$${price.output} per million tokens in/out, batch $${price.batchInput}/$${price.batchOutput}`;
}

/**
 * The batch's lines of the summary: what it was asked and answered, its tokens, and what they cost at the batch
 * price beside the synchronous one (or why the cost is unknown).
 */
export function formatBatch(
  batch: BatchReport,
  model: string,
  price: { readonly price: PriceInForce; readonly cost: { readonly sync: number; readonly batch: number } } | undefined,
): string[] {
  if (batch.batchId === undefined) return [`  batch: none sent, every request's reply was in the cache (${plural(batch.cached, 'request')})`];
  const unanswered = Object.values(batch.unanswered).reduce((a, b) => a + b, 0);
  const reasons = Object.entries(batch.unanswered)
    .map(([reason, n]) => `${reason}: ${count(n)}`)
    .join(', ');
  const fallback = batch.fallback === 'sync' ? 'judged with ordinary requests (--batch-fallback sync)' : 'left unjudged (--batch-fallback none)';
  const lines = [
    `  batch: ${batch.batchId} ${batch.status}${batch.resumed ? ', collected from the state file' : ''}; ${plural(batch.requests, 'request')}, ` +
      `${count(batch.answered)} answered${unanswered > 0 ? `, ${count(unanswered)} not (${reasons}), ${fallback}` : ''}` +
      `${batch.cached > 0 ? `; ${count(batch.cached)} more were in the cache` : ''}; the answers count as cache hits above`,
    `  batch tokens ${count(batch.totalTokens)} (prompt ${count(batch.promptTokens)}, completion ${count(batch.completionTokens)})`,
  ];
  if (price === undefined) {
    lines.push(`  cost: unknown: ${model} is not in rag-gate's list of prices; give --price IN/OUT (dollars per million tokens)`);
  } else {
    lines.push(`  cost: ${dollars(price.cost.batch)} at the batch price, ${dollars(price.cost.sync)} at the synchronous price (${formatPrice(price.price)})`);
  }
  return lines;
}

/** A poll's news, for stderr: the batch's status and how many of its requests are done. */
export function formatBatchProgress(batch: BatchProgress): string {
  const done =
    batch.counts === undefined || batch.counts.total === 0
      ? ''
      : ` (${count(batch.counts.completed + batch.counts.failed)} of ${count(batch.counts.total)} requests done)`;
  return `rag-gate judge: batch ${batch.batchId} ${batch.status}${done}\n`;
}

/** What a batch run that did not collect says: submitted, or not finished within the wait; and how to collect. */
export function renderBatchNotCollected(outcome: Exclude<BatchOutcome, { kind: 'collected' }>, out: string, collectWith: string): string {
  if (outcome.kind === 'submitted') {
    return `rag-gate judge: submitted batch ${outcome.batchId} (${plural(outcome.requests, 'request')}); recorded in ${outcome.state}; ${out} is written when it is collected: ${collectWith}\n`;
  }
  const { batch } = outcome;
  const done = batch.counts === undefined ? '' : ` (${count(batch.counts.completed + batch.counts.failed)} of ${count(batch.counts.total)} requests done)`;
  const waited = outcome.waitLimitMs === 0 ? 'not waited for (--batch-wait 0)' : `still so after ${Math.round(outcome.waitedMs / 60_000)} min (--batch-wait)`;
  return `rag-gate judge: batch ${batch.batchId} is ${batch.status}${done}, ${waited}; ${out} is not written yet; collect it later from ${outcome.state}: ${collectWith}\n`;
}
