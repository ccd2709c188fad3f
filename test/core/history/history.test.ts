import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { appendRun, EMPTY_HISTORY, type HistoryEntry, linearTrend, series } from '../../../src/core/history/history.js';

const entry = (i: number, retrieval: number): HistoryEntry => ({
  commit: i.toString(16).padStart(7, '0'),
  date: new Date(Date.UTC(2026, 0, 1 + i)).toISOString(),
  n: 200,
  metrics: { retrieval_ok: { value: retrieval, n: 200, ci: [retrieval - 0.03, retrieval + 0.03] } },
});

describe('linearTrend', () => {
  it('matches a worked least-squares fit: y = 1, 3, 2, 5, 4 has slope 0.8, SE 0.3464, 95% CI ±3.1824·SE (scipy linregress)', () => {
    const trend = linearTrend([1, 3, 2, 5, 4])!;
    expect(trend.slope).toBeCloseTo(0.8, 12);
    const se = Math.sqrt(0.12);
    expect(trend.ci[0]).toBeCloseTo(0.8 - 3.182446305284263 * se, 9);
    expect(trend.ci[1]).toBeCloseTo(0.8 + 3.182446305284263 * se, 9);
    expect(trend.change).toBeCloseTo(3.2, 12);
    expect(trend.significant).toBe(false);
  });

  it('calls a steady decline of half a point a run over 10 runs significant, and has no interval below 3 points', () => {
    const values = [0.95, 0.946, 0.94, 0.936, 0.93, 0.926, 0.92, 0.915, 0.91, 0.906];
    const trend = linearTrend(values)!;
    expect(trend.slope).toBeLessThan(0);
    expect(trend.ci[1]).toBeLessThan(0);
    expect(trend.significant).toBe(true);
    expect(trend.change).toBeCloseTo(-0.045, 3);
    expect(linearTrend([0.9, 0.8])).toBeNull();
  });

  it('finds no trend in values symmetric about their middle, whatever they are', () => {
    fc.assert(
      fc.property(fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 2, maxLength: 20 }), (half) => {
        const trend = linearTrend([...half, ...[...half].reverse()])!;
        expect(trend.slope).toBeCloseTo(0, 9);
        expect(trend.significant).toBe(false);
      }),
    );
  });
});

describe('appendRun', () => {
  it('keeps the newest 100 runs, oldest first, one point per commit', () => {
    let history = EMPTY_HISTORY;
    for (let i = 0; i < 130; i++) history = appendRun(history, entry(i, 0.9));
    expect(history.runs).toHaveLength(100);
    expect(history.runs[0]!.commit).toBe(entry(30, 0).commit);
    expect(history.runs.at(-1)!.commit).toBe(entry(129, 0).commit);
    const rerun = appendRun(history, entry(129, 0.5));
    expect(rerun.runs).toHaveLength(100);
    expect(rerun.runs.at(-1)!.metrics.retrieval_ok!.value).toBe(0.5);
    expect(series(rerun, 'retrieval_ok', 3).map((p) => p.value)).toEqual([0.9, 0.9, 0.5]);
  });
});
