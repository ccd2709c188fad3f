import { plural } from './format.js';
import { fixed3, textTable } from './text-table.js';
import type { CalibrationResult } from '../judge/calibration.js';
import type { JudgeStats } from '../judge/client.js';
import type { JudgeMetric } from '../judge/metrics.js';
import type { LimitInForce, PacingReport } from '../judge/pacing.js';
import type { JudgeRunResult } from '../judge/run.js';

const count = (n: number) => n.toLocaleString('en-US');
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
export function renderJudgeSummary(result: JudgeRunResult, stats: JudgeStats, out: string, maxFailureShare: number, pacing: PacingReport): string {
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
  const lines = [`rag-gate judge: ${plural(result.records, 'record')} → ${out}`, textTable(rows), `  ${formatStats(stats)}`, `  ${formatPacing(pacing)}`];
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
