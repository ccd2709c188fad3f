import { afterAll, describe, expect, it } from 'vitest';
import { evalJson, jsonl, parseJsonOutput, ROOT, runBin, runMain, scratchDir } from '../../helpers/cli.js';

const scratch = scratchDir();
afterAll(() => scratch.cleanup());

const fixture = (name: string) => `${ROOT}test/fixtures/results/${name}`;
const EXAMPLE = 'examples/results.jsonl';

/** `count` records built by `make(i)` for i = 0..count−1, with ids prefixed by `prefix`. */
function records(prefix: string, count: number, make: (i: number) => object): object[] {
  return Array.from({ length: count }, (_, i) => ({ id: `${prefix}${i}`, question: `${prefix} question ${i}`, ...make(i) }));
}

/**
 * The first article's population: 1800 questions where retrieval succeeded (1584 correct) and 700
 * where it failed, of which `correctBad` were answered correctly anyway.
 */
function decompositionFile(name: string, correctBad: number, extra: (failedIndex: number) => object = () => ({})): string {
  return scratch.file(
    name,
    jsonl([
      ...records('good-', 1800, (i) => ({ retrieval_ok: true, correct: i < 1584 })),
      ...records('bad-', 700, (i) => ({ retrieval_ok: false, correct: i < correctBad, ...extra(i) })),
    ]),
  );
}

describe('eval --json: the contract', () => {
  it('prints exactly one JSON object on stdout and nothing else', async () => {
    const run = await runMain(['eval', '--results', EXAMPLE, '--json']);
    expect(run.code).toBe(0);
    expect(run.stderr).toBe('');
    expect(run.stdout.endsWith('}\n')).toBe(true);
    const parsed = parseJsonOutput(run.stdout);
    expect(parsed.questions).toBe(14);
  });

  it('keeps the contract keys: questions, metrics, decomposition, judgeAgreement', async () => {
    const json = await evalJson(EXAMPLE);
    expect(json.questions).toBe(14);
    for (const key of ['recall@5', 'ndcg@10', 'map', 'mrr', 'correct', 'faithfulness', 'refusal_rate_unanswerable', 'false_refusal_rate']) {
      expect(json.metrics, key).toHaveProperty([key]);
      expect(typeof json.metrics[key], key).toBe('number');
    }
    for (const key of ['r', 'gGood', 'nGood', 'gBad', 'nBad', 'e2e', 'e2eCheck', 'productModelG', 'productModelBias', 'ceiling']) {
      expect(json.decomposition, key).toHaveProperty([key]);
      expect(typeof (json.decomposition as unknown as Record<string, unknown>)[key], key).toBe('number');
    }
    for (const key of ['kappa', 'observed', 'expected', 'n']) {
      expect(json.judgeAgreement, key).toHaveProperty([key]);
      expect(typeof (json.judgeAgreement as unknown as Record<string, unknown>)[key], key).toBe('number');
    }
  });

  it("reports the example file's numbers (12 answerable, 2 without relevant documents)", async () => {
    const json = await evalJson(EXAMPLE);
    expect(json.excluded).toEqual({ noRelevant: 2, noClaims: 1, judgeErrors: 0, unanswerable: 2 });
    expect(json.details['hit@5']).toMatchObject({ n: 12, count: 10 });
    expect(json.metrics['hit@5']).toBeCloseTo(10 / 12, 12);
    expect(json.decomposition).toMatchObject({ n: 12, nGood: 10, nBad: 2 });
    expect(json.decomposition.e2e).toBeCloseTo(0.75, 12);
    expect(json.judgeAgreement!.n).toBe(10);
    expect(json.config).toEqual({ retrievalOk: 'hit@5', correct: 'contains', contextMatch: 'exact' });
  });

  it('through node dist/cli.js: exit 0, one JSON object on stdout, nothing on stderr', () => {
    const run = runBin(['eval', '--results', EXAMPLE, '--json']);
    expect(run.code).toBe(0);
    expect(run.stderr).toBe('');
    expect(parseJsonOutput(run.stdout).questions).toBe(14);
  });
});

describe('eval: worked numbers from the articles', () => {
  it('MAP 0.544 over AP 0.639 (ranks 1, 3, 12 of 3) and AP 0.450 (ranks 2, 5 of 2)', async () => {
    const json = await evalJson(fixture('worked-map.jsonl'), ['--k', '1,3,5,10,12']);
    expect(json.metrics.map!.toFixed(3)).toBe('0.544');
    expect(json.metrics.map).toBeCloseTo(((1 + 2 / 3 + 3 / 12) / 3 + 0.45) / 2, 12);
    expect(json.details.map!.n).toBe(2);
    // map@10 misses d88 at rank 12 in the first question: ((1 + 2/3)/3 + 0.45) / 2
    expect(json.metrics['map@10']).toBeCloseTo(((1 + 2 / 3) / 3 + 0.45) / 2, 12);
    expect(json.metrics['map@12']).toBeCloseTo(json.metrics.map!, 12);
  });

  it('MRR 0.4375 over first-relevant ranks 1, 4, 2 and none in the top 10', async () => {
    const json = await evalJson(fixture('worked-mrr.jsonl'));
    expect(json.metrics.mrr).toBe(0.4375);
    expect(json.metrics['mrr@10']).toBe(0.4375);
    // mrr@3 drops the rank-4 question: (1 + 0 + 0.5 + 0) / 4
    expect(json.metrics['mrr@3']).toBe(0.375);
    expect(json.details['hit@10']).toMatchObject({ count: 3, n: 4 });
  });

  it("Cohen's kappa 0.697 on 100 generated human/judge label pairs (67/3/9/21)", async () => {
    const table: [number, string, string][] = [
      [67, 'SUPPORTED', 'SUPPORTED'],
      [3, 'SUPPORTED', 'NOT_SUPPORTED'],
      [9, 'NOT_SUPPORTED', 'SUPPORTED'],
      [21, 'NOT_SUPPORTED', 'NOT_SUPPORTED'],
    ];
    const rows = table.flatMap(([count, human, judge]) => Array.from({ length: count }, () => ({ human_label: human, judge_label: judge })));
    const path = scratch.file('kappa.jsonl', jsonl(records('claim-', rows.length, (i) => rows[i]!)));
    const json = await evalJson(path);
    expect(json.questions).toBe(100);
    const agreement = json.judgeAgreement!;
    expect(agreement.n).toBe(100);
    expect(agreement.observed).toBeCloseTo(0.88, 12);
    expect(agreement.expected).toBeCloseTo(0.604, 12);
    expect(agreement.kappa!.toFixed(3)).toBe('0.697');
    expect(agreement.confusion.SUPPORTED).toEqual({ SUPPORTED: 67, NOT_SUPPORTED: 3 });
    // 0.697 is above the 0.6 floor: no warning.
    expect(json.warnings.some((w) => /kappa/.test(w))).toBe(false);
  });

  it('warns when kappa is below 0.6', async () => {
    const path = scratch.file('kappa-low.jsonl', jsonl(records('k-', 10, (i) => ({ human_label: i < 5, judge_label: i % 2 === 0 }))));
    const json = await evalJson(path);
    expect(json.judgeAgreement!.kappa).toBeLessThan(0.6);
    expect(json.warnings.some((w) => /judge agreement with humans is low \(Cohen's kappa .* < 0\.6 on 10 labels\)/.test(w))).toBe(true);
  });

  it('decomposition on 2500 questions: r 0.72, gGood 0.88, gBad 0.20 → e2e 0.6896, productModelG 0.9578, bias 0.0778', async () => {
    const json = await evalJson(decompositionFile('decomp-20.jsonl', 140));
    const d = json.decomposition;
    expect(d).toMatchObject({ n: 2500, nGood: 1800, nBad: 700 });
    expect(d.r).toBeCloseTo(0.72, 12);
    expect(d.gGood).toBeCloseTo(0.88, 12);
    expect(d.gBad).toBeCloseTo(0.2, 12);
    expect(d.e2e).toBeCloseTo(0.6896, 12);
    expect(Math.abs(d.e2eCheck! - d.e2e!)).toBeLessThan(1e-12);
    expect(d.productModelG!.toFixed(4)).toBe('0.9578');
    expect(d.productModelBias!.toFixed(4)).toBe('0.0778');
    expect(d.ceiling).toBeCloseTo(0.776, 12);
    expect(d.rLowerBound).toBeCloseTo(0.612, 12);
    expect(json.metrics.retrieval_ok).toBeCloseTo(0.72, 12);
    expect(json.metrics.correct).toBeCloseTo(0.6896, 12);
    expect(json.warnings).toEqual([]);
  });

  it('decomposition with gBad 0.40: productModelG 1.0356 > 1 warns, in JSON and in the human report', async () => {
    const path = decompositionFile('decomp-40.jsonl', 280);
    const json = await evalJson(path);
    expect(json.decomposition.productModelG!.toFixed(4)).toBe('1.0356');
    // In plain words: 280 right with retrieval failed against 1800 − 1584 = 216 wrong with it ok.
    const words =
      'retrieval and generation do not separate cleanly here: more answers were right with retrieval failed (280 questions) than wrong with retrieval ok (216 questions)';
    expect(json.warnings.filter((w) => w.startsWith(words))).toHaveLength(1);
    expect(json.decomposition.warnings).toEqual(json.warnings);
    const text = await runMain(['eval', '--results', path]);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain(`Warnings\n  ! ${words}`);
    expect(text.stdout).toContain('e2e / r (1.036) is above 1 and says nothing about generation here.');
    expect(text.stdout).not.toContain('misspecified');
  });

  it('closed-book accuracy on the failed questions sits beside gBad', async () => {
    // Of the 700 failed questions 140 are right with wrong context (gBad 0.2) and 245 with no context (0.35).
    const json = await evalJson(decompositionFile('decomp-closed.jsonl', 140, (i) => ({ closed_book_correct: i < 245 })));
    const d = json.decomposition;
    expect(d.gBad).toBeCloseTo(0.2, 12);
    expect(d.closedBook).toEqual({ onFailed: 0.35, nFailed: 700, all: 0.35, n: 700 });
    const text = await runMain(['eval', '--results', `${scratch.dir}/decomp-closed.jsonl`]);
    expect(text.stdout).toMatch(/^ {2}g_bad = P\(correct \| retrieval failed\) +0\.200 +n 700$/m);
    expect(text.stdout).toMatch(/^ {2}closed-book on retrieval-failed +0\.350 +n 700 \(beside g_bad: no context vs wrong context\)$/m);
  });
});

describe('eval: generation metrics', () => {
  const GENERATION = fixture('generation.jsonl');

  it('correct by normalised containment when a record has no "correct" (the default, --correct contains)', async () => {
    const json = await evalJson(GENERATION);
    // g1 "the eiffel tower" holds "eiffel tower", g2 and g4 hold "paris", g6 holds "one two"; g3 "london" does not; g5 says correct: false.
    expect(json.details.correct).toMatchObject({ count: 4, n: 6 });
    expect(json.config.correct).toBe('contains');
    expect(json.scoring).toEqual(['correct: expected answer contained in the answer (computed for 5 questions without a correct field)']);
  });

  it('--correct exact: normalised exact match', async () => {
    const json = await evalJson(GENERATION, ['--correct', 'exact']);
    // g1 "The Eiffel Tower!" = "eiffel tower"; g2, g3, g4, g6 differ; g5 says correct: false.
    expect(json.details.correct).toMatchObject({ count: 1, n: 6 });
    expect(json.config.correct).toBe('exact');
    expect(json.scoring).toEqual(['correct: answer equal to the expected answer (computed for 5 questions without a correct field)']);
  });

  it('--correct f1:0.5 counts token F1 ≥ 0.5 as correct', async () => {
    const json = await evalJson(GENERATION, ['--correct', 'f1:0.5']);
    // g1 F1 1, g2 F1 0.5 (at the threshold), g6 F1 4/7; g3 0, g4 2/7; g5 given false.
    expect(json.details.correct).toMatchObject({ count: 3, n: 6 });
    expect(json.metrics.correct).toBe(0.5);
    expect(json.config.correct).toBe('f1:0.5');
  });

  it('faithfulness averages supported/all claims, leaving out (and counting) answers with no claims', async () => {
    const json = await evalJson(GENERATION);
    // g1 3/5 = 0.6, g2 2/2 = 1; g3 has an empty claims list.
    expect(json.metrics.faithfulness).toBeCloseTo(0.8, 12);
    expect(json.details.faithfulness!.n).toBe(2);
    expect(json.excluded.noClaims).toBe(1);
  });

  it('answer_relevance is the mean of the supplied values', async () => {
    const json = await evalJson(GENERATION);
    expect(json.metrics.answer_relevance).toBeCloseTo((0.803 + 0.5) / 2, 12);
    expect(json.details.answer_relevance!.n).toBe(2);
  });

  it('length_ratio and long_answer_rate (> 2.5, so exactly 2.5 is not long)', async () => {
    const json = await evalJson(GENERATION);
    // g1 2/2 = 1, g2 3/1 = 3, g3 1/1 = 1, g4 6/1 = 6, g6 5/2 = 2.5
    expect(json.metrics.length_ratio).toBeCloseTo((1 + 3 + 1 + 6 + 2.5) / 5, 12);
    expect(json.details.long_answer_rate).toMatchObject({ count: 2, n: 5 });
    expect(json.metrics.long_answer_rate).toBe(0.4);
  });

  it('context_utilisation and low_utilisation_rate (< 0.4, so exactly 0.4 is not low)', async () => {
    const json = await evalJson(GENERATION);
    // g1 1/5 = 0.2, g2 2/2 = 1 (cited "z" was never retrieved), g3 2/5 = 0.4
    expect(json.metrics.context_utilisation).toBeCloseTo((0.2 + 1 + 0.4) / 3, 12);
    expect(json.details.low_utilisation_rate).toMatchObject({ count: 1, n: 3 });
  });

  it('refusal_rate_unanswerable and false_refusal_rate', async () => {
    const json = await evalJson(GENERATION);
    expect(json.details.refusal_rate_unanswerable).toMatchObject({ count: 2, n: 3 });
    expect(json.metrics.refusal_rate_unanswerable).toBeCloseTo(2 / 3, 12);
    expect(json.details.false_refusal_rate).toMatchObject({ count: 1, n: 6 });
    expect(json.excluded.unanswerable).toBe(3);
  });

  it('every proportion carries its Wilson 95% interval', async () => {
    const json = await evalJson(GENERATION);
    // 2/3: (2np + z² ± z√(z² + 4np(1−p))) / (2(n + z²)) with n = 3, p = 2/3.
    const z = 1.959963984540054;
    const n = 3;
    const p = 2 / 3;
    const lo = (2 * n * p + z * z - z * Math.sqrt(z * z + 4 * n * p * (1 - p))) / (2 * (n + z * z));
    const hi = (2 * n * p + z * z + z * Math.sqrt(z * z + 4 * n * p * (1 - p))) / (2 * (n + z * z));
    const ci = json.details.refusal_rate_unanswerable!.ci!;
    expect(ci[0]).toBeCloseTo(lo, 12);
    expect(ci[1]).toBeCloseTo(hi, 12);
    expect(ci[0].toFixed(4)).toBe('0.2077');
    expect(ci[1].toFixed(4)).toBe('0.9385');
    for (const name of ['correct', 'long_answer_rate', 'low_utilisation_rate', 'false_refusal_rate']) expect(json.details[name]!.ci, name).toHaveLength(2);
    // Means are not proportions: no interval.
    expect(json.details.faithfulness!.ci).toBeUndefined();
  });

  it('breaks every metric down by tag', async () => {
    const json = await evalJson(GENERATION);
    expect(Object.keys(json.byTag)).toEqual(['capital', 'geo']);
    expect(json.byTag.geo!.questions).toBe(2);
    expect(json.byTag.geo!.metrics.correct).toMatchObject({ value: 1, count: 2, n: 2 });
    expect(json.byTag.geo!.metrics.faithfulness).toMatchObject({ value: 0.8, n: 2 });
    expect(json.byTag.capital!.questions).toBe(3);
    expect(json.byTag.capital!.metrics.correct).toMatchObject({ value: 2 / 3, count: 2, n: 3 });
    expect(json.byTag.capital!.metrics.length_ratio!.value).toBeCloseTo((3 + 1 + 6) / 3, 12);
  });
});

describe('eval: input conventions', () => {
  it('accepts Ragas-style names: user_input, response, reference, retrieved_context_ids, reference_context_ids', async () => {
    const run = await runMain(['eval', '--results', fixture('ragas.jsonl'), '--json']);
    expect(run.code).toBe(0);
    expect(run.stderr).toBe(''); // no unknown-field warning
    const json = parseJsonOutput(run.stdout);
    // r1 "Paris." = "paris"; r2 "Lisbon" ≠ "Madrid".
    expect(json.details.correct).toMatchObject({ count: 1, n: 2 });
    // r1: d2 of {d2, d9} at rank 2 → recall@5 0.5, mrr 0.5; r2: d4 at rank 1 → 1, 1.
    expect(json.metrics['recall@5']).toBe(0.75);
    expect(json.metrics.mrr).toBe(0.75);
    expect(json.details['recall@5']!.n).toBe(2);
  });

  it('warns on stderr about unknown fields and still prints only JSON on stdout', async () => {
    const path = scratch.file('typo.jsonl', jsonl([{ id: 'q1', question: 'a', retreived_ids: ['d1'], correct: true }]));
    const run = await runMain(['eval', '--results', path, '--json']);
    expect(run.code).toBe(0);
    expect(run.stderr).toBe(`rag-gate: warning: ${path}: unknown field "retreived_ids" in 1 record is ignored (did you mean "retrieved_ids"?)\n`);
    expect(parseJsonOutput(run.stdout).metrics.correct).toBe(1);
  });

  it('questions with no relevant document are left out of retrieval metrics and counted, never 0 or NaN', async () => {
    const path = scratch.file(
      'no-relevant.jsonl',
      jsonl([
        { id: 'q1', question: 'a', retrieved_ids: ['d1', 'd2'], relevant_ids: ['d1'] },
        { id: 'q2', question: 'b', retrieved_ids: ['d1', 'd2'], relevant_ids: [] },
        { id: 'q3', question: 'c', retrieved_ids: ['d1', 'd2'], relevant_ids: { d1: 0, d2: 0 } },
        { id: 'q4', question: 'd', retrieved_ids: ['d1', 'd2'], answerable: false },
      ]),
    );
    const json = await evalJson(path);
    expect(json.excluded.noRelevant).toBe(3);
    expect(json.metrics.map).toBe(1);
    expect(json.metrics['precision@1']).toBe(1);
    expect(json.details.map!.n).toBe(1);
    expect(json.details['hit@5']).toMatchObject({ count: 1, n: 1 });
    for (const [name, value] of Object.entries(json.metrics)) {
      if (value !== null) expect(Number.isFinite(value), name).toBe(true);
    }
    // In trec mode the same questions score 0 and count in the mean (see test/metrics/retrieval.test.ts).
  });

  it('default retrieval-ok rule hit@5, with the retrieval_ok field overriding it', async () => {
    const json = await evalJson(fixture('retrieval-ok.jsonl'));
    // ok: ro1, ro2 (hit@5), ro4 (override); failed: ro3 (no hit in top 5), ro5 (override).
    expect(json.config.retrievalOk).toBe('hit@5');
    expect(json.decomposition).toMatchObject({ nGood: 3, nBad: 2, gGood: 1, gBad: 0 });
    expect(json.decomposition.r).toBeCloseTo(0.6, 12);
    expect(json.details.retrieval_ok).toMatchObject({ count: 3, n: 5 });
  });

  it('--retrieval-ok recall@5>=0.8 changes which questions count as retrieved', async () => {
    const json = await evalJson(fixture('retrieval-ok.jsonl'), ['--retrieval-ok', 'recall@5>=0.8']);
    // ok: ro2 (recall 1), ro4 (override); failed: ro1 (recall 0.5, correct), ro3, ro5 (override).
    expect(json.config.retrievalOk).toBe('recall@5>=0.8');
    expect(json.decomposition).toMatchObject({ nGood: 2, nBad: 3, gGood: 1 });
    expect(json.decomposition.gBad).toBeCloseTo(1 / 3, 12);
    expect(json.decomposition.r).toBeCloseTo(0.4, 12);
  });

  it('a retrieval-ok rule at a cut-off outside --k is still computed', async () => {
    const json = await evalJson(fixture('retrieval-ok.jsonl'), ['--retrieval-ok', 'hit@6', '--k', '1']);
    // ro3 has r1 at rank 6, so ro1, ro2, ro3 hit; ro4 (override ok) and ro5 (override failed) as before.
    expect(json.decomposition).toMatchObject({ nGood: 4, nBad: 1 });
    expect(json.details['hit@6']).toMatchObject({ count: 4, n: 5 }); // ro5 hits at rank 1; ro4 does not
    expect(json.metrics['hit@5']).toBeUndefined();
  });

  it('--k sets the cut-offs of the @k metrics', async () => {
    const json = await evalJson(fixture('worked-map.jsonl'), ['--k', '12,2']);
    expect(Object.keys(json.metrics).filter((name) => name.startsWith('precision@'))).toEqual(['precision@2', 'precision@12']);
    // ap-1: d17 in top 2 → 1/2; d17, d42, d88 in top 12 → 3/12. ap-2: d5 in top 2 → 1/2; 2/12.
    expect(json.metrics['precision@2']).toBe(0.5);
    expect(json.metrics['precision@12']).toBeCloseTo((3 / 12 + 2 / 12) / 2, 12);
  });
});

describe('eval: human output', () => {
  it('prints the section headings and aligned tables for examples/results.jsonl', async () => {
    const run = await runMain(['eval', '--results', EXAMPLE]);
    expect(run.code).toBe(0);
    expect(run.stderr).toBe('');
    const text = run.stdout;
    expect(text.split('\n')[0]).toBe(
      'rag-gate eval: examples/results.jsonl: 14 questions (2 unanswerable; 2 without relevant documents, left out of retrieval metrics; 1 answers without claims, left out of faithfulness)',
    );
    for (const heading of [
      'Retrieval',
      'Generation',
      'Decomposition (retrieval ok: hit@5; 12 answerable questions)',
      'Judge agreement with humans',
      'By tag',
    ]) {
      expect(text).toMatch(new RegExp(`\\n\\n${heading.replace(/[()]/g, '\\$&')}\\n`));
    }
    // Spot-check one line: name, value, Wilson interval, count/n.
    expect(text).toMatch(/^ {2}hit@5 +0\.833 +\[0\.552, 0\.953\] +10\/12$/m);
    expect(text).toMatch(/^ {2}r = P\(retrieval ok\) +0\.833 +\(10\/12\)$/m);
    expect(text).toMatch(/^ {2}kappa +observed +chance +n\n {2}0\.737 +0\.900 +0\.620 +10$/m);
  });

  it('aligns the retrieval table: every value ends in the same column', async () => {
    const run = await runMain(['eval', '--results', EXAMPLE]);
    const section = run.stdout.split('\n\n').find((block) => block.startsWith('Retrieval\n'))!;
    const rows = section.split('\n').slice(1);
    expect(rows[0]).toMatch(/^ {2}metric +value +95% CI +n$/);
    const valueEnds = rows.slice(1).map((row) => {
      const match = /^ {2}\S+ +(\d\.\d{3}|—)/.exec(row);
      expect(match, row).not.toBeNull();
      return match![0].length;
    });
    expect(rows.length).toBeGreaterThan(30);
    expect(new Set(valueEnds).size).toBe(1);
    // The header's "value" ends in the same column as the values.
    expect(rows[0]!.indexOf('value') + 'value'.length).toBe(valueEnds[0]);
  });

  it('eval --help exits 0 and describes the options', async () => {
    const run = await runMain(['eval', '--help']);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^Usage: rag-gate eval \[options\]/);
    for (const option of ['--results <glob>', '--k <list>', '--retrieval-ok <rule>', '--correct <rule>', '--json']) expect(run.stdout).toContain(option);
    expect(run.stderr).toBe('');
  });

  it('eval --help through node dist/cli.js exits 0', () => {
    const run = runBin(['eval', '--help']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('Usage: rag-gate eval');
  });

  it('--relevance-level and --ndcg-gains change how grades are read (and the config file can set them)', async () => {
    const results = scratch.file(
      'graded.jsonl',
      jsonl([
        { id: 'q1', question: 'a?', retrieved_ids: ['a', 'b'], relevant_ids: { a: 1, b: 2 } },
        { id: 'q2', question: 'b?', retrieved_ids: ['c'], relevant_ids: { c: 1, d: 2 } },
      ]),
    );
    const byDefault = await evalJson(results);
    expect(byDefault.metrics['hit@1']).toBe(1);
    const level2 = await evalJson(results, ['--relevance-level', '2']);
    // q1: only b (rank 2) is relevant; q2: only d, never retrieved.
    expect(level2.metrics['hit@1']).toBe(0);
    expect(level2.metrics['recall@3']).toBe(0.5);
    expect(level2.metrics.ndcg).toBeCloseTo(byDefault.metrics.ndcg!, 12);
    const config = scratch.file('levels.yml', 'relevance-level: 2\nndcg-gains: 1=0,2=1\n');
    const configured = await evalJson(results, ['--config', config]);
    expect(configured.metrics['hit@1']).toBe(0);
    // q1: gains [0, 1] over the ideal [1, 0]; q2: [0] over [1].
    expect(configured.metrics.ndcg).toBeCloseTo(1 / Math.log2(3) / 2, 12);
  });
});
