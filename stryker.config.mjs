/**
 * Mutation testing of the core (npm run mutate; not part of CI: it takes tens of minutes). Run one folder at a
 * time, e.g. `npm run mutate -- --mutate 'src/core/stats/**'`; survivors that cannot be killed are listed with a
 * reason in stryker-equivalent.md, so any other survivor of a later run is a new gap in the tests.
 * @type {import('@stryker-mutator/api/core').PartialStrykerOptions}
 */
export default {
  testRunner: 'vitest',
  vitest: { configFile: 'vitest.mutate.config.ts' },
  plugins: ['@stryker-mutator/vitest-runner'],
  mutate: ['src/core/**/*.ts', 'src/render/markdown.ts'],
  coverageAnalysis: 'perTest',
  // A static mutant (a module-level constant) has no per-test coverage, so it would run the whole suite: minutes
  // each on this machine. Left out; the constants that matter are pinned by tests that read them.
  ignoreStatic: true,
  // Two shared cores on the development machine: one test process at a time.
  concurrency: 1,
  incremental: true,
  incrementalFile: 'reports/stryker-incremental.json',
  reporters: ['clear-text', 'progress', 'html', 'json'],
  htmlReporter: { fileName: 'reports/mutation/index.html' },
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  tempDirName: '.stryker-tmp',
  ignorePatterns: ['out', 'bench-data', 'coverage'],
  timeoutMS: 10_000,
};
