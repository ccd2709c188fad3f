import { hmac } from '@noble/hashes/hmac.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import { byCodeUnits } from '../code-unit-order.js';

/**
 * The holdout split: a share of the golden set put aside from the start, looked at once before a release
 * (reference article 004: "hold out 30% from the beginning, never look at it during development, and run it
 * once before release").
 *
 * Which side a new question lands on depends only on the keyed hash of its id and on the questions already
 * assigned, never the other way round: an existing question never changes side when questions are added. The
 * hash (HMAC-SHA256 of the id under the seed and rotation) orders the new questions at random but reproducibly
 * on every machine; walking them in that order, each goes to the holdout when that brings its strata (every tag
 * it carries, or "untagged", and the whole set) closer to the share, so each stratum stays within two questions
 * of the share (overlapping tags pull against each other) rather than the ±√(share·(1−share)/n) a coin per question would give.
 */

export interface GoldenQuestion {
  readonly id: string;
  readonly tags: readonly string[];
}

/** What draws a split: the seed and rotation key the hash; `--rotate` draws anew with the next rotation. */
export interface SplitKey {
  readonly seed: string;
  readonly rotation: number;
  /** The share of questions held out, in (0, 1). */
  readonly share: number;
}

export interface Split extends SplitKey {
  /** Ids in golden-set order. */
  readonly holdout: readonly string[];
  readonly development: readonly string[];
}

export interface StratumSize {
  readonly questions: number;
  readonly holdout: number;
  readonly development: number;
  /** holdout / questions. */
  readonly share: number;
}

/** The sizes of a split: overall and per tag (a question with several tags counts under each). */
export interface SplitSizes {
  readonly overall: StratumSize;
  readonly byTag: Readonly<Record<string, StratumSize>>;
  /** Questions without a tag. */
  readonly untagged: StratumSize | null;
}

/** Where the hash puts an id, in [0, 1): the first 48 bits of HMAC-SHA256(seed ␀ rotation, id). */
export function holdoutHash(key: Pick<SplitKey, 'seed' | 'rotation'>, id: string): number {
  const digest = hmac(sha256, utf8ToBytes(`${key.seed}\u0000${key.rotation}`), utf8ToBytes(id));
  let value = 0;
  for (let i = 0; i < 6; i++) value = value * 256 + digest[i]!;
  return value / 2 ** 48;
}

/** The strata a question balances: each distinct tag, or "untagged" (null), and the whole set (undefined). */
function strataOf(question: GoldenQuestion): (string | null | undefined)[] {
  const tags = [...new Set(question.tags)];
  return [undefined, ...(tags.length === 0 ? [null] : tags)];
}

/**
 * Draws the split of `questions`, keeping the side of every question `previous` assigned (from the holdout
 * file, when it was drawn with the same key). Questions of `previous` no longer in the golden set are dropped.
 */
export function drawSplit(questions: readonly GoldenQuestion[], key: SplitKey, previous?: Pick<Split, 'holdout' | 'development'>): Split {
  const side = new Map<string, 'holdout' | 'development'>();
  for (const id of previous?.holdout ?? []) side.set(id, 'holdout');
  for (const id of previous?.development ?? []) side.set(id, 'development');
  const counts = new Map<string | null | undefined, { n: number; held: number }>();
  const count = (question: GoldenQuestion, held: boolean) => {
    for (const stratum of strataOf(question)) {
      const c = counts.get(stratum) ?? { n: 0, held: 0 };
      c.n++;
      if (held) c.held++;
      counts.set(stratum, c);
    }
  };
  const fresh: { question: GoldenQuestion; hash: number }[] = [];
  for (const question of questions) {
    const known = side.get(question.id);
    if (known === undefined) fresh.push({ question, hash: holdoutHash(key, question.id) });
    else count(question, known === 'holdout');
  }
  fresh.sort((a, b) => a.hash - b.hash || (a.question.id < b.question.id ? -1 : a.question.id > b.question.id ? 1 : 0));
  for (const { question } of fresh) {
    // How far each stratum would fall short of the share with one more question in development.
    let shortfall = 0;
    for (const stratum of strataOf(question)) {
      const c = counts.get(stratum) ?? { n: 0, held: 0 };
      shortfall += key.share * (c.n + 1) - c.held - 0.5;
    }
    const held = shortfall > 0;
    side.set(question.id, held ? 'holdout' : 'development');
    count(question, held);
  }
  const holdout: string[] = [];
  const development: string[] = [];
  for (const question of questions) (side.get(question.id) === 'holdout' ? holdout : development).push(question.id);
  return { seed: key.seed, rotation: key.rotation, share: key.share, holdout, development };
}

function stratumSize(questions: number, holdout: number): StratumSize {
  return { questions, holdout, development: questions - holdout, share: questions === 0 ? 0 : holdout / questions };
}

/** The split's sizes overall, per tag and for the untagged questions. */
export function splitSizes(questions: readonly GoldenQuestion[], holdout: ReadonlySet<string>): SplitSizes {
  const tally = new Map<string | null, { n: number; held: number }>();
  let held = 0;
  for (const question of questions) {
    const inHoldout = holdout.has(question.id);
    if (inHoldout) held++;
    const tags = [...new Set(question.tags)];
    for (const tag of tags.length === 0 ? [null] : tags) {
      const c = tally.get(tag) ?? { n: 0, held: 0 };
      c.n++;
      if (inHoldout) c.held++;
      tally.set(tag, c);
    }
  }
  const byTag: Record<string, StratumSize> = Object.create(null);
  for (const [tag, c] of [...tally].sort(([a], [b]) => ((a ?? '') < (b ?? '') ? -1 : (a ?? '') > (b ?? '') ? 1 : 0))) {
    if (tag !== null) byTag[tag] = stratumSize(c.n, c.held);
  }
  const untagged = tally.get(null);
  return { overall: stratumSize(questions.length, held), byTag, untagged: untagged === undefined ? null : stratumSize(untagged.n, untagged.held) };
}

/**
 * The fingerprint of a holdout: its key and its questions. The ledger counts looks per fingerprint, so a holdout
 * that gained questions (the golden set changed) or was drawn anew starts a new count.
 */
export function holdoutFingerprint(split: Pick<Split, 'seed' | 'rotation' | 'holdout'>): string {
  const ids = [...split.holdout].sort(byCodeUnits);
  return bytesToHex(sha256(utf8ToBytes(JSON.stringify([split.seed, split.rotation, ids])))).slice(0, 16);
}
