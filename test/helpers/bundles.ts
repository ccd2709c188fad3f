import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The bundles under test: built from src/ by the global set-up into this ignored folder, the same way
 * scripts/build.mjs builds dist/ (one level below the repository root, so their source maps read alike).
 */
export const BUNDLES = join(fileURLToPath(new URL('../..', import.meta.url)), '.test-build');
export const BUNDLED_CLI = join(BUNDLES, 'cli.js');
export const BUNDLED_ACTION = join(BUNDLES, 'index.js');
