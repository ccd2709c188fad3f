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

/** answer_length: words as a reader counts them, whitespace-separated, punctuation and articles included. */
export function answerWords(text: string): number {
  const words = text.trim();
  return words === '' ? 0 : words.split(/\s+/u).length;
}
