import { isQuestionIdOf } from '../core/derived-ids.js';
import type { QuestionEvidence } from '../core/compare/types.js';
import { inertFirstWords } from './untrusted.js';

/**
 * How reports name what they list when its id is a hash of its text (records without ids): a question by its text
 * alone, a document by its first words.
 */

/** Words, and code points with the "…", of a document's first words. */
export const DOCUMENT_WORDS = 8;
export const DOCUMENT_LABEL_MAX = 60;

/** The first words of a listed question's document whose id was derived from its text (either side's), or null. */
export function documentLabel(id: string, evidence: QuestionEvidence | undefined): string | null {
  for (const side of [evidence?.base, evidence?.head]) {
    const texts = side?.documentTexts;
    if (texts !== undefined && Object.hasOwn(texts, id)) return inertFirstWords(texts[id]!, DOCUMENT_WORDS, DOCUMENT_LABEL_MAX);
  }
  return null;
}

/** `idFromText` of each listed item: the log's report and the comment ask it of the same items. */
const fromText = new WeakMap<object, boolean>();

/** Whether a question's id is only the hash of its text, so that reports show the text alone. */
export function idFromText(item: { readonly id: string; readonly question: string }): boolean {
  let derived = fromText.get(item);
  if (derived === undefined) fromText.set(item, (derived = isQuestionIdOf(item.id, item.question)));
  return derived;
}
