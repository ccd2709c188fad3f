import { describe, expect, it } from 'vitest';
import { parseJsonOutput, runBin, runMain } from '../../helpers/cli.js';

/**
 * test/fixtures/trec-cli/small.{qrels,run}:
 *   q1: d1 grade 1, d2 grade 0, d3 grade 2. Run scores d2 0.9, d1 0.5, d3 0.5 (rank column says d1, d2, d3):
 *       ranked by score, the 0.5 tie broken by docno descending → [d2, d3, d1], grades [0, 2, 1].
 *   q2: judged, nothing relevant → scores 0 and counts.
 *   q3: judged, missing from the run → scores 0 and counts.
 *   q4: only in the run → ignored.
 * Hand-computed q1 values:
 *   map = (1/2 + 2/3) / 2 = 0.583333        mrr = 1/2
 *   ndcg = (2/log2 3 + 1/log2 4) / (2 + 1/log2 3) = 1.761860 / 2.630930 = 0.669676
 *   P@3 = 2/3, r_precision = 1/2 (R = 2: d2, d3 at ranks 1-2)
 */
const FILES = ['--qrels', 'test/fixtures/trec-cli/small.qrels', '--run', 'test/fixtures/trec-cli/small.run'];

const Q1 = {
  map: (1 / 2 + 2 / 3) / 2,
  mrr: 0.5,
  ndcg: (2 / Math.log2(3) + 1 / 2) / (2 + 1 / Math.log2(3)),
  'precision@3': 2 / 3,
  r_precision: 0.5,
};

interface TrecJson {
  queries: number;
  aggregate: Record<string, number>;
  perQuery: Record<string, Record<string, number>>;
}

describe('trec', () => {
  it('--json: queries, aggregate and perQuery with trec_eval -c semantics', async () => {
    const run = await runMain(['trec', ...FILES, '--json', '--metrics', 'map,mrr,ndcg,precision@3,r_precision']);
    expect(run.code).toBe(0);
    expect(run.stderr).toBe('');
    const json = parseJsonOutput<TrecJson>(run.stdout);
    expect(json.queries).toBe(3);
    expect(Object.keys(json.perQuery)).toEqual(['q1', 'q2', 'q3']);
    for (const [name, value] of Object.entries(Q1)) {
      expect(json.perQuery.q1![name], name).toBeCloseTo(value, 12);
      expect(json.perQuery.q2![name], name).toBe(0);
      expect(json.perQuery.q3![name], name).toBe(0);
      expect(json.aggregate[name], name).toBeCloseTo(value / 3, 12);
    }
    expect(Object.keys(json.aggregate)).toEqual(['map', 'mrr', 'ndcg', 'precision@3', 'r_precision']);
  });

  it('default metrics: every family at --k, then the full-depth ones', async () => {
    const run = await runMain(['trec', ...FILES, '--json', '--k', '2']);
    const json = parseJsonOutput<TrecJson>(run.stdout);
    expect(Object.keys(json.aggregate)).toEqual([
      'precision@2',
      'recall@2',
      'hit@2',
      'mrr@2',
      'ndcg@2',
      'ndcg_exp@2',
      'map@2',
      'mrr',
      'map',
      'ndcg',
      'ndcg_exp',
      'r_precision',
    ]);
    expect(json.perQuery.q1!['hit@2']).toBe(1);
    expect(json.perQuery.q1!['recall@2']).toBe(0.5);
  });

  it('human output: a header and an aligned table of means, 4 decimals', async () => {
    const run = await runMain(['trec', ...FILES, '--metrics', 'map,mrr,precision@3']);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(
      [
        'rag-gate trec: 3 queries (every query in the qrels, as trec_eval -c)',
        // numeric columns are right-aligned, their header too
        '  metric         mean',
        '  map          0.1944',
        '  mrr          0.1667',
        '  precision@3  0.2222',
        '',
      ].join('\n'),
    );
  });

  it('human output with --per-query adds one row per query', async () => {
    const run = await runMain(['trec', ...FILES, '--metrics', 'map,mrr', '--per-query']);
    expect(run.code).toBe(0);
    const perQuery = run.stdout.split('\nPer query\n')[1];
    expect(perQuery).toBe(['  qid     map     mrr', '  q1   0.5833  0.5000', '  q2   0.0000  0.0000', '  q3   0.0000  0.0000', ''].join('\n'));
  });

  it('trec --help exits 0 and names the options', async () => {
    const run = await runMain(['trec', '--help']);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^Usage: rag-gate trec \[options\]/);
    for (const option of ['--qrels <file>', '--run <file>', '--metrics <list>', '--k <list>', '--per-query', '--json']) expect(run.stdout).toContain(option);
  });

  it('through node dist/cli.js: exit 0 and JSON on stdout', () => {
    const run = runBin(['trec', ...FILES, '--json', '--metrics', 'map']);
    expect(run.code).toBe(0);
    expect(run.stderr).toBe('');
    const json = parseJsonOutput<TrecJson>(run.stdout);
    expect(json.aggregate.map).toBeCloseTo(Q1.map / 3, 12);
  });

  it('trec --help through node dist/cli.js exits 0', () => {
    const run = runBin(['trec', '--help']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('Usage: rag-gate trec');
  });

  it('--average-over run evaluates only the judged queries the run has (trec_eval without -c)', async () => {
    const run = await runMain(['trec', ...FILES, '--json', '--metrics', 'map', '--average-over', 'run']);
    const json = parseJsonOutput<TrecJson>(run.stdout);
    expect(json.queries).toBe(2);
    expect(Object.keys(json.perQuery)).toEqual(['q1', 'q2']);
    expect(json.aggregate.map).toBeCloseTo(Q1.map / 2, 12);
    const text = await runMain(['trec', ...FILES, '--metrics', 'map', '--average-over', 'run']);
    expect(text.stdout).toMatch(/^rag-gate trec: 2 queries \(the queries in both the qrels and the run\)/);
  });

  it('--relevance-level 2 leaves only d3 relevant in q1 (ranks [d2, d3, d1]); ndcg keeps every grade', async () => {
    const run = await runMain(['trec', ...FILES, '--json', '--metrics', 'map,mrr,num_rel,ndcg', '--relevance-level', '2']);
    const json = parseJsonOutput<TrecJson>(run.stdout);
    expect(json.perQuery.q1).toMatchObject({ map: 0.5, mrr: 0.5, num_rel: 1 });
    expect(json.perQuery.q1!.ndcg).toBeCloseTo(Q1.ndcg, 12);
    expect(json.perQuery.q3!.num_rel).toBe(0);
  });

  it("--max-retrieved 1 keeps each ranking's first document; counts are totals, in JSON and text", async () => {
    const run = await runMain(['trec', ...FILES, '--json', '--metrics', 'map,num_ret,num_rel', '--max-retrieved', '1']);
    const json = parseJsonOutput<TrecJson>(run.stdout);
    expect(json.perQuery.q1).toMatchObject({ map: 0, num_ret: 1 });
    expect(json.aggregate).toEqual({ map: 0, num_ret: 2, num_rel: 3 });
    const text = await runMain(['trec', ...FILES, '--metrics', 'num_ret', '--max-retrieved', '1']);
    expect(text.stdout).toMatch(/num_ret \(total\) +2\n/);
  });

  it('--ndcg-gains changes ndcg: d3 (grade 2) gaining 1 and d1 (grade 1) gaining 4', async () => {
    const run = await runMain(['trec', ...FILES, '--json', '--metrics', 'ndcg', '--ndcg-gains', '1=4,2=1']);
    const json = parseJsonOutput<TrecJson>(run.stdout);
    expect(json.perQuery.q1!.ndcg).toBeCloseTo((1 / Math.log2(3) + 4 / 2) / (4 + 1 / Math.log2(3)), 12);
  });

  it.each([
    [['--relevance-level', '0'], /--relevance-level.*whole number of at least 1/],
    [['--max-retrieved', '0'], /--max-retrieved.*whole number of at least 1/],
    [['--average-over', 'all'], /--average-over.*must be qrels or run/],
    [['--ndcg-gains', '1:2'], /--ndcg-gains.*grade=gain/],
  ])('refuses %j naming the option', async (flags, message) => {
    const run = await runMain(['trec', ...FILES, '--metrics', 'map', ...flags]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(message);
  });
});
