/**
 * Thresholds that are both a setting's default and a feature's rule: the settings catalog states them in its rows
 * (defaults, descriptions), and the calibration policy, the run summary and the monitor apply them. Here, below all of
 * them, so that the catalog reads them without importing the features.
 */

/**
 * Below this kappa a judge does not measure what the humans do: its metrics are noise, warned about, and may not
 * gate (a widely used threshold for judge–human agreement).
 */
export const KAPPA_FLOOR = 0.6;

/**
 * The lexical threshold: a pair at or above it is a rephrase. Calibrated on examples/monitor/paraphrase-pairs.jsonl
 * (171 labelled support-query pairs): the step of 0.05 with the highest F1; its precision and recall there are
 * pinned by test/core/monitor/similarity.test.ts and stated in the README.
 */
export const LEXICAL_THRESHOLD = 0.6;

/**
 * The embeddings threshold used when none is set: a cosine at or above it is a rephrase. Not calibrated here (no
 * embedding model is shipped); typical of paraphrases with OpenAI's text-embedding-3 models. Calibrate your own
 * with the pairs file and set `rephrase-similarity`.
 */
export const EMBEDDING_THRESHOLD = 0.8;
