// Text analysis shared by retrieval, the answerer and the scorer: tokens, a light stemmer, sentences, token F1.

/** Function words and question words that carry no topic. */
const STOPWORDS = new Set(
  (
    'a about above after again against all also am an and any are as at be because been before being below between both but by ' +
    'can could did do does doing done down during each either else ever every few for from further get gets got had has have having ' +
    'he her here hers him his how i if in into is it its itself just let like may me might more most much must my myself no nor not ' +
    'now of off on once one only or other our ours out over own per same she should so some such than that the their theirs them ' +
    'then there these they this those through to too under until up upon us use used using very via was way we well were what when ' +
    'where whether which while who whom whose why will with within without would yes yet you your yours able anything something ' +
    'happen happens need needs want wants know tell long many often quickly soon fast'
  ).split(' '),
);

/**
 * Lower-cased word and number tokens; "10,000" is one token, "1.2" is one token.
 * @param {string} text
 * @returns {string[]}
 */
export function words(text) {
  return (
    text
      .toLowerCase()
      .replace(/(\d),(?=\d{3})/g, '$1')
      .match(/[a-z0-9]+(?:\.[0-9]+)*/g) ?? []
  );
}

/** Words the suffix stripper would mangle ("https" is not the plural of "http"). */
const KEEP = new Set(['https']);

/**
 * A deliberately small suffix stripper: plural -s, -ies/-ied, -ed, -ing (and the doubled consonant before them) and a
 * final -e, only when at least three characters remain, so "expires", "expired", "expiring" and "expire" share
 * the stem "expir", and "stopped" and "stop" the stem "stop".
 * @param {string} word
 */
export function stem(word) {
  if (/\d/.test(word) || word.length <= 3 || KEEP.has(word)) return word;
  let w = word;
  if (/ie[sd]$/.test(w) && w.length > 4) w = `${w.slice(0, -3)}y`;
  else if (w.endsWith('s') && !/(ss|us|is)$/.test(w)) w = w.slice(0, -1);
  if (w.endsWith('ing') && w.length - 3 >= 3) w = w.slice(0, -3);
  else if (w.endsWith('ed') && w.length - 2 >= 3) w = w.slice(0, -2);
  if (w !== word && w.length > 3 && /([b-df-hj-kmnp-rtv-z])\1$/.test(w)) w = w.slice(0, -1);
  if (w.endsWith('e') && w.length - 1 >= 3) w = w.slice(0, -1);
  return w;
}

/**
 * Stemmed content terms of a text, in order, stopwords removed.
 * @param {string} text
 * @returns {string[]}
 */
export function terms(text) {
  return words(text)
    .filter((w) => !STOPWORDS.has(w))
    .map(stem);
}

/**
 * The term function minisearch uses for indexing and for queries (null drops the token).
 * @param {string} token
 * @returns {string | null}
 */
export function processTerm(token) {
  const w = token.toLowerCase();
  return STOPWORDS.has(w) ? null : stem(w);
}

/**
 * The tokenizer minisearch uses: the same words as `words`.
 * @param {string} text
 */
export function tokenize(text) {
  return words(text);
}

/**
 * Splits a passage into sentences: a line break ends a segment (a title is its own segment), and so does
 * ". ", "? " or "! " before an upper-case letter, a digit or a slash. Segments keep their punctuation.
 * @param {string} text
 * @returns {string[]}
 */
export function sentences(text) {
  return text
    .split(/\n+/)
    .flatMap((line) => line.split(/(?<=[.?!])\s+(?=[A-Z0-9/])/))
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}

/**
 * A segment that ends like a sentence (titles do not), so it can be quoted as an answer.
 * @param {string} segment
 */
export function isSentence(segment) {
  return /[.?!]$/.test(segment);
}

/**
 * SQuAD answer normalisation: lower case, punctuation and symbols removed, no articles, split on white space.
 * @param {string} text
 * @returns {string[]}
 */
export function normalizeAnswer(text) {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s]/gu, '')
    .replace(/\b(a|an|the)\b/g, ' ')
    .split(/\s+/)
    .filter((t) => t.length > 0);
}

/**
 * SQuAD token F1 between an answer and the reference answer: the harmonic mean of the shares of shared tokens
 * (counted with multiplicity) in the answer and in the reference.
 * @param {string} answer
 * @param {string} reference
 */
export function tokenF1(answer, reference) {
  const a = normalizeAnswer(answer);
  const b = normalizeAnswer(reference);
  if (a.length === 0 || b.length === 0) return a.length === b.length ? 1 : 0;
  /** @type {Map<string, number>} */
  const counts = new Map();
  for (const t of b) counts.set(t, (counts.get(t) ?? 0) + 1);
  let common = 0;
  for (const t of a) {
    const left = counts.get(t) ?? 0;
    if (left > 0) {
      common++;
      counts.set(t, left - 1);
    }
  }
  if (common === 0) return 0;
  const precision = common / a.length;
  const recall = common / b.length;
  return (2 * precision * recall) / (precision + recall);
}
