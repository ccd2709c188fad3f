// Writes test/fixtures/trec/stress.{qrels,run}: a seeded qrels/run pair shaped to catch what trec_eval's own test
// files catch, without copying them. Re-running it reproduces the files byte for byte; the expected numbers
// (stress.MODE.expected.json) come from scripts/trec-eval-reference.mjs and must be regenerated with any change.
//
//   node scripts/gen-trec-stress.mjs
//
// What the pair exercises:
// - comment lines where trec_eval 10 skips them too: in the qrels at the start of a line and never two in a row
//   nor last (trec_eval reads the second of two as data, and crashes on a last one); in the run anywhere,
//   indented or not; "#" inside docnos;
// - run lines with extra columns after the sixth (ignored), tabs and repeated blanks;
// - grades 0–3 and −1 (pooled but not judged: infAP's sample), judged documents retrieved and not, unjudged
//   retrieved documents, queries with nothing relevant, judged queries missing from the run, run-only queries;
// - scores with few distinct values, so that ties (broken by docno, descending) are common.
import { writeFileSync } from 'node:fs';
import { mulberry32 } from './seeded-random.mjs';

const rand = mulberry32(20261130);
const int = (lo, hi) => lo + Math.floor(rand() * (hi - lo + 1));
const chance = (p) => rand() < p;
const pick = (items) => items[int(0, items.length - 1)];

function shuffle(items) {
  for (let i = items.length - 1; i > 0; i--) {
    const j = int(0, i);
    [items[i], items[j]] = [items[j], items[i]];
  }
  return items;
}

function grade() {
  const r = rand();
  if (r < 0.08) return -1;
  if (r < 0.5) return 0;
  if (r < 0.72) return 1;
  if (r < 0.88) return 2;
  return 3;
}

/** Docnos with "#", prefixes of one another and mixed lengths, so that byte order matters. */
function docno() {
  return pick([`D${int(1, 400)}`, `D${int(1, 40)}#${int(0, 9)}`, `doc-${int(1, 99)}`, `X${int(100, 999)}`]);
}

const COMMENTS = ['# 0 note 1', '# judged by assessor 3', '#', '# q 0 D1 3 extra'];
const qrelsLines = ['# stress qrels: grades -1..3'];
const runLines = [];

for (let q = 0; q < 40; q++) {
  const qid = String(q < 20 ? 401 + q : `Q${q}`);
  const kind = rand();
  const noRelevant = kind < 0.08;
  const missing = kind >= 0.08 && kind < 0.16;
  const docs = new Set();
  while (docs.size < int(5, 120)) docs.add(docno());
  const pool = [...docs];
  const retrieved = missing ? [] : pool.filter(() => chance(0.8));
  for (const doc of pool) {
    if (!chance(0.65)) continue;
    qrelsLines.push(`${qid} 0 ${doc} ${noRelevant ? pick([0, -1]) : grade()}`);
    // A comment after a judgment now and then: never two in a row, never last.
    if (chance(0.03)) qrelsLines.push(pick(COMMENTS));
  }
  for (const doc of retrieved) {
    const score = pick(['1', '2', '2.5', '3', '10', '0', '-1', '1e1', String(int(0, 30) / 4)]);
    const extra = chance(0.1) ? ` ${pick(['extra', 'more junk at', '# not a comment', '7'])}` : '';
    const sep = chance(0.1) ? '\t' : ' ';
    runLines.push(`${qid}${sep}Q0${sep}${doc} ${int(1, 999)}  ${score} stress${extra}`);
  }
}
for (let q = 0; q < 3; q++) runLines.push(`900${q} Q0 D1 1 1 stress`);
const run = shuffle(runLines);
for (let i = 0; i < 6; i++) run.splice(int(0, run.length), 0, pick(['# a run comment', '   # indented comment', '\t#1 Q0 D1 1 9 stress']));
qrelsLines.push('1 0 D1 0'); // The last line must not be a comment for trec_eval.

const dir = new URL('../test/fixtures/trec/', import.meta.url);
writeFileSync(new URL('stress.qrels', dir), `${qrelsLines.join('\n')}\n`);
writeFileSync(new URL('stress.run', dir), `# stress run\n${run.join('\n')}\n`);
console.log(`stress.qrels: ${qrelsLines.length} lines; stress.run: ${run.length + 1} lines`);
