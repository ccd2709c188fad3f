// Text of realistic length and shape for the bench's workloads: readers pay for every byte, scored or not.

const WORDS = (
  'refund window contract invoice enterprise annual approval signatory billing plan seat license renewal ' +
  'customer account region data export retention backup audit log role permission token webhook request ' +
  'limit quota support ticket priority response incident status page integration sync schedule report ' +
  'the a of to and in is for on with as by at from that this which be are can when how what does your'
).split(' ');

/** Word and sentence makers drawing from `random` (a function returning floats in [0, 1)). */
export function textMaker(random) {
  const between = (least, most) => least + Math.floor(random() * (most - least + 1));
  const words = (n) => Array.from({ length: n }, () => WORDS[Math.floor(random() * WORDS.length)]).join(' ');
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
