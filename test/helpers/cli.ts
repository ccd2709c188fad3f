import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { main } from '../../src/frontends/cli/main.js';
import { BUNDLED_CLI } from './bundles.js';

/** The repository root (tests run the bundled CLI from here). */
export const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** The bundled CLI, built by test/global-setup.ts before the suite runs. */
export const DIST_CLI = BUNDLED_CLI;

export interface CliRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs the CLI in-process, collecting what it writes. */
export async function runMain(argv: readonly string[]): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  const code = await main(argv, {
    stdout: (text) => {
      stdout += text;
    },
    stderr: (text) => {
      stderr += text;
    },
  });
  return { code, stdout, stderr };
}

/** Runs `node dist/cli.js ARGV` as a user would, to check the real exit code and streams. */
export function runBin(argv: readonly string[], env: NodeJS.ProcessEnv = {}): CliRun {
  const result = spawnSync(process.execPath, [DIST_CLI, ...argv], {
    cwd: ROOT,
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
    env: { ...process.env, ...env },
  });
  if (result.error) throw result.error;
  return { code: result.status ?? -1, stdout: result.stdout, stderr: result.stderr };
}

/**
 * Runs `node NODE_ARGS dist/cli.js ARGV` without blocking, so that several runs go at once; the exit code is null
 * when the process was killed (by running out of memory, say).
 */
export function spawnBin(
  argv: readonly string[],
  options: { readonly nodeArgs?: readonly string[]; readonly env?: NodeJS.ProcessEnv } = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...(options.nodeArgs ?? []), DIST_CLI, ...argv], { cwd: ROOT, env: { ...process.env, ...options.env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** A scratch directory under the OS temp dir; `cleanup` removes it. */
export function scratchDir(): { dir: string; file: (name: string, content: string | Buffer) => string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'rag-gate-test-'));
  return {
    dir,
    file: (name, content) => {
      const path = join(dir, name);
      writeFileSync(path, content);
      return path;
    },
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** JSON Lines text for records, one per line, with a final newline. */
export function jsonl(records: readonly object[]): string {
  return records.map((record) => JSON.stringify(record)).join('\n') + '\n';
}

/** Parses `eval --json` output, failing clearly if stdout is not exactly one JSON object. */
export function parseJsonOutput<T = EvalJson>(stdout: string): T {
  const parsed: unknown = JSON.parse(stdout);
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error(`stdout is not one JSON object: ${stdout}`);
  return parsed as T;
}

export interface MetricDetail {
  value: number | null;
  n: number;
  count?: number;
  ci?: [number, number];
}

/** The shape of `eval --json` as the tests read it. */
export interface EvalJson {
  questions: number;
  metrics: Record<string, number | null>;
  details: Record<string, MetricDetail>;
  excluded: { noRelevant: number; noClaims: number; unanswerable: number };
  decomposition: {
    n: number;
    r: number | null;
    gGood: number | null;
    nGood: number;
    gBad: number | null;
    nBad: number;
    e2e: number | null;
    e2eCheck: number | null;
    productModelG: number | null;
    productModelBias: number | null;
    ceiling: number | null;
    rLowerBound: number | null;
    closedBook: { onFailed: number | null; nFailed: number; all: number | null; n: number } | null;
    warnings: string[];
  };
  judgeAgreement: { kappa: number | null; observed: number; expected: number; n: number; confusion: Record<string, Record<string, number>> } | null;
  byTag: Record<string, { questions: number; metrics: Record<string, MetricDetail> }>;
  provenance: {
    idsFromQuestion: number;
    retrievalByText: number;
    correctByRule: number;
    refusedByDetector: number;
    formats: string[];
    scores: Record<string, 'number' | 'boolean'>;
  };
  scoring: string[];
  warnings: string[];
  config: { retrievalOk: string; correct: string; contextMatch: string };
}

/** `eval --json` on a file, in-process; fails the test with stderr if the exit code is not 0. */
export async function evalJson(file: string, extra: readonly string[] = []): Promise<EvalJson> {
  const run = await runMain(['eval', '--results', file, '--json', ...extra]);
  if (run.code !== 0) throw new Error(`eval exited ${run.code}: ${run.stderr}`);
  return parseJsonOutput(run.stdout);
}
