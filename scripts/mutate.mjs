// Mutation testing, one target after the other: `npm run mutate` runs them all, `npm run mutate -- stats compare`
// the ones named. Each run is incremental (reports/mutation/<target>.incremental.json): only mutants whose code or
// tests changed since the last run are tested again. Reports: reports/mutation/<target>.html and .json.
import { spawnSync } from 'node:child_process';
import { TARGETS } from '../stryker.config.mjs';

const names = process.argv.slice(2);
for (const name of names.length > 0 ? names : Object.keys(TARGETS)) {
  if (!(name in TARGETS)) {
    console.error(`mutate: unknown target "${name}"; one of ${Object.keys(TARGETS).join(', ')}`);
    process.exit(2);
  }
  console.log(`mutate: ${name} (${TARGETS[name].mutate.join(', ')})`);
  const run = spawnSync('npx', ['stryker', 'run'], { stdio: 'inherit', env: { ...process.env, RAG_GATE_MUTATE: name } });
  if (run.status !== 0) process.exit(run.status ?? 1);
}
