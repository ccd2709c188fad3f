/**
 * How alike two user queries are, for rephrase detection: the cosine of embeddings (core/stats/cosine.ts) when
 * there are any, else the lexical measure below. The threshold of each is a setting's default
 * (core/catalog/thresholds.ts).
 */

/** Words that carry no topic in a support query; dropped before the n-grams are counted. */
const STOP_WORDS: ReadonlySet<string> = new Set(
  (
    'a an the i me my we our you your it its is are was were be been am do does did how what where when why which who ' +
    'can could would should will shall may might must to of in on at for from by with about as into and or but if then so ' +
    'than that this these those there here not no any some all just please hi hello thanks thank ok okay get got have has ' +
    'had need want way s t'
  ).split(' '),
);

/** The query's topic words: NFKC, lower case, apostrophes dropped, split at anything not a letter or digit, stop words out. */
export function contentWords(query: string): string[] {
  // Apostrophes, ' and ’, are dropped (’ escaped: scripts/build.mjs keeps the bundle ASCII).
  return query
    .normalize('NFKC')
    .toLowerCase()
    .replace(/['\u2019]/g, '')
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word !== '' && !STOP_WORDS.has(word));
}

/** Code units below this are 10 bits: three of them make a trigram a small integer. */
const SMALL_UNIT = 0x400;

const hasSmallUnits = (words: readonly string[]) => {
  for (const word of words) for (let i = 0; i < word.length; i++) if (word.charCodeAt(i) >= SMALL_UNIT) return false;
  return true;
};

/**
 * Counts of the character trigrams of each content word padded with a space on either side (" reset " → " re",
 * "res", …, "et "). With `small`, every code unit is below SMALL_UNIT and each trigram is counted as its three units
 * in one integer, which a Map hashes without making a string.
 */
function trigramCounts(words: readonly string[], small: boolean): Map<string | number, number> {
  const counts = new Map<string | number, number>();
  for (const word of words) {
    const padded = ` ${word} `;
    if (small) {
      for (let i = 0; i + 3 <= padded.length; i++) {
        const gram = (padded.charCodeAt(i) << 20) | (padded.charCodeAt(i + 1) << 10) | padded.charCodeAt(i + 2);
        counts.set(gram, (counts.get(gram) ?? 0) + 1);
      }
      continue;
    }
    // A trigram is three code points: without surrogates, three code units (a plain slice, no array).
    const chars = SURROGATE.test(word) ? Array.from(padded) : null;
    const length = chars === null ? padded.length : chars.length;
    for (let i = 0; i + 3 <= length; i++) {
      const gram = chars === null ? padded.slice(i, i + 3) : chars.slice(i, i + 3).join('');
      counts.set(gram, (counts.get(gram) ?? 0) + 1);
    }
  }
  return counts;
}

const SURROGATE = /[\uD800-\uDFFF]/;

/**
 * The lexical similarity of two queries: the cosine of their character-trigram count vectors, built from their
 * content words (see `contentWords`). Trigrams let "reset" meet "resetting" and "invoices" meet "invoice"; 0 when
 * either query has no content word.
 */
export function lexicalSimilarity(a: string, b: string): number {
  const wordsA = contentWords(a);
  const wordsB = contentWords(b);
  // Both counted the same way, so that equal trigrams have equal keys; the counts, and so the cosine, are the same.
  const small = hasSmallUnits(wordsA) && hasSmallUnits(wordsB);
  const x = trigramCounts(wordsA, small);
  const y = trigramCounts(wordsB, small);
  let dot = 0;
  let normX = 0;
  let normY = 0;
  for (const [gram, count] of x) {
    normX += count * count;
    dot += count * (y.get(gram) ?? 0);
  }
  for (const count of y.values()) normY += count * count;
  return normX === 0 || normY === 0 ? 0 : dot / Math.sqrt(normX * normY);
}
