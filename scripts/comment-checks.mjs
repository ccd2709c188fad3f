// What scripts/comment-look.mjs checks of a PR comment without a browser, shared with the tests: the comment
// rendered by cmark-gfm with GitHub's extensions, and nothing in it live.

/** cmark-gfm's arguments: GitHub keeps the raw HTML its sanitiser allows (our <details>, <summary>, <br>), so --unsafe keeps it too. */
export const CMARK_ARGS = ['--unsafe', '-e', 'table', '-e', 'autolink', '-e', 'strikethrough', '-e', 'tagfilter'];

const ALLOWED_TAGS = new Set([
  'p',
  'h3',
  'h4',
  'table',
  'thead',
  'tbody',
  'tr',
  'th',
  'td',
  'code',
  'strong',
  'em',
  'ul',
  'li',
  'details',
  'summary',
  'br',
  'a',
]);
const LINK_WORDS = ['workflow run', 'its run', 'trace', 'base trace', 'head trace'];

/**
 * The problems of a comment's HTML: links only to http(s) with our own words, no image, script, style or form, no
 * tag GitHub would not keep, a <pre> only for a mermaid chart, every row of a table as wide as its header.
 */
export function htmlProblems(body) {
  const problems = [];
  // A fenced mermaid block (the trend charts) is the one <pre> GitHub draws rather than shows: only those may appear.
  const mermaidBlocks = (body.match(/<pre><code class="language-mermaid">/g) ?? []).length;
  if ((body.match(/<pre[\s>]/g) ?? []).length !== mermaidBlocks) problems.push('a <pre> block that is not a mermaid chart');
  for (const [, tag] of body.matchAll(/<\/?([a-z0-9]+)/g)) if (!ALLOWED_TAGS.has(tag) && tag !== 'pre') problems.push(`tag <${tag}>`);
  for (const [anchor, href, words] of body.matchAll(/<a href="([^"]*)">([^<]*)<\/a>/g)) {
    if (!/^https?:\/\//.test(href) || !LINK_WORDS.includes(words)) problems.push(`link ${anchor}`);
  }
  if ((body.match(/<a /g) ?? []).length !== [...body.matchAll(/<a href="[^"]*">[^<]*<\/a>/g)].length) problems.push('a link that is not ours');
  const tables = (body.match(/<table>/g) ?? []).length;
  const rowsIntact = [...body.matchAll(/<table>[\s\S]*?<\/table>/g)].every(([t]) => {
    const widths = [...t.matchAll(/<tr>([\s\S]*?)<\/tr>/g)].map(([, row]) => (row.match(/<t[hd][ >]/g) ?? []).length);
    return widths.every((w) => w === widths[0]);
  });
  if (!rowsIntact) problems.push('a table whose rows have different numbers of cells');
  return { problems, tables, rowsIntact };
}
