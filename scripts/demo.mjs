// Runs the bundled CLI on the shipped example results, as a user would.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

if (!existsSync('dist/cli.js')) {
  console.error('dist/cli.js is missing: run npm run build');
  process.exit(2);
}
const result = spawnSync(process.execPath, ['dist/cli.js', 'eval', '--results', 'examples/results.jsonl'], { stdio: 'inherit' });
process.exit(result.status ?? 1);
