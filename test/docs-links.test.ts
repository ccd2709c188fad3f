import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import type { Nodes } from 'mdast';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { gfm } from 'micromark-extension-gfm';
import { describe, expect, it } from 'vitest';
import { ROOT } from './helpers/cli.js';

/** Pages by their path from the repository's root. */
type Pages = ReadonlyMap<string, string>;

const parse = (markdown: string) => fromMarkdown(markdown, { extensions: [gfm()], mdastExtensions: [gfmFromMarkdown()] });

function* walk(node: Nodes): Generator<Nodes> {
  yield node;
  if ('children' in node) for (const child of node.children) yield* walk(child);
}

/** A node's text as GitHub slugs it: code spans' content included, markup left out. */
function plainText(node: Nodes): string {
  if (node.type === 'text' || node.type === 'inlineCode') return node.value;
  return 'children' in node ? node.children.map(plainText).join('') : '';
}

/** The anchors GitHub gives a page's headings (github-slugger): lower case, punctuation dropped, spaces as hyphens, repeats numbered. */
function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const slugs = new Set<string>();
  for (const node of walk(parse(markdown))) {
    if (node.type !== 'heading') continue;
    const base = plainText(node)
      .toLowerCase()
      .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
      .replaceAll(' ', '-');
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    slugs.add(count === 0 ? base : `${base}-${count}`);
  }
  return slugs;
}

/** Every link of a page that stays in the repository, as written. */
function localLinks(markdown: string): string[] {
  const urls: string[] = [];
  for (const node of walk(parse(markdown)))
    if ((node.type === 'link' || node.type === 'definition') && !/^[a-z][a-z+.-]*:/i.test(node.url)) urls.push(node.url);
  return urls;
}

/** Links that lead nowhere: a missing file, or an anchor its page has no heading for. `exists` answers for files other than the pages. */
function brokenLinks(pages: Pages, exists: (path: string) => boolean): string[] {
  const broken: string[] = [];
  for (const [page, text] of pages) {
    for (const url of localLinks(text)) {
      const [path = '', anchor] = url.split('#');
      const target = path === '' ? page : join(dirname(page), decodeURIComponent(path));
      const targetText = pages.get(target);
      if (targetText === undefined && !exists(target)) broken.push(`${page}: ${url}: no file ${target}`);
      else if (anchor !== undefined && targetText !== undefined && !anchors(targetText).has(anchor))
        broken.push(`${page}: ${url}: no heading #${anchor} in ${target}`);
    }
  }
  return broken;
}

/** The docs pages README.md does not link to. */
function unlinkedPages(pages: Pages): string[] {
  const linked = new Set(localLinks(pages.get('README.md') ?? '').map((url) => join(url.split('#')[0]!)));
  return [...pages.keys()].filter((page) => page.startsWith('docs/') && !linked.has(page));
}

function repositoryPages(): Map<string, string> {
  const names = [
    'README.md',
    ...readdirSync(join(ROOT, 'docs'))
      .filter((name) => name.endsWith('.md'))
      .map((name) => `docs/${name}`),
  ];
  return new Map(names.map((name) => [name, readFileSync(join(ROOT, name), 'utf8')]));
}

const existsInRepository = (path: string) => !relative(ROOT, join(ROOT, path)).startsWith('..') && existsSync(join(ROOT, path));

describe('the docs pages', () => {
  it('are each linked from README.md', () => {
    const pages = repositoryPages();
    expect([...pages.keys()].filter((page) => page.startsWith('docs/')).length).toBeGreaterThan(10);
    expect(unlinkedPages(pages)).toEqual([]);
  });

  it("link only to files that exist and to headings their pages have, README's links into docs/ included", () => {
    const pages = repositoryPages();
    expect(brokenLinks(pages, existsInRepository)).toEqual([]);
  });

  it('are what messages in src/ point to: docs/PAGE.md, and its heading when named', () => {
    const pages = repositoryPages();
    const pointers = new Set<string>();
    const visit = (dir: string): void => {
      for (const entry of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
        const path = `${dir}/${entry.name}`;
        if (entry.isDirectory()) visit(path);
        else if (path.endsWith('.ts'))
          for (const match of readFileSync(join(ROOT, path), 'utf8').matchAll(/docs\/[a-z0-9-]+\.md(?:#[a-z0-9-]+)?/g)) pointers.add(match[0]);
      }
    };
    visit('src');
    expect(pointers.size).toBeGreaterThan(0);
    const pointing = new Map([['src.md', [...pointers].map((pointer) => `[x](${pointer})`).join('\n')]]);
    expect(brokenLinks(new Map([...pages, ...pointing]), existsInRepository).filter((problem) => problem.startsWith('src.md'))).toEqual([]);
  });

  // So that the tests above cannot pass by finding nothing.
  it('finds a missing page, a missing heading, a missing file and a page README.md leaves out', () => {
    const pages: Pages = new Map([
      ['README.md', '# Title\n\n[a](docs/a.md#usage) [b](docs/b.md) [quick](#title) [x](examples/x.yml) [web](https://example.com/y.md)\n'],
      ['docs/a.md', '# A page\n\n## Use it: `--flag` twice\n\n[up](../README.md#title) [c](c.md#c)\n'],
      ['docs/c.md', '# C\n\n# C\n\n[self](#c-1) [also](#c-2)\n'],
    ]);
    expect(anchors(pages.get('docs/a.md')!)).toEqual(new Set(['a-page', 'use-it---flag-twice']));
    expect(brokenLinks(pages, (path) => path === 'examples/x.yml')).toEqual([
      'README.md: docs/a.md#usage: no heading #usage in docs/a.md',
      'README.md: docs/b.md: no file docs/b.md',
      'docs/c.md: #c-2: no heading #c-2 in docs/c.md',
    ]);
    expect(unlinkedPages(pages)).toEqual(['docs/c.md']);
  });
});
