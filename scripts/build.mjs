// Bundles each entry point into one ESM file under dist/ with a linked source map, and writes the small
// loader that GitHub and users run directly.
import { readFileSync, writeFileSync } from 'node:fs';
import { build } from 'esbuild';

// [entry, bundle, loader]: the loader is the file people and the runner start (bin, action.yml main).
const entries = [
  ['src/cli.ts', 'dist/cli.bundle.js', 'dist/cli.js'],
  ['src/index.ts', 'dist/index.bundle.js', 'dist/index.js'],
];

const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));

// CommonJS dependencies bundled into ESM still call require() for Node built-ins.
const banner = "import { createRequire as __createRequire } from 'node:module';\nconst require = __createRequire(import.meta.url);";

for (const [entry, outfile, loader] of entries) {
  await build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    banner: { js: banner },
    define: { RAG_GATE_VERSION: JSON.stringify(version) },
    // Stack traces point into src/; without sources content the committed maps stay small.
    sourcemap: 'linked',
    sourcesContent: false,
    legalComments: 'none',
    logLevel: 'warning',
  });
  // Node maps only code compiled after source maps are enabled, and a file is compiled before any of its
  // code runs: so the bundle is imported by a loader that enables them first (works on Node 20 and 24).
  const shebang = entry === 'src/cli.ts' ? '#!/usr/bin/env node\n' : '';
  const bundle = outfile.slice('dist/'.length);
  writeFileSync(loader, `${shebang}process.setSourceMapsEnabled(true);\nawait import('./${bundle}');\n`);
}
