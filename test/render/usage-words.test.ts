import { describe, expect, it } from 'vitest';
import { resolveSettings } from '../../src/core/catalog/settings.js';
import { evalConfig } from '../../src/core/compare/settings.js';
import { summarizeRun } from '../../src/core/scoring/summary.js';
import { renderHeadOnly } from '../../src/render/head-only.js';
import { formatAmount, usageSummaryLine } from '../../src/render/usage-words.js';
import { questionOutcomes } from '../helpers/outcomes.js';

describe('formatAmount', () => {
  it('writes milliseconds, seconds, tokens and dollars as a reviewer reads them', () => {
    expect([formatAmount(820.4, 'ms'), formatAmount(1820, 'ms'), formatAmount(12.34, 'ms')]).toEqual(['820 ms', '1.82 s', '12.3 ms']);
    expect(formatAmount(12345.6, 'tokens')).toBe('12,346');
    // Three significant digits below a dollar, written out however small; cents from a dollar up.
    expect([formatAmount(0.0021, 'usd'), formatAmount(0.000000251, 'usd'), formatAmount(12.5, 'usd'), formatAmount(0, 'usd')]).toEqual([
      '$0.0021',
      '$0.000000251',
      '$12.50',
      '$0.00',
    ]);
  });
});

describe('the report without a comparison', () => {
  const run = (columns: [string, number[]][]) =>
    summarizeRun(
      questionOutcomes({ ids: ['a', 'b', 'c', 'd'], columns: new Map(columns.map(([name, values]) => [name, Float64Array.from(values)])) }),
      evalConfig(resolveSettings([], (problem) => problem.message).settings),
    );

  it('says what a question cost in one line, each dollar amount in code', () => {
    const summary = run([
      ['latency_ms', [1000, 1200, 1400, 3000]],
      ['tokens', [300, 300, 400, 400]],
      ['cost_usd', [0.001, 0.002, 0.002, 0.003]],
    ]);
    // p95 of 1000…3000 (type 7): 1400 + 0.85 × 1600 = 2760.
    expect(usageSummaryLine(summary)).toMatch(
      /^latency p95 2\.76 s \(95% CI [\d.]+ s to 3 s\); tokens 350 a question \(95% CI \d+ to \d+\), 1,400 in all; cost \$0\.002 a question \(95% CI \$[\d.]+ to \$[\d.]+\), \$0\.008 in all$/,
    );
    const comment = renderHeadOnly(summary, {
      cause: { kind: 'no-baseline', reason: 'first run', fails: false },
      retrievalOk: 'hit@5',
      retrievalOkMetric: 'hit@5',
    });
    expect(comment).toMatch(/\nLatency p95 2\.76 s .*; cost `\$0\.002` a question \(95% CI `\$[\d.]+` to `\$[\d.]+`\), `\$0\.008` in all\.\n/);
  });

  it('says nothing of it for results without it', () => {
    const summary = run([['correct', [1, 0, 1, 1]]]);
    expect(usageSummaryLine(summary)).toBeNull();
    expect(
      renderHeadOnly(summary, { cause: { kind: 'no-baseline', reason: 'first run', fails: false }, retrievalOk: 'hit@5', retrievalOkMetric: 'hit@5' }),
    ).not.toMatch(/latency|cost/i);
  });
});
