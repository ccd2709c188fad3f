import { existsSync, writeFileSync } from 'node:fs';
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

  it.each([
    [['eval', '--results', 'absent.jsonl'], 'results'],
    [['split', '--golden', 'absent.jsonl'], 'golden'],
    [['holdout', '--results', 'absent.jsonl'], 'results'],
    [['monitor', '--logs', 'absent.jsonl'], 'logs'],
    [['monitor', 'sample', '--logs', 'absent.jsonl'], 'logs'],
  ])("%j --print-config prints the command's settings and runs nothing", async (argv, setting) => {
    const out = join(tempDir(), 'sample.jsonl');
    const run = await runCli([...argv, ...(argv[1] === 'sample' ? ['--out', out] : []), '--print-config']);
    // Had it run, each command would have failed on its missing file (exit 2), and sample written its file.
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toBe('');
    expect(
      run.stdout
        .split('\n')[0]!
        .trim()
        .split(/\s{2,}/),
    ).toEqual(['setting', 'value', 'from']);
    const flag = argv.at(-2)!;
    expect(run.stdout).toMatch(new RegExp(`^\\s*${setting}\\s{2,}absent\\.jsonl\\s{2,}${flag}$`, 'm'));
    expect(existsSync(out)).toBe(false);
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

describe('a hostile config file is bad input, named by file and line, never an internal error', () => {
  /** The CLI's whole stderr for a config file with this text: exit 2 and one problem, no stack trace. */
  async function badConfig(text: string | Buffer): Promise<{ file: string; stderr: string }> {
    const file = join(tempDir(), 'rag-gate.yml');
    writeFileSync(file, text);
    const run = await runCli(['eval', '--config', file, '--results', example('head.jsonl')]);
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).not.toMatch(/internal error|^\s+at /m);
    return { file, stderr: run.stderr };
  }

  it('an alias bomb ("billion laughs"): refused at the first anchor past 10,000 values, before anything expands it', async () => {
    const levels = ['lol0: &lol0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]'];
    for (let i = 1; i <= 9; i++)
      levels.push(
        `lol${i}: &lol${i} [${Array(9)
          .fill(`*lol${i - 1}`)
          .join(', ')}]`,
      );
    const { file, stderr } = await badConfig(`alpha: 0.05\n${levels.join('\n')}\n`);
    // lol4 stands for 1 + 9 × 820 nodes.
    expect(stderr).toBe(
      `rag-gate: error: bad input\n${file}:6: with its aliases expanded, holds more than 10,000 values (an alias bomb?); a config file needs a few dozen\n`,
    );
  });

  it('an alias chain that nests deeper than 32 levels once expanded', async () => {
    const chain = ['a0: &a0 [x]', ...Array.from({ length: 40 }, (_, i) => `a${i + 1}: &a${i + 1} [*a${i}]`)];
    const { file, stderr } = await badConfig(`${chain.join('\n')}\n`);
    // a30, on line 31: the map, its list and 30 lists in one another down to x are 33 levels.
    expect(stderr).toBe(`rag-gate: error: bad input\n${file}:31: with its aliases expanded, nests more than 32 levels deep; a config file needs 5\n`);
  });

  it("an alias count past yaml's own guard (maxAliasCount 100), though small once expanded: the first alias's line", async () => {
    const text = `b: &b [x]\na: &a [*b, *b]\nk: [${Array(51).fill('*a').join(', ')}]\n`;
    const { file, stderr } = await badConfig(text);
    expect(stderr).toBe(`rag-gate: error: bad input\n${file}:2: not valid YAML: Excessive alias count indicates a resource exhaustion attack\n`);
  });

  it('an alias with no anchor, and one inside the node it names', async () => {
    expect((await badConfig('alpha: 0.05\nk: *nowhere\n')).stderr).toMatch(/rag-gate\.yml:2: the alias \*nowhere has no anchor &nowhere before it\n$/);
    expect((await badConfig('k: &loop [1, *loop]\n')).stderr).toMatch(
      /rag-gate\.yml:1: the alias \*loop is inside the node it names, which would never end\n$/,
    );
  });

  it('block nesting past 32 levels: the line where it passes', async () => {
    const text = Array.from({ length: 40 }, (_, depth) => `${'  '.repeat(depth)}k${depth}:`).join('\n') + ' x\n';
    const { file, stderr } = await badConfig(text);
    expect(stderr).toBe(`rag-gate: error: bad input\n${file}:32: nests more than 32 levels deep; a config file needs 5\n`);
  });

  it('flow nesting deep enough to overflow the YAML reader: the same words, not its RangeError', async () => {
    const { file, stderr } = await badConfig(`alpha: 0.05\nk: ${'['.repeat(20_000)}${']'.repeat(20_000)}\n`);
    expect(stderr).toMatch(
      new RegExp(`^rag-gate: error: bad input\\n${file.replace(/[.\\]/g, '\\$&')}:2: nests more than 32 levels deep; a config file needs 5\\n`),
    );
    expect(stderr).not.toContain('call stack');
  });

  it('a file over 1 MiB: refused unread, naming the line that passes the limit', async () => {
    const line = `# ${'x'.repeat(1021)}\n`; // 1 KiB
    const { file, stderr } = await badConfig(`alpha: 0.05\n${line.repeat(1100)}`);
    // 12 bytes, then 1023 full lines of comment: the 1 MiB mark falls in line 1025.
    expect(stderr).toBe(
      `rag-gate: error: bad input\n${file}:1025: is over 1 MiB (1,048,576 bytes), the most a config file may hold (a real one holds a few kB); it passes that on this line\n`,
    );
  });

  it('a file of exactly 1 MiB is read', async () => {
    const head = 'alpha: 0.05\n';
    const file = join(tempDir(), 'rag-gate.yml');
    writeFileSync(file, head + '#'.repeat(1024 * 1024 - head.length - 1) + '\n');
    const run = await runCli(['eval', '--config', file, '--results', example('head.jsonl')]);
    expect(run.code, run.stderr).toBe(0);
  });
});
