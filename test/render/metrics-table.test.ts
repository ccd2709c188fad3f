import { describe, expect, it } from 'vitest';
import { foldedSummary, type MetricRow, metricsTable, splitMetricRows } from '../../src/render/metrics-table.js';
import { randomizationTest } from './comparison-fixture.js';
import { makeComparison } from './comparison-fixture.js';
import { linesBetween, renderBody } from './comparison-variants.js';

const row = (name: string, flags: Omit<MetricRow, 'cells'>): MetricRow => ({ cells: [name], ...flags });

describe('the metrics table: what decides or moved first, the rest folded', () => {
  it('shows gated rows, then significant rows that repeat no gated drop, each in order; folds the rest in order', () => {
    const rows = [
      row('ndcg@10', { gated: false, significant: true, repeats: 'retrieval' }),
      row('faithfulness', { gated: false, significant: false }),
      row('retrieval', { gated: true, significant: true }),
      // A latency or cost row slots in by its flags.
      row('latency p95', { gated: false, significant: true }),
      row('correct', { gated: true, significant: false }),
      row('cost', { gated: false, significant: false }),
    ];
    const { shown, folded } = splitMetricRows(rows);
    expect(shown.map((r) => r.cells[0])).toEqual(['retrieval', 'correct', 'latency p95']);
    expect(folded.map((r) => r.cells[0])).toEqual(['ndcg@10', 'faithfulness', 'cost']);
  });

  it('counts what it folds, and why', () => {
    const quiet = row('mrr', { gated: false, significant: false });
    const again = row('ndcg@10', { gated: false, significant: true, repeats: 'retrieval' });
    expect(foldedSummary([quiet, quiet, quiet], true)).toBe('3 more metrics, none changed significantly');
    expect(foldedSummary([quiet], false)).toBe('1 metric, none changed significantly');
    expect(foldedSummary([again], true)).toBe('1 more metric that measures the gated retrieval drop again');
    expect(foldedSummary([again, again], true)).toBe('2 more metrics that measure the gated retrieval drop again');
    expect(foldedSummary([again, quiet, quiet], true)).toBe('3 more metrics: 1 measures the gated retrieval drop again, 2 did not change significantly');
    expect(foldedSummary([again, again, quiet], true)).toBe('3 more metrics: 2 measure the gated retrieval drop again, 1 did not change significantly');
  });

  it('has no fold when every row is shown, and only the fold when none is', () => {
    const header = ['metric'];
    expect(metricsTable(header, [row('retrieval', { gated: true, significant: false })], []).map((n) => n.type)).toEqual(['table']);
    const folded = metricsTable(header, [row('mrr', { gated: false, significant: false })], []);
    expect(folded.map((n) => n.type)).toEqual(['html', 'table', 'html']);
    expect(folded[0]).toMatchObject({ value: '<details><summary>1 metric, none changed significantly</summary>' });
  });
});

describe('renderComment: report rows beside a gated drop', () => {
  it('shows a significant gain of a retrieval metric and a significant drop of another metric, and folds only the repeats', () => {
    const comparison = makeComparison();
    const tests = [
      ...comparison.tests.filter((t) => t.gate !== null),
      randomizationTest('mrr', { base: 0.8, head: 0.85, ci: [0.01, 0.09], pValue: 0.01 }),
      randomizationTest('faithfulness', { base: 0.9, head: 0.8, ci: [-0.15, -0.05], pValue: 0.001 }),
      randomizationTest('ndcg@10', { base: 0.74, head: 0.69, ci: [-0.08, -0.03], pValue: 0.0002 }),
    ];
    const markdown = renderBody({ ...comparison, tests });
    const shown = linesBetween(
      markdown,
      '| metric | base | head | Δ (95% CI) | p | Holm p | gate |',
      '| faithfulness | 0.900 | 0.800 | −0.100 (−0.150, −0.050) | 0.0010 | | ⚠️ report, significant drop |',
    );
    expect(shown.split('\n').map((line) => line.split(' | ')[0])).toEqual([
      '| metric',
      '| :-',
      '| hit\\@5 — retrieval ok',
      '| correct — end to end',
      '| mrr',
      '| faithfulness',
    ]);
    expect(markdown).toContain('<details><summary>1 more metric that measures the gated retrieval drop again</summary>');
    expect(markdown).toContain('| ndcg\\@10 | 0.740 | 0.690 | −0.050 (−0.080, −0.030) | 0.0002 | | report, the gated retrieval drop again |');
  });

  it("shows a retrieval metric's significant drop when the gated retrieval test did not drop significantly", () => {
    const comparison = makeComparison();
    const tests = [
      ...comparison.tests.filter((t) => t.gate !== null).map((t) => (t.gate === 'retrieval' ? { ...t, significant: false, gateOutcome: null } : t)),
      randomizationTest('ndcg@10', { base: 0.74, head: 0.69, ci: [-0.08, -0.03], pValue: 0.0002 }),
    ];
    const markdown = renderBody({ ...comparison, tests });
    expect(markdown).toContain('| ndcg\\@10 | 0.740 | 0.690 | −0.050 (−0.080, −0.030) | 0.0002 | | ⚠️ report, significant drop |');
    expect(markdown).not.toContain('drop again');
  });
});
