/**
 * A pull request cannot pass by dropping outcomes: a paired question whose head record lacks an outcome its base
 * record has counts as failed in the tests that read it (as a missing question does), a gate whose data the head
 * lost entirely fails, and a gate fail-on names with data in neither run is reported as unmeasured.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { resolveSettings } from '../../../src/core/catalog/settings.js';
import type { GateName } from '../../../src/core/catalog/gates.js';
import { compareRuns } from '../../../src/core/compare/compare.js';
import { compareConfig } from '../../../src/core/compare/settings.js';
import type { CompareConfig, McNemarTest } from '../../../src/core/compare/types.js';
import type { QuestionOutcomes } from '../../../src/core/scoring/outcomes.js';
import { summarizeRun } from '../../../src/core/scoring/summary.js';
import { questionOutcomes } from '../../helpers/outcomes.js';

type Values = Readonly<Record<string, number | undefined>>;

/** A run of questions q0, q1…, each with its columns (absent or undefined = not carried). */
function run(rows: readonly Values[]): QuestionOutcomes {
  const names = [...new Set(rows.flatMap((row) => Object.keys(row)))];
  const ids = rows.map((_, i) => `q${i}`);
  return questionOutcomes({
    ids,
    questions: ids.map((id) => `${id}?`),
    tags: rows.map(() => []),
    goldKeys: rows.map(() => 'same labels'),
    goldFound: rows.map(() => undefined),
    columns: new Map(names.map((name) => [name, Float64Array.from(rows, (row) => row[name] ?? NaN)])),
  });
}

const DEFAULTS = compareConfig(resolveSettings([], (problem) => problem.message).settings, []);

function compare(base: QuestionOutcomes, head: QuestionOutcomes, overrides: Partial<CompareConfig> = {}) {
  const config: CompareConfig = { ...DEFAULTS, gradedMetrics: [], minPaired: 0, failOn: new Set<GateName>(['end-to-end']), ...overrides };
  const comparison = compareRuns(base, head, summarizeRun(head, config.eval), config, { base: 'base.jsonl', head: 'head.jsonl' });
  const test = (metric: string) => comparison.tests.find((t) => t.metric === metric) as McNemarTest | undefined;
  return { ...comparison, test };
}

/** 20 questions right in base; in head q0…q9 lack `correct` (they went wrong, and the field was dropped), q10…q19 stay right. */
const base20 = run(Array.from({ length: 20 }, () => ({ correct: 1 })));
const head20 = run(Array.from({ length: 20 }, (_, i) => (i < 10 ? {} : { correct: 1 })));

describe('a paired question whose head lost an outcome', () => {
  it('counts as broken in McNemar: 10 of 10 discordant pairs broken, exact p = 2 · 2⁻¹⁰ = 1/512', () => {
    const { test, verdict, reasons, lostOutcomes, coverage, regressions } = compare(base20, head20);
    expect(test('correct')).toMatchObject({ n: 20, bothRight: 10, broken: 10, fixed: 0, bothWrong: 0, base: 1, head: 0.5, delta: -0.5 });
    // 10 discordant < 25: the exact binomial test decides, 2 · P(X ≤ 0 | n = 10, ½) = 2/1024.
    expect(test('correct')).toMatchObject({ decidedBy: 'exact', pValue: 1 / 512, adjustedPValue: 1 / 512, significant: true, gateOutcome: 'fails' });
    expect(verdict).toBe('fail');
    expect(reasons).toEqual([expect.objectContaining({ kind: 'regressed', gate: 'end-to-end', broken: 10, fixed: 0, pValue: 1 / 512 })]);
    expect(lostOutcomes).toEqual(
      Array.from({ length: 10 }, (_, i) => ({ id: `q${i}`, question: `q${i}?`, tags: [], columns: ['correct'], tests: ['correct'], counted: 'failed' })),
    );
    // Counted as failed, like a missing question, so they are compared; they are not regressions (no head answer).
    expect(coverage).toEqual({ paired: 20, missing: 0, lostOutcomes: 10, compared: 20, baseQuestions: 20, share: 1 });
    expect(regressions).toEqual([]);
  });

  it('with missing: exclude, leaves the test and is not counted as compared, so min-coverage fails', () => {
    const { test, reasons, lostOutcomes, coverage } = compare(base20, head20, { missing: 'exclude' });
    expect(test('correct')).toMatchObject({ n: 10, bothRight: 10, broken: 0 });
    expect(lostOutcomes.map((lost) => lost.counted)).toEqual(Array(10).fill('left-out'));
    expect(coverage).toEqual({ paired: 20, missing: 0, lostOutcomes: 10, compared: 10, baseQuestions: 20, share: 0.5 });
    expect(reasons).toEqual([{ kind: 'low-coverage', compared: 10, baseQuestions: 20, share: 0.5, minCoverage: 0.95 }]);
  });

  it('a lost outcome of a test no gate reads fails nothing and leaves coverage whole', () => {
    const { coverage, lostOutcomes, reasons } = compare(base20, head20, { missing: 'exclude', failOn: new Set<GateName>(['retrieval']) });
    expect(lostOutcomes).toHaveLength(10);
    expect(coverage).toMatchObject({ lostOutcomes: 0, compared: 20, share: 1 });
    expect(reasons).toEqual([]);
  });

  it('is listed with every outcome it lost and every test it counts as failed in', () => {
    // q0 lost correct with retrieval ok on both sides (end to end and generation), q1 lost retrieval (retrieval
    // only: it leaves the generation test's pairs), q2 unanswerable lost refused; q3 answerable lost refused,
    // which no test reads there.
    const base = run([
      { correct: 1, retrieval_ok: 1, answerable: 1, refused: 0 },
      { correct: 1, retrieval_ok: 1, answerable: 1, refused: 0 },
      { correct: 0, retrieval_ok: 1, answerable: 0, refused: 1 },
      { correct: 1, retrieval_ok: 1, answerable: 1, refused: 0 },
      { correct: 1, retrieval_ok: 1, answerable: 0, refused: 1 },
    ]);
    const head = run([
      { retrieval_ok: 1, answerable: 1, refused: 0 },
      { correct: 1, answerable: 1, refused: 0 },
      { correct: 0, retrieval_ok: 1, answerable: 0 },
      { correct: 1, retrieval_ok: 1, answerable: 1 },
      { correct: 1, retrieval_ok: 1, answerable: 0, refused: 1 },
    ]);
    const { lostOutcomes, test } = compare(base, head, { failOn: new Set<GateName>(['end-to-end', 'generation', 'refusal']) });
    expect(lostOutcomes.map(({ id, columns, tests }) => ({ id, columns, tests }))).toEqual([
      { id: 'q0', columns: ['correct'], tests: ['correct', 'correct_given_retrieval'] },
      { id: 'q1', columns: ['retrieval_ok'], tests: ['retrieval_ok'] },
      { id: 'q2', columns: ['refused'], tests: ['refusal'] },
    ]);
    expect(test('retrieval_ok')).toMatchObject({ n: 5, broken: 1 });
    expect(test('correct_given_retrieval')).toMatchObject({ n: 4, broken: 1 });
    expect(test('refusal')).toMatchObject({ n: 2, broken: 1, bothRight: 1 });
  });

  it('a gated true/false score lost in head counts as failed; an ungated one only leaves its test', () => {
    const base = run([{ 'score:pass': 1 }, { 'score:pass': 1 }, { 'score:pass': 0 }]);
    const head = run([{}, { 'score:pass': 1 }, { 'score:pass': 0 }]);
    const scores = new Map([['pass', 'boolean' as const]]);
    const withScores = (outcomes: QuestionOutcomes) => ({ ...outcomes, scores });
    const gated = compare(withScores(base), withScores(head), { failOn: new Set<GateName>(['score:pass']) });
    expect(gated.test('score:pass')).toMatchObject({ n: 3, broken: 1 });
    expect(gated.lostOutcomes.map(({ id, columns, tests }) => ({ id, columns, tests }))).toEqual([
      { id: 'q0', columns: ['score:pass'], tests: ['score:pass'] },
    ]);
    const reported = compare(withScores(base), withScores(head), { failOn: new Set() });
    expect(reported.test('score:pass')).toMatchObject({ n: 2, broken: 0 });
    expect(reported.lostOutcomes).toEqual([]);
  });

  it('never raises the head rate of its test, and never changes how many pairs it has (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.boolean(), fc.boolean(), fc.boolean()), { minLength: 2, maxLength: 40 }), fc.nat(), (questions, keep) => {
        const base = run(questions.map(([before]) => ({ correct: Number(before) })));
        const head = run(questions.map(([, after]) => ({ correct: Number(after) })));
        // Drop the head outcome of the questions flagged, keeping at least one so that head still carries correct.
        const kept = keep % questions.length;
        const dropped = run(questions.map(([, after, drop], i) => (drop && i !== kept ? {} : { correct: Number(after) })));
        const whole = compare(base, head).test('correct')!;
        const lost = compare(base, dropped).test('correct')!;
        expect(lost.n).toBe(whole.n);
        expect(lost.head).toBeLessThanOrEqual(whole.head);
        expect(lost.broken).toBeGreaterThanOrEqual(whole.broken);
      }),
      { seed: 36, numRuns: 300 },
    );
  });
});

describe('a gate whose data the head lost', () => {
  const base = run(Array.from({ length: 20 }, (_, i) => ({ correct: 1, retrieval_ok: i % 2 })));
  const noRetrieval = run(Array.from({ length: 20 }, () => ({ correct: 1 })));

  it('fails with its own reason naming the columns, instead of warning that it cannot be tested', () => {
    const { verdict, reasons, warnings, ungated, lostOutcomes } = compare(base, noRetrieval, { failOn: new Set<GateName>(['retrieval', 'end-to-end']) });
    expect(verdict).toBe('fail');
    expect(reasons).toEqual([{ kind: 'gate-data-lost', gate: 'retrieval', columns: ['retrieval_ok'], baseQuestions: 20 }]);
    expect(warnings).toEqual([]);
    expect(ungated).toBe(false);
    // The whole column is the gate's loss, not 20 questions' each.
    expect(lostOutcomes).toEqual([]);
  });

  it('fails even when it is the only gate: the run is not ungated, since the base measured it', () => {
    const { verdict, reasons, ungated } = compare(base, noRetrieval, { failOn: new Set<GateName>(['retrieval']) });
    expect({ verdict, ungated, kinds: reasons.map((r) => r.kind) }).toEqual({ verdict: 'fail', ungated: false, kinds: ['gate-data-lost'] });
  });

  it('the generation gate reads retrieval too: losing it loses the gate', () => {
    const { reasons } = compare(base, noRetrieval, { failOn: new Set<GateName>(['generation']) });
    expect(reasons).toEqual([{ kind: 'gate-data-lost', gate: 'generation', columns: ['retrieval_ok'], baseQuestions: 20 }]);
  });

  it('a gate the head carries and the base does not only warns, as before', () => {
    const { verdict, reasons, warnings } = compare(noRetrieval, base, { failOn: new Set<GateName>(['retrieval', 'end-to-end']) });
    expect(verdict).toBe('pass');
    expect(reasons).toEqual([]);
    expect(warnings).toEqual([{ kind: 'gate-untestable', gate: 'retrieval' }]);
  });
});

describe('a gate with data in neither run', () => {
  const answered = run(Array.from({ length: 20 }, () => ({ correct: 1, answerable: 1 })));

  it('is unmeasured when fail-on names it, and only warns when it comes with the default', () => {
    const named = compare(answered, answered, {
      failOn: new Set<GateName>(['end-to-end', 'refusal']),
      namedGates: new Set<GateName>(['end-to-end', 'refusal']),
    });
    expect(named.unmeasured).toEqual(['refusal']);
    const byDefault = compare(answered, answered, { failOn: new Set<GateName>(['end-to-end', 'retrieval']), namedGates: new Set() });
    expect(byDefault.unmeasured).toEqual([]);
    expect(byDefault.warnings).toEqual([{ kind: 'gate-untestable', gate: 'retrieval' }]);
  });

  it('is not unmeasured when either run carries it on some question, paired or not', () => {
    const headOnly = run([...Array.from({ length: 20 }, () => ({ correct: 1, answerable: 1 })), { refused: 1, answerable: 0 }]);
    const { unmeasured } = compare(answered, headOnly, { failOn: new Set<GateName>(['refusal']), namedGates: new Set<GateName>(['refusal']) });
    expect(unmeasured).toEqual([]);
  });
});
