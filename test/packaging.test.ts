import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, scratchDir } from './helpers/cli.js';

/**
 * The package as npm publishes it: packed, installed from the tarball into an empty project with no network
 * (it has no dependencies), and run through npx there, as a user would.
 */

const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };

const scratch = scratchDir();
afterAll(() => scratch.cleanup());

interface Run {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** `npm`/`npx` in `cwd`, as from a shell: without the npm_* variables of the `npm test` that runs this. */
function run(command: 'npm' | 'npx', args: readonly string[], cwd: string): Promise<Run> {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_/i.test(name)));
  return new Promise((resolve, reject) => {
    // npm is slow on a busy machine: the timeout only stops a hung child.
    const child = spawn(command, args, { cwd, env, timeout: 300_000 });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** `npx rag-gate ARGV` in the consumer project, never installing anything (`--no`): only the tarball's copy runs. */
const ragGate = (argv: readonly string[]) => run('npx', ['--offline', '--no', '--', 'rag-gate', ...argv], consumer);

let packedFiles: string[];
let consumer: string;

beforeAll(async () => {
  const packed = await run('npm', ['pack', '--json', '--pack-destination', scratch.dir], ROOT);
  expect(packed.code, packed.stderr).toBe(0);
  const [entry] = JSON.parse(packed.stdout) as { filename: string; files: { path: string }[] }[];
  if (entry === undefined) throw new Error(`npm pack --json printed no package: ${packed.stdout}`);
  packedFiles = entry.files.map((file) => file.path).sort();

  consumer = join(scratch.dir, 'consumer');
  mkdirSync(consumer);
  writeFileSync(join(consumer, 'package.json'), JSON.stringify({ name: 'consumer', version: '1.0.0', private: true }));
  const installed = await run('npm', ['install', '--offline', '--no-audit', '--no-fund', join(scratch.dir, entry.filename)], consumer);
  expect(installed.code, installed.stderr).toBe(0);
}, 900_000);

describe('the npm package', () => {
  it('holds the CLI, its source map and package.json (CommonJS), README, CHANGELOG, LICENSE and package.json, nothing else', () => {
    expect(packedFiles).toEqual(['CHANGELOG.md', 'LICENSE', 'README.md', 'dist/cli.js', 'dist/cli.js.map', 'dist/package.json', 'package.json']);
  });

  // The README's `npm install --save-dev github:rag-gate/rag-gate#v0`: npm packs the tag's tree with the same
  // `files`, and runs a build only when a lifecycle script asks for one.
  it('installs from a git tag as from the registry: every packed file is committed, and no script builds on install', () => {
    const tracked = spawnSync('git', ['ls-files', '--error-unmatch', ...packedFiles], { cwd: ROOT, encoding: 'utf8' });
    expect(tracked.status, tracked.stderr).toBe(0);
    const { scripts } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    const onInstall = ['preinstall', 'install', 'postinstall', 'prepare', 'prepack', 'postpack'].filter((name) => name in scripts);
    expect(onInstall).toEqual([]);
  });

  it('has no dependencies to install', () => {
    const manifest = JSON.parse(readFileSync(join(consumer, 'node_modules/rag-gate/package.json'), 'utf8')) as Record<string, unknown>;
    expect(manifest.version).toBe(version);
    expect(manifest).not.toHaveProperty('private');
    expect(manifest).not.toHaveProperty('dependencies');
    expect(manifest.bin).toEqual({ 'rag-gate': 'dist/cli.js' });
  });

  it('npx rag-gate --version prints the package version', { timeout: 600_000 }, async () => {
    const result = await ragGate(['--version']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toBe(`${version}\n`);
  });

  it('npx rag-gate compare fails the gate on the example regression, exit 1', { timeout: 600_000 }, async () => {
    const example = (name: string) => join(ROOT, 'examples', name);
    const result = await ragGate(['compare', '--base', example('base.jsonl'), '--head', example('head.jsonl'), '--retrieval-ok', 'recall@5>=1']);
    expect(result.code, result.stderr).toBe(1);
    expect(result.stdout).toMatch(/^rag-gate compare: FAIL\n/);
  });
});
