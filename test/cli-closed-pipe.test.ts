import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { DIST_CLI, ROOT } from './helpers/cli.js';

/**
 * `rag-gate compare … | head -c 1`, through a real pipe (a child's stdio from Node is a socket pair, whose buffer
 * would take the whole output): `head` reads a byte and exits, and the CLI still has most of its 139 kB to write.
 * The run must end with its own exit code (the examples compared the other way round pass: 0; the crash was 1),
 * with nothing on stderr.
 */
function throughHead(argv: readonly string[], bytes: number): { code: number; stderr: string; stdout: string } {
  const script = '"$@" | head -c "$BYTES"; echo "exit ${PIPESTATUS[0]}" >&2';
  const result = spawnSync('bash', ['-c', script, 'bash', process.execPath, DIST_CLI, ...argv], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, BYTES: String(bytes) },
  });
  const [, code] = /exit (\d+)\n$/.exec(result.stderr) ?? [];
  return { code: Number(code), stderr: result.stderr.replace(/exit \d+\n$/, ''), stdout: result.stdout };
}

const EXAMPLE = ['compare', '--base', 'examples/head.jsonl', '--head', 'examples/base.jsonl', '--json'];

describe('the CLI when its reader closes the pipe', () => {
  it('stops writing and exits with the verdict, not a write error', () => {
    const run = throughHead(EXAMPLE, 1);
    expect(run.stdout).toBe('{');
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
  });

  it('exits with the same code when the whole output is read', () => {
    const run = throughHead(EXAMPLE, 1_000_000);
    expect(run.stdout.length).toBeGreaterThan(100_000);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
  });
});
