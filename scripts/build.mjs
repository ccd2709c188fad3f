// Bundles each entry point into one ESM file under dist/, which GitHub and users run directly.
import { readFileSync } from 'node:fs';
import { build } from 'esbuild';
const entries = [
  ['src/cli.ts', 'dist/cli.js'],
  ['src/index.ts', 'dist/index.js'],
];

const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));

// CommonJS dependencies bundled into ESM still call require() for Node built-ins.
const banner = "import { createRequire as __createRequire } from 'node:module';\nconst require = __createRequire(import.meta.url);";

for (const [entry, outfile] of entries) {
  await build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    banner: { js: banner },
    define: { RAG_GATE_VERSION: JSON.stringify(version) },
    legalComments: 'none',
    logLevel: 'warning',
  });
}
