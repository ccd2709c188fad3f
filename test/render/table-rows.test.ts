import fc from 'fast-check';
import type { PhrasingContent, Root, Table } from 'mdast';
import { gfmToMarkdown } from 'mdast-util-gfm';
import { toMarkdown } from 'mdast-util-to-markdown';
import { describe, expect, it } from 'vitest';
import { type Cell, serialise, table } from '../../src/render/mdast.js';

/** GFM's own serialisation, with no row kept between renders: what `serialise` must equal. */
const reference = (tree: Root) => toMarkdown(structuredClone(tree), { bullet: '-', extensions: [gfmToMarkdown({ tablePipeAlign: false })] });

// Text that exercises the escaping of a cell: pipes, backticks, emphasis, HTML, line starts, entities, line breaks.
const fragment = fc.oneof(
  fc.constantFrom('|', '`', '*', '_', '<b>', '# ', '- ', ':-', '&amp;', '\\', '\n', ' ', '1.', '~', '[x]', '!['),
  fc.string({ maxLength: 6 }),
);
const cellText = fc.array(fragment, { maxLength: 5 }).map((parts) => parts.join(''));
const cell: fc.Arbitrary<Cell> = fc.oneof(
  cellText,
  cellText.map((value): PhrasingContent => ({ type: 'inlineCode', value })),
  fc.tuple(cellText, cellText).map(([a, b]): PhrasingContent[] => [
    { type: 'strong', children: [{ type: 'text', value: a }] },
    { type: 'text', value: b },
  ]),
);

/** The same table at the root, in a block quote and in a list item: three contexts for one set of rows. */
const contexts = (node: Table): Root[] => [
  { type: 'root', children: [node] },
  { type: 'root', children: [{ type: 'blockquote', children: [node] }] },
  { type: 'root', children: [{ type: 'list', ordered: false, spread: false, children: [{ type: 'listItem', spread: false, children: [node] }] }] },
];

describe('serialise keeps each table row’s line between renders', () => {
  it('renders tables exactly as GFM does, again and in other contexts, and with fewer rows', () => {
    fc.assert(
      fc.property(
        fc
          .integer({ min: 1, max: 4 })
          .chain((width) =>
            fc.tuple(
              fc.array(cell, { minLength: width, maxLength: width }),
              fc.array(fc.array(cell, { minLength: width, maxLength: width }), { maxLength: 6 }),
            ),
          ),
        ([header, rows]) => {
          for (const shown of [rows.length, Math.floor(rows.length / 2), rows.length]) {
            for (const tree of contexts(table(header, rows.slice(0, shown), ['left', 'right']))) expect(serialise(tree)).toBe(reference(tree));
          }
        },
      ),
    );
  });

  it('leaves a table with a row narrower than its header or its alignments to GFM, and renders it as GFM does', () => {
    const narrow = table(['a', 'b', 'c'], [['1', '2', '3']]);
    narrow.children.push({ type: 'tableRow', children: [{ type: 'tableCell', children: [{ type: 'text', value: 'short' }] }] });
    const aligned = table(['a'], [['1'], ['2']], ['left']);
    aligned.align = ['left', 'right', null];
    for (const node of [narrow, aligned]) for (const tree of contexts(node)) expect(serialise(tree)).toBe(reference(tree));
    expect(serialise({ type: 'root', children: [narrow] })).toBe('| a | b | c |\n| - | - | - |\n| 1 | 2 | 3 |\n| short |\n');
  });

  it('reuses one node for a row of cells given again, so a second render finds its line', () => {
    const rows = [['a | b', 'c']];
    expect(table(['x', 'y'], rows).children[1]).toBe(table(['x', 'y'], rows).children[1]);
    expect(serialise({ type: 'root', children: [table(['x', 'y'], rows)] })).toBe('| x | y |\n| - | - |\n| a \\| b | c |\n');
  });
});
