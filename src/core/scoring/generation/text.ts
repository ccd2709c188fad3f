const PUNCTUATION = /[\p{P}\p{S}]/gu;
const ARTICLES: ReadonlySet<string> = new Set(['a', 'an', 'the']);

/**
 * SQuAD answer normalisation: lower-case, delete punctuation and symbols ("U.S.A." → "usa", as SQuAD's
 * remove_punc), drop the articles a/an/the as whole words, collapse whitespace. (SQuAD drops ASCII
 * punctuation; we drop Unicode punctuation and symbols too. Articles are matched per whitespace-separated
 * word, as SQuAD's Unicode-aware \b does, so "ça" keeps its "a".)
 */
export function normalizeAnswer(text: string): string {
  return text
    .toLowerCase()
    .replace(PUNCTUATION, '')
    .split(/\s+/u)
    .filter((word) => word !== '' && !ARTICLES.has(word))
    .join(' ');
}

/** Tokens of the normalised text. */
export function answerTokens(text: string): string[] {
  const normalized = normalizeAnswer(text);
  return normalized === '' ? [] : normalized.split(' ');
}

/** Whitespace of ASCII text as `\s` matches it: tab, line feed, vertical tab, form feed, carriage return, space. */
const isAsciiSpace = (code: number) => code === 0x20 || (code >= 0x09 && code <= 0x0d);

/** ASCII punctuation and symbols: every ASCII character in \p{P} or \p{S}. */
const isAsciiPunctuation = (code: number) =>
  (code >= 0x21 && code <= 0x2f) || (code >= 0x3a && code <= 0x40) || (code >= 0x5b && code <= 0x60) || (code >= 0x7b && code <= 0x7e);

const LOWER_A = 0x61;
const LOWER_E = 0x65;
const LOWER_H = 0x68;
const LOWER_N = 0x6e;
const LOWER_T = 0x74;

/**
 * How many tokens {@link answerTokens} finds, without building them. ASCII text (most answers) is counted in one
 * pass over its characters with the same rules (case folded, punctuation and symbols deleted, articles dropped,
 * split at whitespace); other text goes through answerTokens itself.
 */
export function answerTokenCount(text: string): number {
  let count = 0;
  // The current word, case-folded without punctuation: its length and first three letters (enough to tell an article).
  let length = 0;
  let first = 0;
  let second = 0;
  let third = 0;
  const endWord = () => {
    const article =
      (length === 1 && first === LOWER_A) ||
      (length === 2 && first === LOWER_A && second === LOWER_N) ||
      (length === 3 && first === LOWER_T && second === LOWER_H && third === LOWER_E);
    if (length > 0 && !article) count++;
    length = 0;
  };
  for (let i = 0; i < text.length; i++) {
    let code = text.charCodeAt(i);
    if (code >= 0x80) return answerTokens(text).length;
    if (isAsciiSpace(code)) endWord();
    else if (!isAsciiPunctuation(code)) {
      if (code >= 0x41 && code <= 0x5a) code += 0x20;
      if (length === 0) first = code;
      else if (length === 1) second = code;
      else if (length === 2) third = code;
      length++;
    }
  }
  endWord();
  return count;
}

/** answer_length: words as a reader counts them, whitespace-separated, punctuation and articles included. */
export function answerWords(text: string): number {
  let words = 0;
  let inWord = false;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code >= 0x80) return unicodeWords(text);
    const space = isAsciiSpace(code);
    if (!space && !inWord) words++;
    inWord = !space;
  }
  return words;
}

function unicodeWords(text: string): number {
  const words = text.trim();
  return words === '' ? 0 : words.split(/\s+/u).length;
}
