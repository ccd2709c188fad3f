import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { BUNDLED_ACTION, BUNDLED_CLI, BUNDLES } from './helpers/bundles.js';
import { ROOT, scratchDir } from './helpers/cli.js';

const scratch = scratchDir();
afterAll(() => scratch.cleanup());

// Preloaded into the child: the next write to stdout throws, as a bug of ours would. Bad input cannot reach
// the CLI's internal-error path, which is the point of it.
const sabotage = pathToFileURL(scratch.file('sabotage.mjs', "process.stdout.write = () => { throw new Error('sabotaged'); };\n")).href;

/** `node --import sabotage FILE ARGV` from the repository root, with only PATH from this environment. */
function runSabotaged(file: string, argv: readonly string[]): { code: number | null; stderr: string } {
  // No NODE_OPTIONS: --enable-source-maps there would map the stack whatever dist/ does.
  const result = spawnSync(process.execPath, ['--import', sabotage, file, ...argv], { cwd: ROOT, encoding: 'utf8', env: { PATH: process.env.PATH } });
  if (result.error) throw result.error;
  return { code: result.status, stderr: result.stderr };
}

/** The file and line of each `at … (file:line:column)` stack frame, node: internals left out. */
function frames(stack: string): { file: string; line: number }[] {
  return [...stack.matchAll(/^\s+at (?:async )?(?:.* \()?(.+?):(\d+):\d+\)?$/gm)]
    .map(([, file = '', line = '']) => ({ file, line: Number(line) }))
    .filter(({ file }) => !file.startsWith('node:'));
}

/** The text of a line of a file under the repository root. */
const sourceLine = (file: string, line: number) => readFileSync(file, 'utf8').split('\n')[line - 1] ?? '';

/** Frames still in a bundle of dist/ (none when the stack was mapped). */
const inDist = (stderr: string) => frames(stderr).filter(({ file }) => file.startsWith(BUNDLES) || file.includes('/dist/'));

describe('stack traces from dist/ point into src/', () => {
  it('the CLI: an internal error prints a stack through src/cli.ts and src/frontends/, not the bundle', () => {
    const run = runSabotaged(BUNDLED_CLI, ['eval', '--results', 'examples/head.jsonl']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^rag-gate: internal error: Error: sabotaged\n/);
    const ours = frames(run.stderr).filter(({ file }) => !file.startsWith('file:'));
    expect(ours.length).toBeGreaterThan(2);
    for (const { file } of ours) expect(file.startsWith(join(ROOT, 'src')) || file.startsWith(join(ROOT, 'node_modules'))).toBe(true);
    const entry = ours.find(({ file }) => file === join(ROOT, 'src/cli.ts'));
    expect(entry && sourceLine(entry.file, entry.line)).toContain('stream.write(text)');
    expect(ours.some(({ file }) => file.startsWith(join(ROOT, 'src/frontends/cli/')))).toBe(true);
    expect(inDist(run.stderr)).toEqual([]);
  });

  it("the action: an error in reporting the outcome prints a stack through src/main.ts (the entry's run())", () => {
    const run = runSabotaged(BUNDLED_ACTION, []);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^rag-gate: internal error: Error: sabotaged\n/);
    const entry = frames(run.stderr).find(({ file }) => file === join(ROOT, 'src/main.ts'));
    expect(entry && sourceLine(entry.file, entry.line)).toContain('setFailed');
    expect(inDist(run.stderr)).toEqual([]);
  });

  // The control: the map next to the bundle is what maps them, so the tests above cannot pass without it.
  it('the bundle without its source map gives bundle locations', () => {
    const copy = scratch.file('cli.js', readFileSync(BUNDLED_CLI, 'utf8'));
    scratch.file('package.json', readFileSync(join(BUNDLES, 'package.json'), 'utf8'));
    const run = runSabotaged(copy, ['eval', '--results', 'examples/head.jsonl']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^rag-gate: internal error: Error: sabotaged\n/);
    expect(frames(run.stderr).some(({ file }) => file === copy)).toBe(true);
    expect(run.stderr).not.toMatch(/\/src\/.*\.ts:/);
  });
});
