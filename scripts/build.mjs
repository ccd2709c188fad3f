// Bundles each entry point into one CommonJS file under dist/, the file people and the runner start (bin, action.yml
// main), in ASCII, with a linked source map.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'acorn';
import { build } from 'esbuild';

// `--out DIR` builds elsewhere: the tests build the bundles they run into an ignored folder, never over dist/.
const outIndex = process.argv.indexOf('--out');
const outDir = outIndex < 0 ? 'dist' : process.argv[outIndex + 1];
if (outDir === undefined || outDir === '') throw new Error('usage: node scripts/build.mjs [--out DIR]');
mkdirSync(outDir, { recursive: true });
const entries = [
  ['src/cli.ts', join(outDir, 'cli.js')],
  ['src/index.ts', join(outDir, 'index.js')],
];

const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));

/**
 * The bundles are CommonJS (dist/package.json says so): Node loads a CommonJS file of this size 0.06 s faster than
 * the same code as an ES module (measured), which every run pays. `import.meta.url` in src/ (the reader thread
 * starts from the entry's own file) becomes the bundle's file URL, from a module injected at its top.
 */
const entryUrl = {
  name: 'entry-url',
  setup(builder) {
    builder.onResolve({ filter: /^rag-gate:entry-url$/ }, () => ({ path: 'entry-url', namespace: 'entry-url' }));
    builder.onLoad({ filter: /.*/, namespace: 'entry-url' }, () => ({
      contents: "export const RAG_GATE_ENTRY_URL = require('node:url').pathToFileURL(__filename).href;",
      loader: 'js',
    }));
  },
};

/**
 * Modules the bundle replaces, each only reachable through code rag-gate never runs: every run evaluates what is
 * bundled, and these were a third of the action's bundle and a tenth of its start-up.
 * - `@actions/http-client`: `@actions/core` imports it for its OIDC token (`getIDToken`), which rag-gate never asks
 *   for; it loads undici, tunnel, http and https.
 * - `@actions/http-client` and undici as `@actions/github` imports them: for the defaults of getOctokit's client,
 *   an agent and a fetch through a proxy decided once for the API's host, which it builds when loaded (undici is
 *   0.03 s to load). rag-gate always gives getOctokit its own fetch (src/net/fetch.ts: the same rule, applied to
 *   each request, the artifact's redirect too), so these defaults are never used: the stand-ins build none, and
 *   the fetch throws should anything call it. undici itself is bundled for src/net/fetch.ts, which loads it on
 *   its first request.
 * - `@octokit/plugin-rest-endpoint-methods` as `@actions/github` imports it: loading it builds a map of every
 *   GitHub endpoint (0.01 s), which only a client needs. The stand-in requires it when getOctokit makes one, on
 *   the first request: esbuild evaluates a module that is required, not imported, when it is first required.
 * - zod's locales: zod registers English itself; the others are only reached through `z.locales`.
 */
const NO_HTTP_CLIENT = "throw new Error('rag-gate does not bundle @actions/http-client (getIDToken)');";
const NO_GITHUB_FETCH = "throw new Error('rag-gate gives getOctokit its own fetch (src/net/fetch.ts)');";
const STUBS = [
  {
    path: /^@actions\/http-client(\/lib\/auth)?$/,
    importer: /@actions[\\/]core[\\/]/,
    contents: `export class HttpClient { constructor() { ${NO_HTTP_CLIENT} } }\nexport class BearerCredentialHandler { constructor() { ${NO_HTTP_CLIENT} } }`,
  },
  {
    path: /^@actions\/http-client$/,
    importer: /@actions[\\/]github[\\/]lib[\\/]internal[\\/]utils\.js$/,
    contents: 'export class HttpClient { getAgent() { return undefined; } getAgentDispatcher() { return undefined; } }',
  },
  {
    path: /^undici$/,
    importer: /@actions[\\/]github[\\/]lib[\\/]internal[\\/]utils\.js$/,
    contents: `export function fetch() { ${NO_GITHUB_FETCH} }`,
  },
  {
    path: /^@octokit\/plugin-rest-endpoint-methods$/,
    importer: /@actions[\\/]github[\\/]lib[\\/]utils\.js$/,
    contents: `export function restEndpointMethods(octokit) { return require('@octokit/plugin-rest-endpoint-methods').restEndpointMethods(octokit); }`,
  },
  {
    path: /^\.\.\/locales\/index\.js$/,
    importer: /zod[\\/]v4[\\/]/,
    contents: "export { default as en } from 'zod/v4/locales/en.js';",
  },
];

const stubs = {
  name: 'stubs',
  setup(builder) {
    STUBS.forEach(({ path, importer }, index) => {
      builder.onResolve({ filter: path }, (args) => (importer.test(args.importer) ? { path: String(index), namespace: 'stub' } : undefined));
    });
    builder.onLoad({ filter: /.*/, namespace: 'stub' }, (args) => ({ contents: STUBS[Number(args.path)].contents, resolveDir: process.cwd() }));
  },
};

/**
 * Code a bundled module runs when it loads that reaches outside the bundle, each piece replaced by what it comes to
 * in rag-gate; the build fails when the piece is no longer there as written, to be looked at again.
 * - fdir looks for a picomatch next to the bundle (the directories above it) for a glob option rag-gate never uses
 *   (tinyglobby matches with its own copy, bundled): a run would load whatever picomatch those directories hold.
 */
const PATCHES = [
  {
    file: /[\\/]fdir[\\/]dist[\\/]index\.mjs$/,
    from: 'try {\n\t__require.resolve("picomatch");\n\tpm = __require("picomatch");\n} catch {}',
    to: '',
  },
];

const patches = {
  name: 'patches',
  setup(builder) {
    for (const { file, from, to } of PATCHES) {
      builder.onLoad({ filter: file }, (args) => {
        const code = readFileSync(args.path, 'utf8');
        if (code.split(from).length !== 2) throw new Error(`${args.path} no longer holds the code scripts/build.mjs patches out of it once`);
        return { contents: code.replace(from, to), loader: 'js' };
      });
    }
  },
};

/** Plain stand-ins for the typography of comments, one character for one, so the source map's columns stay true. */
const ASCII_STAND_INS = new Map(
  Object.entries({
    '‘': "'",
    '’': "'",
    '′': "'",
    '“': '"',
    '”': '"',
    '″': '"',
    '–': '-',
    '—': '-',
    '−': '-',
    '…': '.',
    '×': 'x',
    '≤': '<',
    '≥': '>',
    '±': '+',
    µ: 'u',
  }),
);

/**
 * The bundle as ASCII: Node decodes a file with any other character into a two-byte source, which takes longer to
 * decode and to compile (0.02–0.04 s of every run of the action, measured). esbuild escapes non-ASCII characters in
 * strings but keeps them in comments and regular expressions: those in comments get a plain stand-in (found with
 * acorn's comment ranges); one anywhere else fails the build, to be written as an escape in the source.
 */
function asAscii(outfile) {
  const code = readFileSync(outfile, 'utf8');
  const comments = [];
  parse(code, { ecmaVersion: 'latest', sourceType: 'module', onComment: (block, text, start, end) => comments.push([start, end]) });
  let comment = 0;
  const ascii = code.replace(/[\u0080-\uffff]/g, (char, at) => {
    while (comment < comments.length && comments[comment][1] <= at) comment++;
    if (comment === comments.length || comments[comment][0] > at) {
      const line = code.slice(0, at).split('\n').length;
      throw new Error(
        `${outfile}:${line}: U+${char.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')} outside a comment; write it as an escape (\\u…) in the source`,
      );
    }
    return ASCII_STAND_INS.get(char) ?? '?';
  });
  writeFileSync(outfile, ascii);
}

writeFileSync(join(outDir, 'package.json'), `${JSON.stringify({ type: 'commonjs' }, null, 2)}\n`);
for (const [entry, outfile] of entries) {
  await build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    inject: ['rag-gate:entry-url'],
    define: { RAG_GATE_VERSION: JSON.stringify(version), 'import.meta.url': 'RAG_GATE_ENTRY_URL' },
    plugins: [stubs, patches, entryUrl],
    // Node's source maps stay off (enabling them reads and indexes the map on every run): an internal error's
    // stack is mapped through this map when it is printed (src/pipeline/stack.ts). Without sources content the
    // committed maps stay small.
    sourcemap: 'linked',
    sourcesContent: false,
    legalComments: 'none',
    logLevel: 'warning',
  });
  asAscii(outfile);
}
