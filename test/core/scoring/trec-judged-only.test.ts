import { afterAll, describe, expect, it } from 'vitest';
import { parseRetrievalMetric } from '../../../src/core/catalog/retrieval-metrics.js';
import { DEFAULT_TREC_EVAL_OPTIONS, evaluateTrecTables, type TrecEvalOptions } from '../../../src/core/scoring/trec-eval.js';
import { readQrelsTable, readRunTable } from '../../../src/sources/trec.js';
import { scratchDir } from '../../helpers/cli.js';

const scratch = scratchDir();
afterAll(() => scratch.cleanup());

const metrics = ['map', 'precision@2'].map(parseRetrievalMetric);

/** Evaluates qrels lines `qid docno grade` against a run listed best first (scores descending). */
async function evaluate(name: string, qrels: readonly string[], ranked: readonly string[], options: Partial<TrecEvalOptions>) {
  const qrelsFile = scratch.file(`${name}.qrels`, qrels.map((line) => line.replace(/^(\S+) /, '$1 0 ')).join('\n') + '\n');
  const runFile = scratch.file(`${name}.run`, ranked.map((docno, i) => `q1 Q0 ${docno} ${i + 1} ${ranked.length - i} tag`).join('\n') + '\n');
  const result = evaluateTrecTables(await readQrelsTable(qrelsFile), await readRunTable(runFile), metrics, { ...DEFAULT_TREC_EVAL_OPTIONS, ...options });
  return result.aggregate;
}

// Expected values: trec_eval -c -m map -m P.2 (with -J, -J -M 3) on the same files gives the same.
describe('trec_eval -J (judged documents only) and -M', () => {
  // Relevant: d1, d3; judged not relevant: d2; u1, u2 are not judged at all.
  const qrels = ['q1 d1 1', 'q1 d2 0', 'q1 d3 1'];
  const ranked = ['u1', 'd1', 'u2', 'd2', 'd3'];

  it('without -J, unjudged documents keep their ranks and count as not relevant', async () => {
    // Relevant at ranks 2 and 5: AP = (1/2 + 2/5) / 2 = 0.45; P@2 = 1/2.
    expect(await evaluate('plain', qrels, ranked, {})).toEqual({ map: 0.45, 'precision@2': 0.5 });
  });

  it('with -J, drops the unjudged documents but keeps the judged non-relevant one in its place', async () => {
    // Ranking d1, d2, d3: AP = (1/1 + 2/3) / 2; P@2 = 1/2.
    expect(await evaluate('judged', qrels, ranked, { judgedOnly: true })).toEqual({ map: (1 + 2 / 3) / 2, 'precision@2': 0.5 });
  });

  it('averages over the qrels queries (-c), or over those the run has (without -c)', async () => {
    // q2 is judged but absent from the run: with -c it scores 0 and halves the means.
    const withQ2 = [...qrels, 'q2 d9 1'];
    expect(await evaluate('every query', withQ2, ranked, {})).toEqual({ map: 0.225, 'precision@2': 0.25 });
    expect(await evaluate('run queries', withQ2, ranked, { averageOver: 'run' })).toEqual({ map: 0.45, 'precision@2': 0.5 });
  });

  it('cuts at -M before dropping the unjudged (trec_eval’s order)', async () => {
    // Top 3: u1, d1, u2; judged among them: d1 only. AP = (1/1) / 2 relevant = 0.5; P@2 = 1/2 (one document, counted over 2).
    expect(await evaluate('cut', qrels, ranked, { judgedOnly: true, maxRetrieved: 3 })).toEqual({ map: 0.5, 'precision@2': 0.5 });
  });

  it('keeps every judged document of a ranking longer than twice its first buffer (1,024 grades)', async () => {
    // 3,000 relevant documents, each after an unjudged one: with -J all 3,000 are ranked first, AP = 1.
    const many = Array.from({ length: 3000 }, (_, i) => `r${i}`);
    const judged = await evaluate(
      'long',
      many.map((docno) => `q1 ${docno} 1`),
      many.flatMap((docno) => [`u${docno}`, docno]),
      { judgedOnly: true },
    );
    expect(judged).toEqual({ map: 1, 'precision@2': 1 });
  });
});

describe('trec_eval’s summary over queries', () => {
  it('sums the counts (num_ret, num_rel, num_rel_ret) and averages every other measure', async () => {
    const qrels = scratch.file('totals.qrels', ['q1 0 d1 1', 'q1 0 d2 1', 'q2 0 d3 1'].join('\n') + '\n');
    const run = scratch.file('totals.run', ['q1 Q0 d1 1 3 t', 'q1 Q0 x 2 2 t', 'q1 Q0 d2 3 1 t', 'q2 Q0 y 1 2 t', 'q2 Q0 d3 2 1 t'].join('\n') + '\n');
    const measures = ['num_ret', 'num_rel', 'num_rel_ret', 'map'].map(parseRetrievalMetric);
    const result = evaluateTrecTables(await readQrelsTable(qrels), await readRunTable(run), measures, DEFAULT_TREC_EVAL_OPTIONS);
    // q1: 3 retrieved, 2 relevant, both found (ranks 1 and 3): AP = (1/1 + 2/3) / 2. q2: 2, 1, 1 (rank 2): AP = 1/2.
    expect(result.perQuery).toEqual({
      q1: { num_ret: 3, num_rel: 2, num_rel_ret: 2, map: expect.closeTo(5 / 6, 12) },
      q2: { num_ret: 2, num_rel: 1, num_rel_ret: 1, map: 0.5 },
    });
    expect(result.aggregate).toEqual({ num_ret: 5, num_rel: 3, num_rel_ret: 3, map: expect.closeTo((5 / 6 + 1 / 2) / 2, 12) });
  });
});
