// Looks at a PR comment as a reviewer sees it: renders the Markdown with cmark-gfm (GitHub's extensions), styles it
// with GitHub's own Markdown CSS (github-markdown-css) at a pull request's width, takes headless Chromium
// screenshots (folded as posted, and with every fold open), and checks that nothing in it is live and that no
// id in a table breaks across lines.
//
//   node scripts/comment-look.mjs [--markdown docs/example-comment.md] [--out out/look] [--width 800]
//
// Needs cmark-gfm and chromium (Debian: apt-get install cmark-gfm chromium fonts-noto-color-emoji). Writes
// comment.html, folded.png and open.png to the output folder and prints what it checked; exits 1 when a check
// fails, 2 when a tool is missing.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { CMARK_ARGS, htmlProblems } from './comment-checks.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const options = { markdown: join(ROOT, 'docs', 'example-comment.md'), out: join(ROOT, 'out', 'look'), width: 800 };
const argv = process.argv.slice(2);
for (let i = 0; i < argv.length; i++) {
  const [flag, value] = [argv[i], argv[i + 1]];
  if (flag === '--markdown' && value !== undefined) options.markdown = resolve(argv[++i]);
  else if (flag === '--out' && value !== undefined) options.out = resolve(argv[++i]);
  else if (flag === '--width' && value !== undefined) options.width = Number(argv[++i]);
  else {
    process.stderr.write('usage: node scripts/comment-look.mjs [--markdown FILE] [--out DIR] [--width PX]\n');
    process.exit(2);
  }
}

function run(command, args, input) {
  const result = spawnSync(command, args, { input, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (result.error) {
    process.stderr.write(`comment-look: ${command} is needed (${result.error.message})\n`);
    process.exit(2);
  }
  return result;
}

const markdown = readFileSync(options.markdown, 'utf8');
const body = run('cmark-gfm', CMARK_ARGS, markdown).stdout;
const { problems, tables, rowsIntact } = htmlProblems(body);

const css = pathToFileURL(createRequire(import.meta.url).resolve('github-markdown-css/github-markdown-light.css')).href;
// Every code span in a table is measured: more than one line box means it broke across lines.
const page = (open) => `<!doctype html><html><head><meta charset="utf-8"><link rel="stylesheet" href="${css}">
<style>body{margin:0;background:#fff}.markdown-body{box-sizing:border-box;width:${options.width}px;padding:16px}</style></head>
<body><article class="markdown-body">${open ? body.replaceAll('<details>', '<details open>') : body}</article>
<pre id="wrapped"></pre><script>
const wrapped = [...document.querySelectorAll('td code, th code')].filter((c) => c.getClientRects().length > 1).map((c) => c.textContent);
document.getElementById('wrapped').textContent = JSON.stringify({ spans: document.querySelectorAll('td code, th code').length, wrapped });
</script></body></html>`;

mkdirSync(options.out, { recursive: true });
const results = {};
for (const [name, open] of [
  ['folded', false],
  ['open', true],
]) {
  const html = join(options.out, `${name}.html`);
  writeFileSync(html, page(open));
  const chromium = ['--headless', '--no-sandbox', '--disable-gpu', '--hide-scrollbars', `--window-size=${options.width},1200`];
  const dom = run('chromium', [...chromium, '--dump-dom', pathToFileURL(html).href]).stdout;
  const measured = /<pre id="wrapped">([^<]*)<\/pre>/.exec(dom)?.[1];
  if (measured === undefined) {
    process.stderr.write('comment-look: chromium rendered no page\n');
    process.exit(2);
  }
  results[name] = JSON.parse(measured.replaceAll('&quot;', '"').replaceAll('&amp;', '&').replaceAll('&lt;', '<').replaceAll('&gt;', '>'));
  // A tall window, so the whole comment is in the picture.
  const height = 400 + markdown.split('\n').length * (open ? 60 : 30);
  run('chromium', [
    ...chromium.slice(0, -1),
    `--window-size=${options.width},${height}`,
    `--screenshot=${join(options.out, `${name}.png`)}`,
    pathToFileURL(html).href,
  ]);
  for (const id of results[name].wrapped) problems.push(`${name}: ${JSON.stringify(id)} breaks across lines`);
}

process.stdout.write(
  `${options.markdown}: ${tables} tables, rows intact: ${rowsIntact}; ` +
    `code spans in tables: ${results.folded.spans} folded, ${results.open.spans} with every fold open; ` +
    `broken across lines at ${options.width} px: ${results.folded.wrapped.length} folded, ${results.open.wrapped.length} open\n` +
    `screenshots: ${join(options.out, 'folded.png')}, ${join(options.out, 'open.png')}\n`,
);
if (problems.length > 0) {
  process.stdout.write(`problems:\n${problems.map((p) => `  ${p}`).join('\n')}\n`);
  process.exit(1);
}
process.stdout.write('nothing live, no id broken across lines\n');
