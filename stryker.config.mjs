/**
 * Mutation testing of the core (npm run mutate; not part of CI: it takes tens of minutes). scripts/mutate.mjs
 * runs one target at a time, naming it in RAG_GATE_MUTATE: the files mutated, and the unit tests that must kill
 * their mutants (the folder's own tests, so a formula is caught where it is defined, and a mutant costs seconds
 * instead of the whole in-process suite). Survivors that cannot be killed are listed with a reason in
 * stryker-equivalent.md, so any other survivor of a later run is a new gap in the tests.
 */
const TREC_MACHINERY = ['byte-dictionary', 'docno-index', 'query-entries', 'trec-eval', 'trec-rank', 'trec-table'].map((name) => `src/core/scoring/${name}.ts`);

export const TARGETS = {
  stats: { mutate: ['src/core/stats/**/*.ts'], tests: ['test/core/stats/**/*.test.ts'] },
  scoring: {
    mutate: [
      'src/core/scoring/**/*.ts',
      ...TREC_MACHINERY.map((file) => `!${file}`),
      'src/core/measures/**/*.ts',
      'src/core/catalog/metrics.ts',
      'src/core/catalog/retrieval-metrics.ts',
      'src/core/catalog/parse/retrieval-ok.ts',
      'src/core/code-unit-order.ts',
    ],
    // Besides its folder's tests: the repeated-runs' and a few comparison and pipeline tests, which reach the parts of
    // scoring that exist for them (chosen as the fewest files that reach every mutant).
    tests: [
      'test/core/scoring/**/*.test.ts',
      'test/core/measures/**/*.test.ts',
      'test/core/code-unit-order.test.ts',
      'test/core/repeats/input.test.ts',
      'test/core/repeats/flaky.test.ts',
      'test/core/compare/settings.test.ts',
      'test/core/compare/judge-gate.test.ts',
      'test/core/compare/compare.test.ts',
      'test/core/compare/compare-mutants.test.ts',
      'test/core/holdout/gap-ledger.test.ts',
      'test/pipeline/formats.test.ts',
      'test/pipeline/refusal-detector.test.ts',
    ],
  },
  // The TREC reader's storage and ranking, apart: their tests read files of 140,000 lines, which would otherwise run
  // for every mutant of a metric.
  trec: {
    mutate: TREC_MACHINERY,
    // Many of its mutants loop forever, each costing the whole timeout and a restart of the test process. A tighter
    // timeout (3 s over the tests' own time) was tried: mutants that only slowed the tests down, or passed on a busy
    // machine after a while, were counted as detected. Twice the tests' time plus 20 s lets them finish.
    timeout: { timeoutMS: 20_000, timeoutFactor: 2 },
    tests: [
      'test/core/scoring/**/*.test.ts',
      'test/sources/trec-reader.test.ts',
      'test/sources/trec-table.test.ts',
      'test/sources/trec-byte-dictionary.test.ts',
    ],
  },
  // The floor's parser is the gate's, tested with it.
  compare: { mutate: ['src/core/compare/**/*.ts', 'src/core/catalog/parse/floor.ts'], tests: ['test/core/compare/**/*.test.ts'] },
  render: { mutate: ['src/render/markdown.ts', 'src/render/fit.ts'], tests: ['test/render/**/*.test.ts'] },
};

const name = process.env.RAG_GATE_MUTATE ?? 'stats';
const target = TARGETS[name];
if (target === undefined) throw new Error(`RAG_GATE_MUTATE: unknown target "${name}"; one of ${Object.keys(TARGETS).join(', ')}`);

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  vitest: { configFile: 'vitest.mutate.config.ts' },
  plugins: ['@stryker-mutator/vitest-runner'],
  mutate: target.mutate,
  coverageAnalysis: 'perTest',
  // A static mutant (a module-level constant) has no per-test coverage, so it would run every test: minutes each
  // on this machine. Left out; the constants that matter are pinned by tests that read them.
  ignoreStatic: true,
  // Two shared cores on the development machine: one test process at a time.
  concurrency: 1,
  incremental: true,
  incrementalFile: `reports/mutation/${name}.incremental.json`,
  // The event recorder writes each tested mutant as it finishes, so survivors can be read during a run of hours.
  reporters: ['clear-text', 'progress-append-only', 'html', 'json', 'event-recorder'],
  eventReporter: { baseDir: `reports/mutation/${name}-events` },
  htmlReporter: { fileName: `reports/mutation/${name}.html` },
  jsonReporter: { fileName: `reports/mutation/${name}.json` },
  clearTextReporter: { logTests: false, allowEmojis: false },
  tempDirName: '.stryker-tmp',
  ignorePatterns: ['out', 'bench-data', 'coverage', 'reports'],
  timeoutMS: 10_000,
  ...target.timeout,
};
