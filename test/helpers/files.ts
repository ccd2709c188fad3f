import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../../src/frontends/cli/main.js';

/** A fresh temporary directory for one test's files. */
export function tempDir(): string {
  return mkdtempSync(join(tmpdir(), 'rag-gate-test-'));
}

/** Writes records as JSON Lines and returns the path. */
export function writeJsonl(dir: string, name: string, records: readonly object[]): string {
  const file = join(dir, name);
  writeFileSync(file, records.map((record) => JSON.stringify(record)).join('\n') + '\n');
  return file;
}

/** Runs the CLI in-process and captures what it prints. */
export async function runCli(argv: readonly string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await main(argv, { stdout: (text) => (stdout += text), stderr: (text) => (stderr += text) });
  return { code, stdout, stderr };
}
