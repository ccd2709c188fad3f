// Deterministic synthetic workloads for `npm run bench`, written into bench-data/ (ignored by git).
import { createWriteStream, existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { once } from 'node:events';
import { mulberry32 as rng } from '../seeded-random.mjs';
import { textMaker } from './text.mjs';

async function writeLines(file, produce) {
  const out = createWriteStream(file, { highWaterMark: 1 << 20 });
  let buffer = '';
  const write = async (line) => {
    buffer += line;
    if (buffer.length > 1 << 20) {
      if (!out.write(buffer)) await once(out, 'drain');
      buffer = '';
    }
  };
  await produce(write);
  out.end(buffer);
  await once(out, 'finish');
}

/**
 * A TREC run and qrels: `queries` queries with `depth` retrieved documents each (one-decimal scores, so many ties;
 * 5% short rankings), 76 judged documents per query, mostly near the top, with graded relevance 0–3.
 */
export async function generateTrec(dir, queries, depth) {
  const qrels = join(dir, `trec-${queries}.qrels`);
  const run = join(dir, `trec-${queries}.run`);
  if (existsSync(qrels) && existsSync(run)) return { qrels, run };
  mkdirSync(dir, { recursive: true });
  const random = rng(queries);
  // Within a query, rank r holds document (r·7919 + q) mod 2·depth: distinct for r < 2·depth.
  const docAt = (q, r) => `d${(r * 7919 + q) % (2 * depth)}`;
  await writeLines(qrels, async (write) => {
    for (let q = 0; q < queries; q++) {
      const ranks = new Set();
      while (ranks.size < 76) ranks.add(Math.floor(random() * random() * depth * 1.2));
      for (const r of ranks) await write(`${q} 0 ${docAt(q, r)} ${Math.floor(random() * 4)}\n`);
    }
  });
  await writeLines(run, async (write) => {
    for (let q = 0; q < queries; q++) {
      const length = random() < 0.05 ? Math.floor(random() * depth) : depth;
      for (let r = 0; r < length; r++) {
        const score = Math.round((100 - r * (100 / depth) + random() * 2) * 10) / 10;
        await write(`${q} Q0 ${docAt(q, r)} ${r + 1} ${score} b\n`);
      }
    }
  });
  return { qrels, run };
}

/**
 * Paired results for `compare`: `questions` questions with `depth` retrieved ids each, drawn from a corpus of
 * five documents per question (ids repeat across questions, as in a real corpus); head is a noisy copy of base.
 */
export async function generateResults(dir, questions, depth) {
  const base = join(dir, `results-${questions}-base.jsonl`);
  const head = join(dir, `results-${questions}-head.jsonl`);
  if (existsSync(base) && existsSync(head)) return { base, head };
  mkdirSync(dir, { recursive: true });
  const corpus = questions * 5;
  for (const [file, seed, drift] of [
    [base, 1, 0],
    [head, 2, 0.03],
  ]) {
    const random = rng(seed);
    const labels = rng(7);
    await writeLines(file, async (write) => {
      for (let i = 0; i < questions; i++) {
        const gold = Math.floor(labels() * 3) + 1;
        const goldIds = [];
        for (let g = 0; g < gold; g++) goldIds.push(`doc-${(i * 7 + g) % corpus}`);
        const relevant = {};
        for (const id of goldIds) relevant[id] = 1 + Math.floor(labels() * 3);
        const retrieved = [];
        const seen = new Set();
        for (let r = 0; r < depth; r++) {
          let id = r < gold && random() > 0.2 + drift ? goldIds[r] : `doc-${Math.floor(random() * corpus)}`;
          while (seen.has(id)) id = `doc-${Math.floor(random() * corpus)}`;
          seen.add(id);
          retrieved.push(id);
        }
        const answerable = labels() > 0.1;
        const correct = random() < 0.7 - drift;
        const claims = [
          { text: 'c1', verdict: random() < 0.85 ? 'SUPPORTED' : 'NOT_STATED' },
          { text: 'c2', verdict: 'SUPPORTED' },
        ];
        await write(
          `${JSON.stringify({
            id: `q${i}`,
            question: `Synthetic question number ${i}?`,
            retrieved_ids: retrieved,
            relevant_ids: answerable ? relevant : [],
            answerable,
            correct,
            refused: !answerable && random() < 0.8,
            claims,
            answer_relevance: Math.round(random() * 1000) / 1000,
            tags: [`t${i % 7}`],
          })}\n`,
        );
      }
    });
  }
  return { base, head };
}

/** MS MARCO's passage collection: ids 0 … 8,841,822. */
export const MSMARCO_PASSAGES = 8_841_823;

/**
 * A TREC run and qrels shaped like a real collection's (issue 19): document ids are MS MARCO passage numbers drawn
 * from its 8.8 M ids, popular ones more often (u² skew), so 10,000 queries × 1,000 give a few million distinct
 * docnos; scores with 4 decimals, about 7% tied with the one above; 5% short rankings; about 100 judgments per
 * query graded 0–3, most near the top of the ranking, some unretrieved. Returns the files and the number of
 * distinct docnos in the run.
 */
export async function generateTrecRealistic(dir, queries, depth) {
  const qrels = join(dir, `trec-real-${queries}.qrels`);
  const run = join(dir, `trec-real-${queries}.run`);
  mkdirSync(dir, { recursive: true });
  const random = rng(queries + 19);
  const seen = new Uint8Array(MSMARCO_PASSAGES);
  let distinct = 0;
  const rankings = [];
  await writeLines(run, async (write) => {
    for (let q = 0; q < queries; q++) {
      const length = random() < 0.05 ? 1 + Math.floor(random() * depth) : depth;
      const docs = new Set();
      while (docs.size < length) docs.add(Math.floor(random() * random() * MSMARCO_PASSAGES));
      const ranking = [...docs];
      let score = 30 + random() * 10;
      for (let r = 0; r < ranking.length; r++) {
        if (seen[ranking[r]] === 0) {
          seen[ranking[r]] = 1;
          distinct++;
        }
        if (r > 0 && random() >= 0.07) score -= random() * (20 / depth);
        await write(`${1_000_000 + q * 37} Q0 ${ranking[r]} ${r + 1} ${score.toFixed(4)} bm25-rm3\n`);
      }
      // Judged: 100 documents a query, three quarters from the top 100 of the ranking.
      const judged = new Set();
      while (judged.size < Math.min(75, ranking.length)) judged.add(ranking[Math.floor(random() * random() * Math.min(100, ranking.length))]);
      while (judged.size < 100) judged.add(Math.floor(random() * MSMARCO_PASSAGES));
      rankings.push([...judged]);
    }
  });
  await writeLines(qrels, async (write) => {
    for (let q = 0; q < queries; q++) for (const doc of rankings[q]) await write(`${1_000_000 + q * 37} 0 ${doc} ${Math.floor(random() * random() * 4)}\n`);
  });
  return { qrels, run, distinct };
}

/**
 * Paired results shaped like users' (issue 19): ids `q-<12 hex>`, document ids `doc-<10 hex>` drawn from an
 * 8.8 M-id vocabulary (u² skew), questions of 10–30 words, answers of 50–200, expected answers of 10–40, 1–3
 * graded gold documents, 2–6 claims with their text, tags; head is a noisy copy of base with 3 points less
 * retrieval and correctness.
 */
export async function generateResultsRealistic(dir, questions, depth) {
  const base = join(dir, `results-real-${questions}-base.jsonl`);
  const head = join(dir, `results-real-${questions}-head.jsonl`);
  mkdirSync(dir, { recursive: true });
  const hex = (n, width) => n.toString(16).padStart(width, '0');
  const docId = (n) => `doc-${hex(Math.imul(n, 2654435761) >>> 0, 8)}${hex(n % 256, 2)}`;
  const questionId = (i) => `q-${hex(Math.imul(i + 1, 2246822519) >>> 0, 8)}${hex(i & 0xffff, 4)}`;
  for (const [file, seed, drift] of [
    [base, 1, 0],
    [head, 2, 0.03],
  ]) {
    const random = rng(seed);
    const labels = rng(7);
    const text = textMaker(random);
    const labelText = textMaker(labels);
    await writeLines(file, async (write) => {
      for (let i = 0; i < questions; i++) {
        const question = `${labelText.words(labelText.between(10, 30))}?`;
        const expected = labelText.sentences(labelText.between(10, 40));
        const gold = labelText.between(1, 3);
        const relevant = {};
        const goldIds = [];
        for (let g = 0; g < gold; g++) {
          const id = docId(Math.floor(labels() * labels() * MSMARCO_PASSAGES));
          goldIds.push(id);
          relevant[id] = 1 + Math.floor(labels() * 3);
        }
        const answerable = labels() > 0.1;
        const retrieved = [];
        const seen = new Set();
        for (let r = 0; r < depth; r++) {
          let id = r < gold && random() > 0.2 + drift ? goldIds[r] : docId(Math.floor(random() * random() * MSMARCO_PASSAGES));
          while (seen.has(id)) id = docId(Math.floor(random() * MSMARCO_PASSAGES));
          seen.add(id);
          retrieved.push(id);
        }
        const claims = Array.from({ length: text.between(2, 6) }, () => ({
          text: text.sentences(text.between(8, 20)),
          verdict: random() < 0.85 - drift ? 'SUPPORTED' : random() < 0.5 ? 'NOT_STATED' : 'CONTRADICTED',
        }));
        await write(
          `${JSON.stringify({
            id: questionId(i),
            question,
            retrieved_ids: retrieved,
            relevant_ids: answerable ? relevant : [],
            answer: text.sentences(text.between(50, 200)),
            expected_answer: expected,
            answerable,
            correct: random() < 0.7 - drift,
            refused: !answerable && random() < 0.8,
            claims,
            answer_relevance: Math.round(random() * 1000) / 1000,
            tags: [`product-${i % 7}`, i % 3 === 0 ? 'synthesis' : 'factual'],
          })}\n`,
        );
      }
    });
  }
  return { base, head };
}

/**
 * A production conversation log for `monitor` (issue 40): `turns` user turns in sessions of 1–8 turns, over 28 days
 * of traffic in time order, ISO timestamps; queries of 5–20 words, answers of 30–150; about 6% of answers refuse
 * (a phrase the text refusal detector reads, or `refused: true`) and about 10% of turns are followed within a minute
 * by a rephrase (the query with a word or two changed), more of both in the last week, as after a bad deploy.
 */
export async function generateMonitorLog(dir, turns) {
  const log = join(dir, `monitor-${turns}.jsonl`);
  mkdirSync(dir, { recursive: true });
  const random = rng(turns + 11);
  const text = textMaker(random);
  const start = Date.UTC(2026, 10, 1);
  const span = 28 * 24 * 3600 * 1000;
  await writeLines(log, async (write) => {
    let session = 0;
    for (let written = 0; written < turns; session++) {
      const length = Math.min(turns - written, text.between(1, 8));
      let at = start + Math.floor((span * written) / turns);
      const late = at - start > span * 0.75;
      let query = `${text.words(text.between(5, 20))}?`;
      for (let t = 0; t < length; t++, written++) {
        const refuses = random() < (late ? 0.09 : 0.05);
        const answer = refuses && random() < 0.7 ? `I don't know. ${text.sentences(text.between(10, 30))}` : text.sentences(text.between(30, 150));
        const turn = { session_id: `s-${session.toString(16).padStart(8, '0')}`, timestamp: new Date(at).toISOString(), user_query: query, answer };
        await write(`${JSON.stringify(refuses && !answer.startsWith('I') ? { ...turn, refused: true } : turn)}\n`);
        const rephrase = random() < (late ? 0.14 : 0.09);
        at += rephrase ? text.between(5, 50) * 1000 : text.between(70, 600) * 1000;
        if (rephrase) {
          const words = query.slice(0, -1).split(' ');
          words[Math.floor(random() * words.length)] = text.words(1);
          query = `${words.join(' ')}?`;
        } else query = `${text.words(text.between(5, 20))}?`;
      }
    }
  });
  return { log };
}
