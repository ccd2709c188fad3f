import { readFileSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BUNDLES } from './helpers/bundles.js';

/**
 * The bundle's sources, a package's files named from its node_modules folder: a checkout whose node_modules is a
 * link to another's (a git worktree) has the link's target in its map.
 */
const sourcesOf = (file: string) =>
  (JSON.parse(readFileSync(join(BUNDLES, `${file}.map`), 'utf8')) as { sources: string[] }).sources.map((source) =>
    source.replace(/^.*\/node_modules\//, '../node_modules/'),
  );

// scripts/build.mjs replaces modules reached only through code rag-gate never runs: every run evaluates what is bundled.
describe('the bundles', () => {
  it.each(['cli.js', 'index.js'])("%s leaves out @actions/http-client but its proxy rule, tunnel, and zod's locales but English", (file) => {
    const sources = sourcesOf(file);
    expect(sources.filter((source) => /\/(@actions\/http-client|tunnel)\//.test(source))).toEqual(['../node_modules/@actions/http-client/src/proxy.ts']);
    expect(sources.filter((source) => source.includes('/zod/v4/locales/'))).toEqual(['../node_modules/zod/v4/locales/en.js']);
    expect(sources).toContain('../src/core/record.ts');
  });

  // undici is 0.03 s to load: src/net/fetch.ts loads it on the first request, so a run that sends none never does.
  it.each(['cli.js', 'index.js'])('%s loads undici only through the dynamic import of src/net/fetch.ts', (file) => {
    const code = readFileSync(join(BUNDLES, file), 'utf8');
    const sources = sourcesOf(file);
    expect(sources).toContain('../node_modules/undici/index.js');
    const loads = code.match(/\brequire_undici\(\)/g) ?? [];
    const lazy = code.match(/ = \(\) => undici \?\?= Promise\.resolve\(\)\.then\(\(\) => __toESM\(require_undici\(\)/g) ?? [];
    expect([loads.length, lazy.length]).toEqual([1, 1]);
  });

  // The map of every GitHub endpoint takes 0.01 s to build: made when getOctokit makes a client, not when the action loads.
  it('index.js builds the REST endpoint methods only when a client is made', () => {
    const code = readFileSync(join(BUNDLES, 'index.js'), 'utf8');
    // Built inside a module esbuild runs when it is first required (its __esm wrapper, indented), not at the top.
    expect(code.match(/^ *endpointMethodsMap = \/\* @__PURE__ \*\/ new Map\(\);$/gm)).toEqual(['    endpointMethodsMap = /* @__PURE__ */ new Map();']);
    // Required from the stand-in alone.
    const inits = [...code.matchAll(/^(.*)\binit_dist_src\(\)/gm)].map((match) => match[1]!.trim());
    expect(inits).toEqual(['return (']);
  });

  // A run loads nothing from the directories around the action, where any package could be (fdir looked for one).
  it.each(['cli.js', 'index.js'])('%s requires only Node built-in modules', (file) => {
    const code = readFileSync(join(BUNDLES, file), 'utf8');
    const required = [...code.matchAll(/\brequire(?:\.resolve)?\(\s*(["'`])([^"'`]+)\1\s*\)/g)].map((match) => match[2]!);
    expect(required.length).toBeGreaterThan(10);
    expect(required.filter((name) => !isBuiltin(name))).toEqual([]);
    expect(code.match(/\bcreateRequire\b/g) ?? []).toEqual([]);
  });

  // Node reads a file with any other character as a two-byte source, slower to decode and compile on every run.
  it.each(['cli.js', 'index.js'])('%s is ASCII', (file) => {
    expect(readFileSync(join(BUNDLES, file), 'utf8').match(/[\u0080-\uffff]/g) ?? []).toEqual([]);
  });
});
