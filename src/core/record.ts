import { z } from 'zod';
import { closestName } from './closest.js';
import { type ContextMatchRule, contextId, questionId, referenceIds } from './derived-ids.js';
import { hasRepeat } from './distinct.js';
import { RECORD_FIELD_ROWS, type RecordFieldName, type RecordFieldRow } from './catalog/record-fields.js';

const VERDICTS = ['SUPPORTED', 'CONTRADICTED', 'NOT_STATED'] as const;

/** Other tools' field names accepted for the canonical ones, from the fields' rows. */
export const FIELD_ALIASES: ReadonlyMap<string, string> = new Map(
  Object.entries(RECORD_FIELD_ROWS).flatMap(([field, row]: [string, RecordFieldRow]) => row.aliases.map((alias) => [alias, field] as const)),
);

/**
 * Fields of other tools that rag-gate reads past on purpose, with why: reported once as a note, never as a typo.
 * These tables are Maps because they are looked up with the user's field names (`constructor` is one too).
 */
export const IGNORED_FIELDS: ReadonlyMap<string, string> = new Map(
  Object.entries({
    rubrics: "Ragas' rubrics steer its LLM metrics; rag-gate reads the scores they produced",
    multi_responses: "Ragas' multiple responses; rag-gate scores the one `response`",
    synthesizer_name: "Ragas' test-set generator name",
    persona_name: "Ragas' test-set persona",
    query_style: "Ragas' test-set query style",
    query_length: "Ragas' test-set query length",
  }),
);

/** A JSON object: not null, not an array. */
const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Whether a value is one the schema it is checked for returns unchanged (as an equal value). */
type Check = (value: unknown) => boolean;

/**
 * The plain checks of the schemas `plainCheck` cannot read from their definition (a transform or a refinement),
 * each given where its schema is made.
 */
const GIVEN_CHECKS = new WeakMap<z.ZodType, Check>();

function withPlainCheck<T extends z.ZodType>(schema: T, check: Check): T {
  GIVEN_CHECKS.set(schema, check);
  return schema;
}

/**
 * An id that is empty or only white space names nothing. The first character settles it for nearly every id
 * (white space is at most U+0020 or from U+00A0 up), which keeps a hundred ids a record cheap.
 */
function isBlank(id: string): boolean {
  const first = id.charCodeAt(0);
  return !(first > 0x20 && first < 0xa0) && id.trim() === '';
}
const NOT_BLANK = 'must not be empty or only white space';

/** An id as the schema returns it: a string id is kept, a number one becomes a new string. */
function isPlainId(id: unknown): boolean {
  return typeof id === 'string' && !isBlank(id);
}

/** An id written as a whole number is read as its decimal string, so `7` and `"7"` are the same id. */
const idText = (what: string) =>
  withPlainCheck(
    z
      .union([z.string(), z.number().int().refine(Number.isSafeInteger)], { error: `must be ${what} (a string or a whole number)` })
      .transform(String)
      .refine((id) => !isBlank(id), NOT_BLANK),
    isPlainId,
  );

const documentId = idText('a document id');

/**
 * Validates with a plain check first and runs the zod schema only when the check fails, so that long id lists
 * (100 per question × 100,000 questions) cost one loop each, while a bad one still gets zod's precise issues.
 */
function checkedFirst<T>(isValid: Check, schema: z.ZodType<T>) {
  const checked = z.unknown().transform((value, ctx): T => {
    if (isValid(value)) return value as T;
    const parsed = schema.safeParse(value);
    if (parsed.success) return parsed.data;
    for (const issue of parsed.error.issues) ctx.addIssue({ code: 'custom', path: issue.path, message: issue.message });
    return z.NEVER;
  });
  return withPlainCheck(checked, isValid);
}

function isIdList(value: unknown): boolean {
  if (!Array.isArray(value)) return false;
  for (const id of value) if (!isPlainId(id)) return false;
  return true;
}

const isRankedIdList = (value: unknown) => isIdList(value) && !hasRepeat(value as string[]);

/** A ranked list: a document may appear once. */
const rankedIdSchema = z.array(documentId, { error: 'must be a list of document ids' }).superRefine((ids, ctx) => {
  const seen = new Map<string, number>();
  ids.forEach((id, index) => {
    const first = seen.get(id);
    if (first === undefined) seen.set(id, index);
    else ctx.addIssue({ code: 'custom', path: [index], message: `duplicate document id ${JSON.stringify(id)} (also at position ${first})` });
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
  const grades = value as Record<string, unknown>;
  // for…in sees own keys here (`__proto__` included): a record's objects are plain, from JSON.parse or entries.
  for (const id in grades) {
    if (isBlank(id)) ctx.addIssue({ code: 'custom', path: [id], message: NOT_BLANK });
    const raw = grades[id];
    // A whole number of 0 or more is what `grade` accepts; zod runs only to word a problem.
    if (Number.isSafeInteger(raw) && (raw as number) >= 0) continue;
    const parsed = grade.safeParse(raw);
    if (!parsed.success) for (const issue of parsed.error.issues) ctx.addIssue({ code: 'custom', path: [id, ...issue.path], message: issue.message });
  }
  // Every value is a valid grade when no issue was added (zod then fails the record and drops this).
  return grades as Record<string, number>;
}

/** Grades the schema takes as they are: `relevanceGrades` adds no issue for them. */
const isPlainGrades: Check = (value) => {
  if (!isObject(value)) return false;
  for (const id in value) if (isBlank(id) || !Number.isSafeInteger(value[id]) || (value[id] as number) < 0) return false;
  return true;
};

/** A list of relevant ids, or graded relevance; each shape reports its own precise problems. */
const relevantIdsSchema = z.unknown().transform((value, ctx): string[] | Record<string, number> => {
  if (isObject(value)) return relevanceGrades(value, ctx);
  if (!Array.isArray(value)) {
    ctx.addIssue({ code: 'custom', message: 'must be a list of document ids or an object of grades such as {"d17": 3}' });
    return z.NEVER;
  }
  const parsed = relevantIdList.safeParse(value);
  if (parsed.success) return parsed.data;
  for (const issue of parsed.error.issues) ctx.addIssue({ code: 'custom', path: issue.path, message: issue.message });
  return z.NEVER;
});
const relevantIds = withPlainCheck(relevantIdsSchema, (value) => isIdList(value) || isPlainGrades(value));

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

const texts = (what: string) => z.array(z.string({ error: 'must be a string' }), { error: `must be a list of strings (${what})` });

/**
 * A score's name as rag-gate spells it: lower case ASCII letters, digits and single underscores, at most 64
 * characters (`Answer Relevancy` → `answer_relevancy`, `factual_correctness(mode=f1)` → `factual_correctness_mode_f1`).
 * It is typed in floors and fail-on, and printed in comments as it is, so nothing in it may be active markdown.
 * Undefined when no letter or digit is left.
 */
export function scoreName(given: string): string | undefined {
  const name = given
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, 64)
    .replace(/_+$/, '');
  return name === '' ? undefined : name;
}

/** A score another tool computed: a finite number or true/false. */
export const isScoreValue = (value: unknown): value is number | boolean => typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value));

/**
 * Scores another tool computed per question (`{"faithfulness": 0.9}`), checked by hand for the reason
 * `relevanceGrades` is: a name is any key. Names are spelled as `scoreName` makes them.
 */
const scoresSchema = z.unknown().transform((value, ctx): Record<string, number | boolean> => {
  if (!isObject(value)) {
    ctx.addIssue({ code: 'custom', message: 'must be an object of scores such as {"faithfulness": 0.9}' });
    return z.NEVER;
  }
  const scores = new Map<string, [given: string, score: number | boolean]>();
  for (const [given, score] of Object.entries(value)) {
    const name = scoreName(given);
    const earlier = name === undefined ? undefined : scores.get(name);
    if (name === undefined) ctx.addIssue({ code: 'custom', path: [given], message: 'a score needs a name with a letter or digit' });
    else if (earlier !== undefined) {
      ctx.addIssue({ code: 'custom', path: [given], message: `is the score ${name}, as "${earlier[0]}" is; keep one` });
    } else if (isScoreValue(score)) scores.set(name, [given, score]);
    else ctx.addIssue({ code: 'custom', path: [given], message: 'must be a finite number or true/false' });
  }
  return Object.fromEntries([...scores].map(([name, [, score]]) => [name, score]));
});

/** Every key already a score name as `scoreName` spells it (it would rename no key), every value a score. */
const isScoreNameAsSpelled = (key: string) => key.length <= 64 && /^[a-z0-9]+(?:_[a-z0-9]+)*$/.test(key);
const scoresField = withPlainCheck(scoresSchema, (value) => {
  if (!isObject(value)) return false;
  for (const key in value) if (!isScoreNameAsSpelled(key) || !isScoreValue(value[key])) return false;
  return true;
});

/** A measured amount (milliseconds, tokens, dollars): a finite number, 0 or more. */
const amount = (what: string) =>
  z
    .number({ error: notFinite(`must be ${what}, a number 0 or more`) })
    .min(0, `must be ${what}, a number 0 or more`)
    .optional();

/**
 * The canonical fields of a result record, one per row of the fields' catalog (their meanings are there); unknown
 * fields are allowed (and reported once as a warning).
 */
export const resultRecordSchema = z
  .object({
    id: idText('an id').optional(),
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
    retrieved_contexts: texts('the retrieved texts, in retrieved_ids order').optional(),
    reference_contexts: texts('the reference texts').optional(),
    scores: scoresField.optional(),
    trace_url: text.optional(),
    latency_ms: amount('the end-to-end latency in milliseconds'),
    retrieval_latency_ms: amount('the retrieval latency in milliseconds'),
    generation_latency_ms: amount('the generation latency in milliseconds'),
    prompt_tokens: amount('the prompt tokens'),
    completion_tokens: amount('the completion tokens'),
    total_tokens: amount('the total tokens'),
    cost_usd: amount('the cost in US dollars'),
    run: withPlainCheck(
      z
        .number({ error: notFinite('must be a whole number, 1 or more (which repeat of the question this record is)') })
        .int('must be a whole number, 1 or more (which repeat of the question this record is)')
        .min(1, 'must be 1 or more (repeats are numbered from 1)')
        .refine(Number.isSafeInteger, 'is too large a repeat number'),
      (value) => Number.isSafeInteger(value) && (value as number) >= 1,
    ).optional(),
  } satisfies Record<RecordFieldName, z.ZodType>)
  .superRefine((record, ctx) => {
    for (const issue of crossFieldIssues(record)) ctx.addIssue({ code: 'custom', ...issue });
  });

/** The rules between fields, for the schema and for `readRecordFields` alike. */
function crossFieldIssues(record: {
  readonly retrieved_ids?: readonly string[];
  readonly retrieved_contexts?: readonly string[];
  readonly relevant_ids?: unknown;
  readonly reference_contexts?: unknown;
}): { path: string[]; message: string }[] {
  const { retrieved_ids: ids, retrieved_contexts: contexts } = record;
  const issues: { path: string[]; message: string }[] = [];
  if (ids !== undefined && contexts !== undefined && ids.length !== contexts.length) {
    issues.push({
      path: ['retrieved_contexts'],
      message: `has ${contexts.length} text${contexts.length === 1 ? '' : 's'} but retrieved_ids has ${ids.length} id${ids.length === 1 ? '' : 's'}; give one text per retrieved id, in the same order`,
    });
  }
  // Ids on one side and only text on the other cannot be matched: every retrieval metric would read 0.
  if (record.relevant_ids === undefined && record.reference_contexts !== undefined && ids !== undefined && contexts === undefined) {
    issues.push({
      path: ['reference_contexts'],
      message: 'the gold contexts are text but the retrieved documents are ids only; add retrieved_contexts (the retrieved texts) or give relevant_ids',
    });
  }
  if (record.relevant_ids !== undefined && ids === undefined && contexts !== undefined) {
    issues.push({
      path: ['relevant_ids'],
      message:
        'the relevant documents are ids but the retrieved documents are text only (retrieved_contexts); add retrieved_ids or give the gold contexts as reference_contexts',
    });
  }
  return issues;
}

/** A record as read: every field as the user gave it, the id possibly absent. */
export type RecordFields = z.infer<typeof resultRecordSchema>;

// ---------------------------------------------------------------------------------------------------------------
// The plain check: most records are plainly valid, and checking that by hand spares the schema's parse, which copies
// every object and array of a record. The check is read from the schema's definition once, at load, so a field is
// written once: a schema `plainCheck` cannot read and that has no given check throws here, when the module loads.

/** No required keys, made once: a literal in a call would be a new array each record. */
const NONE_REQUIRED: readonly string[] = [];

/**
 * An object whose every key has a check it passes, and which has each of `required`: what z.object returns as it
 * is (with a key it does not know, z.object would return a copy without it).
 */
function isPlainObject(value: unknown, checks: ReadonlyMap<string, Check>, required: readonly string[] = NONE_REQUIRED): boolean {
  if (!isObject(value)) return false;
  for (const key in value) if (!(checks.get(key)?.(value[key]) ?? false)) return false;
  for (const key of required) if (!Object.hasOwn(value, key)) return false;
  return true;
}

/** The checks of an object's fields, and its required keys (those not optional). */
function fieldChecks(shape: Readonly<Record<string, z.core.$ZodType>>): { checks: ReadonlyMap<string, Check>; required: readonly string[] } {
  const entries = Object.entries(shape);
  const required = entries.filter(([, field]) => field._zod.optin !== 'optional').map(([key]) => key);
  return { checks: new Map(entries.map(([key, field]) => [key, plainCheck(field)])), required: required.length === 0 ? NONE_REQUIRED : required };
}

/** A number's bounds, read from its checks (`.min()`, `.max()`). */
function numberCheck(checks: readonly z.core.$ZodCheck[]): Check {
  let low = -Infinity;
  let high = Infinity;
  for (const check of checks) {
    const def = check._zod.def as z.core.$ZodChecks['_zod']['def'];
    if (def.check === 'greater_than' && def.inclusive) low = Math.max(low, Number(def.value));
    else if (def.check === 'less_than' && def.inclusive) high = Math.min(high, Number(def.value));
    else throw new Error(`the plain check cannot read a number's ${def.check} check; give it one with withPlainCheck`);
  }
  // z.number() rejects NaN and ±Infinity, bounds or none.
  return (value) => typeof value === 'number' && Number.isFinite(value) && value >= low && value <= high;
}

/** The check for a value that `schema` returns unchanged, read from its definition or given with `withPlainCheck`. */
function plainCheck(schema: z.core.$ZodType): Check {
  const given = GIVEN_CHECKS.get(schema as z.ZodType);
  if (given !== undefined) return given;
  const def = schema._zod.def as z.core.$ZodTypes['_zod']['def'];
  const checks = def.checks ?? [];
  if (def.type === 'number') return numberCheck(checks);
  if (checks.length > 0) throw new Error(`the plain check cannot read a ${def.type}'s refinements; give it one with withPlainCheck`);
  switch (def.type) {
    case 'string':
      return (value) => typeof value === 'string';
    case 'boolean':
      return (value) => typeof value === 'boolean';
    case 'optional':
      // A key given as undefined goes to the schema: JSON has no undefined.
      return plainCheck(def.innerType);
    case 'enum': {
      const values: readonly unknown[] = Object.values(def.entries);
      return (value) => values.includes(value);
    }
    case 'union': {
      // zod returns the first option that takes a value: one that converts it would hide a later one's plain take.
      if (def.options.some((option) => GIVEN_CHECKS.has(option as z.ZodType)))
        throw new Error('the plain check reads only unions of options that convert nothing');
      const options = def.options.map(plainCheck);
      return (value) => options.some((option) => option(value));
    }
    case 'array': {
      const element = plainCheck(def.element);
      return (value) => Array.isArray(value) && value.every(element);
    }
    case 'object': {
      if (def.catchall !== undefined) throw new Error('the plain check reads only objects that drop unknown keys');
      const { checks: fields, required } = fieldChecks(def.shape);
      return (value) => isPlainObject(value, fields, required);
    }
    default:
      throw new Error(`the plain check cannot read a ${def.type}; give it one with withPlainCheck`);
  }
}

/** The record's fields, read from its schema (whose cross-field rules `crossFieldIssues` applies). */
const { checks: PLAIN_CHECKS, required: RECORD_REQUIRED } = fieldChecks(resultRecordSchema.shape);

/**
 * A record's fields as the schema reads them: checked by hand when every field is plainly valid (a string id, ids
 * as strings, no key the schema would drop), and by the schema otherwise, which words each problem. Both give equal
 * records (`test/core/record-fields.test.ts` holds them to it).
 */
export function readRecordFields(given: Record<string, unknown>): z.ZodSafeParseResult<RecordFields> {
  if (isPlainObject(given, PLAIN_CHECKS, RECORD_REQUIRED) && crossFieldIssues(given as RecordFields).length === 0) {
    const fields = given as RecordFields;
    // The schema returns scores as a new plain object (the reader gathers them into one without a prototype).
    return { success: true, data: fields.scores === undefined ? fields : { ...fields, scores: { ...fields.scores } } };
  }
  return resultRecordSchema.safeParse(given);
}

/** A record as scored: its id given or derived, its relevant documents as ids (derived from text where given so). */
export type ResultRecord = Omit<RecordFields, 'id'> & { readonly id: string };

export const KNOWN_FIELDS: ReadonlySet<string> = new Set([...Object.keys(resultRecordSchema.shape), ...FIELD_ALIASES.keys()]);

/** What the reader derived for a record, so reports can state it. */
export interface Derivation {
  /** The id is a hash of the question text. */
  readonly idFromQuestion: boolean;
  /** Relevant documents were matched to the retrieved ones by their text. */
  readonly retrievalByText: boolean;
  /** The retrieved documents' ids are hashes of their texts (`text-…`): no `retrieved_ids` was given. */
  readonly documentIdsFromText: boolean;
}

/**
 * The record as scored: its id derived from the question when absent, and where the gold contexts come as text
 * (`reference_contexts` without `relevant_ids`), its relevant ids matched to the retrieved documents by text under
 * `rule` (retrieved documents without ids get text ids). A problem (a field path and a message) when the same
 * text is retrieved twice, since a ranking holds each document once.
 */
export function resolveRecord(
  fields: RecordFields,
  rule: ContextMatchRule,
): { record: ResultRecord; derivation: Derivation } | { problem: { path: (string | number)[]; message: string } } {
  const id = fields.id ?? questionId(fields.question);
  const { reference_contexts: references, retrieved_contexts: contexts } = fields;
  const retrievalByText = fields.relevant_ids === undefined && references !== undefined && contexts !== undefined;
  // A record with its id is as scored already (a copy would be the same).
  let record: ResultRecord = fields.id === undefined ? { ...fields, id } : (fields as ResultRecord);
  if (retrievalByText) {
    let retrieved = fields.retrieved_ids;
    if (retrieved === undefined) {
      retrieved = contexts.map(contextId);
      const first = new Map<string, number>();
      for (const [rank, docId] of retrieved.entries()) {
        const earlier = first.get(docId);
        if (earlier !== undefined) {
          return {
            problem: {
              path: ['retrieved_contexts', rank],
              message: `has the same text as retrieved_contexts[${earlier}]; a ranking holds each document once: remove the repeat`,
            },
          };
        }
        first.set(docId, rank);
      }
    }
    record = { ...record, retrieved_ids: retrieved, relevant_ids: referenceIds(retrieved, contexts, references, rule) };
  }
  return {
    record,
    derivation: { idFromQuestion: fields.id === undefined, retrievalByText, documentIdsFromText: retrievalByText && fields.retrieved_ids === undefined },
  };
}

/**
 * Score names Ragas and DeepEval write (`answer_relevancy` is Ragas' metric, not a misspelt `answer_relevance`):
 * read as scores without a "did you mean" note.
 */
export const TOOL_SCORE_NAMES: ReadonlySet<string> = new Set([
  'faithfulness',
  'answer_relevancy',
  'context_precision',
  'context_recall',
  'context_entity_recall',
  'answer_correctness',
  'semantic_similarity',
  'factual_correctness_mode_f1',
  'contextual_precision',
  'contextual_recall',
  'contextual_relevancy',
  'answer_relevancy_success',
]);

/**
 * Field names other tools use for what rag-gate reads under another name (a hint for an unknown field, not an
 * alias: their meaning may differ, so the user decides).
 */
export const FIELD_SYNONYMS: ReadonlyMap<string, string> = new Map(
  Object.entries({
    ground_truths: 'expected_answer',
    reference_answer: 'expected_answer',
    context: 'reference_contexts',
    input: 'question',
    query: 'question',
    prompt: 'question',
    question_id: 'id',
    qid: 'id',
    gold_answer: 'expected_answer',
    generated_answer: 'answer',
    is_correct: 'correct',
  }),
);

/** The known field an unknown one probably means: a synonym from another tool, or a near spelling. */
export function suggestField(unknown: string): string | undefined {
  return FIELD_SYNONYMS.get(unknown.toLowerCase()) ?? closestName(unknown, KNOWN_FIELDS);
}

/** The canonical fields of a record, the names a field map may map to. */
export const RECORD_FIELDS: readonly string[] = Object.keys(resultRecordSchema.shape);

/** A user's field names for canonical ones (`prompt` → `question`): read before the other tools' aliases. */
export type FieldMap = ReadonlyMap<string, string>;
