import fc from 'fast-check';
import type { PhrasingContent, Root, Table } from 'mdast';
import { gfmToMarkdown } from 'mdast-util-gfm';
import { toMarkdown } from 'mdast-util-to-markdown';
import { describe, expect, it } from 'vitest';
import { type Cell, rowLengthAtLeast, serialise, table } from '../../src/render/mdast.js';

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

describe('rowLengthAtLeast', () => {
  // Cells as the comment builds them, with line endings a code span turns into spaces.
  const endings = fc.array(fc.oneof(fragment, fc.constantFrom('\r\n', '\r', '\n\n')), { maxLength: 6 }).map((parts) => parts.join(''));
  const richCell: fc.Arbitrary<Cell> = fc.oneof(
    cell,
    endings.map((value): PhrasingContent => ({ type: 'inlineCode', value })),
    fc
      .tuple(endings, endings)
      .map(([a, b]): PhrasingContent[] => [
        { type: 'html', value: '<details><summary>answers</summary>' },
        { type: 'link', url: 'https://example.com/q?a=1', children: [{ type: 'text', value: a }] },
        { type: 'break' },
        { type: 'emphasis', children: [{ type: 'inlineCode', value: b }] },
        { type: 'html', value: '</details>' },
      ]),
  );

  it('is at most the length of the line the row serialises to', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 4 }).chain((width) => fc.array(richCell, { minLength: width, maxLength: width })),
        (cells) => {
          const lines = serialise({
            type: 'root',
            children: [
              table(
                cells.map(() => 'h'),
                [cells],
              ),
            ],
          }).split('\n');
          // Header, delimiter row, then the row: its line runs up to the final newline (a cell may hold line breaks).
          const rowText = lines.slice(2).join('\n').trimEnd();
          expect(rowLengthAtLeast(cells)).toBeLessThanOrEqual(rowText.length);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('counts the text of every cell, nested nodes included, the first pipe and two characters a cell', () => {
    const cells: Cell[] = ['ab', { type: 'strong', children: [{ type: 'text', value: 'cde' }] }, [{ type: 'inlineCode', value: 'x y' }], ''];
    // 2 + 3 + 3 text characters, 1 + 4 × 2 for the pipes and spaces, of the 28 of `| ab | **cde** | `x y` | |`.
    expect(rowLengthAtLeast(cells)).toBe(17);
    expect(serialise({ type: 'root', children: [table(['1', '2', '3', '4'], [cells])] }).split('\n')[2]).toBe('| ab | **cde** | `x y` | |');
  });

  it('counts a code span’s CR LF once: GFM writes a line ending before a block marker as one space', () => {
    const code: Cell = { type: 'inlineCode', value: 'x\r\n- '.repeat(8) };
    const line = serialise({ type: 'root', children: [table(['h'], [[code]])] }).split('\n')[2]!;
    expect(line).toBe(`| \`${'x - '.repeat(8)}\` |`);
    // 8 × 'x - ' between the backticks and the pipes: 32 + 2 + 4 = 38; the bound: the text less one a CR LF, 1 + 2.
    expect(line.length).toBe(38);
    expect(rowLengthAtLeast([code])).toBe(32 + 3);
  });
});
