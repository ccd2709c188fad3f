import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import { SettingError } from './errors.js';
import { answerTokens } from './measures/generation/text.js';

/**
 * Ids for records and contexts that come without them (Ragas samples, text-only context logs): derived from the
 * text, so the same text gets the same id in every run and on every machine.
 */

/** White space that is not already one space between other characters. */
const UNEVEN_SPACE = /\s\s|[^\S ]|^\s|\s$/u;

/**
 * Anything but printable ASCII (which NFC leaves as it is, and whose only white space is the space), two spaces in a
 * row, or a space at either end: what a text that normalising leaves unchanged may hold only if it is not plain ASCII.
 */
const NOT_PLAIN_ASCII = /[^ -~]| {2}|^ | $/;

/** Text as its meaning for matching: Unicode NFC, runs of white space as one space, no space at either end; case kept. */
export function normalizeText(text: string): string {
  // Most text is printable ASCII, spaced once: as it is, told at a third of the cost of NFC and the test below.
  if (!NOT_PLAIN_ASCII.test(text)) return text;
  const composed = text.normalize('NFC');
  // Most text is already so spaced; replacing every space with itself would copy it.
  return UNEVEN_SPACE.test(composed) ? composed.replace(/\s+/gu, ' ').trim() : composed;
}

/** The first 16 hex digits (64 bits) of the SHA-256 of the text's UTF-8: no collision in any realistic golden set. */
function digest(text: string): string {
  return bytesToHex(sha256(utf8ToBytes(text))).slice(0, 16);
}

/** The id of a record without one: `q-` and a hash of its normalised question. */
export function questionId(question: string): string {
  return `q-${digest(normalizeText(question))}`;
}

/** The shape of every id `questionId` makes: `q-` and 16 lower-case hex digits. */
const QUESTION_ID = /^q-[0-9a-f]{16}$/;

/** Whether `id` is the one derived from `question` (the record gave none): the id then says nothing the text does not. */
export function isQuestionIdOf(id: string, question: string): boolean {
  // Only an id of the derived shape can be derived: others are told apart without hashing the question.
  return QUESTION_ID.test(id) && id === questionId(question);
}

/** The document id of a context given only as text: `text-` and a hash of its normalised text. */
export function contextId(context: string): string {
  return `text-${digest(normalizeText(context))}`;
}

/** When a retrieved context counts as a reference (gold) one. */
export type ContextMatchRule = { readonly kind: 'exact' } | { readonly kind: 'overlap'; readonly threshold: number };

/** Parses `exact` or `overlap:T` (0 < T ≤ 1). */
export function parseContextMatchRule(text: string): ContextMatchRule {
  const rule = text.trim();
  if (rule === 'exact') return { kind: 'exact' };
  const overlap = /^overlap:(\d*\.?\d+)$/.exec(rule);
  const threshold = overlap ? Number(overlap[1]) : NaN;
  if (overlap && threshold > 0 && threshold <= 1) return { kind: 'overlap', threshold };
  throw new SettingError(`invalid context match rule "${rule}"; use "exact" or "overlap:T" with 0 < T ≤ 1, e.g. "overlap:0.8"`);
}

export function formatContextMatchRule(rule: ContextMatchRule): string {
  return rule.kind === 'exact' ? 'exact' : `overlap:${rule.threshold}`;
}

/** Counts of each token. */
function tokenCounts(text: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const token of answerTokens(text)) counts.set(token, (counts.get(token) ?? 0) + 1);
  return counts;
}

/**
 * The share of the reference context's tokens present in the retrieved one, counted with multiplicity (the
 * recall half of SQuAD token F1, on the same normalised tokens). A reference without tokens matches nothing.
 */
export function tokenOverlap(retrieved: ReadonlyMap<string, number>, reference: ReadonlyMap<string, number>): number {
  let total = 0;
  let common = 0;
  for (const [token, count] of reference) {
    total += count;
    common += Math.min(count, retrieved.get(token) ?? 0);
  }
  return total === 0 ? 0 : common / total;
}

/**
 * The relevant ids of reference contexts given as text, for a ranking whose documents are `retrievedIds` with
 * texts `retrievedTexts`. Retrieved contexts are taken in rank order; each claims the unclaimed reference context
 * it matches best (exact: same normalised text; overlap: the highest token overlap at or above the threshold,
 * the first on a tie) and that reference context takes the retrieved document's id. A reference context no
 * retrieved one claims gets its own text id, so it counts as relevant and not found.
 */
export function referenceIds(
  retrievedIds: readonly string[],
  retrievedTexts: readonly string[],
  givenReferences: readonly string[],
  rule: ContextMatchRule,
): string[] {
  // The same reference text twice is one relevant document.
  const references = [...new Map(givenReferences.map((text) => [normalizeText(text), text])).values()];
  const ids: (string | undefined)[] = references.map(() => undefined);
  if (rule.kind === 'exact') {
    const unclaimed = new Map(references.map((text, index) => [normalizeText(text), index]));
    retrievedTexts.forEach((text, rank) => {
      const key = normalizeText(text);
      const index = unclaimed.get(key);
      if (index === undefined) return;
      ids[index] = retrievedIds[rank];
      unclaimed.delete(key);
    });
  } else {
    const referenceTokens = references.map(tokenCounts);
    retrievedTexts.forEach((text, rank) => {
      const tokens = tokenCounts(text);
      let best = -1;
      let bestOverlap = rule.threshold;
      referenceTokens.forEach((reference, index) => {
        if (ids[index] !== undefined) return;
        const overlap = tokenOverlap(tokens, reference);
        if (overlap >= bestOverlap && (best < 0 || overlap > bestOverlap)) {
          best = index;
          bestOverlap = overlap;
        }
      });
      if (best >= 0) ids[best] = retrievedIds[rank];
    });
  }
  return ids.map((id, index) => id ?? contextId(references[index]!));
}
