/**
 * The one path for untrusted text: everything that comes from a results file, an artifact, a judge's reply or the
 * GitHub API (ids, questions, answers, tags, document ids, model names, prompt versions, file and branch names)
 * reaches a report only through `inertText` — in the comment, inside a code span (`inert` in mdast.ts), where
 * GitHub makes no mention, cross-reference, link, e-mail address, math or HTML of it.
 */

/** Text from outside, cut to at most `max` code points where it is shown. */
export interface Untrusted {
  readonly untrusted: string;
  readonly max: number;
}

/** A sentence: our own words, and untrusted pieces that the renderers keep inert. */
export type Piece = string | Untrusted;
export type Sentence = readonly Piece[];

export const untrusted = (value: string, max: number): Untrusted => ({ untrusted: value, max });

/** Control characters: break a table row, a log line or a workflow command. */
const CONTROLS = /\p{Cc}/gu;
/**
 * Characters that change how text reads without being seen: bidirectional controls (U+202E, U+2066…), the Arabic
 * letter mark U+061C, zero-width spaces and joiners, the byte-order mark, and every other format character; also
 * line and paragraph separators. They are shown by code point, so that two ids that look alike stay apart.
 */
const INVISIBLE = /[\p{Cf}\u2028\u2029\u115f\u1160\u3164\uffa0]/gu;

const codePoint = (char: string) => `<U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}>`;

/**
 * Untrusted text made inert and bounded: control characters and white-space runs become one space, invisible
 * characters are shown as `<U+XXXX>`, the ends are trimmed, and text longer than `max` code points is cut to
 * `max − 1` of them plus "…".
 */
export function inertText(value: string, max: number): string {
  const head = 2 * max + 16;
  // Plain text (the usual question or answer) is its own flattening, one code point a code unit: only cut.
  const plain = value.length > head ? plainStart(value, head) : plainStart(value, value.length) && value.charCodeAt(value.length - 1) !== 0x20;
  if (plain) return value.length <= max ? value : `${value.slice(0, max - 1).trimEnd()}…`;
  // A long text (an answer of pages) is cut: its first code units are flattened alone when they come to more than
  // `max` code points. A prefix flattens to a prefix of the whole's flattening, but for its last code point (half of
  // a pair) and a space trimmed after it, so the first `max` code points are the same.
  if (value.length > head) {
    const points = Array.from(flatten(value.slice(0, head)));
    if (points.length > max) return cut(points, max);
  }
  const flat = flatten(value);
  if (flat.length <= max) return flat;
  const points = Array.from(flat);
  return points.length <= max ? flat : cut(points, max);
}

/**
 * Whether the first `end` code units of `value` are printable ASCII, with no space first and none right after
 * another: `flatten` changes none of them (but a last space, which it trims).
 */
function plainStart(value: string, end: number): boolean {
  let previous = 0x20;
  for (let i = 0; i < end; i++) {
    const code = value.charCodeAt(i);
    if (code < 0x20 || code > 0x7e || (code === 0x20 && previous === 0x20)) return false;
    previous = code;
  }
  return true;
}

/** Control characters and white-space runs as one space, invisible characters shown, the ends trimmed. */
const flatten = (value: string) => value.replace(CONTROLS, ' ').replace(INVISIBLE, codePoint).replace(/\s+/gu, ' ').trim();

/** The first `max − 1` code points and "…". */
const cut = (points: readonly string[], max: number) =>
  `${points
    .slice(0, max - 1)
    .join('')
    .trimEnd()}…`;

/**
 * The first words of untrusted text (a document's, to name it), inert: at most `words` words and `max` code points,
 * ending with "…" when the text goes on. A first word longer than that is cut.
 */
export function inertFirstWords(value: string, words: number, max: number): string {
  const line = inertText(value, 4 * max);
  let shown = '';
  let count = 0;
  for (const word of line.split(' ')) {
    const longer = shown === '' ? word : `${shown} ${word}`;
    if (count === words || Array.from(longer).length > max - 1) break;
    shown = longer;
    count++;
  }
  if (shown === line) return line;
  return shown === '' ? cut(Array.from(line), max) : `${shown}…`;
}

/** A sentence as plain text (terminal, log, JSON), its untrusted pieces inert and bounded. */
export function sentenceText(sentence: Sentence): string {
  return sentence.map((piece) => (typeof piece === 'string' ? piece : inertText(piece.untrusted, piece.max))).join('');
}

/**
 * Untrusted text as a backtick span inside one of our own annotated lines (a baseline's description, a reason):
 * inert, bounded, and with its own backticks shown by code point, so it cannot end the span early.
 */
export function codeQuoted(value: string, max: number): string {
  return `\`${inertText(value, max).replaceAll('`', '<U+0060>')}\``;
}

/** Longest URL linked; a longer one is not a link anyone needs. */
const URL_MAX = 2_000;

/**
 * An untrusted URL (a record's `trace_url`, or a template filled with an id) as one that is safe to link: only
 * http and https, no user name or password, at most 2,000 characters, in its normalised form (spaces, quotes and
 * angle brackets percent-encoded). Null when it is not such a URL, and then it is not linked.
 */
export function safeHttpUrl(value: string): string | null {
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    return null;
  }
  if ((url.protocol !== 'https:' && url.protocol !== 'http:') || url.username !== '' || url.password !== '') return null;
  const href = url.href;
  return href.length > URL_MAX || /[\s<>"`\\]/.test(href) ? null : href;
}
