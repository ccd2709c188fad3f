import { execFileSync } from 'node:child_process';

import { BUNDLES } from './helpers/bundles.js';

/**
 * End-to-end tests run the bundles; build them once so they test the current source, into an ignored folder: a
 * test run never rewrites dist/, which is committed (npm run check:dist compares it with a fresh build).
 */
export default function setup(): void {
  execFileSync(process.execPath, ['scripts/build.mjs', '--out', BUNDLES], { stdio: 'inherit' });
}
