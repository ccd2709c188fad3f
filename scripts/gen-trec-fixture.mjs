// Writes test/fixtures/trec/random.{qrels,run}: a seeded, deterministic qrels/run pair for the
// trec_eval parity test. Re-running it reproduces the files byte for byte, so the expected numbers
// in random.expected.json stay valid; change SEED or the shape below only together with them.
//
//   node scripts/gen-trec-fixture.mjs
//
// What the pair exercises:
// - ~60 judged queries (TREC-style numeric ids), 0–150 retrieved documents each;
// - graded relevance 0–3, judged documents both retrieved and not retrieved, unjudged retrieved ones;
// - scores rounded to one decimal, so ties are common and trec_eval's tie-break (docno, descending)
//   decides the order; docnos of varying length so string order differs from numeric order;
// - lines shuffled and the rank column numbered in file order, so it disagrees with the scores;
// - judged queries absent from the run, run queries absent from the qrels, queries with no relevant docs.
import { mkdirSync, writeFileSync } from 'node:fs';
import { mulberry32 } from './seeded-random.mjs';

const SEED = 20240611;
const JUDGED_QUERIES = 60;
const RUN_ONLY_QUERIES = 3;
const MAX_RETRIEVED = 150;
const TAG = 'randrun';

const rand = mulberry32(SEED);
const int = (lo, hi) => lo + Math.floor(rand() * (hi - lo + 1)); // inclusive
const chance = (p) => rand() < p;

function shuffle(items) {
  for (let i = items.length - 1; i > 0; i--) {
    const j = int(0, i);
    [items[i], items[j]] = [items[j], items[i]];
  }
  return items;
}

/** Grade distribution: mostly 0, fewer of each higher grade. */
function grade() {
  const r = rand();
  if (r < 0.55) return 0;
  if (r < 0.77) return 1;
  if (r < 0.9) return 2;
  return 3;
}

/** A query's candidate documents: distinct ids like D7, D42, D1093 (string order ≠ numeric order). */
function documentPool(size) {
  const ids = new Set();
  while (ids.size < size) ids.add(`D${int(1, 2000)}`);
  return [...ids];
}

const qrelsLines = [];
const runLines = [];

function writeRun(qid, docs) {
  const lines = docs.map((docno) => {
    // Scores in [0, 10] rounded to one decimal: ~100 distinct values for up to 150 docs.
    const score = (Math.round(rand() * 100) / 10).toFixed(1);
    return { docno, score };
  });
  shuffle(lines).forEach(({ docno, score }, i) => {
    runLines.push(`${qid} Q0 ${docno} ${i + 1} ${score} ${TAG}`);
  });
}

for (let q = 0; q < JUDGED_QUERIES; q++) {
  const qid = String(301 + q);
  const kind = rand();
  const noRelevant = kind < 0.07; // a few queries whose judgments are all 0
  const missingFromRun = kind >= 0.07 && kind < 0.15; // judged, but the system returned nothing

  const retrievedCount = missingFromRun ? 0 : chance(0.1) ? int(1, 5) : int(0, MAX_RETRIEVED);
  const unretrievedJudged = int(1, 25);
  const pool = documentPool(retrievedCount + unretrievedJudged);
  const retrieved = pool.slice(0, retrievedCount);
  const unretrieved = pool.slice(retrievedCount);

  // Judge about half of the retrieved documents (the rest stay unjudged) and every unretrieved one.
  const judged = [...retrieved.filter(() => chance(0.5)), ...unretrieved];
  for (const docno of judged) qrelsLines.push(`${qid} 0 ${docno} ${noRelevant ? 0 : grade()}`);

  if (retrieved.length > 0) writeRun(qid, retrieved);
}

// Queries the system answered but nobody judged: trec_eval ignores them.
for (let q = 0; q < RUN_ONLY_QUERIES; q++) {
  writeRun(String(901 + q), documentPool(int(1, 20)));
}

const outDir = new URL('../test/fixtures/trec/', import.meta.url);
mkdirSync(outDir, { recursive: true });
writeFileSync(new URL('random.qrels', outDir), `${qrelsLines.join('\n')}\n`);
writeFileSync(new URL('random.run', outDir), `${shuffle(runLines).join('\n')}\n`);
console.log(`random.qrels: ${qrelsLines.length} lines; random.run: ${runLines.length} lines`);
