import { describe, expect, it } from 'vitest';
import { evalJson } from '../helpers/cli.js';
import { tempDir, writeJsonl } from '../helpers/files.js';

/** A small seeded generator, so the runs are the same on every machine. */
function lcg(seed: number) {
  let state = seed >>> 0;
  return (bound: number) => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state % bound;
  };
}

const documents = Array.from({ length: 40 }, (_, i) => `Passage ${i}: the ${['billing', 'refund', 'login', 'export'][i % 4]} policy, section ${i * 7}.`);

/** 80 questions, each with a ranking of 10 distinct documents and 1–3 relevant ones (some not retrieved). */
function questions() {
  const next = lcg(20261130);
  return Array.from({ length: 80 }, (_, q) => {
    const ranked: number[] = [];
    while (ranked.length < 10) {
      const doc = next(documents.length);
      if (!ranked.includes(doc)) ranked.push(doc);
    }
    const relevant = [...new Set(Array.from({ length: 1 + next(3) }, () => (next(2) === 0 ? ranked[next(10)]! : next(documents.length))))];
    return { q, ranked, relevant };
  });
}

describe('retrieval matched by text', () => {
  it('gives every retrieval metric the value matching by id gives, on the same data', async () => {
    const dir = tempDir();
    const data = questions();
    const byIds = writeJsonl(
      dir,
      'ids.jsonl',
      data.map(({ q, ranked, relevant }) => ({
        id: `q${q}`,
        question: `Question ${q}?`,
        retrieved_ids: ranked.map((d) => `d${d}`),
        relevant_ids: relevant.map((d) => `d${d}`),
      })),
    );
    // Ragas' shape: no ids anywhere, contexts as text, spaced differently on the gold side.
    const byText = writeJsonl(
      dir,
      'text.jsonl',
      data.map(({ q, ranked, relevant }) => ({
        user_input: `Question ${q}?`,
        retrieved_contexts: ranked.map((d) => documents[d]!),
        reference_contexts: relevant.map((d) => `  ${documents[d]!.replaceAll(' ', '  ')}`),
      })),
    );
    const k = ['--k', '1,3,5,10'];
    const [ids, text] = await Promise.all([evalJson(byIds, k), evalJson(byText, k)]);
    const retrieval = Object.keys(ids.metrics).filter((name) => /@|^(mrr|map|r_precision|ndcg)/.test(name) || name === 'retrieval_ok');
    expect(retrieval.length).toBeGreaterThan(10);
    for (const name of retrieval) expect([name, text.metrics[name]]).toEqual([name, ids.metrics[name]]);
    expect(text.provenance).toEqual({ idsFromQuestion: 80, retrievalByText: 80, correctByRule: 0, refusedByDetector: 0, formats: ['jsonl'], scores: {} });
    expect(text.scoring).toEqual([
      'ids derived from question text for 80 of 80 questions',
      'retrieval matched by text for 80 questions: a retrieved context counts as a reference one when their normalised texts are the same',
    ]);
    expect(ids.provenance).toEqual({ idsFromQuestion: 0, retrievalByText: 0, correctByRule: 0, refusedByDetector: 0, formats: ['jsonl'], scores: {} });
  });
});
