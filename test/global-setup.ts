import { execFileSync } from 'node:child_process';

/** End-to-end tests run the bundled dist/ files; build them once so they test the current source. */
export default function setup(): void {
  execFileSync(process.execPath, ['scripts/build.mjs'], { stdio: 'inherit' });
}
