/**
 * A table row's line as GFM's table handler writes it (`| a | b |`, no pipe alignment), without
 * mdast-util-to-markdown's generic phrasing around each cell's children. Every child is still written by its own
 * handler, with the neighbouring characters phrasing would give it, so escaping is never done here; what is left out
 * is the work phrasing does around them (position tracking, choosing attention markers for any text), which costs
 * more than the handlers on a comment's hundreds of rows.
 *
 * Attention is written here only where phrasing's choice is plain: strong or emphasis around one text written with
 * an ASCII letter or digit at each end, marked with `*`, and never next to other attention. Such a sequence opens
 * and closes whatever is around it, so phrasing keeps its first choice (`**`, `*`) and encodes nothing. Any other
 * cell (or html right after a line ending, which phrasing rewrites) is left to GFM's handler: `undefined`.
 */
import type { Nodes, Parents, PhrasingContent, TableCell, TableRow, Text } from 'mdast';
import type { Handle, Info, State } from 'mdast-util-to-markdown';

type Attention = (node: Nodes, state: State) => { construct: string; markers: string[]; sizes: number[] };
type PhrasingHandle = Handle & { peek?: Handle; attention?: Attention };

/** Where phrasing tracks positions; no handler a cell holds writes differently by them (nor by `state.indexStack`). */
const AT = { now: { line: 1, column: 1 }, lineShift: 0 };

/**
 * The characters GFM's table handler gives a cell's content as its neighbours: pipes, since `tableCellPadding` is not
 * set (the line is still padded with spaces: markdown-table pads unless told not to).
 */
const AROUND = '|';

const PLAIN_END = /^[A-Za-z0-9]$/;

const isHigh = (code: number) => code >= 0xd800 && code <= 0xdbff;
const isLow = (code: number) => code >= 0xdc00 && code <= 0xdfff;

/** As mdast-util-to-markdown takes them: a whole code point (a lone surrogate is one), or nothing. */
function firstCharacter(value: string): string {
  return value.length > 1 && isHigh(value.charCodeAt(0)) && isLow(value.charCodeAt(1)) ? value.slice(0, 2) : value.charAt(0);
}

function lastCharacter(value: string): string {
  const end = value.length;
  return end > 1 && isLow(value.charCodeAt(end - 1)) && isHigh(value.charCodeAt(end - 2)) ? value.slice(-2) : value.slice(-1);
}

/** What a peek is given: no neighbours. Handlers read their `info`, never change it. */
const PEEK_INFO: Info = { ...AT, before: '', after: '' };

const handlersOf = (state: State) => (state.handle as unknown as { handlers: Record<string, PhrasingHandle | undefined> }).handlers;

/** What phrasing takes as the character after a child: the first of its next sibling's peek. */
function peekFirst(next: PhrasingContent, parent: TableCell, state: State): string {
  // A code span starts with its fence; GFM's handler has no peek, and writing the span to peek costs it twice.
  if (next.type === 'inlineCode') return '`';
  let handle = handlersOf(state)[next.type];
  if (handle?.peek) handle = handle.peek;
  return handle ? firstCharacter(handle(next, parent, state, PEEK_INFO)) : '';
}

/** A strong or emphasis node as phrasing writes it when its choice is plain (see above); undefined otherwise. */
/**
 * `plainAttention` by node type, stack and text, for each serialisation: what it writes depends on nothing else
 * (the text is the node's only child), and rows repeat the same few words in bold. Null: not plain.
 */
const attentionTexts = new WeakMap<State, Map<string, string | null>>();

function plainAttention(node: PhrasingContent, attention: Attention, state: State): string | undefined {
  if (!('children' in node) || node.children.length !== 1 || node.children[0]!.type !== 'text') return undefined;
  let texts = attentionTexts.get(state);
  if (texts === undefined) attentionTexts.set(state, (texts = new Map()));
  const key = `${node.type}\n${state.stack.join(' ')}\n${node.children[0].value}`;
  let text = texts.get(key);
  if (text === undefined) texts.set(key, (text = attentionText(node, node.children[0], attention, state) ?? null));
  return text ?? undefined;
}

function attentionText(node: PhrasingContent & Parents, child: Text, attention: Attention, state: State): string | undefined {
  const { construct, markers, sizes } = attention(node, state);
  if (markers[0] !== '*' || sizes.length === 0) return undefined;
  const sequence = '*'.repeat(sizes[0]!);
  const exit = state.enter(construct as Parameters<State['enter']>[0]);
  const inner = state.handle(child, node, state, { ...AT, before: sequence, after: sequence });
  exit();
  if (!PLAIN_END.test(inner.charAt(0)) || !PLAIN_END.test(inner.charAt(inner.length - 1))) return undefined;
  return sequence + inner + sequence;
}

/** A cell's content as GFM's table handler writes it, or undefined where this leaves it to that handler. */
function cellText(cell: TableCell, state: State): string | undefined {
  const handlers = handlersOf(state);
  const children = cell.children;
  let out = '';
  let before = AROUND;
  let afterAttention = false;
  for (let index = 0; index < children.length; index++) {
    const child = children[index]!;
    if (child.type === 'html' && (before === '\r' || before === '\n')) return undefined;
    const attention = handlers[child.type]?.attention;
    if (attention !== undefined) {
      if (afterAttention) return undefined;
      const value = plainAttention(child, attention, state);
      if (value === undefined) return undefined;
      out += value;
      before = '*';
      afterAttention = true;
      continue;
    }
    // Attention is written without its neighbours (see above); other nodes with them, as phrasing gives them.
    const after = index + 1 < children.length ? peekFirst(children[index + 1]!, cell, state) : AROUND;
    const info: Info = { now: AT.now, lineShift: AT.lineShift, before, after };
    // The child's handler, as `state.handle` finds and calls it, without its dispatch.
    const handle = Object.hasOwn(handlers, child.type) ? handlers[child.type] : undefined;
    const value = handle === undefined ? state.handle(child, cell, state, info) : handle.call(state, child, cell, state, info);
    // Phrasing drops an empty result; attention on either side of it stays next to each other.
    if (!value) continue;
    out += value;
    before = lastCharacter(value);
    afterAttention = false;
  }
  return out;
}

/** The row's line, as GFM's handler writes the row of a table without pipe alignment; undefined: use that handler. */
export function plainRowLine(row: TableRow, state: State): string | undefined {
  const exits = [state.enter('table'), state.enter('tableRow')];
  let line = '|';
  try {
    for (const cell of row.children) {
      const exitCell = state.enter('tableCell');
      const exitPhrasing = state.enter('phrasing');
      let text: string | undefined;
      try {
        text = cellText(cell, state);
      } finally {
        exitPhrasing();
        exitCell();
      }
      if (text === undefined) return undefined;
      line += text === '' ? ' |' : ` ${text} |`;
    }
    return line;
  } finally {
    for (const exit of exits.reverse()) exit();
  }
}
