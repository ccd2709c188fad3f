import { readFileSync } from 'node:fs';
import { configDefaults, defineConfig } from 'vitest/config';

const { version } = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as { version: string };

/**
 * Suites that take seconds each: the bundles run as child processes (end to end, the demo, trec_eval parity), the
 * 2,000 hostile comments through cmark-gfm, the linters planted with violations, and the simulations. `npm test`
 * leaves them out for a one-minute loop; `npm run test:all` (vitest.all.config.ts), which CI runs, takes them in.
 */
export const SLOW_SUITES = [
  'test/render/inert.test.ts',
  'test/render/comment-look.test.ts',
  'test/frontends/github/e2e.test.ts',
  'test/examples/demo.test.ts',
  'test/trec-parity.test.ts',
  'test/architecture.test.ts',
  'test/workflows.test.ts',
  'test/packaging.test.ts',
  'test/young-generation.test.ts',
  'test/source-maps.test.ts',
  'test/judge/bin.test.ts',
  'test/judge/batch-scale.test.ts',
  'test/core/stats/bootstrap.test.ts',
  'test/core/repeats/simulation.test.ts',
  'test/frontends/cli/threads.test.ts',
  'test/frontends/cli/monitor-memory.test.ts',
  'test/frontends/cli/monitor-embeddings-memory.test.ts',
];

export default defineConfig({
  // As scripts/build.mjs does for dist/, so tests that run src/ in-process see the same version.
  define: { RAG_GATE_VERSION: JSON.stringify(version) },
  test: {
    include: ['test/**/*.test.ts'],
    exclude: [...configDefaults.exclude, ...SLOW_SUITES],
    globalSetup: ['test/global-setup.ts'],
    // One module graph per worker thread rather than one per file: loading src/ again for each of 130 files was
    // two thirds of the loop's time. Every suite leaves the modules as it found them (no mocks of modules).
    pool: 'threads',
    isolate: false,
    testTimeout: 30_000,
    // Hooks run child processes too (the demo's beforeAll runs the whole demo): room for a loaded machine.
    hookTimeout: 60_000,
  },
});
