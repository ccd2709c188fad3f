import { describe, expect, it } from 'vitest';
import { evalConfig } from '../../../src/core/compare/settings.js';
import type { ResultRecord } from '../../../src/core/record.js';
import { OutcomeBuilder } from '../../../src/core/scoring/outcomes.js';
import { parseRetrievalOkRule } from '../../../src/core/catalog/parse/retrieval-ok.js';
import { runCli, tempDir, writeJsonl } from '../../helpers/files.js';

const config = evalConfig({ k: [5], 'retrieval-ok': parseRetrievalOkRule('hit@5'), correct: { kind: 'exact' }, 'relevance-level': 1, 'ndcg-gains': new Map() });

describe('OutcomeBuilder columns', () => {
  it('pads a metric only some questions carry with NaN, past its growth blocks', () => {
    const builder = new OutcomeBuilder(config);
    for (let i = 0; i < 3000; i++) builder.add({ id: `q${i}`, question: 'x?', ...(i === 5 ? { answer_relevance: 0.5 } : {}) } as ResultRecord);
    const outcomes = builder.build();
    const relevance = outcomes.columns.get('answer_relevance')!;
    expect(relevance).toHaveLength(3000);
    expect(relevance[5]).toBe(0.5);
    expect(relevance.filter((v) => !Number.isNaN(v))).toEqual(new Float64Array([0.5]));
    expect(outcomes.columns.get('answerable')).toHaveLength(3000);
  });

  it('keeps every value in its row and NaN in the others, across the chunks a column grows by', () => {
    // 8,192 rows a chunk: values at a chunk's first and last rows and in the last row, a column first seen in the third
    // chunk and one seen only in the first.
    const rows = 2 * 8192 + 5;
    const given = (i: number) => i % 97 === 0 || i === 8191 || i === 8192 || i === rows - 1;
    const builder = new OutcomeBuilder(config);
    for (let i = 0; i < rows; i++) {
      builder.add({
        id: `q${i}`,
        question: 'x?',
        ...(given(i) ? { answer_relevance: (i % 1000) / 1000 } : {}),
        ...(i >= 16_386 ? { scores: { late: i } } : {}),
        ...(i < 100 ? { refused: true } : {}),
      } as ResultRecord);
    }
    const columns = builder.build().columns;
    const expected = (value: (i: number) => number) => Float64Array.from({ length: rows }, (_, i) => value(i));
    expect(columns.get('answer_relevance')).toEqual(expected((i) => (given(i) ? (i % 1000) / 1000 : NaN)));
    expect(columns.get('score:late')).toEqual(expected((i) => (i >= 16_386 ? i : NaN)));
    expect(columns.get('answerable')).toEqual(expected(() => 1));
    expect(columns.get('refused')).toEqual(expected((i) => (i < 100 ? 1 : NaN)));
  });

  it('a metric first seen late has NaN before it', () => {
    const builder = new OutcomeBuilder(config);
    for (let i = 0; i < 2100; i++) builder.add({ id: `q${i}`, question: 'x?', ...(i >= 2000 ? { refused: i % 2 === 0 } : {}) } as ResultRecord);
    const refused = builder.build().columns.get('refused')!;
    expect(Number.isNaN(refused[1999]!)).toBe(true);
    expect(refused[2000]).toBe(1);
    expect(refused[2001]).toBe(0);
  });
});

describe('tags named like Object properties', () => {
  it('are ordinary tags in the breakdown', async () => {
    const file = writeJsonl(tempDir(), 'r.jsonl', [{ id: 'a', question: 'a?', tags: ['__proto__', 'constructor'], correct: true }]);
    const json = JSON.parse((await runCli(['eval', '--results', file, '--json'])).stdout);
    expect(Object.keys(json.byTag)).toEqual(['__proto__', 'constructor']);
    expect(json.byTag.__proto__.metrics.correct.value).toBe(1);
  });
});
