import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BUNDLED_CLI } from '../helpers/bundles.js';
import { ROOT, scratchDir } from '../helpers/cli.js';

/**
 * The README's quick start, run as written on the shipped Ragas export: its commands are read from README.md, so
 * the README and this test cannot drift. Its file names stand for the export's files (results.csv is a run, the
 * head), and files it writes go to a scratch folder, the working directory of every command.
 */
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');
const scratch = scratchDir();
afterAll(() => scratch.cleanup());

const FILES: Readonly<Record<string, string>> = {
  'results.csv': join(ROOT, 'examples/ragas/head.csv'),
  'base.csv': join(ROOT, 'examples/ragas/base.csv'),
  'head.csv': join(ROOT, 'examples/ragas/head.csv'),
  'comment.md': join(scratch.dir, 'comment.md'),
  'rag-gate.yml': join(scratch.dir, 'rag-gate.yml'),
};

/** The quick start's `npx rag-gate` commands (table cells and shell blocks), in order, with their comments cut. */
function quickStartCommands(): string[] {
  const start = README.indexOf('## Quick start');
  const section = README.slice(start, README.indexOf('### The workflow', start));
  return [...section.matchAll(/npx rag-gate ([^`#\n]*)/g)].map((match) => match[1]!.trim());
}

/** The commands whose files are all the export's: the others name another tool's files. */
function runnable(command: string): string[] | undefined {
  const words = command.split(/\s+/);
  const files = words.filter((word) => /\.\w+$/.test(word) && !word.startsWith('-'));
  if (!files.every((file) => file in FILES)) return undefined;
  return words.map((word) => FILES[word] ?? word);
}

function rag(argv: readonly string[]): { code: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [BUNDLED_CLI, ...argv], { cwd: scratch.dir, encoding: 'utf8' });
  if (result.error) throw result.error;
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe("the README's quick start on examples/ragas", () => {
  it('runs as written and gives the verdicts the README states', { timeout: 120_000 }, () => {
    const commands = quickStartCommands();
    const runs = commands.flatMap((command) => {
      const argv = runnable(command);
      return argv === undefined ? [] : [{ command, ...rag(argv) }];
    });
    // Every kind of command the quick start shows ran: a change that drops one fails here.
    expect(runs.map((run) => run.command)).toEqual([
      'eval --results results.csv',
      'eval --results results.csv',
      'compare --base base.csv --head head.csv',
      'compare --base base.csv --head head.csv --markdown comment.md',
      'init --results results.csv',
      'compare --base base.csv --head head.csv --config rag-gate.yml',
    ]);
    const [evalRun, , compare, markdown, init, configured] = runs;

    expect(evalRun!.code, evalRun!.stderr).toBe(0);
    expect(evalRun!.stdout).toMatch(/: 40 questions\n/);
    expect(evalRun!.stdout).toContain('scores from the results, not calibrated here: faithfulness, answer_relevancy, context_precision, context_recall');

    // "exit 0 pass, 1 the gate failed": the export's head is a regression.
    expect(compare!.code, compare!.stderr).toBe(1);
    const drop = /end-to-end regressed significantly: correct (\d\.\d+) → (\d\.\d+), (\d+) broken vs (\d+) fixed/.exec(compare!.stdout);
    expect(drop, compare!.stdout).not.toBeNull();
    const [, before, after, broken, fixed] = drop!;
    expect([before, after, broken, fixed]).toEqual(['0.950', '0.725', '10', '1']);
    // The README's sentence about the export states these numbers.
    expect(README).toContain(`end-to-end correctness ${before} → ${after} (${broken} questions\nbroken, ${fixed} fixed)`);
    expect(compare!.stdout).toContain('cannot gate retrieval: no paired question carries its outcome in both runs');

    expect(markdown!.code).toBe(1);
    expect(readFileSync(FILES['comment.md']!, 'utf8')).toContain('What time does the Northbrook Library open on weekdays?');

    expect(init!.code, init!.stderr).toBe(0);
    expect(existsSync(FILES['rag-gate.yml']!)).toBe(true);
    expect(existsSync(join(scratch.dir, '.github/workflows/rag-gate.yml'))).toBe(true);
    expect(init!.stdout).toContain("The file's context_recall score stands in for it");

    // "init gates Ragas' context_recall in place of retrieval": both gates fail, Holm-corrected over the two.
    expect(configured!.code, configured!.stderr).toBe(1);
    expect(configured!.stdout).toMatch(/the score context_recall \(not calibrated here, gated because fail-on names it\) regressed significantly/);
    expect(configured!.stdout).toMatch(/end-to-end regressed significantly: correct 0\.950 → 0\.725, 10 broken vs 1 fixed, p = 0\.0117, Holm-adjusted 0\.0234/);
    expect(configured!.stdout).not.toContain('cannot gate retrieval');
  });
});
