// Text of realistic length and shape for the bench's workloads: readers pay for every byte, scored or not.

/** A support desk's content words (the judge bench's text is made of these alone). */
export const DOMAIN_WORDS = (
  'refund window contract invoice enterprise annual approval signatory billing plan seat license renewal ' +
  'customer account region data export retention backup audit log role permission token webhook request ' +
  'limit quota support ticket priority response incident status page integration sync schedule report'
).split(' ');

/** Content words and the function words that questions and answers are full of. */
const WORDS = [...DOMAIN_WORDS, ...'the a of to and in is for on with as by at from that this which be are can when how what does your'.split(' ')];

/** Word and sentence makers drawing from `random` (a function returning floats in [0, 1)) over `vocabulary`. */
export function textMaker(random, vocabulary = WORDS) {
  const between = (least, most) => least + Math.floor(random() * (most - least + 1));
  const words = (n) => Array.from({ length: n }, () => vocabulary[Math.floor(random() * vocabulary.length)]).join(' ');
  const sentences = (n) => {
    const out = [];
    for (let left = n; left > 0;) {
      const length = Math.min(left, between(8, 20));
      out.push(`${words(length)}.`);
      left -= length;
    }
    return out.join(' ');
  };
  return { between, words, sentences };
}
