// The example RAG pipeline end to end: corpus → chunks → BM25 → extractive answer → one result record per question,
// in rag-gate's results format.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { answerQuestion, checkClaims, termWeights } from './answerer.mjs';
import { buildIndex, chunkCorpus } from './retrieval.mjs';
import { sentences, tokenF1, words } from './text.mjs';
import { mulberry32 } from '../../scripts/seeded-random.mjs';

/** The examples/ folder. */
export const EXAMPLES = dirname(dirname(fileURLToPath(import.meta.url)));

/** An answer to an answerable question is correct when its SQuAD token F1 against the expected answer reaches this. */
export const CORRECT_F1 = 0.75;

/**
 * @typedef {import('./retrieval.mjs').Doc} Doc
 * @typedef {import('./retrieval.mjs').Chunking} Chunking
 * @typedef {{ id: string, question: string, relevant_ids: string[], expected_answer: string, answerable: boolean, tags: string[] }} GoldenQuestion
 * @typedef {{ name: string, description: string, chunking: Chunking, chunksRetrieved: number }} PipelineConfig
 */

/**
 * The two configurations. They share the retriever (BM25, the 4 best chunks), the answerer and everything else;
 * only the index differs, the way a rebuild with a new text splitter changes it.
 * @type {{ base: PipelineConfig, head: PipelineConfig }}
 */
export const CONFIGS = {
  base: {
    name: 'base',
    description: 'one chunk per article',
    chunking: { kind: 'article' },
    chunksRetrieved: 4,
  },
  head: {
    name: 'head',
    description: 'index rebuilt with sentence windows: one chunk per sentence, with the sentence before and after it',
    chunking: { kind: 'sentence-window', around: 1 },
    chunksRetrieved: 4,
  },
};

/**
 * The corpus: every examples/corpus/*.json file is an array of {id, title, text}; files are read in name order.
 * @param {string} [dir]
 * @returns {Doc[]}
 */
export function loadCorpus(dir = join(EXAMPLES, 'corpus')) {
  return readdirSync(dir)
    .filter((name) => name.endsWith('.json'))
    .sort()
    .flatMap((name) => JSON.parse(readFileSync(join(dir, name), 'utf8')));
}

/**
 * The golden set, one JSON object per line.
 * @param {string} [file]
 * @returns {GoldenQuestion[]}
 */
export function loadGolden(file = join(EXAMPLES, 'golden.jsonl')) {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line));
}

/** With repeats, how far sampling moves a sentence's share: a uniform draw in ±0.1. */
export const SAMPLING_JITTER = 0.2;

/**
 * FNV-1a of a string: the seed of one (configuration, question, run), so that every run of the noisy answerer is
 * reproducible and the runs of the two configurations are independent draws.
 * @param {string} text
 */
function seedOf(text) {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return hash;
}

/**
 * Runs one configuration over the golden set and returns one result record per question, or with `repeats` one
 * record per question and run (`run`: 1, 2, …), answered by the sampling answerer (`answerQuestion`'s `sampling`).
 *
 * `retrieved_ids` are the documents of the retrieved chunks, in rank order without repeats: exactly what the
 * answerer was given, at the level of the golden set's `relevant_ids`.
 * @param {PipelineConfig} config
 * @param {{ docs?: Doc[], golden?: GoldenQuestion[] }} [input]
 * @param {{ repeats?: number, firstRun?: number }} [options] runs are numbered from `firstRun` (default 1); each
 *   number draws its own sampling noise, so runs 4–6 are fresh draws next to runs 1–3
 */
export function runPipeline(config, input = {}, options = {}) {
  const docs = input.docs ?? loadCorpus();
  const golden = input.golden ?? loadGolden();
  const weight = termWeights(docs.flatMap((doc) => sentences(doc.text)));
  const chunks = chunkCorpus(docs, config.chunking);
  const index = buildIndex(chunks);
  const repeats = options.repeats;
  const firstRun = options.firstRun ?? 1;
  const runs = repeats === undefined ? [undefined] : Array.from({ length: repeats }, (_, i) => firstRun + i);

  return golden.flatMap((q) => {
    const context = index.search(q.question, config.chunksRetrieved);
    const closedBook = answerQuestion(q.question, [], weight);
    return runs.map((run) => {
      const sampling = run === undefined ? undefined : { random: mulberry32(seedOf(`${config.name}:${q.id}:${run}`)), jitter: SAMPLING_JITTER };
      const answer = answerQuestion(q.question, context, weight, sampling);
      const random = mulberry32(seedOf(`${config.name}:${q.id}:${run ?? 1}:usage`));
      return { ...record(q, context, answer, closedBook, run), ...usage(q, context, answer, chunks.length, random) };
    });
  });
}

/** Tokens every prompt spends before the question: the instructions (words stand in for a tokenizer's tokens). */
const INSTRUCTION_TOKENS = 150;
/** An illustrative price of a small hosted model, in dollars per token: prompt and completion. */
const PRICE = { prompt: 0.15e-6, completion: 0.6e-6 };

/**
 * What answering cost, as a hosted pipeline would log it, modelled rather than timed so that the files stay
 * byte-identical: retrieval time grows with the index's chunks, generation time with the prompt and the answer,
 * each with log-normal noise of 15% (seeded per configuration, question and run); tokens are words; the cost
 * is the tokens at PRICE.
 * @param {GoldenQuestion} q
 * @param {import('./retrieval.mjs').Chunk[]} context
 * @param {import('./answerer.mjs').Answer} answer
 * @param {number} indexChunks
 * @param {() => number} random
 */
function usage(q, context, answer, indexChunks, random) {
  const noise = () => Math.exp(0.15 * Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random()));
  const promptTokens = INSTRUCTION_TOKENS + words(q.question).length + context.reduce((sum, chunk) => sum + words(chunk.text).length, 0);
  const completionTokens = words(answer.answer).length + 1;
  const retrieval = (25 + 0.04 * indexChunks) * noise();
  const generation = (180 + 0.5 * promptTokens + 15 * completionTokens) * noise();
  return {
    latency_ms: Math.round(retrieval + generation),
    retrieval_latency_ms: Math.round(retrieval),
    generation_latency_ms: Math.round(generation),
    prompt_tokens: promptTokens,
    completion_tokens: completionTokens,
    cost_usd: Number((promptTokens * PRICE.prompt + completionTokens * PRICE.completion).toPrecision(4)),
  };
}

/**
 * One result record in rag-gate's format.
 * @param {GoldenQuestion} q
 * @param {import('./retrieval.mjs').Chunk[]} context
 * @param {import('./answerer.mjs').Answer} answer
 * @param {import('./answerer.mjs').Answer} closedBook
 * @param {number | undefined} run
 */
function record(q, context, answer, closedBook, run) {
  return {
    id: q.id,
    ...(run === undefined ? {} : { run }),
    question: q.question,
    retrieved_ids: [...new Set(context.map((chunk) => chunk.docId))],
    relevant_ids: q.relevant_ids,
    answer: answer.answer,
    expected_answer: q.expected_answer,
    correct: isCorrect(answer, q),
    answerable: q.answerable,
    refused: answer.refused,
    claims: checkClaims(answer, context),
    cited_ids: answer.citedIds,
    closed_book_correct: isCorrect(closedBook, q),
    tags: q.tags,
  };
}

/**
 * Correct: on an answerable question, an answer (not a refusal) whose SQuAD token F1 against the expected answer
 * is at least CORRECT_F1; on an unanswerable question, a refusal.
 * @param {{ answer: string, refused: boolean }} answer
 * @param {GoldenQuestion} q
 */
export function isCorrect(answer, q) {
  if (!q.answerable) return answer.refused;
  return !answer.refused && tokenF1(answer.answer, q.expected_answer) >= CORRECT_F1;
}

/**
 * Records as JSON Lines: one object per line, a final newline.
 * @param {readonly object[]} records
 */
export function toJsonl(records) {
  return records.map((record) => JSON.stringify(record)).join('\n') + '\n';
}
