// A deterministic, offline, extractive answerer. It quotes the sentences of the retrieved chunks that best match
// the question, falls back on its "general knowledge" when the context does not match, refuses when it has
// neither, and records which documents it quoted. It knows nothing about base or head: the same code answers both.
import { generalKnowledge } from './knowledge.mjs';
import { isSentence, sentences, terms, words } from './text.mjs';

/** The answer given when the answerer declines. */
export const REFUSAL = "I don't know.";

/** A part of the question is answered from the context only by a sentence covering at least this share of its term weight. */
export const ANSWER_ABOVE = 0.5;

/**
 * @typedef {import('./retrieval.mjs').Chunk} Chunk
 * @typedef {{ text: string, docId: string, terms: Set<string> }} Candidate
 * @typedef {{ answer: string, refused: boolean, citedIds: string[] }} Answer
 * @typedef {'SUPPORTED' | 'CONTRADICTED' | 'NOT_STATED'} Verdict
 * @typedef {{ random: () => number, jitter: number }} Sampling
 */

/**
 * Term weights: inverse document frequency over the sentences of the corpus, log((N + 1) / (df + 0.5)). A question
 * word the corpus never uses weighs the most, so a question about something the corpus does not cover is hard to
 * match and gets refused.
 * @param {readonly string[]} corpusSentences
 * @returns {(term: string) => number}
 */
export function termWeights(corpusSentences) {
  /** @type {Map<string, number>} */
  const df = new Map();
  for (const sentence of corpusSentences) for (const term of new Set(terms(sentence))) df.set(term, (df.get(term) ?? 0) + 1);
  const n = corpusSentences.length;
  return (term) => Math.log((n + 1) / ((df.get(term) ?? 0) + 0.5));
}

/**
 * The parts of a question: one that asks two things ("…, and how long …?") is split before ", and" when a question
 * word follows; any other question is one part.
 * @param {string} question
 * @returns {string[]}
 */
export function questionParts(question) {
  return question
    .split(/,\s+and\s+(?=(?:how|what|when|where|which|who|why|can|could|do|does|did|is|are|must|should|will|would)\b)/i)
    .map((part) => part.trim())
    .filter((part) => part.length > 0);
}

/**
 * Answers a question from the chunks the retriever returned (best first).
 *
 * For each part of the question (`questionParts`), every sentence of the context scores the share of the part's
 * term weight (`termWeights`) that it contains; the best sentence is quoted when that share is at least
 * ANSWER_ABOVE. Ties go to the earlier, higher-ranked sentence, a sentence is quoted once, titles are never quoted.
 * A part no sentence matches well enough is answered from general knowledge when that has an entry, otherwise left
 * out. When no part is answered the answer is a refusal. With an empty context, only general knowledge answers:
 * that is the closed-book run.
 *
 * With `sampling`, the answerer behaves like an LLM sampling at a temperature above 0: each sentence's share is
 * moved by a uniform draw in ±jitter/2 before the best is chosen and held against ANSWER_ABOVE, so a question whose
 * best two sentences are close, or whose best share is near the threshold, gets different answers from run to run.
 * @param {string} question
 * @param {readonly Chunk[]} context
 * @param {(term: string) => number} weight
 * @param {Sampling} [sampling]
 * @returns {Answer}
 */
export function answerQuestion(question, context, weight, sampling) {
  /** @type {Candidate[]} */
  const candidates = context.flatMap((chunk) =>
    sentences(chunk.text)
      .filter(isSentence)
      .map((text) => ({ text, docId: chunk.docId, terms: new Set(terms(text)) })),
  );
  /** @type {string[]} */
  const quoted = [];
  /** @type {string[]} */
  const citedIds = [];
  for (const part of questionParts(question)) {
    const asked = [...new Set(terms(part))];
    const total = asked.reduce((sum, term) => sum + weight(term), 0);
    /** @type {Candidate | null} */
    let best = null;
    let bestShare = 0;
    for (const candidate of candidates) {
      const exact = total === 0 ? 0 : asked.reduce((sum, term) => sum + (candidate.terms.has(term) ? weight(term) : 0), 0) / total;
      const share = sampling === undefined ? exact : exact + (sampling.random() - 0.5) * sampling.jitter;
      if (share > bestShare) [best, bestShare] = [candidate, share];
    }
    if (best !== null && bestShare >= ANSWER_ABOVE) {
      if (!quoted.includes(best.text)) quoted.push(best.text);
      if (!citedIds.includes(best.docId)) citedIds.push(best.docId);
      continue;
    }
    const known = generalKnowledge(part);
    if (known !== null && !quoted.includes(known)) quoted.push(known);
  }
  if (quoted.length === 0) return { answer: REFUSAL, refused: true, citedIds: [] };
  return { answer: quoted.join(' '), refused: false, citedIds };
}

/**
 * A verdict for each sentence of an answer, checked against the sentences of the retrieved chunks. With "terms" the
 * stemmed content words and "numbers" the tokens that contain a digit:
 * - SUPPORTED: one retrieved sentence contains every number of the claim and at least 80% of its terms;
 * - CONTRADICTED: otherwise, the claim states a number, and one retrieved sentence that states a number shares at
 *   least half of the claim's other terms but lacks one of the claim's numbers (same subject, different figure);
 * - NOT_STATED: anything else.
 * A refusal makes no claim (an empty list).
 * @param {Answer} answer
 * @param {readonly Chunk[]} context
 * @returns {{ text: string, verdict: Verdict }[]}
 */
export function checkClaims(answer, context) {
  if (answer.refused) return [];
  const retrieved = context.flatMap((chunk) => sentences(chunk.text)).map(analyse);
  return sentences(answer.answer).map((text) => {
    const claim = analyse(text);
    const numbers = [...claim.numbers];
    const all = [...claim.terms];
    const plain = all.filter((term) => !claim.numbers.has(term));
    const share = (/** @type {Set<string>} */ other, /** @type {string[]} */ list) =>
      list.length === 0 ? 1 : list.filter((t) => other.has(t)).length / list.length;
    const hasNumbers = (/** @type {{ numbers: Set<string> }} */ r) => numbers.every((n) => r.numbers.has(n));
    if (retrieved.some((r) => hasNumbers(r) && share(r.terms, all) >= 0.8)) return { text, verdict: 'SUPPORTED' };
    if (numbers.length > 0 && retrieved.some((r) => r.numbers.size > 0 && !hasNumbers(r) && share(r.terms, plain) >= 0.5)) {
      return { text, verdict: 'CONTRADICTED' };
    }
    return { text, verdict: 'NOT_STATED' };
  });
}

/** @param {string} text */
function analyse(text) {
  return { terms: new Set(terms(text)), numbers: new Set(words(text).filter((w) => /\d/.test(w))) };
}
