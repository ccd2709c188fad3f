import { configDefaults, defineConfig } from 'vitest/config';
import fast from './vitest.config.js';

/**
 * Every suite, the slow ones included, each file in a fresh module graph: what CI runs (npm run test:all). The
 * isolation also catches a suite that leaves a module changed for the next, which the shared loop would hide;
 * child processes, not threads, since the dependency rule's test changes directory (process.chdir).
 * Spread, not mergeConfig: that would append the exclusions to the fast loop's instead of replacing them.
 */
export default defineConfig({ ...fast, test: { ...fast.test, exclude: configDefaults.exclude, isolate: true, pool: 'forks' } });
