import fc from 'fast-check';
import type { PhrasingContent, Root, RootContent } from 'mdast';
import { gfmToMarkdown } from 'mdast-util-gfm';
import { defaultHandlers, toMarkdown } from 'mdast-util-to-markdown';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { serialise, table } from '../../src/render/mdast.js';

/** GFM's own serialisation, its text handler escaping every text: what `serialise` must equal. */
const reference = (tree: Root) => toMarkdown(structuredClone(tree), { bullet: '-', extensions: [gfmToMarkdown({ tablePipeAlign: false })] });

// Pieces that start an unsafe pattern in some context (line starts, attention, links, autolink literals, entities,
// HTML, breaks, backslashes) and pieces that start none: the text handler must tell them apart exactly.
const piece = fc.oneof(
  fc.constantFrom('# ', '1. ', '1) ', '- ', '-- ', '+ ', '* ', '= ', '> ', '~', '_', 'a_b', '*', '[', '![', '](', '`', '<b', '< b', '&amp;', '& b', '|'),
  fc.constantFrom('www.x', 'w.x', 'a@b.c', 'https://x', 'p:/', ':-', '\\', '\\*', '\n', '\r\n', '\t', ' ', '.', ',', ';', '?', "'", '"', '(', ')', 'é', '😀'),
  fc.string({ maxLength: 5 }),
);
const words = fc.array(piece, { maxLength: 6 }).map((parts) => parts.join(''));
const text = words.map((value): PhrasingContent => ({ type: 'text', value }));

/** Phrasing with neighbours that give a text its context: code, HTML, emphasis, a link, a break. */
const phrasing: fc.Arbitrary<PhrasingContent[]> = fc.array(
  fc.oneof(
    { weight: 4, arbitrary: text },
    fc.constantFrom<PhrasingContent>({ type: 'inlineCode', value: 'x' }, { type: 'html', value: '<br>' }, { type: 'break' }),
    words.map((value): PhrasingContent => ({ type: 'strong', children: [{ type: 'text', value }] })),
    words.map((value): PhrasingContent => ({ type: 'emphasis', children: [{ type: 'text', value }] })),
    words.map((value): PhrasingContent => ({ type: 'link', url: 'https://example.com', children: [{ type: 'text', value }] })),
  ),
  { minLength: 1, maxLength: 4 },
);

/** The phrasing in each block the reports use it in. */
function blocks(children: PhrasingContent[]): RootContent[] {
  return [
    { type: 'paragraph', children },
    { type: 'heading', depth: 3, children },
    { type: 'blockquote', children: [{ type: 'paragraph', children }] },
    { type: 'list', ordered: false, spread: false, children: [{ type: 'listItem', spread: false, children: [{ type: 'paragraph', children }] }] },
    table(['question', 'answer'], [[children, 'b']]),
  ];
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('text escaping', () => {
  it('writes every text as GFM’s text handler does, in every block and beside every neighbour', () => {
    fc.assert(
      fc.property(phrasing, (children) => {
        for (const block of blocks(children)) {
          const tree: Root = { type: 'root', children: [block] };
          expect(serialise(tree)).toBe(reference(tree));
        }
      }),
      { numRuns: 2_000 },
    );
  });

  it('passes prose that nothing would escape over GFM’s escaping, and leaves the rest to it', () => {
    const escaping = vi.spyOn(defaultHandlers, 'text');
    const cell = (value: string): Root => ({ type: 'root', children: [table(['answer'], [[[{ type: 'text', value }]]])] });
    const prose = 'Refunds take 5–7 days (see p. 3); ask support, or "billing" at 20% off? Yes: it’s $4/month.';
    expect(serialise(cell(prose))).toBe(`| answer |\n| - |\n| ${prose} |\n`);
    expect(escaping).not.toHaveBeenCalled();
    for (const value of ['snake_case', '*bold*', 'a | b', '[link]', 'see www.example.com', 'x\\y']) {
      const expected = reference(cell(value));
      escaping.mockClear();
      expect(serialise(cell(value))).toBe(expected);
      expect(escaping).toHaveBeenCalled();
    }
  });
});
