import { defineConfig } from 'vitest/config';
import { TARGETS } from './stryker.config.mjs';
import base from './vitest.config.js';

const target = TARGETS[(process.env.RAG_GATE_MUTATE ?? 'stats') as keyof typeof TARGETS];

/**
 * The tests Stryker runs against each mutant (npm run mutate): the unit tests of the target's folder, which run
 * src/ in-process. Tests that only run the bundled dist/ files (a mutant of src/ never reaches them), the action,
 * CLI and judge end-to-end tests and the slow rendering fuzz test are left out, and so is the global setup that
 * builds dist/. So are the
 * tests named "(simulation)" or "(slow)": statistical checks or inputs of millions of draws, which take minutes
 * under Stryker's instrumentation for each mutant they cover; pinned values (bootstrap.test.ts, random.test.ts) test the same code
 * exactly.
 */
export default defineConfig({
  ...base,
  test: {
    ...base.test,
    globalSetup: [],
    setupFiles: ['test/helpers/fixed-seed.ts'],
    include: target.tests,
    exclude: ['test/render/inert.test.ts', 'test/core/compare/compare-bin.test.ts'],
    testNamePattern: /^(?!.*\((simulation|slow)\))/,
    // Instrumented code runs several times slower.
    testTimeout: 120_000,
  },
});
