import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../../helpers/cli.js';
import { runCli, tempDir } from '../../helpers/files.js';

const example = (name: string) => join(ROOT, 'examples', name);
const RUNS = ['--base', example('base.jsonl'), '--head', example('head.jsonl')];

describe('the config file on the command line', () => {
  it('drives the demo the same way flags do', async () => {
    const fromFile = await runCli(['compare', '--config', example('rag-gate.yml'), ...RUNS, '--json']);
    const fromFlags = await runCli(['compare', '--retrieval-ok', 'recall@5>=1', '--fail-on', 'retrieval,end-to-end', ...RUNS, '--json']);
    expect(fromFile.code, fromFile.stderr).toBe(1);
    expect(fromFile.stdout).toBe(fromFlags.stdout);
    expect(JSON.parse(fromFile.stdout).head.config.retrievalOk).toBe('recall@5>=1');
  });

  it('--print-config shows every setting, its value and where it came from, and runs nothing', async () => {
    const run = await runCli([
      'compare',
      '--config',
      example('rag-gate.yml'),
      '--alpha',
      '0.01',
      '--floor',
      'recall@5=0.8',
      '--floor',
      'correct>=0.5',
      '--print-config',
    ]);
    expect(run.code, run.stderr).toBe(0);
    const rows = new Map(
      run.stdout
        .trim()
        .split('\n')
        .slice(1)
        .map((line) => line.trim().split(/\s{2,}/) as [string, string, string])
        .map(([name, value, from]) => [name, { value, from }]),
    );
    expect(rows.get('retrieval-ok')).toEqual({ value: 'recall@5>=1', from: `${example('rag-gate.yml')}:5` });
    expect(rows.get('alpha')).toEqual({ value: '0.01', from: '--alpha' });
    expect(rows.get('floors')).toEqual({ value: 'recall@5=0.8, correct>=0.5', from: '--floor' });
    expect(rows.get('k')).toEqual({ value: '1,3,5,10', from: 'default' });
    expect(rows.get('results')).toEqual({ value: '(none)', from: 'default' });
    expect(rows.has('github-token')).toBe(false);
  });

  it('names the flag of a bad value and exits 2', async () => {
    const run = await runCli(['compare', ...RUNS, '--alpha', '2', '--k', 'x']);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      'rag-gate: error: option --k: "x" is not a comma list of positive whole numbers such as 1,3,5,10\noption --alpha: alpha must be a number between 0 and 1, got "2"\n',
    );
  });

  it('names file, line and key of a bad config value and exits 2', async () => {
    const file = join(tempDir(), 'gate.yml');
    writeFileSync(file, 'k: 1,5\nfail-on: speed\n');
    const run = await runCli(['eval', '--config', file, '--results', example('head.jsonl')]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`${file}:2: fail-on: "speed" is not a gate; use a comma list of retrieval, end-to-end, generation, refusal`);
  });

  it('takes the results from the file of the selected gate section', async () => {
    const file = join(tempDir(), 'rag-gate.yml');
    writeFileSync(file, `gates:\n  search:\n    results: ${example('head.jsonl')}\n    baseline: ${example('base.jsonl')}\n    retrieval-ok: recall@5>=1\n`);
    const run = await runCli(['compare', '--config', file, '--comment-tag', 'search', '--json']);
    expect(run.code, run.stderr).toBe(1);
    expect(JSON.parse(run.stdout).head.config.retrievalOk).toBe('recall@5>=1');
  });
});
