/**
 * The words of the comment's verdict: the heading, the evidence of each deciding test, how its p was computed, the
 * power sentences of the gated tests that did not move significantly, and the cause line. The p-values are worked
 * by hand in the comments (exact McNemar: twice the binomial tail of the discordant pairs; Holm: the smallest p times
 * the number of tests, then the next times one fewer, kept non-decreasing).
 */
import { describe, expect, it } from 'vitest';
import type { Comparison, GateReason, PairedTest } from '../../src/core/compare/types.js';
import { renderComment, verdictWords } from '../../src/render/markdown.js';
import { mcnemar } from '../../src/core/stats/mcnemar.js';
import { change, gate, makeComparison, makePassingComparison, mcnemarTest, randomizationTest, retrievalRegression } from './comparison-fixture.js';
import { block, gatedAs, renderBody } from './comparison-variants.js';

/** The verdict heading: the comment's first line without a marker. */
const headingOf = (markdown: string) => markdown.split('\n')[0];

/** The row of the tests table whose metric cell is `label`. */
const rowOf = (markdown: string, label: string) => block(markdown, `| ${label} |`).split('\n')[0]!;

/** 10 discordant pairs, 6 fixed and 4 broken of 170: exact p = 2·(1 + 10 + 45 + 120 + 210)/2^10 = 0.7539. */
const RETRIEVAL_SMALL_GAIN = { fixed: 6, broken: 4, bothRight: 149, bothWrong: 11 };
/** 22 discordant pairs, 20 broken of 200: exact p = 2·(1 + 22 + 231)/2^22 = 1.211e-4; right 69.0% → 60.0%. */
const CORRECT_DROP = { fixed: 2, broken: 20, bothRight: 118, bothWrong: 60 };

describe('renderComment: a drop measured by an uncalibrated judge', () => {
  // Holm across the two gated tests: correct 2 × 1.211e-4 = 2.42e-4, retrieval max(0.7539, 2.42e-4) = 0.7539.
  const tests = gate([mcnemarTest('retrieval_ok', RETRIEVAL_SMALL_GAIN), mcnemarTest('correct', CORRECT_DROP)]).map((t): PairedTest =>
    t.metric === 'correct' ? { ...t, gateOutcome: 'uncalibrated-judge' } : t,
  );
  const comparison = makePassingComparison({ tests });

  it('warns in the heading, says why the evidence only warns, and marks its gate', () => {
    // Rendered in the test, never while the tests are collected: a mutation run activates its mutant per test.
    const markdown = renderBody(comparison);
    expect(headingOf(markdown)).toBe('### ⚠️ rag-gate: end-to-end correctness dropped, but the judge is uncalibrated, so it does not gate');
    expect(block(markdown, '- ')).toBe(
      '- **Questions answered right: 69.0% → 60.0%**: 20 questions went from right to wrong, 2 from wrong to right (p = 0.0002). Its values come from an uncalibrated judge, so it only warns.',
    );
    expect(block(markdown, 'This check')).toBe('This check passes. (p: exact McNemar, Holm-adjusted across 2 gated tests; α = 0.05.)');
    expect(rowOf(markdown, 'correct — end to end').endsWith('| 0.0001 | 0.0002 | ⚠️ gate, uncalibrated judge |')).toBe(true);
    expect(rowOf(markdown, 'hit\\@5 — retrieval ok').endsWith('| 0.7539 | 0.7539 | gate, not significant |')).toBe(true);
    expect(verdictWords(comparison, 'hit@5')).toBe('end-to-end correctness dropped, but the judge is uncalibrated, so it does not gate');
  });

  it('names both gates when both are uncalibrated', () => {
    const both = gate([mcnemarTest('retrieval_ok', { fixed: 2, broken: 16, bothRight: 139, bothWrong: 13 }), mcnemarTest('correct', CORRECT_DROP)]).map(
      (t): PairedTest => ({ ...t, gateOutcome: 'uncalibrated-judge' }),
    );
    expect(headingOf(renderBody(makePassingComparison({ tests: both })))).toBe(
      '### ⚠️ rag-gate: retrieval and end-to-end correctness dropped, but the judge is uncalibrated, so it does not gate',
    );
  });
});

describe('renderComment: the heading of a failing check', () => {
  const floor = (metric: string) => ({ metric, op: '>=' as const, value: 0.8 });

  it('names three failing gates in a list, then the floors broken and unchecked, and too few questions', () => {
    const tests = gate(
      [
        mcnemarTest('retrieval_ok', { fixed: 2, broken: 30, bothRight: 125, bothWrong: 13 }),
        mcnemarTest('correct', { fixed: 5, broken: 40, bothRight: 98, bothWrong: 57 }),
        mcnemarTest('correct_given_retrieval', { fixed: 1, broken: 25, bothRight: 90, bothWrong: 20 }),
      ],
      ['retrieval', 'end-to-end', 'generation'],
    );
    const reasons: GateReason[] = [
      { kind: 'floor-broken', floor: floor('recall@5'), reads: 'recall@5', value: 0.7 },
      { kind: 'floor-broken', floor: floor('mrr'), reads: 'mrr', value: 0.6 },
      { kind: 'floor-unchecked', floor: floor('faithfulness') },
      { kind: 'floor-unchecked', floor: floor('relevance') },
      { kind: 'too-few-paired', paired: 200, minPaired: 300 },
    ];
    const comparison = makeComparison({
      tests,
      reasons,
      floors: [
        { floor: floor('recall@5'), reads: 'recall@5', value: 0.7, outcome: 'broken' },
        { floor: floor('mrr'), reads: 'mrr', value: 0.6, outcome: 'broken' },
        { floor: floor('faithfulness'), reads: 'faithfulness', value: null, outcome: 'unchecked' },
        { floor: floor('relevance'), reads: 'relevance', value: null, outcome: 'unchecked' },
        { floor: floor('ndcg@10'), reads: 'ndcg@10', value: 0.9, outcome: 'holds' },
      ],
    });
    expect(headingOf(renderBody(comparison))).toBe(
      '### ❌ rag-gate: retrieval, end-to-end correctness and generation regressed significantly; 2 floors are broken; 2 floors cannot be checked; too few questions were compared',
    );
  });

  it('says too few questions were compared when the coverage is low', () => {
    const comparison = makePassingComparison({
      verdict: 'fail',
      reasons: [{ kind: 'low-coverage', compared: 200, baseQuestions: 400, share: 0.5, minCoverage: 0.9 }],
    });
    expect(headingOf(renderBody(comparison))).toBe('### ❌ rag-gate: too few questions were compared');
  });

  it('says only that the check fails when it fails for no reason it can name', () => {
    const markdown = renderBody(makePassingComparison({ verdict: 'fail' }));
    expect(headingOf(markdown)).toBe('### ❌ rag-gate: this check fails');
    expect(block(markdown, 'No gated test')).toBe('No gated test changed significantly (α = 0.05, Holm-adjusted across 2 tests). This check fails.');
  });

  it('gives as evidence only the failing tests, not a significant gain of another gated test', () => {
    // hit@5 fails (p 0.0013, see the sketch); correct gains significantly: 22 discordant, 20 fixed, p = 1.211e-4.
    const tests = gate([
      mcnemarTest('retrieval_ok', { fixed: 2, broken: 16, bothRight: 139, bothWrong: 13 }),
      mcnemarTest('correct', { fixed: 20, broken: 2, bothRight: 118, bothWrong: 60 }),
    ]);
    const markdown = renderBody(makeComparison({ tests }));
    expect(headingOf(markdown)).toBe('### ❌ rag-gate: retrieval regressed significantly');
    // Holm: correct 2 × 1.211e-4 = 2.4e-4, hit@5 max(0.0013, 2.4e-4) = 0.0013.
    expect(block(markdown, '- ')).toBe(
      '- **Questions with a gold document in the top 5: 91.2% → 82.9%**: 16 questions lost their gold document, 2 gained it (p = 0.0013).',
    );
    expect(rowOf(markdown, 'correct — end to end').endsWith('| 0.0001 | 0.0002 | ✅ gate, improved |')).toBe(true);
  });

  it('gives the same words through verdictWords', () => {
    expect(verdictWords(makeComparison(), 'hit@5')).toBe('retrieval regressed significantly');
  });
});

describe('renderComment: the evidence of failing tests', () => {
  it('states a true/false score outside the catalog by its name, base → head, and its broken and fixed counts', () => {
    // p = 1.211e-4 (see CORRECT_DROP): the only gated test, so Holm leaves it as it is.
    const tests = [gatedAs(mcnemarTest('score:flag', CORRECT_DROP), 'score:flag', mcnemarTest('score:flag', CORRECT_DROP).pValue, 'fails')];
    const markdown = renderBody(makeComparison({ tests }));
    expect(headingOf(markdown)).toBe('### ❌ rag-gate: the score flag (not calibrated here, gated because fail-on names it) regressed significantly');
    expect(block(markdown, '- ')).toBe('- **the score flag (not calibrated here) 0.690 → 0.600**: 20 broken, 2 fixed (p = 0.0001).');
    expect(block(markdown, 'This check')).toBe('This check fails. (p: exact McNemar; α = 0.05.)');
  });

  it('states a graded score by its Δ and interval, and a pass-rate test by its movement against the noise', () => {
    const rates = {
      ...randomizationTest('correct', { base: 0.69, head: 0.6, ci: [-0.13, -0.05], pValue: 0.0002 }),
      rates: { broken: 20, fixed: 2, noise: { broken: 3.1, fixed: 3.04, questions: 200 } },
    };
    const graded = randomizationTest('score:grounded', { base: 0.8, head: 0.7, ci: [-0.15, -0.05], pValue: 0.0004 });
    // Holm: 2 × 0.0002 = 0.0004 for the smaller, max(1 × 0.0004, 0.0004) = 0.0004 for the other.
    const tests = [gatedAs(rates, 'end-to-end', 0.0004, 'fails'), gatedAs(graded, 'score:grounded', 0.0004, 'fails')];
    const markdown = renderBody(makeComparison({ tests }));
    expect(headingOf(markdown)).toBe(
      '### ❌ rag-gate: end-to-end correctness and the score grounded (not calibrated here, gated because fail-on names it) regressed significantly',
    );
    expect(block(markdown, '- ')).toBe(
      [
        "- **Questions answered right: 69.0% → 60.0%**: 20 broken, 3.1 expected from run-to-run noise; 2 fixed, 3.0 expected (questions whose pass rate fell or rose; noise: each question's runs dealt at random between base and head, over the 200 questions base ran at least twice); Δ −0.090, 95% CI −0.130 to −0.050 (p = 0.0004).",
        '- **the score grounded (not calibrated here) 0.800 → 0.700**: Δ −0.100, 95% CI −0.150 to −0.050 (p = 0.0004).',
      ].join('\n'),
    );
    expect(block(markdown, 'This check')).toBe(
      'This check fails. (p: sign-flip randomization on pass rates and paired randomization, Holm-adjusted across 2 gated tests; α = 0.05.)',
    );
  });
});

describe("renderComment: a p that is Hoeffding's bound", () => {
  it('says p ≤ in the evidence, and names the bound with the test', () => {
    const bounded = {
      ...randomizationTest('score:grounded', { base: 0.8, head: 0.7, ci: [-0.12, -0.08], pValue: 3.1e-12 }),
      permutations: 0,
      monteCarloSE: 0,
      tailBound: true,
    };
    const markdown = renderBody(makeComparison({ tests: [gatedAs(bounded, 'score:grounded', 3.1e-12, 'fails')] }));
    expect(block(markdown, '- ')).toBe('- **the score grounded (not calibrated here) 0.800 → 0.700**: Δ −0.100, 95% CI −0.120 to −0.080 (p ≤ 3.1e-12).');
    expect(block(markdown, 'This check')).toBe("This check fails. (p: paired randomization (Hoeffding's bound on its tail); α = 0.05.)");
  });
});

describe('renderComment: how the p of the evidence was computed', () => {
  it('names the mid-p McNemar test when it decided', () => {
    // 18 discordant pairs, 2 fixed: mid-p = 2·P(X ≤ 2) − P(X = 2) = (2·172 − 153)/2^18 = 0.0007.
    const midP = mcnemar(2, 16, 139, 13, { smallSample: 'mid-p' });
    const test = { ...mcnemarTest('retrieval_ok', { fixed: 2, broken: 16, bothRight: 139, bothWrong: 13 }), decidedBy: midP.decidedBy, pValue: midP.pValue };
    const markdown = renderBody(makeComparison({ tests: gate([test], ['retrieval']) }));
    expect(block(markdown, '- ')).toBe(
      '- **Questions with a gold document in the top 5: 91.2% → 82.9%**: 16 questions lost their gold document, 2 gained it (p = 0.0007).',
    );
    expect(block(markdown, 'This check')).toBe('This check fails. (p: mid-p McNemar; α = 0.05.)');
  });

  it('names the χ² test when 25 or more pairs are discordant', () => {
    // 45 discordant pairs: χ² = (|5 − 40| − 1)²/45 = 25.7 decides.
    const test = mcnemarTest('correct', { fixed: 5, broken: 40, bothRight: 98, bothWrong: 57 });
    expect(test.decidedBy).toBe('chi2');
    const markdown = renderBody(makeComparison({ tests: gate([test], ['end-to-end']) }));
    expect(block(markdown, 'This check')).toBe('This check fails. (p: McNemar χ²; α = 0.05.)');
  });
});

describe('renderComment: a passing check', () => {
  it('says no test is gated when none is', () => {
    const tests = [randomizationTest('ndcg@10', { base: 0.742, head: 0.738, ci: [-0.02, 0.012], pValue: 0.52 })];
    // No evidence list and no power sentence, not even empty ones; 3 regressed and 3 rescued lost their gold document.
    expect(renderBody(makePassingComparison({ tests })).split('\n\n').slice(0, 3)).toEqual([
      '### ✅ rag-gate: no significant regression',
      'No test is gated. This check passes.',
      'No question carries end-to-end correctness in both runs; 6 questions lost their gold document.',
    ]);
  });

  it('gives α alone when a single gated test did not move significantly', () => {
    const tests = gate([mcnemarTest('retrieval_ok', RETRIEVAL_SMALL_GAIN)], ['retrieval']);
    const markdown = renderBody(makePassingComparison({ tests }));
    expect(block(markdown, 'No gated test')).toBe('No gated test changed significantly (α = 0.05). This check passes.');
    expect(markdown.trimEnd().endsWith('\n200 paired questions, 0 missing (counted as failed), 0 added, 0 removed, 0 relabelled · α = 0.05')).toBe(true);
  });

  it('marks a significant gain of the only gated test as improved, its p not Holm-adjusted', () => {
    // 18 discordant pairs of 170, 16 fixed: p = 2·(1 + 18 + 153)/2^18 = 0.0013; ok 141/170 = 82.9% → 155/170 = 91.2%.
    const tests = gate([mcnemarTest('retrieval_ok', { fixed: 16, broken: 2, bothRight: 139, bothWrong: 13 })], ['retrieval']);
    const markdown = renderBody(makePassingComparison({ tests }));
    expect(headingOf(markdown)).toBe('### ✅ rag-gate: no significant regression; retrieval improved');
    expect(block(markdown, '- ')).toBe(
      '- **Questions with a gold document in the top 5: 82.9% → 91.2%**: 2 questions lost their gold document, 16 gained it (p = 0.0013).',
    );
    expect(block(markdown, 'This check')).toBe('This check passes. (p: exact McNemar; α = 0.05.)');
    expect(rowOf(markdown, 'hit\\@5 — retrieval ok').endsWith('| 0.0013 | 0.0013 | ✅ gate, improved |')).toBe(true);
    // No gated test is left without significance: no power paragraph, not even an empty one, before the causes
    // (no correct test: 3 regressed and 3 rescued lost their gold document).
    expect(markdown).toContain(
      '\n\nThis check passes. (p: exact McNemar; α = 0.05.)\n\nNo question carries end-to-end correctness in both runs; 6 questions lost their gold document.\n\n|',
    );
  });

  it('never calls a significant drop of a gated test an improvement, even one the gate left without an outcome', () => {
    // Not a comparison compareRuns makes (it gives every significant gated drop an outcome): the words still warn.
    const tests = gate([mcnemarTest('retrieval_ok', { fixed: 2, broken: 16, bothRight: 139, bothWrong: 13 })], ['retrieval']).map((t): PairedTest => ({
      ...t,
      gateOutcome: null,
    }));
    const markdown = renderBody(makePassingComparison({ tests }));
    expect(headingOf(markdown)).toBe('### ✅ rag-gate: no significant regression');
    expect(rowOf(markdown, 'hit\\@5 — retrieval ok').endsWith('| 0.0013 | 0.0013 | ⚠️ gate |')).toBe(true);
  });
});

describe('renderComment: the power of the gated tests that did not move', () => {
  /** The power paragraph: the one after "This check passes.". */
  const powerOf = (tests: PairedTest[]) => {
    const markdown = renderBody(makePassingComparison({ tests }));
    const paragraphs = markdown.split('\n\n');
    return paragraphs[paragraphs.findIndex((p) => p.startsWith('No gated test changed significantly')) + 1];
  };

  it('sizes a gain in points and the questions its discordance needs', () => {
    // n = (1.96·√ψ + 0.8416·√(ψ − δ²))² / δ² with ψ = 10/170, δ = 2/170: 3,333.4, so about 3,334; δ is a 1.2-point gain.
    expect(powerOf(gate([mcnemarTest('retrieval_ok', RETRIEVAL_SMALL_GAIN)], ['retrieval']))).toBe(
      'hit\\@5 0.900 → 0.912 is not significant yet (p = 0.7539): with this discordance about 3,334 paired questions would be needed to tell a 1.2-point gain from noise.',
    );
  });

  it('says no net change when as many questions broke as were fixed, and gives the Holm-adjusted p beside the raw one', () => {
    // Holm: 2 × 0.7539 and 1 × 1 are both capped at 1.
    const tests = gate([mcnemarTest('retrieval_ok', RETRIEVAL_SMALL_GAIN), mcnemarTest('correct', { fixed: 5, broken: 5, bothRight: 120, bothWrong: 70 })]);
    expect(powerOf(tests)).toBe(
      'hit\\@5 0.900 → 0.912 is not significant yet (p = 0.7539, Holm-adjusted 1.0000): with this discordance about 3,334 paired questions would be needed to tell a 1.2-point gain from noise. ' +
        'End-to-end correctness 0.625 → 0.625: no net change (p = 1.0000).',
    );
  });

  it('sizes a graded score by its Δ and spread, and says only "not significant" when no size would do', () => {
    const graded = randomizationTest('score:grounded', { base: 0.8, head: 0.81, ci: [-0.01, 0.03], pValue: 0.41, requiredN: 3_000 });
    expect(powerOf([gatedAs(graded, 'score:grounded', 0.41, null)])).toBe(
      'The score grounded (not calibrated here) 0.800 → 0.810 is not significant yet (p = 0.4100): with this spread about 3,000 paired questions would be needed to tell a +0.010 gain from noise.',
    );
    expect(powerOf([{ ...gatedAs(graded, 'score:grounded', 0.41, null), requiredN: null }])).toBe(
      'The score grounded (not calibrated here) 0.800 → 0.810 is not significant (p = 0.4100).',
    );
  });

  it('sizes a pass-rate test in points', () => {
    const rates = {
      ...randomizationTest('correct', { base: 0.69, head: 0.67, ci: [-0.05, 0.01], pValue: 0.2, requiredN: 5_000 }),
      rates: { broken: 10, fixed: 6, noise: null },
    };
    expect(powerOf([gatedAs(rates, 'end-to-end', 0.2, null)])).toBe(
      'End-to-end correctness 0.690 → 0.670 is not significant yet (p = 0.2000): with this spread about 5,000 paired questions would be needed to tell a 2.0-point drop from noise.',
    );
  });
});

describe('renderComment: the cause line', () => {
  const causeLine = (regressions: ReturnType<typeof change>[], fixed: ReturnType<typeof change>[] = []) =>
    block(renderBody(makeComparison({ regressions, fixed })), `${regressions.length} question`);
  const many = (n: number, cause: Parameters<typeof change>[1], from: number) => Array.from({ length: n }, (_, k) => change(from + k, cause));

  it('bolds a cause of more than half the regressions, but neither of two halves', () => {
    expect(causeLine([...many(2, 'retrieval', 0), ...many(2, 'generation', 10)])).toBe(
      '4 questions regressed: 2 because retrieval lost the gold document, 2 because the answer got worse with the same or better retrieval.',
    );
    expect(causeLine([...many(1, 'retrieval', 0), ...many(1, 'generation', 10), ...many(3, 'unknown', 20)], many(1, 'generation', 30))).toBe(
      '5 questions regressed: 1 because retrieval lost the gold document, 1 because the answer got worse with the same or better retrieval, **3 with no retrieval outcome to tell why**. 1 question went from wrong to right.',
    );
  });

  it('does not bold the one cause of every regression', () => {
    expect(causeLine(many(1, 'unknown', 0))).toBe('1 question regressed: 1 with no retrieval outcome to tell why.');
    expect(causeLine(many(3, 'generation', 0))).toBe('3 questions regressed: 3 because the answer got worse with the same or better retrieval.');
  });
});

describe('renderComment: the cause line without end-to-end correctness', () => {
  const retrievalOnly = (retrievalRegressions: Comparison['retrievalRegressions']) =>
    renderComment(
      makePassingComparison({
        tests: gate([mcnemarTest('retrieval_ok', RETRIEVAL_SMALL_GAIN)], ['retrieval']),
        regressions: [],
        fixed: [],
        retrievalRegressions,
      }),
      { retrievalOk: 'hit@5' },
    );

  it('says none lost its gold document, or that one did', () => {
    expect(retrievalOnly([])).toContain('\nNo question carries end-to-end correctness in both runs, and none lost its gold document.\n');
    expect(retrievalOnly([retrievalRegression(change(42, 'retrieval'), false)])).toContain(
      '\nNo question carries end-to-end correctness in both runs; 1 question lost its gold document.\n',
    );
  });
});
