import { readFileSync } from 'node:fs';
import { defineConfig } from 'vitest/config';

const { version } = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as { version: string };

export default defineConfig({
  // As scripts/build.mjs does for dist/, so tests that run src/ in-process see the same version.
  define: { RAG_GATE_VERSION: JSON.stringify(version) },
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 30_000,
    // Hooks run child processes too (the demo's beforeAll runs the whole demo): room for a loaded machine.
    hookTimeout: 60_000,
  },
});
