// Deterministic synthetic workloads for `npm run bench`, written into bench-data/ (ignored by git).
import { createWriteStream, existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { once } from 'node:events';
import { mulberry32 as rng } from '../seeded-random.mjs';

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
