import type { JudgeClient } from './client.js';
import type { BatchMember } from './embedding-batch.js';
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

/** The metric a request task serves: the task's first word (`faithfulness.answer` → faithfulness). */
export function metricOfTask(task: string): JudgeMetric | undefined {
  const metric = task.split('.')[0];
  return (JUDGE_METRICS as readonly string[]).includes(metric ?? '') ? (metric as JudgeMetric) : undefined;
}

/** Requests per answer of a metric: chat completions and embeddings calls. */
export interface CallsPerAnswer {
  readonly chat: number;
  readonly embeddings: number;
}

/** The task of answer relevance's embeddings requests (batched across answers: see EmbeddingBatch). */
export const RELEVANCE_EMBEDDINGS_TASK = 'answer_relevance.embeddings';

/**
 * What Ragas, the common alternative, sends per answer for the same metric (explodinggradients/ragas at 3e28e9d,
 * December 2025, src/ragas/metrics/): `faithfulness` makes two LLM calls (statements, then a verdict for each);
 * `answer_relevancy` one LLM call for three questions (n=3) and two embeddings calls (the question, then the
 * generated questions); `answer_correctness` three LLM calls (statements of the answer, of the reference, then their
 * classification) and two embeddings calls (the answer and the reference, for answer similarity).
 */
export const RAGAS_CALLS_PER_ANSWER: Readonly<Record<JudgeMetric, CallsPerAnswer & { readonly metric: string }>> = {
  faithfulness: { metric: 'faithfulness', chat: 2, embeddings: 0 },
  answer_relevance: { metric: 'answer_relevancy', chat: 1, embeddings: 2 },
  correctness: { metric: 'answer_correctness', chat: 3, embeddings: 2 },
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

/** Answer relevance's chat call: three questions the answer would answer (it does not see the real question). */
export async function relevanceQuestions(client: JudgeClient, answer: string): Promise<string[]> {
  return (await client.structured(relevanceQuestionsRequest(answer))).questions.slice(0, 3);
}

/**
 * Answer relevance from the generated questions: they are embedded with the real question (in `member`'s batch,
 * when given) and the score is the mean cosine between each and the real question. Negative cosines count as 0,
 * so the score stays in [0, 1].
 */
export async function relevanceFromQuestions(client: JudgeClient, question: string, generated: readonly string[], member?: BatchMember): Promise<number> {
  const similarities = await client.cosinesToFirst(PROMPT_VERSIONS.answer_relevance, RELEVANCE_EMBEDDINGS_TASK, [question, ...generated], member);
  const mean = similarities.reduce((sum, s) => sum + Math.max(0, s), 0) / similarities.length;
  return Math.min(1, Math.max(0, mean));
}
