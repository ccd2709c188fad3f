const PUNCTUATION = /[\p{P}\p{S}]/gu;
const ARTICLES = /\b(a|an|the)\b/g;

/**
 * SQuAD answer normalisation: lower-case, drop punctuation and symbols, drop the articles a/an/the,
 * collapse whitespace. (SQuAD drops ASCII punctuation; we drop Unicode punctuation and symbols too.)
 */
export function normalizeAnswer(text: string): string {
  return text.toLowerCase().replace(PUNCTUATION, ' ').replace(ARTICLES, ' ').split(/\s+/u).filter(Boolean).join(' ');
}

/** Tokens of the normalised text. */
export function answerTokens(text: string): string[] {
  const normalized = normalizeAnswer(text);
  return normalized === '' ? [] : normalized.split(' ');
}
