import { afterAll, describe, expect, it } from 'vitest';
import { ANSWER_METRICS, headlineMetrics, judgedFieldOf } from '../../../src/core/catalog/metrics.js';
import { parseRetrievalMetric } from '../../../src/core/catalog/retrieval-metrics.js';
import { ByteDictionary } from '../../../src/core/scoring/byte-dictionary.js';
import { DEFAULT_TREC_EVAL_OPTIONS, evaluateTrecTables } from '../../../src/core/scoring/trec-eval.js';
import { readQrelsTable, readRunTable } from '../../../src/sources/trec.js';
import { scratchDir } from '../../helpers/cli.js';

describe('the metric catalog’s lists and lookups', () => {
  it('leads a report with the retrieval-ok metric, the headline retrieval metrics, then the headline answer metrics, once each', () => {
    const answers = ANSWER_METRICS.filter((metric) => metric.headline).map((metric) => metric.name);
    expect(answers.length).toBeGreaterThan(0);
    expect(headlineMetrics('hit@5')).toEqual(['hit@5', 'ndcg@10', 'recall@5', 'mrr', 'map', ...answers]);
    expect(headlineMetrics('mrr')).toEqual(['mrr', 'ndcg@10', 'recall@5', 'map', ...answers]);
  });

  it('names the judged field behind a column only for columns a judge may fill', () => {
    // Faithfulness is computed from claims, which a judge may fill.
    expect(judgedFieldOf('faithfulness')).toBe('claims');
    expect(judgedFieldOf('answer_length')).toBeUndefined();
    expect(judgedFieldOf('no such column')).toBeUndefined();
  });

  it('lists every family with its cut-off form when a retrieval metric is unknown', () => {
    expect(() => parseRetrievalMetric('ndgc@10')).toThrow(
      'unknown retrieval metric "ndgc@10"; use one of precision@k, recall[@k], hit@k, mrr[@k], map[@k], ndcg[@k], ndcg_exp[@k], r_precision, bpref, infap, judged@k, iprec@r, 11pt_avg, set_precision, set_f1, num_ret, num_rel, num_rel_ret',
    );
  });

  it('asks for a recall level of iprec, at most 1', () => {
    for (const text of ['iprec', 'iprec@2'])
      expect(() => parseRetrievalMetric(text)).toThrow(`metric "${text}" needs a recall level from 0 to 1, for example "iprec@0.5"`);
    expect(parseRetrievalMetric('iprec@1')).toMatchObject({ name: 'iprec@1', k: 1 });
  });
});

describe('TREC files with different separators', () => {
  const scratch = scratchDir();
  afterAll(() => scratch.cleanup());

  it('intern a query id as its bytes alone, not the separator after them', () => {
    const dictionary = new ByteDictionary();
    const spaced = Buffer.from('q1 ');
    const tabbed = Buffer.from('q1\t');
    expect(dictionary.intern(spaced, 0, 2)).toBe(0);
    expect(dictionary.intern(tabbed, 0, 2)).toBe(0);
    expect(dictionary.size).toBe(1);
  });

  it('gather a query listed again after another, separated by tabs the second time', async () => {
    const run = await readRunTable(scratch.file('mixed.run', 'q1 Q0 a 1 3 t\nq2 Q0 b 1 2 t\nq1\tQ0\tc\t2\t1\tt\n'));
    expect(run.qids).toEqual(['q1', 'q2']);
    const q1 = run.entries(0);
    expect([q1.count, q1.docno(0), q1.docno(1)]).toEqual([2, 'a', 'c']);
  });

  it('match query ids and docnos by their bytes alone, whatever follows them', async () => {
    // qrels separated by tabs, the run by spaces: q1's d1 and d2 are the same query and documents in both.
    const qrels = await readQrelsTable(scratch.file('tabs.qrels', 'q1\t0\td1\t1\nq1\t0\td2\t1\n'));
    const run = await readRunTable(scratch.file('spaces.run', 'q1 Q0 d2 1 2.0 t\nq1 Q0 x 2 1.5 t\nq1 Q0 d1 3 1.0 t\n'));
    // Relevant at ranks 1 and 3: AP = (1/1 + 2/3) / 2.
    expect(evaluateTrecTables(qrels, run, [parseRetrievalMetric('map')], DEFAULT_TREC_EVAL_OPTIONS).aggregate).toEqual({ map: (1 + 2 / 3) / 2 });
  });
});
