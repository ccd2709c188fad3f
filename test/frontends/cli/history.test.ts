import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, tempDir } from '../../helpers/files.js';

function historyFile(values: readonly number[]): string {
  const file = join(tempDir(), 'history.json');
  const runs = values.map((value, i) => ({
    commit: `${String(i).padStart(7, '0')}abcdef`,
    date: `2026-02-${String(i + 1).padStart(2, '0')}T12:00:00.000Z`,
    n: 212,
    metrics: { retrieval_ok: { value, n: 180, ci: [value - 0.04, value + 0.03] }, correct: { value: 0.77, n: 212 } },
  }));
  writeFileSync(file, JSON.stringify({ version: 1, runs }));
  return file;
}

describe('rag-gate history', () => {
  it('prints the runs with their metrics and intervals, reads the trend, and writes an SVG chart', async () => {
    const file = historyFile([0.95, 0.945, 0.94, 0.934, 0.93, 0.925, 0.92, 0.914, 0.91, 0.905]);
    const svg = join(tempDir(), 'chart.svg');
    const { code, stdout, stderr } = await runCli(['history', '--history', file, '--svg', svg]);
    expect(code, stderr).toBe(0);
    const lines = stdout.split('\n');
    expect(lines[0]).toBe(`10 runs in ${file}`);
    expect(lines[1]!.trim().split(/\s{2,}/)).toEqual(['commit', 'date', 'n', 'retrieval_ok', 'correct']);
    expect(lines[2]!.trim().split(/\s{2,}/)).toEqual(['0000000', '2026-02-01', '212', '0.950 [0.910, 0.980]', '0.770']);
    expect(stdout).toMatch(/Retrieval ok \(the retrieval-ok rule\) has fallen 4\.\d points over the last 10 runs .*: a significant decline\./);
    expect(stdout).toMatch(/End-to-end correctness shows no significant trend over the last 10 runs \(least-squares slope 0\.00 points a run.*\)\./);
    expect(readFileSync(svg, 'utf8').match(/<polyline /g)).toHaveLength(2);
  });

  it('prints the history and the trends as JSON', async () => {
    const { code, stdout } = await runCli(['history', '--history', historyFile([0.9, 0.9, 0.9]), '--json']);
    expect(code).toBe(0);
    const json = JSON.parse(stdout);
    expect(json.runs).toHaveLength(3);
    expect(json.trends.retrieval_ok).toMatchObject({ points: 3, significant: false });
  });

  it('rejects a history that is not one, naming the file and the field (exit 2), and writes nothing', async () => {
    const dir = tempDir();
    const bad = join(dir, 'history.json');
    writeFileSync(bad, JSON.stringify({ version: 1, runs: [{ commit: '<img src=x>', date: '2026-01-01', n: 1, metrics: {} }] }));
    const svg = join(dir, 'chart.svg');
    const { code, stderr } = await runCli(['history', '--history', bad, '--svg', svg]);
    expect(code).toBe(2);
    expect(stderr).toContain(bad);
    expect(stderr).toContain('runs.0.commit');
    expect(stderr).toContain('must be a commit hash');
    expect(existsSync(svg)).toBe(false);
    expect((await runCli(['history', '--history', join(dir, 'missing.json')])).code).toBe(2);
  });
});
