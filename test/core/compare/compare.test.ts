import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { correctnessPairs, type Question, ranking, sketchScenario } from '../../helpers/paired-runs.js';
import { runCli, tempDir, writeJsonl } from '../../helpers/files.js';

interface TestJson {
  metric: string;
  kind: string;
  gate: string | null;
  base: number;
  head: number;
  delta: number;
  fixed: number;
  broken: number;
  bothRight: number;
  bothWrong: number;
  chi2: number;
  chi2PValue: number;
  exactPValue: number;
  pValue: number;
  decidedBy: string;
  adjustedPValue: number | null;
  significant: boolean;
  requiredN: number | null;
  ci?: [number, number];
}

async function compare(base: object[], head: object[], extra: string[] = []) {
  const dir = tempDir();
  const baseFile = writeJsonl(dir, 'base.jsonl', base);
  const headFile = writeJsonl(dir, 'head.jsonl', head);
  const result = await runCli(['compare', '--base', baseFile, '--head', headFile, '--json', ...extra]);
  const json = result.code === 2 ? undefined : JSON.parse(result.stdout);
  const test = (metric: string): TestJson => {
    const found = json.tests.find((t: TestJson) => t.metric === metric);
    expect(found, `test ${metric}`).toBeDefined();
    return found;
  };
  return { ...result, json, test, dir };
}

describe('McNemar on the third article’s A/B numbers', () => {
  it('138 vs 152 of 200, 38 fixed and 24 broken: χ² 2.726, not significant', async () => {
    const { base, head } = correctnessPairs({ bothRight: 114, fixed: 38, broken: 24, bothWrong: 24 });
    const { code, test, json } = await compare(base, head);
    const correct = test('correct');
    expect(code).toBe(0);
    expect(correct).toMatchObject({
      kind: 'mcnemar',
      gate: 'end-to-end',
      fixed: 38,
      broken: 24,
      bothRight: 114,
      bothWrong: 24,
      decidedBy: 'chi2',
      significant: false,
    });
    expect(correct.base).toBeCloseTo(0.69, 12);
    expect(correct.head).toBeCloseTo(0.76, 12);
    expect(correct.chi2).toBeCloseTo(169 / 62, 12);
    expect(correct.chi2.toFixed(3)).toBe('2.726');
    expect(correct.pValue).toBeGreaterThan(0.05);
    expect(correct.pValue).toBeCloseTo(0.0988, 3);
    expect(correct.requiredN).toBeGreaterThan(200);
    expect(json.verdict).toBe('pass');
  });

  it('the same effect at 500 questions, 95 fixed and 60 broken: χ² 7.46, significant, and an improvement passes', async () => {
    const { base, head } = correctnessPairs({ bothRight: 250, fixed: 95, broken: 60, bothWrong: 95 });
    const { code, test, json } = await compare(base, head);
    const correct = test('correct');
    expect(correct.chi2).toBeCloseTo(1156 / 155, 12);
    expect(correct.chi2.toFixed(2)).toBe('7.46');
    expect(correct.significant).toBe(true);
    expect(correct.requiredN).toBeNull();
    expect(json.verdict).toBe('pass');
    expect(code).toBe(0);
  });

  it('the mirror image, 60 fixed and 95 broken, fails the end-to-end gate with exit 1', async () => {
    const { base, head } = correctnessPairs({ bothRight: 250, fixed: 60, broken: 95, bothWrong: 95 });
    const { code, json } = await compare(base, head);
    expect(code).toBe(1);
    expect(json.verdict).toBe('fail');
    expect(json.reasons).toHaveLength(1);
    expect(json.reasons[0]).toMatchObject({ kind: 'regressed', gate: 'end-to-end', metric: 'correct', broken: 95, fixed: 60, alpha: 0.05 });
    expect(json.reasons[0]!.message).toMatch(/^end-to-end regressed significantly: correct 0\.690 → 0\.620, 95 broken vs 60 fixed/);
    expect(json.regressions).toHaveLength(95);
    expect(json.fixed).toHaveLength(60);
  });

  it('a significant drop below --min-effect only warns', async () => {
    const { base, head } = correctnessPairs({ bothRight: 250, fixed: 60, broken: 95, bothWrong: 95 });
    const { code, json } = await compare(base, head, ['--min-effect', '0.1']);
    expect(code).toBe(0);
    expect(json.verdict).toBe('pass');
    expect(json.warnings.map((w: { message: string }) => w.message).join('\n')).toMatch(/less than the minimum effect 0\.1/);
  });

  it('no discordant pair gives p = 1', async () => {
    const { base, head } = correctnessPairs({ bothRight: 10, fixed: 0, broken: 0, bothWrong: 5 });
    const { test } = await compare(base, head);
    expect(test('correct')).toMatchObject({ chi2: 0, chi2PValue: 1, exactPValue: 1, pValue: 1, significant: false });
  });

  it('reports the odds ratio fixed/broken with its exact interval, and the difference with its interval', async () => {
    const { base, head } = correctnessPairs({ bothRight: 20, fixed: 2, broken: 9, bothWrong: 9 });
    const { test } = await compare(base, head);
    const correct = test('correct') as TestJson & { oddsRatio: number; oddsRatioCI: [number, number]; midPValue: number; ciMethod: string };
    expect(correct.oddsRatio).toBeCloseTo(2 / 9, 15);
    expect(correct.oddsRatioCI[0]).toBeGreaterThan(0);
    expect(correct.oddsRatioCI[1]).toBeLessThan(1.1);
    expect(correct.ciMethod).toBe('student-t');
    expect(correct.ci![1]).toBeLessThan(0);
    expect(correct.decidedBy).toBe('exact');
    expect(correct.pValue).toBe(134 / 2048);
    expect(correct.significant).toBe(false);
  });

  it('--mcnemar-small-sample mid-p lets the mid-p value decide below 25 discordant pairs', async () => {
    const { base, head } = correctnessPairs({ bothRight: 20, fixed: 2, broken: 9, bothWrong: 9 });
    const { test, code } = await compare(base, head, ['--mcnemar-small-sample', 'mid-p']);
    const correct = test('correct') as TestJson & { midPValue: number };
    expect(correct.decidedBy).toBe('mid-p');
    expect(correct.pValue).toBeCloseTo(79 / 2048, 15);
    expect(correct.significant).toBe(true);
    expect(code).toBe(1);
  });
});

describe('the comment sketch scenario: a retrieval regression', () => {
  it('fails on retrieval with the exact McNemar test, and attributes each regression', async () => {
    const { base, head } = sketchScenario();
    const { code, json, test } = await compare(base, head);
    expect(code).toBe(1);
    expect(json.paired).toBe(200);

    const retrieval = test('retrieval_ok');
    expect(retrieval).toMatchObject({ gate: 'retrieval', fixed: 2, broken: 16, bothRight: 139, bothWrong: 13, decidedBy: 'exact', significant: true });
    expect(retrieval.base).toBeCloseTo(155 / 170, 12);
    expect(retrieval.head).toBeCloseTo(141 / 170, 12);
    // 2·Σ_{i≤2} C(18,i) / 2^18 = 2·172 / 262144
    expect(retrieval.exactPValue).toBeCloseTo((2 * 172) / 262144, 12);
    expect(retrieval.adjustedPValue).toBeCloseTo(2 * retrieval.exactPValue, 12);

    const correct = test('correct');
    expect(correct).toMatchObject({ gate: 'end-to-end', fixed: 6, broken: 15, decidedBy: 'exact', significant: false });
    expect(correct.pValue).toBeCloseTo(0.078, 3);
    expect(correct.requiredN).toBeGreaterThan(200);

    expect(test('refusal')).toMatchObject({ bothRight: 27, bothWrong: 3, fixed: 0, broken: 0, pValue: 1 });
    expect(test('correct_given_retrieval')).toMatchObject({ gate: null, fixed: 4, broken: 4, adjustedPValue: null });

    expect(json.verdict).toBe('fail');
    expect(json.reasons.map((r: { message: string }) => r.message)).toEqual([
      expect.stringMatching(/^retrieval regressed significantly: retrieval ok \(hit@5\) 0\.912 → 0\.829, 16 broken vs 2 fixed, p = 0\.0013/),
    ]);

    expect(json.regressions).toHaveLength(15);
    expect(json.causes.regressions).toEqual({ retrieval: 11, generation: 4, unknown: 0 });
    expect(json.causes.fixed).toEqual({ retrieval: 2, generation: 4, unknown: 0 });
    const lost = json.regressions.find((r: { cause: string }) => r.cause === 'retrieval');
    expect(lost.lostDocuments).toEqual([`doc-${Number(lost.id.slice(2))}`]);
    expect(json.retrievalRegressions).toHaveLength(16);
    expect(json.retrievalRegressions.filter((r: { rescued: boolean }) => r.rescued)).toHaveLength(5);
    expect(json.regressionsByTag).toEqual({ synthesis: 11, factual: 4 });
    expect(json.retrievalShifted).toBe(true);
  });

  it('compares base and head by tag, most moved first, with McNemar tests Holm-adjusted across every tag and outcome', async () => {
    const { base, head } = sketchScenario();
    const { json } = await compare(base, head);
    type Outcome = {
      metric: string;
      n: number;
      base: number;
      head: number;
      broken: number;
      fixed: number;
      pValue: number;
      adjustedPValue: number;
      significant: boolean;
    };
    const byTag: { tag: string; questions: number; outcomes: Outcome[] }[] = json.byTag;
    expect(byTag.map((t) => t.tag)).toEqual(['synthesis', 'factual', 'unanswerable']);
    const tests = byTag.reduce((sum, t) => sum + t.outcomes.length, 0);
    const [synthesis, factual] = byTag;
    expect(synthesis!.questions).toBe(36);
    const [correct, retrieval] = synthesis!.outcomes;
    // 11 lost their answer, 2 gained one, 10 right and 13 wrong on both sides: exact p = 2·(1 + 13 + 78)/2^13.
    expect(correct).toMatchObject({ metric: 'correct', n: 36, broken: 11, fixed: 2, significant: false });
    expect(correct!.base).toBeCloseTo(21 / 36, 12);
    expect(correct!.head).toBeCloseTo(12 / 36, 12);
    expect(correct!.pValue).toBeCloseTo(184 / 8192, 12);
    // 16 lost the gold document, 2 found it: exact p = 2·(1 + 18 + 153)/2^18, the smallest p, so Holm multiplies it by the number of tests.
    expect(retrieval).toMatchObject({ metric: 'retrieval_ok', n: 36, broken: 16, fixed: 2, significant: true });
    expect(retrieval!.pValue).toBeCloseTo(344 / 262144, 12);
    expect(retrieval!.adjustedPValue).toBeCloseTo((tests * 344) / 262144, 12);
    expect(correct!.adjustedPValue).toBeCloseTo(Math.min(1, (tests - 1) * (184 / 8192)), 12);
    expect(factual).toMatchObject({ questions: 134 });
    expect(factual!.outcomes[0]).toMatchObject({ metric: 'correct', broken: 4, fixed: 4, pValue: 1 });
  });

  it('carries the answers, the expected answer, the top documents and the trace URL of each changed question', async () => {
    const { base, head } = sketchScenario();
    const withText = (questions: typeof base, side: string) =>
      questions.map((q) => ({
        ...q,
        answer: `${side} answer of ${q.id}`,
        expected_answer: `expected ${q.id}`,
        trace_url: `https://trace.example/${side}/${q.id}`,
      }));
    const { json } = await compare(withText(base, 'base'), withText(head, 'head'));
    const lost = json.regressions.find((r: { cause: string }) => r.cause === 'retrieval');
    expect(lost.evidence).toEqual({
      expectedAnswer: `expected ${lost.id}`,
      base: {
        answer: `base answer of ${lost.id}`,
        top: base.find((q) => q.id === lost.id)!.retrieved_ids!.slice(0, 5),
        traceUrl: `https://trace.example/base/${lost.id}`,
      },
      head: {
        answer: `head answer of ${lost.id}`,
        top: head.find((q) => q.id === lost.id)!.retrieved_ids!.slice(0, 5),
        traceUrl: `https://trace.example/head/${lost.id}`,
      },
    });
    for (const list of [json.regressions, json.retrievalRegressions, json.fixed]) for (const item of list) expect(item.evidence).toBeDefined();
  });

  it('puts base and head decompositions side by side on the paired questions', async () => {
    const { base, head } = sketchScenario();
    const { json } = await compare(base, head);
    const { base: before, head: after } = json.decomposition;
    expect(before).toMatchObject({ n: 170, nGood: 155, nBad: 15 });
    expect(after).toMatchObject({ n: 170, nGood: 141, nBad: 29 });
    expect(before.e2eCheck).toBeCloseTo(before.e2e, 12);
    expect(after.e2eCheck).toBeCloseTo(after.e2e, 12);
    expect(before.e2e).toBeCloseTo((11 + 5 + 4 + 100 + 5) / 170, 12);
  });
});

describe('the misattribution story: an index rebuild that hurts long questions', () => {
  /**
   * Two strata with a byte-identical generator: short factual questions (right 95% of the time on good
   * context, 30% on bad) and long synthesis questions (80% and 10%). The rebuild loses the gold document for
   * 24 synthesis questions and nothing else; each question's answer depends only on its context.
   */
  function rebuild(): { base: Question[]; head: Question[] } {
    const base: Question[] = [];
    const head: Question[] = [];
    const stratum = (prefix: string, count: number, goodRight: [number, number], badRight: number, okBefore: number, okAfter: number, tag: string) => {
      for (let i = 0; i < count; i++) {
        const id = `${prefix}-${String(i).padStart(3, '0')}`;
        const gold = `${id}-doc`;
        const rightWhenGood = i % goodRight[1] < goodRight[0];
        const rightWhenBad = i % 10 < badRight;
        const common = { id, question: `${tag} question ${i}?`, relevant_ids: [gold], tags: [tag] };
        const okBase = i < okBefore;
        const okHead = i < okAfter;
        base.push({ ...common, retrieved_ids: ranking(gold, okBase), correct: okBase ? rightWhenGood : rightWhenBad });
        head.push({ ...common, retrieved_ids: ranking(gold, okHead), correct: okHead ? rightWhenGood : rightWhenBad });
      }
    };
    stratum('short', 100, [19, 20], 3, 90, 90, 'factual');
    stratum('long', 100, [4, 5], 1, 54, 30, 'synthesis');
    return { base, head };
  }

  it('reports r falling, g_good rising with an unchanged generator, and blames retrieval', async () => {
    const { base, head } = rebuild();
    const { json, test } = await compare(base, head);
    expect(test('retrieval_ok')).toMatchObject({ fixed: 0, broken: 24, significant: true });
    const { base: before, head: after } = json.decomposition;
    expect(before.r).toBeCloseTo(0.72, 12);
    expect(after.r).toBeCloseTo(0.6, 12);
    // 86/90 short and 44/54 long right on good context before; 86/90 and 24/30 after
    expect(before.gGood).toBeCloseTo(130 / 144, 12);
    expect(after.gGood).toBeCloseTo(110 / 120, 12);
    expect(json.retrievalShifted).toBe(true);
    expect(json.causes.regressions.generation).toBe(0);
    expect(json.causes.regressions.retrieval).toBe(json.regressions.length);
    expect(json.regressions.length).toBeGreaterThan(0);
  });
});

describe('pairing', () => {
  it('lists added, missing and relabelled questions; a missing one counts as failed, a relabelled one is re-scored', async () => {
    const { base, head } = correctnessPairs({ bothRight: 5, fixed: 1, broken: 1, bothWrong: 3 });
    base.push({ id: 'only-base', question: 'gone?', correct: true });
    head.push({ id: 'only-head', question: 'new?', correct: false });
    base[0]!.expected_answer = 'forty-two';
    head[0]!.expected_answer = '42';
    const { json, test } = await compare(base, head, ['--min-paired', '1']);
    expect(json.added).toEqual(['only-head']);
    expect(json.removed).toEqual([]);
    expect(json.missing).toEqual([{ id: 'only-base', question: 'gone?', tags: [], wasCorrect: true, retrievalWasOk: null }]);
    // q-0000 states `correct` itself, so it cannot follow the new expected answer: left out, with the reason.
    expect(json.labelsChanged).toEqual([{ id: 'q-0000', reason: 'correct-given' }]);
    expect(json.rescored).toEqual([]);
    expect(json.paired).toBe(9);
    expect(json.coverage).toEqual({ paired: 9, missing: 1, lostOutcomes: 0, compared: 10, baseQuestions: 11, share: 10 / 11 });
    // The missing question was right in base: it counts as broken.
    expect(test('correct')).toMatchObject({ bothRight: 4, fixed: 1, broken: 2, bothWrong: 3, n: 10 });
  });

  it('with --missing exclude, leaves a missing question out and lists it', async () => {
    const { base, head } = correctnessPairs({ bothRight: 5, fixed: 1, broken: 1, bothWrong: 3 });
    base.push({ id: 'only-base', question: 'gone?', correct: true });
    const { json, test } = await compare(base, head, ['--min-paired', '1', '--min-coverage', '0.5', '--missing', 'exclude']);
    expect(json.missing).toEqual([]);
    expect(json.excluded).toEqual(['only-base']);
    expect(test('correct')).toMatchObject({ broken: 1, n: 10 });
  });

  it('does not take the same relevant documents written two ways for changed labels, and re-scores real changes', async () => {
    const base = [{ id: 'a', question: 'a?', relevant_ids: ['d1', 'd2'], retrieved_ids: ['d1'], correct: true }];
    const head = [{ id: 'a', question: 'a?', relevant_ids: { d2: 1, d1: 1, d9: 0 }, retrieved_ids: ['d1'], correct: true }];
    const { json } = await compare(base, head, ['--min-paired', '1']);
    expect(json.labelsChanged).toEqual([]);
    expect(json.rescored).toEqual([]);
    expect(json.paired).toBe(1);
    const regraded = await compare(base, [{ ...head[0]!, relevant_ids: { d1: 2, d2: 1 } }], ['--min-paired', '1', '--graded', 'ndcg@10']);
    expect(regraded.json.rescored).toEqual(['a']);
    expect(regraded.json.paired).toBe(1);
    // Base re-scored under the head's grades: the same ranking, the same nDCG.
    expect(regraded.test('ndcg@10')).toMatchObject({ delta: 0 });
  });

  it('reads an expected answer by its meaning: white space and Unicode composition are not a relabelling', async () => {
    const { base, head } = correctnessPairs({ bothRight: 30, fixed: 0, broken: 0, bothWrong: 0 });
    base.forEach((record) => (record.expected_answer = 'Café au lait'));
    head.forEach((record) => (record.expected_answer = '  Cafe\u0301   au lait \n'));
    const { json } = await compare(base, head);
    expect(json.labelsChanged).toEqual([]);
    expect(json.paired).toBe(30);
  });

  it('treats no shared question as bad input (exit 2)', async () => {
    const { code, stderr } = await compare([{ id: 'a', question: 'a?' }], [{ id: 'b', question: 'b?' }]);
    expect(code).toBe(2);
    expect(stderr).toMatch(/head\.jsonl: nothing to compare with .*base\.jsonl: no question id appears in both files/);
  });

  it('treats shared questions whose labels all changed and cannot be re-scored as bad input (exit 2)', async () => {
    const { code, stderr } = await compare(
      [{ id: 'a', question: 'a?', relevant_ids: ['d1'], retrieval_ok: true }],
      [{ id: 'a', question: 'a?', relevant_ids: ['d2'], retrieval_ok: true }],
    );
    expect(code).toBe(2);
    expect(stderr).toMatch(/all have different gold labels/);
  });

  it('rejects a duplicate id in either file with its line (exit 2)', async () => {
    const { code, stderr } = await compare(
      [
        { id: 'a', question: 'a?' },
        { id: 'a', question: 'again?' },
      ],
      [{ id: 'a', question: 'a?' }],
    );
    expect(code).toBe(2);
    expect(stderr).toMatch(/base\.jsonl:2: id: duplicate id "a" \(first on line 1\)/);
  });
});

describe('gate options', () => {
  const scenario = () => correctnessPairs({ bothRight: 40, fixed: 3, broken: 3, bothWrong: 14 });

  it('fails on a broken floor and passes a floor that holds', async () => {
    const { base, head } = scenario();
    const failing = await compare(base, head, ['--floor', 'correct=0.9']);
    expect(failing.code).toBe(1);
    expect(failing.json.reasons).toEqual([
      {
        kind: 'floor-broken',
        floor: { metric: 'correct', op: '>=', value: 0.9 },
        reads: 'correct',
        value: expect.closeTo(0.717, 3),
        message: 'floor broken: correct is 0.717 in head, the floor is correct ≥ 0.9',
      },
    ]);
    expect(failing.json.floors).toEqual([{ floor: { metric: 'correct', op: '>=', value: 0.9 }, reads: 'correct', value: 43 / 60, outcome: 'broken' }]);
    const holding = await compare(base, head, ['--floor', 'correct>=0.7']);
    expect(holding.code).toBe(0);
  });

  it('supports ceilings on lower-is-better rates', async () => {
    const base = [
      { id: 'a', question: 'a?', refused: false },
      { id: 'b', question: 'b?', refused: true },
    ];
    const { code, json } = await compare(base, base, ['--min-paired', '1', '--floor', 'false_refusal_rate<=0.25']);
    expect(code).toBe(1);
    expect(json.reasons[0]!.message).toMatch(/false_refusal_rate is 0\.500 in head, the floor is false_refusal_rate ≤ 0\.25/);
  });

  it('computes a floor metric outside --k', async () => {
    const records = [{ id: 'a', question: 'a?', relevant_ids: ['d'], retrieved_ids: ['x', 'y', 'd'] }];
    const { code, json } = await compare(records, records, ['--min-paired', '1', '--k', '1', '--floor', 'recall@20=1']);
    expect(json.reasons).toEqual([]);
    expect(code).toBe(0);
  });

  it('rejects an unknown floor metric, gate or alpha with exit 2', async () => {
    const { base, head } = scenario();
    expect((await compare(base, head, ['--floor', 'recal@5=0.8'])).code).toBe(2);
    expect((await compare(base, head, ['--fail-on', 'retrieval,speed'])).stderr).toMatch(/"speed" is not a gate/);
    expect((await compare(base, head, ['--alpha', '1.5'])).code).toBe(2);
  });

  it('Holm-adjusts across the gated tests: the smaller p doubled, the larger kept when it is bigger', async () => {
    const { base, head } = sketchScenario();
    const { json } = await compare(base, head);
    const retrieval = json.tests.find((t: TestJson) => t.metric === 'retrieval_ok');
    const correct = json.tests.find((t: TestJson) => t.metric === 'correct');
    expect(retrieval.pValue).toBeLessThan(correct.pValue);
    expect(retrieval.adjustedPValue).toBeCloseTo(2 * retrieval.pValue, 15);
    expect(correct.adjustedPValue).toBeCloseTo(Math.max(correct.pValue, 2 * retrieval.pValue), 15);
    expect(json.tests.filter((t: TestJson) => t.adjustedPValue !== null)).toHaveLength(2);
  });

  it('Holm-adjusts only the gated tests', async () => {
    const { base, head } = scenario();
    const { json } = await compare(base, head, ['--fail-on', 'end-to-end']);
    const gated = json.tests.filter((t: TestJson) => t.adjustedPValue !== null);
    expect(gated.map((t: TestJson) => t.metric)).toEqual(['correct']);
    expect(gated[0].adjustedPValue).toBe(gated[0].pValue);
    expect(json.warnings).toEqual([]);
  });

  it('warns when a gate has no data to decide on', async () => {
    const { base, head } = scenario();
    const { json } = await compare(base, head);
    expect(json.warnings).toContainEqual({
      kind: 'gate-untestable',
      gate: 'retrieval',
      message:
        'cannot gate retrieval: no paired question carries its outcome in both runs, so retrieval is not gated; to gate it, give each record its gold documents (relevant_ids, or the gold contexts as text: fields: reference_contexts=YOUR_COLUMN in rag-gate.yml)',
    });
  });

  it('names the score another tool wrote that retrieval can gate on instead, when there is one', async () => {
    const { base, head } = scenario();
    const withRecall = (records: typeof base) => records.map((record, i) => ({ ...record, context_recall: i % 2 }));
    const { json } = await compare(withRecall(base), withRecall(head));
    expect(json.warnings).toContainEqual({
      kind: 'gate-untestable',
      gate: 'retrieval',
      standIns: ['score:context_recall'],
      message: expect.stringMatching(
        /so retrieval is not gated; .*, or add score:context_recall to fail-on \(the score your tool wrote; not calibrated here\)$/,
      ),
    });
  });
});

describe('graded metrics', () => {
  /** 60 questions; those `improved` picks (every third by default) move their gold document from 2nd to 1st. */
  function gradedRuns(improved: (i: number) => boolean = (i) => i % 3 === 0): { base: Question[]; head: Question[] } {
    const base: Question[] = [];
    const head: Question[] = [];
    for (let i = 0; i < 60; i++) {
      const gold = `d${i}`;
      const common = { id: `q${i}`, question: `q${i}?`, relevant_ids: [gold] };
      const before = [`x${i}`, gold, `y${i}`];
      const after = improved(i) ? [gold, `x${i}`, `y${i}`] : before;
      base.push({ ...common, retrieved_ids: before, answer_relevance: 0.5 });
      head.push({ ...common, retrieved_ids: after, answer_relevance: 0.5 });
    }
    return { base, head };
  }

  it('runs a reproducible paired randomization test with a bootstrap interval', async () => {
    const { base, head } = gradedRuns();
    const first = await compare(base, head);
    const second = await compare(base, head);
    const mrr = first.test('mrr');
    expect(mrr.kind).toBe('randomization');
    expect(mrr.delta).toBeCloseTo((20 * 0.5) / 60, 12);
    expect(mrr.significant).toBe(true);
    expect(mrr.pValue).toBeLessThan(0.001);
    expect(mrr.ci![0]).toBeGreaterThan(0);
    expect(mrr.ci![1]).toBeLessThanOrEqual(0.5);
    expect(second.test('mrr').pValue).toBe(mrr.pValue);
    expect(second.test('mrr').ci).toEqual(mrr.ci);
    const relevance = first.test('answer_relevance');
    expect(relevance).toMatchObject({ delta: 0, pValue: 1, significant: false });
  });

  it('gives a metric the same interval whichever other metrics are tested with it', async () => {
    const { base, head } = gradedRuns();
    const alone = (await compare(base, head, ['--graded', 'mrr'])).test('mrr');
    const together = (await compare(base, head, ['--graded', 'ndcg@10,map,mrr'])).test('mrr');
    expect(together.ci).toEqual(alone.ci);
    expect(together.pValue).toBe(alone.pValue);
  });

  it('gives no sample-size estimate when the differences have no spread', async () => {
    const records = (shift: number) => [0, 1, 2].map((i) => ({ id: `q${i}`, question: `q${i}?`, answer_relevance: 0.5 + shift }));
    const { test } = await compare(records(0), records(-0.1), ['--graded', 'answer_relevance', '--min-paired', '1', '--allow-ungated']);
    expect(test('answer_relevance')).toMatchObject({ significant: false, requiredN: null });
  });

  it("uses --permutations, and states each sampled p-value's Monte Carlo SE", async () => {
    // 8 of 60 questions move their gold document up (mrr +0.5): Hoeffding's bound, 2·exp(−4²/(2·8·0.25)) = 0.037,
    // cannot decide below the 1/101 that 100 sign flips can show, so they are drawn.
    const { base, head } = gradedRuns((i) => i < 8);
    const { test } = await compare(base, head, ['--permutations', '100']);
    const mrr = test('mrr') as TestJson & { permutations: number; monteCarloSE: number; tailBound: boolean };
    expect(mrr).toMatchObject({ permutations: 100, tailBound: false });
    expect(mrr.pValue * 101).toBeCloseTo(Math.round(mrr.pValue * 101), 9);
    expect(mrr.monteCarloSE).toBeCloseTo(Math.sqrt((mrr.pValue * (1 - mrr.pValue)) / 100), 15);
  });

  it("states the interval method (Student's t below 100 pairs), and a p-value Hoeffding's bound decided without sign flips", async () => {
    const { base, head } = gradedRuns();
    const { json, test } = await compare(base, head);
    const mrr = test('mrr') as TestJson & { ciMethod: string; permutations: number; monteCarloSE: number; tailBound: boolean };
    expect(mrr.ciMethod).toBe('student-t');
    // 20 of 60 differences are +0.5, the rest 0: mean 1/6, sd √(20·(1/3)² + 40·(1/6)²)/√59.
    const sd = Math.sqrt((20 * (1 / 3) ** 2 + 40 * (1 / 6) ** 2) / 59);
    expect(mrr.ci![0]).toBeCloseTo(1 / 6 - 2.000995378 * (sd / Math.sqrt(60)), 8);
    // Σd = 10, Σd² = 5: the bound 2·exp(−t²/(2·5)) = 9.08e-5, t = 10 less the tie tolerance 1e-9·Σ|d|, is below
    // 1/10,001, all that 10,000 sign flips could show.
    expect(mrr).toMatchObject({ tailBound: true, permutations: 0, monteCarloSE: 0 });
    expect(mrr.pValue / (2 * Math.exp(-((10 - 1e-8) ** 2) / 10))).toBeCloseTo(1, 12);
    expect(json.tests.every((t: { ciMethod: string }) => t.ciMethod === 'student-t')).toBe(true);
    const text = await runCli(['compare', '--base', writeJsonl(tempDir(), 'b.jsonl', base), '--head', writeJsonl(tempDir(), 'h.jsonl', head)]);
    expect(text.stdout).toContain("p ≤ 9.1e-5 (Hoeffding's bound on the sign-flip tail, below the 1.0e-4 that 10,000 sign flips can show; none drawn)");
  });

  it('--extra-tests t,wilcoxon reports the paired t-test and the Wilcoxon test beside the randomization test, never gating', async () => {
    const { base, head } = gradedRuns();
    const { test, code } = await compare(base, head, ['--extra-tests', 't,wilcoxon']);
    expect(code).toBe(0);
    const mrr = test('mrr') as TestJson & {
      extra: { t: { statistic: number; df: number; pValue: number }; wilcoxon: { statistic: number; pValue: number; method: string } };
    };
    const sd = Math.sqrt((20 * (1 / 3) ** 2 + 40 * (1 / 6) ** 2) / 59);
    expect(mrr.extra.t.df).toBe(59);
    expect(mrr.extra.t.statistic).toBeCloseTo(1 / 6 / (sd / Math.sqrt(60)), 10);
    // 60 pairs > 50, 40 zeros: the normal approximation over the 20 tied +0.5 differences, z = (210 − 105) / √((20·21·41 − (20³ − 20)/2) / 24).
    expect(mrr.extra.wilcoxon.method).toBe('normal');
    expect(mrr.extra.wilcoxon.statistic).toBe(0);
    const z = 105 / Math.sqrt((20 * 21 * 41 - (8000 - 20) / 2) / 24);
    expect(z).toBeCloseTo(Math.sqrt(20), 12); // variance (17,220 − 3,990) / 24 = 551.25 = 105² / 20
    expect(mrr.extra.wilcoxon.pValue).toBeCloseTo(7.744216e-6, 11); // 2·Φ(−√20) = erfc(√10)
    const none = (await compare(base, head)).test('mrr') as TestJson & { extra: object };
    expect(none.extra).toEqual({});
  });

  it('rejects an unknown extra test with exit 2', async () => {
    const { base, head } = gradedRuns();
    const { code, stderr } = await compare(base, head, ['--extra-tests', 't,sign']);
    expect(code).toBe(2);
    expect(stderr).toContain('"sign" is not a test');
  });
});

describe('--markdown', () => {
  it('writes the comment body when the comparison succeeds', async () => {
    const { base, head } = correctnessPairs({ bothRight: 250, fixed: 60, broken: 95, bothWrong: 95 });
    const dir = tempDir();
    const out = join(dir, 'comment.md');
    const result = await runCli(['compare', '--base', writeJsonl(dir, 'b.jsonl', base), '--head', writeJsonl(dir, 'h.jsonl', head), '--markdown', out]);
    expect(result.code).toBe(1);
    const comment = readFileSync(out, 'utf8');
    // The comment of this comparison: base 345 of 500 right (0.690), head 310 (0.620), 95 broken and 60 fixed,
    // McNemar χ² = (|60 − 95| − 1)² / 155 = 7.46, p = 0.0063.
    expect(comment.split('\n')[0]).toBe('### ❌ rag-gate: end-to-end correctness regressed significantly');
    expect(comment).toContain('**Questions answered right: 69.0% → 62.0%**: 95 questions went from right to wrong, 60 from wrong to right');
    expect(comment).toContain('p = 0.0063');
    expect(comment).toContain('#### Regressed questions (95)');
    expect(result.stdout).toMatch(/^rag-gate compare: FAIL/);
  });

  it('names the target, exits 2 and leaves nothing behind when it cannot be written', async () => {
    const { base, head } = correctnessPairs({ bothRight: 5, fixed: 1, broken: 1, bothWrong: 3 });
    const dir = tempDir();
    const out = join(dir, 'missing-folder', 'comment.md');
    const result = await runCli(['compare', '--base', writeJsonl(dir, 'b.jsonl', base), '--head', writeJsonl(dir, 'h.jsonl', head), '--markdown', out]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`${out}: cannot write: its folder does not exist`);
    expect(result.stdout).toBe('');
  });

  it('writes nothing when the input is bad', async () => {
    const dir = tempDir();
    const out = join(dir, 'comment.md');
    const base = writeJsonl(dir, 'b.jsonl', [{ id: 'a', question: 'a?' }]);
    const result = await runCli(['compare', '--base', base, '--head', join(dir, 'missing.jsonl'), '--markdown', out]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/missing\.jsonl: cannot read: no such file/);
    expect(existsSync(out)).toBe(false);
  });
});
