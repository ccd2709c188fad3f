/**
 * The text refusal detector: whether an answer declines to answer. The one detector for both sides: a result record
 * without a `refused` field (golden-set metrics) and a monitored log turn without one. A `refused` field always wins.
 *
 * The rule: after NFKC, lower case and curly apostrophes made straight, the answer is empty, or one of
 * REFUSAL_PHRASES occurs, from the start of a word, in its first 300 characters (a refusal says so first; a long answer that mentions "I
 * don't know" in passing deep inside is not one).
 */

export const REFUSAL_PHRASES: readonly string[] = [
  "i don't know",
  'i do not know',
  "i don't have",
  'i do not have',
  "i can't answer",
  'i cannot answer',
  "i can't help",
  'i cannot help',
  "i'm unable to",
  'i am unable to',
  "i'm not able to",
  'i am not able to',
  "i couldn't find",
  'i could not find',
  "i can't find",
  'i cannot find',
  "i'm sorry, but i",
  'i am sorry, but i',
  'no information',
  'not enough information',
  'does not contain',
  "doesn't contain",
  'does not mention',
  "doesn't mention",
  'unable to answer',
  'cannot provide',
  "can't provide",
];

/** The part of an answer the phrases are looked for in. */
export const REFUSAL_PREFIX_CHARS = 300;

const escape = (phrase: string) => phrase.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** A phrase counts only from the start of a word: "you don't have" is not "i don't have". */
const REFUSAL_PATTERN = new RegExp(`(?:^|[^\\p{L}\\p{N}])(?:${REFUSAL_PHRASES.map(escape).join('|')})`, 'u');

/** Tab, line feed, vertical tab, form feed, carriage return and space: the ASCII characters `trim` drops. */
const isAsciiSpace = (code: number) => code === 0x20 || (code >= 0x09 && code <= 0x0d);
const NOT_ASCII = /[\u0080-\uffff]/;

export function detectRefusal(answer: string): boolean {
  // When the head and the character after it are ASCII, NFKC, lower case and the apostrophes leave the head as it
  // is (nothing later can join it: the ASCII character after it ends it), and trimming takes only the leading
  // space (the trailing space it could leave cannot end a phrase). So only the head is read, not the whole answer.
  let start = 0;
  while (start < answer.length && isAsciiSpace(answer.charCodeAt(start))) start++;
  const end = start + REFUSAL_PREFIX_CHARS;
  if (end < answer.length && !NOT_ASCII.test(answer.slice(0, end + 1))) return REFUSAL_PATTERN.test(answer.slice(start, end).toLowerCase());
  // ‘ and ’ as ' (escaped: scripts/build.mjs keeps the bundle ASCII).
  const head = answer
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[\u2018\u2019]/g, "'")
    .trim()
    .slice(0, REFUSAL_PREFIX_CHARS);
  return head === '' || REFUSAL_PATTERN.test(head);
}
