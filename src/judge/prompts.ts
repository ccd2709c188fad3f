import { z } from 'zod';

/**
 * Prompt versions. Each is part of every cache key of its metric and of a calibration record: change a
 * prompt's wording and bump its version, or the cache and the calibration would describe a different judge.
 */
export const PROMPT_VERSIONS = {
  faithfulness: 'faithfulness-v1',
  answer_relevance: 'answer-relevance-v1',
  correctness: 'correctness-v1',
} as const;

export const CLAIM_VERDICTS = ['SUPPORTED', 'CONTRADICTED', 'NOT_STATED'] as const;
export type ClaimVerdict = (typeof CLAIM_VERDICTS)[number];

/** A chat message in the OpenAI wire format. */
interface ChatMessage {
  readonly role: 'system' | 'user';
  readonly content: string;
}

/** One structured chat request: the messages, the JSON schema the endpoint should enforce, and zod to check the reply. */
export interface StructuredRequest<T> {
  readonly task: string;
  readonly promptVersion: string;
  /** The `json_schema.name` of the response format. */
  readonly schemaName: string;
  readonly jsonSchema: Record<string, unknown>;
  readonly messages: readonly ChatMessage[];
  readonly reply: z.ZodType<T>;
}

/**
 * The faithfulness rubric, with strict support. Without "Plausible
 * inference is NOT support" judges mark anything reasonable as supported and faithfulness clusters near 0.95.
 */
export const FAITHFULNESS_RUBRIC = `Give each claim exactly one verdict, judged against the context alone:
- SUPPORTED: the context states the claim or entails it directly.
- CONTRADICTED: the context states something incompatible with the claim.
- NOT_STATED: the context neither states nor directly entails the claim, and does not contradict it.
A claim is SUPPORTED only if the context states it or entails it directly. Plausible inference is NOT support.
Do not use your own knowledge: a claim that is true in the world but absent from the context is NOT_STATED.
A claim that is only partly in the context (a number, date, name, condition or qualifier is missing or different) is not SUPPORTED.`;

const FAITHFULNESS_SYSTEM = `You are a strict fact-checker for a retrieval-augmented generation system. You check whether an answer is supported by the context that was retrieved for it.

Step 1. Split the answer into atomic claims. Each claim is one self-contained factual assertion (pronouns resolved), close to the answer's own words. Leave out text that asserts nothing: greetings, restating the question, offers of further help.
Step 2. ${FAITHFULNESS_RUBRIC}

Reply with JSON only, exactly of this shape: {"claims": [{"text": "...", "verdict": "SUPPORTED" | "CONTRADICTED" | "NOT_STATED"}]}. An answer that makes no factual claim gets {"claims": []}.`;

const CLAIM_SYSTEM = `You are a strict fact-checker. You check whether one claim is supported by a context.

${FAITHFULNESS_RUBRIC}

Reply with JSON only, exactly of this shape: {"verdict": "SUPPORTED" | "CONTRADICTED" | "NOT_STATED"}.`;

const RELEVANCE_SYSTEM = `You read an answer and write the questions it answers.
Write exactly three different questions for which the answer below would be a complete and direct response. Base them on the answer alone, not on what the user might have asked. If the answer is evasive or says it does not know, write the questions it actually addresses, however vague.

Reply with JSON only, exactly of this shape: {"questions": ["...", "...", "..."]}.`;

const CORRECTNESS_SYSTEM = `You grade an answer against a reference answer, strictly.
CORRECT: the answer gives the essential facts of the reference that the question asks for, and nothing that contradicts the reference. Wording may differ; extra detail that does not contradict the reference is allowed.
INCORRECT: anything else, including an answer that is only partly right, leaves out a fact the question asks for, hedges between alternatives, contradicts the reference, or declines to answer (unless the reference itself says the question cannot be answered).
Judge against the reference only, not your own knowledge.

Reply with JSON only, exactly of this shape: {"verdict": "CORRECT" | "INCORRECT"}.`;

/** Text blocks are fenced so that an answer or a context cannot pass for instructions or for another block. */
function block(label: string, text: string): string {
  return `${label}:\n<<<\n${text}\n>>>`;
}

/** The retrieved texts as one context, numbered in retrieval order. */
export function joinContexts(contexts: readonly string[]): string {
  return contexts.map((text, i) => `[${i + 1}] ${text}`).join('\n\n');
}

const strictObject = (properties: Record<string, unknown>) => ({
  type: 'object',
  properties,
  required: Object.keys(properties),
  additionalProperties: false,
});
const verdictProperty = (values: readonly string[]) => ({ type: 'string', enum: [...values] });

const claimsReply = z.object({
  claims: z.array(z.object({ text: z.string(), verdict: z.enum(CLAIM_VERDICTS) })),
});
type ClaimsReply = z.infer<typeof claimsReply>;

/** Faithfulness of one answer: claims split out and judged in one call. */
export function faithfulnessRequest(question: string, answer: string, contexts: readonly string[]): StructuredRequest<ClaimsReply> {
  return {
    task: 'faithfulness.answer',
    promptVersion: PROMPT_VERSIONS.faithfulness,
    schemaName: 'faithfulness_claims',
    jsonSchema: strictObject({
      claims: { type: 'array', items: strictObject({ text: { type: 'string' }, verdict: verdictProperty(CLAIM_VERDICTS) }) },
    }),
    messages: [
      { role: 'system', content: FAITHFULNESS_SYSTEM },
      { role: 'user', content: [block('Context', joinContexts(contexts)), block('Question', question), block('Answer', answer)].join('\n\n') },
    ],
    reply: claimsReply,
  };
}

const verdictReply = z.object({ verdict: z.enum(CLAIM_VERDICTS) });

/** One claim against one context (calibration): the same rubric, the verdict only. */
export function claimVerdictRequest(claim: string, context: string): StructuredRequest<z.infer<typeof verdictReply>> {
  return {
    task: 'faithfulness.claim',
    promptVersion: PROMPT_VERSIONS.faithfulness,
    schemaName: 'claim_verdict',
    jsonSchema: strictObject({ verdict: verdictProperty(CLAIM_VERDICTS) }),
    messages: [
      { role: 'system', content: CLAIM_SYSTEM },
      { role: 'user', content: [block('Context', context), block('Claim', claim)].join('\n\n') },
    ],
    reply: verdictReply,
  };
}

/** At least three questions (extra ones are dropped); fewer is an invalid reply and is retried. */
const questionsReply = z.object({ questions: z.array(z.string().trim().min(1)).min(3) });

/** Answer relevance, step one: three questions the answer would answer. */
export function relevanceQuestionsRequest(answer: string): StructuredRequest<z.infer<typeof questionsReply>> {
  return {
    task: 'answer_relevance.questions',
    promptVersion: PROMPT_VERSIONS.answer_relevance,
    schemaName: 'answer_questions',
    jsonSchema: strictObject({ questions: { type: 'array', items: { type: 'string' } } }),
    messages: [
      { role: 'system', content: RELEVANCE_SYSTEM },
      { role: 'user', content: block('Answer', answer) },
    ],
    reply: questionsReply,
  };
}

export const CORRECTNESS_VERDICTS = ['CORRECT', 'INCORRECT'] as const;
const correctnessReply = z.object({ verdict: z.enum(CORRECTNESS_VERDICTS) });

/** Correctness of an answer against the reference answer. */
export function correctnessRequest(question: string, answer: string, expected: string): StructuredRequest<z.infer<typeof correctnessReply>> {
  return {
    task: 'correctness',
    promptVersion: PROMPT_VERSIONS.correctness,
    schemaName: 'correctness_verdict',
    jsonSchema: strictObject({ verdict: verdictProperty(CORRECTNESS_VERDICTS) }),
    messages: [
      { role: 'system', content: CORRECTNESS_SYSTEM },
      { role: 'user', content: [block('Question', question), block('Reference answer', expected), block('Answer', answer)].join('\n\n') },
    ],
    reply: correctnessReply,
  };
}
