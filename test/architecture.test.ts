import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cruise, type ICruiseResult } from 'dependency-cruiser';
import { describe, expect, it } from 'vitest';
import { tempDir } from './helpers/files.js';
import { ROOT } from './helpers/cli.js';

/**
 * The dependency rule of the README's architecture section, as `npm run lint` enforces it: the real source tree
 * passes, and a tree with a planted upward import, a node: import in the core or a cycle fails with that rule.
 */

// The rules are read the way `depcruise --config` reads them.
const config = (await import(join(ROOT, '.dependency-cruiser.cjs'))).default as { forbidden: object[]; options: object };

async function violations(cwd: string): Promise<string[]> {
  const previous = process.cwd();
  process.chdir(cwd);
  try {
    const result = await cruise(['src'], { ...config.options, validate: true, ruleSet: { forbidden: config.forbidden } } as never);
    const output = result.output as ICruiseResult;
    return output.summary.violations.map((v) => `${v.rule.name}: ${v.from} → ${v.to}`);
  } finally {
    process.chdir(previous);
  }
}

/** A copy of the real tree, with `plant` written into it. */
function treeWith(plant: Record<string, string>): string {
  const dir = tempDir();
  cpSync(join(ROOT, 'src'), join(dir, 'src'), { recursive: true });
  cpSync(join(ROOT, 'tsconfig.json'), join(dir, 'tsconfig.json'));
  for (const [file, text] of Object.entries(plant)) {
    mkdirSync(join(dir, file, '..'), { recursive: true });
    writeFileSync(join(dir, file), text);
  }
  return dir;
}

describe('the dependency rule', () => {
  it('holds for the source tree', async () => {
    expect(await violations(ROOT)).toEqual([]);
  });

  it('fails on an upward import from the core', async () => {
    const dir = treeWith({ 'src/core/planted.ts': "import { renderComment } from '../render/markdown.js';\nexport const planted = renderComment;\n" });
    expect(await violations(dir)).toContain('core-is-pure: src/core/planted.ts → src/render/markdown.ts');
  });

  it('fails on a node: module in the core', async () => {
    const dir = treeWith({ 'src/core/planted.ts': "import { readFileSync } from 'node:fs';\nexport const planted = readFileSync;\n" });
    expect((await violations(dir)).some((v) => v.startsWith('core-uses-no-node-builtins: src/core/planted.ts'))).toBe(true);
  });

  it('fails on a source importing a renderer, and on one front end importing the other', async () => {
    const dir = treeWith({
      'src/sources/planted.ts': "import { renderComment } from '../render/markdown.js';\nexport const planted = renderComment;\n",
      'src/frontends/cli/planted.ts': "import { runAction } from '../github/run.js';\nexport const planted = runAction;\n",
    });
    const found = await violations(dir);
    expect(found).toContain('sources-below-adapters: src/sources/planted.ts → src/render/markdown.ts');
    expect(found).toContain('no-frontend-to-frontend: src/frontends/cli/planted.ts → src/frontends/github/run.ts');
  });

  it('fails on a front end importing a renderer instead of publishing the pipeline’s report', async () => {
    const dir = treeWith({
      'src/frontends/github/planted.ts': "import { renderComment } from '../../render/markdown.js';\nexport const planted = renderComment;\n",
    });
    expect(await violations(dir)).toContain('frontends-publish-pipeline-words: src/frontends/github/planted.ts → src/render/markdown.ts');
  });

  it('fails on a cycle', async () => {
    const dir = treeWith({
      'src/core/planted-a.ts': "import { b } from './planted-b.js';\nexport const a = () => b;\n",
      'src/core/planted-b.ts': "import { a } from './planted-a.js';\nexport const b = () => a;\n",
    });
    expect((await violations(dir)).some((v) => v.startsWith('no-cycle: src/core/planted-a.ts'))).toBe(true);
  });

  it('fails on the catalog importing scoring, and on a measure importing the catalog', async () => {
    const dir = treeWith({
      'src/core/catalog/planted.ts': "import { summarizeRun } from '../scoring/summary.js';\nexport const planted = summarizeRun;\n",
      'src/core/measures/planted.ts': "import { ANSWER_METRICS } from '../catalog/metrics.js';\nexport const planted = ANSWER_METRICS;\n",
    });
    const found = await violations(dir);
    expect(found).toContain('catalog-below-scoring: src/core/catalog/planted.ts → src/core/scoring/summary.ts');
    expect(found).toContain('measures-below-catalog: src/core/measures/planted.ts → src/core/catalog/metrics.ts');
  });

  it('fails on the catalog importing a feature module', async () => {
    const dir = treeWith({ 'src/core/catalog/planted.ts': "import { cutWindows } from '../monitor/windows.js';\nexport const planted = cutWindows;\n" });
    expect(await violations(dir)).toContain('catalog-below-features: src/core/catalog/planted.ts → src/core/monitor/windows.ts');
  });
});
