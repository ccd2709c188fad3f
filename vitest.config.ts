import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 30_000,
    // Hooks run child processes too (the demo's beforeAll runs the whole demo): room for a loaded machine.
    hookTimeout: 60_000,
  },
});
