import { z } from 'zod';
import { closestName } from './closest.js';

const VERDICTS = ['SUPPORTED', 'CONTRADICTED', 'NOT_STATED'] as const;

/** Ragas-style field names accepted for the canonical ones. */
export const FIELD_ALIASES: Readonly<Record<string, string>> = {
  user_input: 'question',
  response: 'answer',
  reference: 'expected_answer',
  retrieved_context_ids: 'retrieved_ids',
  reference_context_ids: 'relevant_ids',
};

/**
 * An id that is empty or only white space names nothing. The first character settles it for nearly every id
 * (white space is at most U+0020 or from U+00A0 up), which keeps a hundred ids a record cheap.
 */
function isBlank(id: string): boolean {
  const first = id.charCodeAt(0);
  return !(first > 0x20 && first < 0xa0) && id.trim() === '';
}
const NOT_BLANK = 'must not be empty or only white space';

const documentId = z.string({ error: 'must be a document id (a string)' }).refine((id) => !isBlank(id), NOT_BLANK);

/**
 * Validates with a plain check first and runs the zod schema only when the check fails, so that long id lists
 * (100 per question × 100,000 questions) cost one loop each, while a bad one still gets zod's precise issues.
 */
function checkedFirst<T>(isValid: (value: unknown) => boolean, schema: z.ZodType<T>) {
  return z.unknown().transform((value, ctx): T => {
    if (isValid(value)) return value as T;
    const parsed = schema.safeParse(value);
    if (parsed.success) return parsed.data;
    for (const issue of parsed.error.issues) ctx.addIssue({ code: 'custom', path: issue.path, message: issue.message });
    return z.NEVER;
  });
}

function isIdList(value: unknown): boolean {
  if (!Array.isArray(value)) return false;
  for (const id of value) if (typeof id !== 'string' || isBlank(id)) return false;
  return true;
}

const isRankedIdList = (value: unknown) => isIdList(value) && new Set(value as string[]).size === (value as string[]).length;

/** A ranked list: a document may appear once. */
const rankedIdSchema = z.array(documentId, { error: 'must be a list of document ids' }).superRefine((ids, ctx) => {
  const seen = new Map<string, number>();
  ids.forEach((id, index) => {
    const first = seen.get(id);
    if (first === undefined) seen.set(id, index);
    else ctx.addIssue({ code: 'custom', path: [index], message: `duplicate document id "${id}" (also at position ${first})` });
  });
});

/** JSON.parse reads 1e999 as Infinity: say so rather than "must be a number". */
const notFinite = (what: string) => (issue: { input?: unknown }) =>
  typeof issue.input === 'number' && !Number.isFinite(issue.input) ? `${String(issue.input)} is not a finite number (too large for a double?)` : what;

const grade = z
  .number({ error: notFinite('must be a relevance grade (a number)') })
  .int('must be a whole-number grade')
  .nonnegative('must not be negative (grades are 0 or more; 1 and up is relevant)');

const rankedIds = checkedFirst(isRankedIdList, rankedIdSchema);

const relevantIdList = checkedFirst(isIdList, z.array(documentId));

/**
 * Graded relevance, `{"d17": 3}`, checked by hand: z.record drops a `__proto__` key, which is a document id like
 * any other here (kept as an own property).
 */
function relevanceGrades(value: object, ctx: z.RefinementCtx): Record<string, number> {
  const grades: [string, number][] = [];
  for (const [id, raw] of Object.entries(value)) {
    if (isBlank(id)) ctx.addIssue({ code: 'custom', path: [id], message: NOT_BLANK });
    const parsed = grade.safeParse(raw);
    if (parsed.success) grades.push([id, parsed.data]);
    else for (const issue of parsed.error.issues) ctx.addIssue({ code: 'custom', path: [id, ...issue.path], message: issue.message });
  }
  return Object.fromEntries(grades);
}

/** A list of relevant ids, or graded relevance; each shape reports its own precise problems. */
const relevantIds = z.unknown().transform((value, ctx): string[] | Record<string, number> => {
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) return relevanceGrades(value, ctx);
  if (!Array.isArray(value)) {
    ctx.addIssue({ code: 'custom', message: 'must be a list of document ids or an object of grades such as {"d17": 3}' });
    return z.NEVER;
  }
  const parsed = relevantIdList.safeParse(value);
  if (parsed.success) return parsed.data;
  for (const issue of parsed.error.issues) ctx.addIssue({ code: 'custom', path: issue.path, message: issue.message });
  return z.NEVER;
});

const label = z.union([z.string(), z.boolean()], { error: 'must be a string or a boolean' });
const flag = z.boolean({ error: 'must be true or false' });
const text = z.string({ error: 'must be a string' });

/** Which judge filled a field in (written by `rag-gate judge`): the model and prompt a calibration must match. */
const judgedBySchema = z.object({
  model: z.string({ error: 'must be a string' }),
  embedding_model: z.string({ error: 'must be a string' }).optional(),
  prompt_version: z.string({ error: 'must be a string' }),
});
export type JudgedBy = z.infer<typeof judgedBySchema>;

/** `judged_by`: `{"claims": {...}, "answer_relevance": {...}, "correct": {...}}`, one entry per judged field. */
const judgedByFieldSchema = z.object({
  claims: judgedBySchema.optional(),
  answer_relevance: judgedBySchema.optional(),
  correct: judgedBySchema.optional(),
});

/** `judge_errors`: the metrics whose judging failed for this record, counted in reports. */
const judgeErrorsFieldSchema = z.array(
  z.object({ metric: z.enum(['faithfulness', 'answer_relevance', 'correctness']), kind: z.string(), message: z.string() }),
  { error: 'must be a list of {metric, kind, message}' },
);

const claim = z.object({
  text: text.optional(),
  verdict: z.enum(VERDICTS, { error: `must be one of ${VERDICTS.join(', ')}` }),
});

/** The canonical fields of a result record; unknown fields are allowed (and reported once as a warning). */
export const resultRecordSchema = z
  .object({
    id: z.string({ error: 'is required and must be a string' }).refine((id) => !isBlank(id), NOT_BLANK),
    question: z.string({ error: 'is required and must be a string' }),
    retrieved_ids: rankedIds.optional(),
    relevant_ids: relevantIds.optional(),
    answer: text.optional(),
    expected_answer: text.optional(),
    correct: flag.optional(),
    retrieval_ok: flag.optional(),
    answerable: flag.optional(),
    refused: flag.optional(),
    claims: z.array(claim, { error: 'must be a list of {text, verdict} objects' }).optional(),
    cited_ids: z.array(documentId, { error: 'must be a list of document ids' }).optional(),
    answer_relevance: z
      .number({ error: notFinite('must be a number in [0, 1]') })
      .min(0, 'must be in [0, 1]')
      .max(1, 'must be in [0, 1]')
      .optional(),
    human_label: label.optional(),
    judge_label: label.optional(),
    closed_book_correct: flag.optional(),
    tags: z.array(z.string({ error: 'must be a string' }), { error: 'must be a list of strings' }).optional(),
    judged_by: judgedByFieldSchema.optional(),
    judge_errors: judgeErrorsFieldSchema.optional(),
    /** The texts sent to the generator, aligned with `retrieved_ids` (Ragas' name); the judge reads them. */
    retrieved_contexts: z
      .array(z.string({ error: 'must be a string' }), { error: 'must be a list of strings (the retrieved texts, in retrieved_ids order)' })
      .optional(),
  })
  .superRefine((record, ctx) => {
    const { retrieved_ids: ids, retrieved_contexts: contexts } = record;
    if (ids !== undefined && contexts !== undefined && ids.length !== contexts.length) {
      ctx.addIssue({
        code: 'custom',
        path: ['retrieved_contexts'],
        message: `has ${contexts.length} text${contexts.length === 1 ? '' : 's'} but retrieved_ids has ${ids.length} id${ids.length === 1 ? '' : 's'}; give one text per retrieved id, in the same order`,
      });
    }
  });

export type ResultRecord = z.infer<typeof resultRecordSchema>;

export const KNOWN_FIELDS: ReadonlySet<string> = new Set([...Object.keys(resultRecordSchema.shape), ...Object.keys(FIELD_ALIASES)]);

/**
 * Field names other tools use for what rag-gate reads under another name (a hint for an unknown field, not an
 * alias: their meaning may differ, so the user decides).
 */
const FIELD_SYNONYMS: Readonly<Record<string, string>> = {
  ground_truth: 'expected_answer',
  ground_truths: 'expected_answer',
  expected_output: 'expected_answer',
  reference_answer: 'expected_answer',
  contexts: 'retrieved_contexts',
  context: 'retrieved_contexts',
  retrieval_context: 'retrieved_contexts',
  actual_output: 'answer',
  input: 'question',
  query: 'question',
  is_correct: 'correct',
};

/** The known field an unknown one probably means: a synonym from another tool, or a near spelling. */
export function suggestField(unknown: string): string | undefined {
  return FIELD_SYNONYMS[unknown.toLowerCase()] ?? closestName(unknown, KNOWN_FIELDS);
}
