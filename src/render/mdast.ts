/**
 * Building blocks for GitHub-flavoured Markdown as an mdast tree, serialised by mdast-util-to-markdown, so escaping
 * is never done by hand. Untrusted text enters only through `inert` (a code span of `inertText`) or `inertProse`
 * (`inertText` as text, with every word GitHub could act on in a code span): never HTML, a heading, a link, an
 * image, math or an @mention. Untrusted URLs become links only through `safeHttpUrl`; raw `html` nodes carry only
 * our own fixed markup.
 */
import type {
  Emphasis,
  Heading,
  Html,
  InlineCode,
  Link,
  Nodes,
  Paragraph,
  PhrasingContent,
  Root,
  RootContent,
  Strong,
  Table,
  TableCell,
  TableRow,
  Text,
} from 'mdast';
import { gfmToMarkdown } from 'mdast-util-gfm';
import { gfmTableToMarkdown } from 'mdast-util-gfm-table';
import { defaultHandlers, type Handle, type State, toMarkdown, type Unsafe } from 'mdast-util-to-markdown';
import { plainRowLine } from './row-line.js';
import { inertText, type Sentence } from './untrusted.js';

// ---------------------------------------------------------------------------------------------------------------
// Untrusted text

export const text = (value: string): Text => ({ type: 'text', value });
export const strong = (...children: PhrasingContent[]): Strong => ({ type: 'strong', children });
const emphasis = (value: string): Emphasis => ({ type: 'emphasis', children: [text(value)] });
export const paragraph = (...children: PhrasingContent[]): Paragraph => ({ type: 'paragraph', children });
export const heading = (depth: 3 | 4, value: string): Heading => ({ type: 'heading', depth, children: [text(value)] });
const html = (value: string): Html => ({ type: 'html', value });

/** Untrusted text as a code span, or an emphasised "empty" when nothing is left to show. */
export function inert(value: string, max: number): InlineCode | Emphasis {
  const line = inertText(value, max);
  return line === '' ? emphasis('empty') : { type: 'inlineCode', value: line };
}

/**
 * Words GitHub acts on after Markdown: @mentions and e-mail addresses (`@`), issue references (`#12`, `GH-12`,
 * `owner/repo#12`), math (`$`), links (a scheme, `www.`), what looks like a commit hash, and anything with backticks or
 * backslashes. Markdown's own syntax (HTML included) is escaped by the serialiser.
 */
const LIVE_WORD = /[@#$`\\]|:\/\/|^https?:|www\.|\bgh-\d|\b(?=[0-9a-f]*\d)[0-9a-f]{7,}\b/i;
/**
 * LIVE_WORD over a line of words, each after a space or first: it matches the line wherever it would match a word
 * (no other part of it can span a space), so a line it does not match holds no live word.
 */
const LIVE_IN_LINE = new RegExp(LIVE_WORD.source.replace('^https?:', '(?:^| )https?:'), LIVE_WORD.flags);

/**
 * Untrusted text to be read as prose (a question, an answer): one line of `inertText`, bounded, as plain text, with
 * each white-space-separated word that GitHub could turn into a mention, a reference, a link or math kept in a code
 * span. An emphasised "empty" when nothing is left to show.
 */
export function inertProse(value: string, max: number): PhrasingContent[] {
  const line = inertText(value, max);
  if (line === '') return [emphasis('empty')];
  if (!LIVE_IN_LINE.test(line)) return [text(line)];
  const out: PhrasingContent[] = [];
  let words: string[] = [];
  const flush = (last: boolean) => {
    if (words.length === 0) return;
    const lead = out.length > 0 ? ' ' : '';
    out.push(text(`${lead}${words.join(' ')}${last ? '' : ' '}`));
    words = [];
  };
  for (const word of line.split(' ')) {
    if (!LIVE_WORD.test(word)) {
      words.push(word);
      continue;
    }
    flush(false);
    if (out.length > 0 && out.at(-1)!.type === 'inlineCode') out.push(text(' '));
    out.push({ type: 'inlineCode', value: word });
  }
  flush(true);
  return out;
}

/** A link whose text is our own words, to a URL `safeHttpUrl` returned. */
export const link = (url: string, words: string): Link => ({ type: 'link', url, children: [text(words)] });

/** A line break inside a table cell, where Markdown has none of its own. */
export const lineBreak = (): Html => html('<br>');

/** Phrasing folded under a summary of our own words, inside a table cell. */
export function inlineDetails(summary: string, children: PhrasingContent[]): PhrasingContent[] {
  return [html(`<details><summary>${escapeHtml(summary)}</summary>`), ...children, html('</details>')];
}

/** A sentence as Markdown: our words as text, untrusted pieces as code spans. */
export function sentencePhrasing(sentence: Sentence): PhrasingContent[] {
  return sentence.flatMap((piece) => (typeof piece === 'string' ? prose(piece) : [inert(piece.untrusted, piece.max)]));
}

/** Things GitHub would turn into a notification or a cross-reference when they appear in plain text. */
const REFERENCE = /(?<![\w`])(?:@[A-Za-z0-9][\w-]*(?:\/[\w.-]+)?|#\d+)/g;

/** Our own sentences as text, with any @mention or #123 reference (from names we interpolate) kept in code. */
export function prose(value: string): PhrasingContent[] {
  const out: PhrasingContent[] = [];
  let start = 0;
  for (const match of value.matchAll(REFERENCE)) {
    if (match.index > start) out.push(text(value.slice(start, match.index)));
    out.push({ type: 'inlineCode', value: match[0] });
    start = match.index + match[0].length;
  }
  if (start < value.length) out.push(text(value.slice(start)));
  return out;
}

/** Trusted one-line text (baseline provenance, report link) where `backtick` spans become code spans. */
export function annotated(value: string): PhrasingContent[] {
  const flat = inertText(value, 1_000);
  const out: PhrasingContent[] = [];
  let start = 0;
  for (const match of flat.matchAll(/`([^`]+)`/g)) {
    if (match.index > start) out.push(...prose(flat.slice(start, match.index)));
    out.push({ type: 'inlineCode', value: match[1]! });
    start = match.index + match[0].length;
  }
  if (start < flat.length) out.push(...prose(flat.slice(start)));
  return out;
}

// ---------------------------------------------------------------------------------------------------------------
// Tables and folds

export type Cell = string | PhrasingContent | PhrasingContent[];
export type Align = 'left' | 'right' | 'center' | null;

function tableCell(content: Cell): TableCell {
  const children = typeof content === 'string' ? prose(content) : Array.isArray(content) ? content : [content];
  return { type: 'tableCell', children };
}

/** One row node per row of cells, so that a row rendered again (as the comment is fitted to its size) is the same node. */
const rowNodes = new WeakMap<readonly Cell[], TableRow>();

function tableRow(cells: readonly Cell[]): TableRow {
  let row = rowNodes.get(cells);
  if (row === undefined) {
    row = { type: 'tableRow', children: cells.map(tableCell) };
    rowNodes.set(cells, row);
  }
  return row;
}

/**
 * At least the length of the line a row serialises to: its text (a code span's CR LF becomes one space), the first
 * pipe, and two characters a cell (its closing pipe and a space: `| a | |`).
 */
export function rowLengthAtLeast(cells: readonly Cell[]): number {
  return tableRow(cells).children.reduce((sum, cell) => sum + textLength(cell) + 2, 1);
}

function textLength(node: Nodes): number {
  if (node.type === 'inlineCode') return node.value.length - (node.value.match(/\r\n/g)?.length ?? 0);
  if ('value' in node) return node.value.length;
  return 'children' in node ? node.children.reduce((sum: number, child: Nodes) => sum + textLength(child), 0) : 0;
}

export function table(header: readonly Cell[], rows: readonly (readonly Cell[])[], align: readonly Align[] = []): Table {
  return { type: 'table', align: header.map((_, i) => align[i] ?? null), children: [tableRow(header), ...rows.map(tableRow)] };
}

const escapeHtml = (value: string) => value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** Content folded under a summary; the summary is always our own words. */
export function details(summary: string, children: RootContent[]): RootContent[] {
  return [html(`<details><summary>${escapeHtml(summary)}</summary>`), ...children, html('</details>')];
}

/** The sticky-comment marker as an HTML comment, reduced to characters that cannot end or break it. */
export function markerComment(marker: string): Html {
  const safe = marker
    .replace(/[^\w:./@+-]/g, '')
    .replace(/-{2,}/g, '-')
    .replace(/^-|-$/g, '');
  return html(`<!-- ${safe} -->`);
}

const TABLE_OPTIONS = { tablePipeAlign: false };
const gfmTable = gfmTableToMarkdown(TABLE_OPTIONS).handlers!.table!;

/** What was written for a node in a context (the constructs around it, and whatever else its text depends on). */
type Written<N extends object> = WeakMap<N, Map<string, string>>;

function written<N extends object>(texts: Written<N>, node: N, context: string, write: () => string): string {
  let byContext = texts.get(node);
  if (byContext === undefined) texts.set(node, (byContext = new Map()));
  let text = byContext.get(context);
  if (text === undefined) byContext.set(context, (text = write()));
  return text;
}

/** Each body row's text by the constructs the table is in. */
const rowTexts: Written<TableRow> = new WeakMap();
/** Each header's lines (the header row and the delimiter row) by the constructs the table is in and its alignment. */
const headerTexts: Written<TableRow> = new WeakMap();

/**
 * GFM's table handler, with each body row's text kept: fitting a comment to its size renders it several times with
 * mostly the same rows, and serialising their cells is most of a render's cost. Without `tablePipeAlign`, and with
 * every row as wide as the header, a row's text depends only on its cells and the constructs around the table: it
 * is GFM's table of that row alone, less the delimiter row that follows it. A row of plain cells is written by
 * `plainRowLine`, the same line at a fraction of the cost.
 */
const cachedTable: Handle = (node: Table, parent, state, info) => {
  const [header, ...rows] = node.children;
  const width = header?.children.length ?? 0;
  if (header === undefined || (node.align?.length ?? 0) > width || rows.some((row) => row.children.length !== width))
    return gfmTable(node, parent, state, info);
  const alone = (row: TableRow) => gfmTable({ ...node, children: [row] }, parent, state, info);
  const context = state.stack.join(' ');
  const texts = rows.map((row) =>
    written(rowTexts, row, context, () => {
      const line = plainRowLine(row, state);
      if (line !== undefined) return line;
      const withDelimiter = alone(row);
      return withDelimiter.slice(0, withDelimiter.lastIndexOf('\n'));
    }),
  );
  return [written(headerTexts, header, `${context}\n${(node.align ?? []).join(' ')}`, () => alone(header)), ...texts].join('\n');
};

/** The lines of rows of a table at the root as its renders wrote them, or undefined when one was not written there. */
export function writtenRowLines(rows: readonly (readonly Cell[])[]): string[] | undefined {
  const lines: string[] = [];
  for (const cells of rows) {
    const row = rowNodes.get(cells);
    const line = row === undefined ? undefined : rowTexts.get(row)?.get('');
    if (line === undefined) return undefined;
    lines.push(line);
  }
  return lines;
}

/** Each paragraph's text at the root, by its neighbouring characters. */
const paragraphTexts: Written<Paragraph> = new WeakMap();

/**
 * The paragraph handler, with the text of a paragraph at the root kept: a comment fitted to its size renders the
 * same head and tail several times. There a paragraph's text depends only on its content and the characters
 * around it (the root's stack is empty); GFM's paragraph handler differs from the default only in a list item.
 */
const cachedParagraph: Handle = (node: Paragraph, parent, state, info) =>
  parent?.type === 'root' && state.stack.length === 0
    ? written(paragraphTexts, node, `${info.before}\n${info.after}`, () => defaultHandlers.paragraph(node, parent, state, info))
    : gfmParagraph(node, parent, state, info);

/** The unsafe patterns in scope of a stack, as `safeAsItIs` and the text's peek use them. */
interface UnsafeScope {
  readonly patterns: readonly Unsafe[];
  /** Those that can match text without a line ending. */
  readonly withoutLineEnding: readonly Unsafe[];
  /** Their characters: where `safe` may escape or encode. */
  readonly characters: ReadonlySet<string>;
  /** Whether a text holds a character of any pattern; of any that can match without a line ending. */
  readonly anyCharacter: RegExp;
  readonly anyCharacterWithoutLineEnding: RegExp;
}

/** Whether a text holds any of the patterns' characters. */
const anyCharacterOf = (patterns: readonly Unsafe[]) =>
  new RegExp(`[${[...new Set(patterns.map((pattern) => `\\u{${pattern.character.codePointAt(0)!.toString(16)}}`))].join('')}]`, 'u');

/** A pattern's context that is one line ending, as mdast-util-to-markdown's patterns write it. */
const LINE_ENDING = new Set(['[\\r\\n]', '\\r', '\\n']);

/**
 * Whether a pattern's expression (`compilePattern`) holds a line ending that must match: one at a break, or a
 * `before` or `after` that is one (and not replaced by `beforeNode` or `afterNode`). Comment text is one line, so most
 * of these are passed over.
 */
const needsLineEnding = (pattern: Unsafe): boolean =>
  (!pattern.beforeNode && (pattern.atBreak === true || LINE_ENDING.has(pattern.before ?? ''))) || (!pattern.afterNode && LINE_ENDING.has(pattern.after ?? ''));

/**
 * The unsafe patterns whose constructs are on each stack, of each serialisation (its patterns are its own). A
 * pattern's `notInConstruct` is not weighed: testing a pattern `safe` would skip only makes a text go to `safe`.
 */
const scopes = new WeakMap<State, Map<string, UnsafeScope>>();

/** The scope last looked up for each serialisation, and the stack it was for: texts come in runs on one stack. */
const lastScopes = new WeakMap<State, { readonly stack: readonly string[]; readonly scope: UnsafeScope }>();

function unsafeInScope(state: State): UnsafeScope {
  const last = lastScopes.get(state);
  if (last !== undefined && last.stack.length === state.stack.length && last.stack.every((name, i) => name === state.stack[i])) return last.scope;
  const scope = scopeOf(state);
  lastScopes.set(state, { stack: [...state.stack], scope });
  return scope;
}

function scopeOf(state: State): UnsafeScope {
  let byStack = scopes.get(state);
  if (byStack === undefined) scopes.set(state, (byStack = new Map()));
  const key = state.stack.join(' ');
  let scope = byStack.get(key);
  if (scope === undefined) {
    const patterns = state.unsafe.filter(({ inConstruct }) => {
      const names = typeof inConstruct === 'string' ? [inConstruct] : (inConstruct ?? []);
      return names.length === 0 || names.some((name) => state.stack.includes(name));
    });
    const withoutLineEnding = patterns.filter((pattern) => !needsLineEnding(pattern));
    scope = {
      patterns,
      withoutLineEnding,
      characters: new Set(patterns.map((pattern) => pattern.character)),
      anyCharacter: anyCharacterOf(patterns),
      anyCharacterWithoutLineEnding: anyCharacterOf(withoutLineEnding),
    };
    byStack.set(key, scope);
  }
  return scope;
}

/**
 * Whether `state.safe` would return `value` as it is: it escapes only where an unsafe pattern in scope matches, at
 * the pattern's character, and then doubles backslashes before punctuation. So a text with no backslash (nor one
 * after it), where no pattern in scope whose character it holds matches the subject `safe` would test, is safe as
 * it is. Most prose is (a pattern's character, such as `.`, rarely has the context it needs), and testing the few
 * patterns of its characters that can match at all costs far less than `safe`'s pass over all of them.
 */
function safeAsItIs(state: State, value: string, before: string, after: string): boolean {
  if (value.includes('\\') || after.includes('\\')) return false;
  const whole = before + value + after;
  const end = whole.length - after.length;
  const scope = unsafeInScope(state);
  const lineEnding = whole.includes('\n') || whole.includes('\r');
  // Most words hold none of the characters of the patterns that can match them.
  if (!(lineEnding ? scope.anyCharacter : scope.anyCharacterWithoutLineEnding).test(value)) return true;
  const patterns = lineEnding ? scope.patterns : scope.withoutLineEnding;
  for (const pattern of patterns) {
    if (!value.includes(pattern.character)) continue;
    const expression = state.compilePattern(pattern);
    // As `safe` slices it; the expression is global, and `safe` expects it at index 0.
    expression.lastIndex = 0;
    const found = expression.test(whole.slice(pattern.beforeNode ? before.length : 0, pattern.afterNode ? end : undefined));
    expression.lastIndex = 0;
    if (found) return false;
  }
  return true;
}

/** GFM's text handler, with `state.safe` passed over where it would change nothing. */
const writeText: Handle = (node: Text, parent, state, info) =>
  safeAsItIs(state, node.value, info.before, info.after) ? node.value : defaultHandlers.text(node, parent, state, info);

/**
 * What phrasing takes the character after a node from: the first character of the text as written with nothing
 * around it. `safe` changes that character only by escaping or encoding it where a pattern matches it, which needs it
 * to be the pattern's character; any other first character is written as it is (a backslash only gains another).
 */
const peekText: Handle = (node: Text, parent, state, info) =>
  unsafeInScope(state).characters.has(node.value.charAt(0)) ? writeText(node, parent, state, info) : node.value;

const textHandler = Object.assign(writeText, { peek: peekText });

const GFM = gfmToMarkdown(TABLE_OPTIONS);
const gfmParagraph: Handle = GFM.extensions!.find((extension) => extension.handlers?.paragraph)?.handlers?.paragraph ?? defaultHandlers.paragraph;

export function serialise(tree: Root): string {
  return toMarkdown(tree, { bullet: '-', extensions: [GFM, { handlers: { table: cachedTable, text: textHandler, paragraph: cachedParagraph } }] });
}
