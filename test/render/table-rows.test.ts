import fc from 'fast-check';
import type { PhrasingContent, Root, Table } from 'mdast';
import { gfmToMarkdown } from 'mdast-util-gfm';
import { type Handle, toMarkdown } from 'mdast-util-to-markdown';
import { describe, expect, it } from 'vitest';
import { type Cell, inertProse, inlineDetails, lineBreak, rowLengthAtLeast, serialise, strong, table, text } from '../../src/render/mdast.js';
import { plainRowLine } from '../../src/render/row-line.js';

/** GFM's own serialisation, with no row kept between renders: what `serialise` must equal. */
const reference = (tree: Root) => toMarkdown(structuredClone(tree), { bullet: '-', extensions: [gfmToMarkdown({ tablePipeAlign: false })] });

// Text that exercises the escaping of a cell: pipes, backticks, emphasis, HTML, line starts, entities, line breaks.
const fragment = fc.oneof(
  fc.constantFrom('|', '`', '*', '_', '<b>', '# ', '- ', ':-', '&amp;', '\\', '\n', ' ', '1.', '~', '[x]', '!['),
  fc.string({ maxLength: 6 }),
);
const cellText = fc.array(fragment, { maxLength: 5 }).map((parts) => parts.join(''));
/** Words as the comment puts in bold (`base`, `5 broken`): what `plainRowLine` writes itself. */
const words = fc.stringMatching(/^[A-Za-z0-9](?:[A-Za-z0-9 ]{0,5}[A-Za-z0-9])?$/);
/** Phrasing as the comment's cells hold it, and around it what they never hold. */
const phrasing: fc.Arbitrary<PhrasingContent> = fc.oneof(
  cellText.map((value): PhrasingContent => ({ type: 'text', value })),
  cellText.map((value): PhrasingContent => ({ type: 'inlineCode', value })),
  fc.constantFrom('<br>', '<details><summary>answers</summary>', '</details>', '<!-- x -->').map((value): PhrasingContent => ({ type: 'html', value })),
  fc
    .tuple(fc.constantFrom('strong' as const, 'emphasis' as const), fc.oneof(words, cellText))
    .map(([type, value]): PhrasingContent => ({ type, children: [{ type: 'text', value }] })),
  fc.constantFrom('strong' as const, 'emphasis' as const).map((type): PhrasingContent => ({ type, children: [{ type: 'inlineCode', value: 'x' }] })),
  fc.oneof(words, cellText).map((value): PhrasingContent => ({ type: 'link', url: 'https://example.com/t?id=1&b=(2)', children: [{ type: 'text', value }] })),
);
const cell: fc.Arbitrary<Cell> = fc.oneof(
  cellText,
  cellText.map((value): PhrasingContent => ({ type: 'inlineCode', value })),
  fc.tuple(cellText, cellText).map(([a, b]): PhrasingContent[] => [
    { type: 'strong', children: [{ type: 'text', value: a }] },
    { type: 'text', value: b },
  ]),
  fc.array(phrasing, { maxLength: 8 }),
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
      { numRuns: 800 },
    );
  });

  /** `plainRowLine` of a table's first body row, with the state GFM's serialiser gives a table at the root. */
  function plainLineOf(cells: readonly Cell[]): string | undefined {
    let line: string | undefined;
    const capture: Handle = (node: Table, _, state) => {
      line = plainRowLine(node.children[1]!, state);
      return '';
    };
    toMarkdown(
      { type: 'root', children: [table(['h'], [cells])] },
      { extensions: [gfmToMarkdown({ tablePipeAlign: false }), { handlers: { table: capture } }] },
    );
    return line;
  }

  it('writes the comment’s question cells itself, bold labels, code spans, folds and links included, as GFM does', () => {
    const cells: Cell[] = [
      [
        { type: 'inlineCode', value: 'q-17' },
        text(' '),
        ...inertProse('Which plan covers 2FA for @team on www.example.com? *Really* | truly', 300),
        text(' · '),
        { type: 'link', url: 'https://example.com/trace?id=q-17', children: [text('trace')] },
        lineBreak(),
        ...inlineDetails('answers side by side', [
          strong(text('expected')),
          text(': '),
          ...inertProse('The <b>Pro</b> plan_ [see] `docs`.', 200),
          lineBreak(),
          strong(text('base')),
          text(' (right): '),
          { type: 'emphasis', children: [text('empty')] },
          lineBreak(),
          strong(text('head')),
          text(' (wrong): '),
          ...inertProse('# Pro\n- item 1. ok', 200),
        ]),
      ],
    ];
    const line = plainLineOf(cells);
    expect(line).toBeDefined();
    expect(`${line}\n`).toBe(
      reference({ type: 'root', children: [table(['h'], [cells])] })
        .split('\n')
        .slice(2)
        .join('\n'),
    );
  });

  // mdast literals: the helpers of src/render/mdast.ts are not called while tests are collected.
  const b = (value: string): PhrasingContent => ({ type: 'strong', children: [{ type: 'text', value }] });
  const t = (value: string): PhrasingContent => ({ type: 'text', value });
  const br: PhrasingContent = { type: 'html', value: '<br>' };

  it.each<[string, Cell]>([
    // GFM escapes this underscore only after a marker: the text after bold is written with the marker before it.
    ['text after bold', [b('x'), t('a_b')]],
    ['emphasis, then bold at the end', [{ type: 'emphasis', children: [t('empty')] }, t('_1'), b('2 broken')]],
    ['only html and code', [br, { type: 'inlineCode', value: 'a|b`' }, br]],
    ['nothing', []],
  ])('writes a cell with %s itself, as GFM does', (_, cell) => {
    const line = plainLineOf([cell]);
    expect(line).toBeDefined();
    expect(`${line}\n`).toBe(
      reference({ type: 'root', children: [table(['h'], [[cell]])] })
        .split('\n')
        .slice(2)
        .join('\n'),
    );
  });

  it.each<[string, Cell]>([
    ['bold next to bold', [b('a'), b('b')]],
    ['bold next to bold but for empty text', [b('a'), t(''), b('b')]],
    ['bold around punctuation', [b('a.')]],
    ['bold around a code span', [{ type: 'strong', children: [{ type: 'inlineCode', value: 'a' }] }]],
    ['bold around nothing', [b('')]],
    // Text's line endings are written as references in a cell; html is written as it is.
    ['html after a line ending', [{ type: 'html', value: '<br>\n' }, br]],
  ])('leaves a cell with %s to GFM', (_, cell) => {
    expect(plainLineOf([cell])).toBeUndefined();
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
