// Chunking, and BM25 retrieval over the chunks with minisearch.
import MiniSearch from 'minisearch';
import { processTerm, sentences, tokenize } from './text.mjs';

/**
 * @typedef {{ id: string, title: string, text: string }} Doc
 * @typedef {{ id: string, docId: string, text: string }} Chunk
 * @typedef {{ kind: 'article' } | { kind: 'sentence-window', around: number }} Chunking
 */

/**
 * Cuts the corpus into chunks. An article reads "title\ntext"; its segments are the title and each sentence.
 * - `article`: one chunk per article, the whole article.
 * - `sentence-window`: one chunk per segment, holding that segment and `around` segments on each side (the
 *   "sentence window" splitters of RAG frameworks). Neighbouring chunks overlap, so every sentence is indexed
 *   up to 2·around + 1 times.
 * Chunk ids are `<article id>#<n>`.
 * @param {readonly Doc[]} docs
 * @param {Chunking} chunking
 * @returns {Chunk[]}
 */
export function chunkCorpus(docs, chunking) {
  /** @type {Chunk[]} */
  const chunks = [];
  for (const doc of docs) {
    const article = `${doc.title}\n${doc.text}`;
    if (chunking.kind === 'article') {
      chunks.push({ id: `${doc.id}#0`, docId: doc.id, text: article });
      continue;
    }
    const segments = sentences(article);
    segments.forEach((_, i) => {
      const window = segments.slice(Math.max(0, i - chunking.around), i + chunking.around + 1);
      chunks.push({ id: `${doc.id}#${i}`, docId: doc.id, text: window.join('\n') });
    });
  }
  return chunks;
}

/**
 * A BM25 index over chunks: minisearch's BM25+ with its defaults (k1 = 1.2, b = 0.7, d = 0.5), OR-combined query
 * terms, no prefix or fuzzy matching, and the pipeline's own tokenizer and stemmer, so that retrieval and the
 * answerer see the same terms.
 * @param {readonly Chunk[]} chunks
 */
export function buildIndex(chunks) {
  const index = new MiniSearch({
    fields: ['text'],
    idField: 'id',
    tokenize,
    processTerm,
    searchOptions: { tokenize, processTerm, combineWith: 'OR', prefix: false, fuzzy: false },
  });
  index.addAll(chunks);
  const byId = new Map(chunks.map((chunk, order) => [chunk.id, { chunk, order }]));
  return {
    /**
     * The `limit` best chunks for a query, best first; equal scores keep corpus order, so runs are reproducible.
     * @param {string} query
     * @param {number} limit
     * @returns {Chunk[]}
     */
    search(query, limit) {
      return index
        .search(query)
        .map((hit) => ({ score: hit.score, .../** @type {{ chunk: Chunk, order: number }} */ (byId.get(hit.id)) }))
        .sort((a, b) => b.score - a.score || a.order - b.order)
        .slice(0, limit)
        .map((hit) => hit.chunk);
    },
  };
}
