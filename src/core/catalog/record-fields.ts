/**
 * The fields of a result record, one row each: its type and meaning in words (the table of docs/results.md is
 * generated from them) and the other tools' names it is also read from. The record's schema (`record.ts`) checks
 * the values and must hold exactly these fields: the compiler holds it to them.
 *
 * The other names come from Ragas' single-turn sample, the older Ragas and LangChain dataset columns, and
 * DeepEval's test case; `repeat` is rag-gate's second name for `run`. The token counts are also read under the names
 * of OpenAI's Responses API, Anthropic's and LangChain's usage metadata (`input_tokens`, `output_tokens`), the
 * cost under LangSmith's run name (`total_cost`).
 */
export interface RecordFieldRow {
  /** The type in words, with what is required of the value. */
  readonly type: string;
  /** Other tools' names for the field, read as it (a file may not give one field under two names). */
  readonly aliases: readonly string[];
  /** What the field means and how rag-gate reads it, as the docs say it (markdown). */
  readonly meaning: string;
}

/** In the docs' reading order. */
export const RECORD_FIELD_ROWS = {
  id: {
    type: 'string or whole number, unique (per run, with `run`); optional',
    aliases: [],
    meaning: 'the question\'s key; pairs base and head. Without it the id is derived from the question text (below); `7` and `"7"` are the same id',
  },
  question: { type: 'string, required', aliases: ['user_input'], meaning: 'shown in reports' },
  retrieved_ids: {
    type: 'list of strings or whole numbers, no repeats',
    aliases: ['retrieved_context_ids'],
    meaning: 'ranked retrieval results, best first',
  },
  relevant_ids: {
    type: 'list of ids, or object `{"d17": 3, "d42": 1}`',
    aliases: ['reference_context_ids'],
    meaning: 'gold documents; graded relevance with whole-number grades ≥ 0, grade ≥ 1 counts as relevant',
  },
  retrieved_contexts: {
    type: 'list of strings',
    aliases: ['contexts', 'retrieval_context'],
    meaning:
      'the retrieved texts, in rank order (one per retrieved id when both are given); the built-in judge reads them, and retrieval is matched by text when the gold comes as text',
  },
  reference_contexts: {
    type: 'list of strings',
    aliases: [],
    meaning: 'the gold contexts as text, for pipelines that log no document ids (below)',
  },
  answer: { type: 'string', aliases: ['response', 'actual_output'], meaning: 'the generated answer' },
  expected_answer: { type: 'string', aliases: ['reference', 'ground_truth', 'expected_output'], meaning: 'the reference answer' },
  correct: {
    type: 'boolean',
    aliases: [],
    meaning: 'end-to-end correctness as your pipeline judged it; when absent it is computed with `--correct` (default `contains`)',
  },
  retrieval_ok: { type: 'boolean', aliases: [], meaning: 'overrides the `--retrieval-ok` rule for this question' },
  answerable: { type: 'boolean, default `true`', aliases: [], meaning: '`false` for questions the corpus cannot answer' },
  refused: {
    type: 'boolean',
    aliases: [],
    meaning:
      'the system declined to answer; when absent and `answer` is given, it is read from the answer by the text refusal detector, the same one the monitor uses ([Production monitoring](monitoring.md#production-monitoring): an empty answer, or a refusal phrase such as "I don\'t know" from the start of a word in its first 300 characters), and reports say for how many questions',
  },
  claims: { type: 'list of `{text, verdict}`', aliases: [], meaning: 'verdict `SUPPORTED`, `CONTRADICTED` or `NOT_STATED`' },
  cited_ids: { type: 'list of ids', aliases: [], meaning: 'ids the answer cites' },
  answer_relevance: { type: 'number in [0, 1]', aliases: [], meaning: 'your per-question answer relevance' },
  human_label: { type: 'string or boolean', aliases: [], meaning: "a human's label of the item `judge_label` labels, for judge calibration" },
  judge_label: { type: 'string or boolean', aliases: [], meaning: "your judge's label of the item `human_label` labels, for judge calibration" },
  closed_book_correct: { type: 'boolean', aliases: [], meaning: 'correct when answered with no context at all' },
  tags: { type: 'list of strings', aliases: [], meaning: 'slices for the by-tag breakdown and regression grouping' },
  trace_url: {
    type: 'string',
    aliases: [],
    meaning: "a link to the question's trace (LangSmith, Langfuse, Phoenix…); the comment links each listed question to it (http(s) only)",
  },
  scores: {
    type: 'object of numbers or true/false',
    aliases: [],
    meaning: 'scores another tool computed per question, `{"faithfulness": 0.9}` (below)',
  },
  judged_by: { type: 'written by `rag-gate judge`', aliases: [], meaning: 'which judge (model, prompt version) filled which field' },
  judge_errors: { type: 'written by `rag-gate judge`', aliases: [], meaning: 'what the judge could not judge, per metric' },
  latency_ms: {
    type: 'number ≥ 0',
    aliases: ['duration_ms'],
    meaning: "the question's end-to-end latency in milliseconds ([Latency, tokens and cost](metrics.md#latency-tokens-and-cost))",
  },
  retrieval_latency_ms: { type: 'number ≥ 0', aliases: [], meaning: 'the retrieval stage of the latency, in milliseconds (optional)' },
  generation_latency_ms: { type: 'number ≥ 0', aliases: [], meaning: 'the generation stage of the latency, in milliseconds (optional)' },
  prompt_tokens: { type: 'number ≥ 0', aliases: ['input_tokens'], meaning: 'the tokens sent to the model' },
  completion_tokens: { type: 'number ≥ 0', aliases: ['output_tokens'], meaning: 'the tokens the model generated' },
  total_tokens: {
    type: 'number ≥ 0',
    aliases: [],
    meaning: 'for tools that report only the sum; without it the total is `prompt_tokens` + `completion_tokens`',
  },
  cost_usd: { type: 'number ≥ 0', aliases: ['total_cost'], meaning: 'what the question cost the pipeline, in US dollars' },
  run: {
    type: 'whole number ≥ 1',
    aliases: ['repeat'],
    meaning:
      "which repeat of the question this record is, for a pipeline run several times per question ([Repeated runs](#repeated-runs)); without it a record is its question's only run",
  },
} as const satisfies Record<string, RecordFieldRow>;

export type RecordFieldName = keyof typeof RECORD_FIELD_ROWS;
