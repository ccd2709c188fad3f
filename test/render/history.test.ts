import type { Code, Root, RootContent } from 'mdast';
import { beforeEach, describe, expect, it } from 'vitest';
import { appendRun, EMPTY_HISTORY, type History, type HistoryEntry, TREND_MIN_POINTS } from '../../src/core/history/history.js';
import { historySvg, historyText, trendSection } from '../../src/render/history.js';
import { serialise } from '../../src/render/mdast.js';

const entry = (i: number, retrieval: number, correct: number): HistoryEntry => ({
  commit: `${i.toString(16).padStart(7, 'a')}${'0'.repeat(33)}`,
  date: new Date(Date.UTC(2026, 0, 1 + i)).toISOString(),
  n: 200,
  metrics: { retrieval_ok: { value: retrieval, n: 200, ci: [retrieval - 0.03, retrieval + 0.03] }, correct: { value: correct, n: 200 } },
});

function history(values: readonly [number, number][]): History {
  return values.reduce<History>((h, [r, c], i) => appendRun(h, entry(i, r, c)), EMPTY_HISTORY);
}

describe('trendSection', () => {
  const declining: [number, number][] = Array.from({ length: 12 }, (_, i) => [0.95 - i * 0.004, 0.77]);
  let section: RootContent[];
  let charts: Code[];
  beforeEach(() => {
    section = trendSection(history(declining), { retrieval_ok: 0.9, correct: 0.77 }, 'hit@5');
    charts = section.filter((n): n is Code => n.type === 'code');
  });

  it('charts each gated rate over the last 10 base runs with the PR last, the points equal to the history', () => {
    expect(charts).toHaveLength(2);
    const lines = charts[0]!.value.split('\n');
    expect(charts[0]!.lang).toBe('mermaid');
    expect(lines[0]).toBe('xychart-beta');
    const expected = declining.slice(-10).map(([r]) => (r * 100).toFixed(1));
    expect(lines.find((l) => l.trim().startsWith('line'))!.trim()).toBe(`line [${[...expected, '90.0'].join(', ')}]`);
    expect(lines.find((l) => l.trim().startsWith('x-axis'))).toMatch(/^ {2}x-axis \[(?:[0-9a-f]{7}, ){10}PR\]$/);
  });

  it('reads the trend in one line with its test, and flags a significant decline', () => {
    const reading = section.find((n) => n.type === 'paragraph');
    const text = serialise({ type: 'root', children: [reading!] } as Root);
    expect(text).toMatch(
      /^Retrieval ok \(hit\\?@5\) has fallen \d+\.\d points over the last 11 runs \(least-squares slope −\d\.\d\d points a run, 95% CI −[\d.]+ to −[\d.]+\): a significant decline\.\n$/,
    );
    const flat = serialise({ type: 'root', children: section.filter((n) => n.type === 'paragraph').slice(1) } as Root);
    expect(flat).toBe(
      'End-to-end correctness shows no significant trend over the last 11 runs (least-squares slope 0.00 points a run, 95% CI 0.00 to 0.00).\n',
    );
  });

  it('reads a trend that is not significant as no fall or rise, however far the line moved', () => {
    // 3 base runs and the PR: the fitted line falls 21 points (slope −7 a run, t on 2 df: ± 4.303 · 6.36), within the noise.
    const section = trendSection(
      history([
        [0.95, 0.8],
        [0.7, 0.8],
        [0.9, 0.8],
      ]),
      { retrieval_ok: 0.65 },
      'hit@5',
    );
    const reading = serialise({ type: 'root', children: section.filter((n) => n.type === 'paragraph').slice(0, 1) } as Root);
    expect(reading).toBe(
      'Retrieval ok (hit\\@5) shows no significant trend over the last 4 runs (least-squares slope −7.00 points a run, 95% CI −34.38 to 20.38).\n',
    );
    expect(reading).not.toMatch(/fallen|risen|held steady/);
  });

  it("shows nothing for a metric the history lacks, and no reading below the trend test's fewest points", () => {
    expect(TREND_MIN_POINTS).toBe(3);
    expect(trendSection(EMPTY_HISTORY, { retrieval_ok: 0.9 }, 'hit@5')).toEqual([]);
    // One base run and the PR: the runs are charted, with no trend words at all.
    const two = trendSection(history([[0.9, 0.8]]), { retrieval_ok: 0.5 }, 'hit@5');
    expect(two.map((n) => n.type)).toEqual(['code']);
    expect(serialise({ type: 'root', children: two } as Root)).not.toMatch(/trend|fallen|risen|steady|points/);
  });
});

describe('trendSection with what a question cost', () => {
  /** Runs whose p95 latency rises 100 ms a run from 1.5 s, and whose cost a question stays at $0.002. */
  const usage = (i: number): HistoryEntry => ({
    ...entry(i, 0.9, 0.8),
    metrics: { ...entry(i, 0.9, 0.8).metrics, latency_p95: { value: 1500 + 100 * i, n: 200 }, cost_per_question: { value: 0.002, n: 200 } },
  });
  let section: RootContent[];
  beforeEach(() => {
    const h = Array.from({ length: 6 }, (_, i) => usage(i)).reduce<History>((acc, run) => appendRun(acc, run), EMPTY_HISTORY);
    section = trendSection(h, { retrieval_ok: 0.9, correct: 0.8, latency_p95: 2100, cost_per_question: 0.002 }, 'hit@5');
  });

  it('charts p95 latency in ms and cost a question in dollars beside the rates, each on its own axis', () => {
    const charts = section.filter((n): n is Code => n.type === 'code').map((chart) => chart.value.split('\n'));
    expect(charts).toHaveLength(4);
    const [latency, cost] = charts.slice(2);
    expect(latency![1]).toBe('  title "p95 latency (ms), the last 6 runs of the base branch and this PR"');
    expect(latency![3]).toBe('  y-axis "ms" 1400 --> 2300');
    expect(latency![4]).toBe('  line [1500, 1600, 1700, 1800, 1900, 2000, 2100]');
    expect(cost![3]).toBe('  y-axis "USD" 0.0018 --> 0.0022');
  });

  it('reads the rise in milliseconds', () => {
    const text = serialise({ type: 'root', children: section.filter((n) => n.type === 'paragraph') } as Root);
    expect(text).toContain(
      'P95 latency has risen 600 ms over the last 7 runs (least-squares slope 100 ms a run, 95% CI 100 ms to 100 ms): a significant rise.',
    );
    expect(text).toContain('Cost a question shows no significant trend over the last 7 runs');
  });
});

describe('historyText and historySvg', () => {
  let h: History;
  beforeEach(() => {
    h = history([
      [0.95, 0.77],
      [0.94, 0.76],
      [0.93, 0.75],
    ]);
  });

  it('tabulates each run with its metrics and intervals', () => {
    const lines = historyText(h, ['retrieval_ok', 'correct']).split('\n');
    expect(lines[0]!.trim().split(/\s{2,}/)).toEqual(['commit', 'date', 'n', 'retrieval_ok', 'correct']);
    expect(lines[1]!.trim().split(/\s{2,}/)).toEqual(['aaaaaa0', '2026-01-01', '200', '0.950 [0.920, 0.980]', '0.770']);
    expect(lines).toHaveLength(4);
  });

  it('draws one polyline per metric with a point per run', () => {
    const svg = historySvg(h, ['retrieval_ok', 'correct'], 'a <title>');
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
    expect(svg.match(/<polyline /g)).toHaveLength(2);
    expect(svg.match(/<circle /g)).toHaveLength(6);
    expect(svg).toContain('a &lt;title&gt;');
  });
});
