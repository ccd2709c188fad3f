import type { JudgeClient } from './client.js';
import { type ClaimVerdict, PROMPT_VERSIONS, claimVerdictRequest, correctnessRequest, faithfulnessRequest, relevanceQuestionsRequest } from './prompts.js';

/** The metrics `rag-gate judge` computes, by the results field each fills. */
export const JUDGE_METRICS = ['faithfulness', 'answer_relevance', 'correctness'] as const;
export type JudgeMetric = (typeof JUDGE_METRICS)[number];

/** The results field each metric writes. */
export const METRIC_FIELD: Readonly<Record<JudgeMetric, 'claims' | 'answer_relevance' | 'correct'>> = {
  faithfulness: 'claims',
  answer_relevance: 'answer_relevance',
  correctness: 'correct',
};

interface JudgedClaim {
  text: string;
  verdict: ClaimVerdict;
}

/** Faithfulness: the answer split into claims, each judged against the retrieved texts, in one call. */
export async function judgeClaims(client: JudgeClient, question: string, answer: string, contexts: readonly string[]): Promise<JudgedClaim[]> {
  const reply = await client.structured(faithfulnessRequest(question, answer, contexts));
  return reply.claims.map(({ text, verdict }) => ({ text, verdict }));
}

/** One claim against one context (calibration), with the faithfulness rubric. */
export async function judgeClaimVerdict(client: JudgeClient, claim: string, context: string): Promise<ClaimVerdict> {
  return (await client.structured(claimVerdictRequest(claim, context))).verdict;
}

/** Correctness against the reference answer: true for CORRECT. */
export async function judgeCorrect(client: JudgeClient, question: string, answer: string, expected: string): Promise<boolean> {
  return (await client.structured(correctnessRequest(question, answer, expected))).verdict === 'CORRECT';
}

/**
 * Answer relevance: three questions the answer would answer, embedded with the real question; the mean
 * cosine between each and the real question. Negative cosines count as 0, so the score stays in [0, 1].
 */
export async function judgeAnswerRelevance(client: JudgeClient, question: string, answer: string): Promise<number> {
  const generated = (await client.structured(relevanceQuestionsRequest(answer))).questions.slice(0, 3);
  const similarities = await client.cosinesToFirst(PROMPT_VERSIONS.answer_relevance, 'answer_relevance.embeddings', [question, ...generated]);
  const mean = similarities.reduce((sum, s) => sum + Math.max(0, s), 0) / similarities.length;
  return Math.min(1, Math.max(0, mean));
}
