// npm run docs: writes what derives from the catalogs (action.yml's inputs and outputs, the docs' tables of settings, outputs, metrics, gates, record fields and formats) from
// src/. `node scripts/docs.mjs --check` only reports drift; test/frontends/github/action-yml.test.ts checks the same.
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
// Inside the repository, so that the bundle's bare imports resolve from node_modules.
const bundle = join(ROOT, 'node_modules', '.cache', 'rag-gate-docs.mjs');
await build({
  entryPoints: [join(ROOT, 'src/render/catalog-docs.ts')],
  outfile: bundle,
  bundle: true,
  platform: 'node',
  format: 'esm',
  packages: 'external',
  logLevel: 'warning',
});
const docs = await import(pathToFileURL(bundle).href);
rmSync(bundle, { force: true });

// Each catalog table lives in the docs page that holds its markers.
const pages = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];
const files = {
  'action.yml': (text) => docs.actionYmlWithOutputs(docs.actionYmlWithInputs(text)),
  ...Object.fromEntries(pages.map((page) => [page, (text) => docs.withCatalogTables(text)])),
};
const check = process.argv.includes('--check');
let drift = false;
for (const [name, make] of Object.entries(files)) {
  const path = join(ROOT, name);
  const before = readFileSync(path, 'utf8');
  const after = make(before);
  if (before === after) continue;
  drift = true;
  if (check) process.stderr.write(`${name} is out of date with the catalogs: run npm run docs\n`);
  else writeFileSync(path, after);
}
process.exit(check && drift ? 1 : 0);
