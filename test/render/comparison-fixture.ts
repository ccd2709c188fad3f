/**
 * Hand-built Comparison objects for the report tests, from the comment sketch's scenario: 200 paired questions,
 * 170 answerable; hit@5 2 fixed / 16 broken; correct 6 fixed / 15 broken; 15 regressions (11 retrieval,
 * 4 generation), 5 more retrieval regressions rescued by the model, 6 fixed questions.
 */
import type {
  Comparison,
  McNemarTest,
  PairedTest,
  QuestionChange,
  RandomizationTest,
  RegressionCause,
  RetrievalRegression,
  TagChange,
} from '../../src/core/compare/types.js';
import { type GateCategory, gateMetric } from '../../src/core/catalog/gates.js';
import { decompose, type Decomposition } from '../../src/core/scoring/decomposition.js';
import { holmAdjust } from '../../src/core/stats/holm.js';
import { mcnemar } from '../../src/core/stats/mcnemar.js';
import { intervalMethod, pairedRateInterval } from '../../src/core/stats/mean-interval.js';
import { mcnemarSampleSize } from '../../src/core/stats/power.js';

const ALPHA = 0.05;

/** The sketch scenario's significant retrieval drop, as the gate reports it. */
export const RETRIEVAL_DROP = {
  gate: 'retrieval',
  metric: 'retrieval_ok',
  base: 0.912,
  head: 0.829,
  delta: -0.083,
  pValue: 0.0013,
  adjustedPValue: 0.0026,
  alpha: 0.05,
  broken: 16,
  fixed: 2,
} as const;

export interface Counts {
  fixed: number;
  broken: number;
  bothRight: number;
  bothWrong: number;
}

/** Intervals by counts: the hostile-text tests build thousands of comparisons from the same few tables. */
const rateIntervals = new Map<string, ReturnType<typeof pairedRateInterval>>();
function rateInterval(fixed: number, broken: number, n: number) {
  const key = `${fixed},${broken},${n}`;
  let interval = rateIntervals.get(key);
  if (interval === undefined) rateIntervals.set(key, (interval = pairedRateInterval(fixed, broken, n)));
  return interval;
}

/** A McNemar test with its real statistics; gated tests get their Holm adjustment from {@link gate}. */
export function mcnemarTest(metric: string, counts: Counts, alpha = ALPHA): McNemarTest {
  const { pValue, ...result } = mcnemar(counts.fixed, counts.broken, counts.bothRight, counts.bothWrong);
  const n = counts.fixed + counts.broken + counts.bothRight + counts.bothWrong;
  const significant = pValue < alpha;
  return {
    ...result,
    kind: 'mcnemar',
    metric,
    gate: null,
    n,
    base: (counts.bothRight + counts.broken) / n,
    head: (counts.bothRight + counts.fixed) / n,
    delta: (counts.fixed - counts.broken) / n,
    ...(({ ci, method }) => ({ ci, ciMethod: method }))(rateInterval(counts.fixed, counts.broken, n)),
    pValue,
    adjustedPValue: null,
    significant,
    gateOutcome: null,
    requiredN: significant ? null : mcnemarSampleSize({ pFixed: counts.fixed / n, pBroken: counts.broken / n, alpha }),
  };
}

export function randomizationTest(
  metric: string,
  values: { base: number; head: number; ci: [number, number]; pValue: number; requiredN?: number },
): RandomizationTest {
  const significant = values.pValue < ALPHA;
  return {
    kind: 'randomization',
    metric,
    gate: null,
    n: 200,
    base: values.base,
    head: values.head,
    delta: values.head - values.base,
    ci: values.ci,
    ciMethod: intervalMethod(200),
    pValue: values.pValue,
    permutations: 10_000,
    monteCarloSE: Math.sqrt((values.pValue * (1 - values.pValue)) / 10_000),
    tailBound: false,
    extra: {},
    adjustedPValue: null,
    significant,
    gateOutcome: null,
    requiredN: significant ? null : (values.requiredN ?? 3_000),
  };
}

/** Marks the tests of `categories` as gated and Holm-adjusts them, as compareRuns does. */
export function gate(tests: readonly PairedTest[], categories: readonly GateCategory[] = ['retrieval', 'end-to-end'], alpha = ALPHA): PairedTest[] {
  const gateOf = new Map(categories.map((c) => [gateMetric(c), c] as const));
  const gated = tests.filter((t) => gateOf.has(t.metric));
  const adjusted = holmAdjust(gated.map((t) => t.pValue));
  return tests.map((test) => {
    const i = gated.indexOf(test);
    if (i < 0) return test;
    const adjustedPValue = adjusted[i]!;
    const significant = adjustedPValue < alpha;
    const gateOutcome = significant && test.delta < 0 ? 'fails' : null;
    return { ...test, gate: gateOf.get(test.metric)!, adjustedPValue, significant, gateOutcome, requiredN: significant ? null : test.requiredN };
  });
}

/** The sketch's tests: hit@5 2 fixed / 16 broken over 170, correct 6 / 15 over 200, and report-only tests. */
export function sketchTests(): PairedTest[] {
  return gate([
    mcnemarTest('retrieval_ok', { fixed: 2, broken: 16, bothRight: 139, bothWrong: 13 }),
    mcnemarTest('correct', { fixed: 6, broken: 15, bothRight: 123, bothWrong: 56 }),
    mcnemarTest('correct_given_retrieval', { fixed: 2, broken: 4, bothRight: 100, bothWrong: 33 }),
    mcnemarTest('refusal', { fixed: 1, broken: 1, bothRight: 26, bothWrong: 2 }),
    randomizationTest('ndcg@10', { base: 0.742, head: 0.688, ci: [-0.081, -0.027], pValue: 0.0002 }),
    randomizationTest('recall@5', { base: 0.871, head: 0.815, ci: [-0.09, -0.022], pValue: 0.0011 }),
    randomizationTest('faithfulness', { base: 0.884, head: 0.879, ci: [-0.021, 0.011], pValue: 0.41, requiredN: 12_400 }),
  ]);
}

const QUESTIONS = [
  'How do I rotate my API key without downtime?',
  'What is the refund window for enterprise annual plans purchased through a reseller?',
  'Can I export audit logs to S3?',
  'Which regions support data residency?',
  'How long are deleted projects kept before purge?',
  'Does SSO work with Okta SCIM provisioning?',
  'What is the rate limit for the search endpoint?',
  'How do I reset two-factor authentication for a user?',
];

function question(i: number): string {
  return `${QUESTIONS[i % QUESTIONS.length]} (#${i})`;
}

function questionId(i: number): string {
  return `q-${String(i).padStart(4, '0')}`;
}

export function change(i: number, cause: RegressionCause, overrides: Partial<QuestionChange> = {}): QuestionChange {
  return {
    id: questionId(i),
    question: question(i),
    tags: [i % 2 === 0 ? 'auth' : 'billing'],
    cause,
    lostDocuments: cause === 'retrieval' ? [`auth-${String(i).padStart(4, '0')}`] : [],
    ...overrides,
  };
}

export function retrievalRegression(c: QuestionChange, rescued: boolean): RetrievalRegression {
  return { id: c.id, question: c.question, tags: c.tags, lostDocuments: c.lostDocuments.length > 0 ? c.lostDocuments : ['doc-1'], rescued };
}

/** Per-question 1/0 columns for a decomposition with these counts. */
function decomposition(nGood: number, correctGood: number, nBad: number, correctBad: number): Decomposition {
  const retrieval: number[] = [];
  const correct: number[] = [];
  for (let i = 0; i < nGood; i++) {
    retrieval.push(1);
    correct.push(i < correctGood ? 1 : 0);
  }
  for (let i = 0; i < nBad; i++) {
    retrieval.push(0);
    correct.push(i < correctBad ? 1 : 0);
  }
  const ones = retrieval.map(() => 1);
  return decompose(
    retrieval,
    correct,
    ones,
    retrieval.map(() => Number.NaN),
  );
}

function countCauses(changes: readonly QuestionChange[]): Record<RegressionCause, number> {
  const counts: Record<RegressionCause, number> = { retrieval: 0, generation: 0, unknown: 0 };
  for (const c of changes) counts[c.cause]++;
  return counts;
}

export function countByTag(changes: readonly QuestionChange[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const c of changes) for (const tag of new Set(c.tags)) counts[tag] = (counts[tag] ?? 0) + 1;
  return Object.fromEntries(Object.entries(counts).sort(([a, x], [b, y]) => y - x || (a < b ? -1 : 1)));
}

/**
 * Base against head by tag, as compareRuns computes it: 100 paired questions a tag, 70 right in base, the tag's
 * regressions broken and its fixes fixed, McNemar tests Holm-adjusted across the tags.
 */
export function tagChangesOf(regressions: readonly QuestionChange[], fixed: readonly QuestionChange[]): TagChange[] {
  const tags = [...new Set([...regressions, ...fixed].flatMap((c) => c.tags))];
  const tests = tags.map((tag) => {
    const broken = regressions.filter((c) => c.tags.includes(tag)).length;
    const fixedCount = fixed.filter((c) => c.tags.includes(tag)).length;
    const questions = Math.max(100, broken + fixedCount);
    const baseRight = Math.max(70, broken);
    const counts = { fixed: fixedCount, broken, bothRight: baseRight - broken, bothWrong: questions - baseRight - fixedCount };
    return { tag, questions, counts, pValue: mcnemar(counts.fixed, counts.broken, counts.bothRight, counts.bothWrong).pValue };
  });
  const adjusted = holmAdjust(tests.map((t) => t.pValue));
  const changes = tests.map(({ tag, questions, counts, pValue }, i): TagChange => ({
    tag,
    questions,
    outcomes: [
      {
        metric: 'correct',
        n: questions,
        base: (counts.bothRight + counts.broken) / questions,
        head: (counts.bothRight + counts.fixed) / questions,
        broken: counts.broken,
        fixed: counts.fixed,
        pValue,
        adjustedPValue: adjusted[i]!,
        significant: adjusted[i]! < ALPHA,
      },
    ],
  }));
  const moved = (c: TagChange) => Math.abs(c.outcomes[0]!.head - c.outcomes[0]!.base);
  return changes.sort((a, b) => moved(b) - moved(a) || (a.tag < b.tag ? -1 : 1));
}

const NOTHING_DERIVED = { idsFromQuestion: 0, retrievalByText: 0, correctByRule: 0, refusedByDetector: 0, formats: ['jsonl' as const], scores: {} };

/**
 * A Comparison: the sketch's failing scenario unless overridden. Passing `regressions` or `fixed` recomputes the
 * cause and tag counts from them (unless those are overridden too).
 */
export function makeComparison(overrides: Partial<Comparison> = {}): Comparison {
  const defaultRegressions = [
    ...Array.from({ length: 11 }, (_, k) => change(42 + k, 'retrieval')),
    ...Array.from({ length: 4 }, (_, k) => change(107 + k, 'generation')),
  ];
  const regressions = overrides.regressions ?? defaultRegressions;
  const fixed = overrides.fixed ?? Array.from({ length: 6 }, (_, k) => change(150 + k, k < 2 ? 'retrieval' : 'generation'));
  const rescued = Array.from({ length: 5 }, (_, k) => retrievalRegression(change(180 + k, 'retrieval'), true));
  const retrievalRegressions = overrides.retrievalRegressions ?? [
    ...regressions.filter((r) => r.cause === 'retrieval').map((r) => retrievalRegression(r, false)),
    ...rescued,
  ];
  return {
    paired: 200,
    added: [],
    removed: [],
    excluded: [],
    missing: [],
    lostOutcomes: [],
    rescored: [],
    labelsChanged: [],
    holdoutLeftOut: [],
    coverage: { paired: 200, missing: 0, lostOutcomes: 0, compared: 200, baseQuestions: 200, share: 1 },
    provenance: { base: NOTHING_DERIVED, head: NOTHING_DERIVED },
    ungated: false,
    unmeasured: [],
    alpha: ALPHA,
    tests: sketchTests(),
    regressions,
    retrievalRegressions,
    fixed,
    regressionsByTag: countByTag(regressions),
    byTag: tagChangesOf(regressions, fixed),
    causes: { regressions: countCauses(regressions), fixed: countCauses(fixed) },
    decomposition: { base: decomposition(155, 119, 15, 4), head: decomposition(141, 110, 29, 7) },
    retrievalShifted: true,
    floors: [],
    judges: [],
    verdict: 'fail',
    reasons: [{ kind: 'regressed', ...RETRIEVAL_DROP }],
    warnings: [],
    ...overrides,
  };
}

/** The same questions, but nothing significant: hit@5 4 fixed / 6 broken, correct 6 fixed / 9 broken. */
export function makePassingComparison(overrides: Partial<Comparison> = {}): Comparison {
  const regressions = overrides.regressions ?? [
    ...Array.from({ length: 3 }, (_, k) => change(42 + k, 'retrieval')),
    ...Array.from({ length: 6 }, (_, k) => change(107 + k, 'generation')),
  ];
  return makeComparison({
    tests: gate([
      mcnemarTest('retrieval_ok', { fixed: 4, broken: 6, bothRight: 149, bothWrong: 11 }),
      mcnemarTest('correct', { fixed: 6, broken: 9, bothRight: 129, bothWrong: 56 }),
      randomizationTest('ndcg@10', { base: 0.742, head: 0.738, ci: [-0.02, 0.012], pValue: 0.52, requiredN: 40_000 }),
    ]),
    regressions,
    retrievalRegressions: [
      ...regressions.filter((r) => r.cause === 'retrieval').map((r) => retrievalRegression(r, false)),
      ...Array.from({ length: 3 }, (_, k) => retrievalRegression(change(180 + k, 'retrieval'), true)),
    ],
    retrievalShifted: false,
    verdict: 'pass',
    reasons: [],
    ...overrides,
  });
}
