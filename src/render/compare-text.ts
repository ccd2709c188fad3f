import { correctRunsWords, flakyRateWords, RATE_TEST_NAME, rateMovementWords } from './repeats-words.js';
import { holdoutLeftOutText } from './holdout.js';
import type { Comparison, CompareConfig, McNemarTest, PairedTest, QuestionEvidence, RandomizationTest } from '../core/compare/types.js';
import { documentLabel, idFromText } from './documents.js';
import { decompositionWarnings } from './decomposition-words.js';
import type { Decomposition } from '../core/scoring/decomposition.js';
import { formatDelta, formatP, formatRequiredN, plural } from './format.js';
import { judgeNote, lostOutcomesFix, reasonText, testLabel, warningText } from './gate-words.js';
import { sentenceText } from './untrusted.js';
import { comparisonScoringLines } from './scoring-words.js';
import { fixed3, textTable } from './text-table.js';
import { formatAmount, isUsageTest, quantileWords, ratioWords, riseCell, usageName, usageNoiseWords } from './usage-words.js';
import { grouped } from '../core/grouped.js';

/** One line on a McNemar test's 2×2 table and which p-value decided. */
export function mcnemarSentence(test: McNemarTest): string {
  const rule =
    test.discordant === 0
      ? 'no discordant pair, p = 1'
      : test.decidedBy === 'exact'
        ? `${test.discordant} discordant < 25, so the exact binomial test decides`
        : test.decidedBy === 'mid-p'
          ? `${test.discordant} discordant < 25, so the mid-p binomial test decides`
          : `${test.discordant} discordant ≥ 25, so χ² with continuity correction decides`;
  const midP = test.decidedBy === 'mid-p' ? `, mid-p ${formatP(test.midPValue)}` : '';
  return `both right ${test.bothRight}, fixed ${test.fixed}, broken ${test.broken}, both wrong ${test.bothWrong}; χ² ${test.chi2.toFixed(2)} (p ${formatP(test.chi2PValue)}), exact p ${formatP(test.exactPValue)}${midP}: ${rule}`;
}

/** An odds ratio to 3 significant digits; ∞ when unbounded. */
function formatRatio(value: number): string {
  return value === Infinity ? '∞' : value === 0 ? '0' : value.toPrecision(3);
}

/** "odds ratio fixed/broken 0.125 (exact 95% CI 0.0143 to 0.553)", or null without a discordant pair. */
export function oddsRatioWords(test: McNemarTest): string | null {
  if (test.discordant === 0) return null;
  const [lower, upper] = test.oddsRatioCI;
  return `odds ratio fixed/broken ${formatRatio(test.oddsRatio)} (exact 95% CI ${formatRatio(lower)} to ${formatRatio(upper)})`;
}

/** How the 95% intervals of Δ were made, for the tests shown. */
export function intervalNote(tests: readonly PairedTest[]): string {
  const words = { 'student-t': "Student's t (fewer than 100 pairs)", 'percentile-bootstrap': 'percentile bootstrap (100 pairs or more)' };
  const methods = [
    ...new Set(
      tests.map((test) =>
        test.kind === 'randomization' && test.rates !== undefined ? `${words[test.ciMethod]} over questions, of pass-rate differences` : words[test.ciMethod],
      ),
    ),
  ];
  return `95% CI of Δ: ${methods.join('; ')}`;
}

/** "p 0.0123 ± 0.0011 (Monte Carlo SE; 40,000 sign flips, more than the 10,000 asked for because p was near α)". */
export function monteCarloWords(test: RandomizationTest, permutationsAsked: number): string {
  if (test.tailBound) {
    const smallest = formatP(1 / (1 + permutationsAsked));
    return `p ≤ ${formatP(test.pValue)} (Hoeffding's bound on the sign-flip tail, below the ${smallest} that ${grouped(permutationsAsked)} sign flips can show; none drawn)`;
  }
  if (test.permutations === 0) return 'p 1 without sampling (no difference)';
  const extended = test.permutations > permutationsAsked ? `, more than the ${grouped(permutationsAsked)} asked for because p was near α` : '';
  return `p ${formatP(test.pValue)} ± ${formatP(test.monteCarloSE)} (Monte Carlo SE; ${grouped(test.permutations)} sign flips${extended})`;
}

/** The report-only classical tests of a graded metric, or null when none was asked for. */
export function extraTestWords(test: RandomizationTest): string | null {
  const parts: string[] = [];
  const { t, wilcoxon } = test.extra;
  if (t !== undefined)
    parts.push(t === null ? 'paired t undefined (no spread)' : `paired t = ${t.statistic.toFixed(3).replace('-', '−')} (df ${t.df}), p ${formatP(t.pValue)}`);
  if (wilcoxon !== undefined) {
    const method = { exact: 'exact', permutation: 'all sign flips', normal: 'normal approximation' };
    parts.push(
      wilcoxon === null
        ? 'Wilcoxon undefined (no non-zero difference)'
        : `Wilcoxon W = ${wilcoxon.statistic} over ${wilcoxon.nonZero} non-zero, p ${formatP(wilcoxon.pValue)} (${method[wilcoxon.method]})`,
    );
  }
  return parts.length === 0 ? null : parts.join('; ');
}

/** Rows of the decomposition, base beside head. */
export function decompositionRows(base: Decomposition, head: Decomposition): string[][] {
  const split = (d: Decomposition) => `${fixed3(d.r)} (${d.nGood}/${d.n})`;
  return [
    ['r = P(retrieval ok)', split(base), split(head)],
    ['g_good = P(correct | ok)', `${fixed3(base.gGood)} (n ${base.nGood})`, `${fixed3(head.gGood)} (n ${head.nGood})`],
    ['g_bad = P(correct | failed)', `${fixed3(base.gBad)} (n ${base.nBad})`, `${fixed3(head.gBad)} (n ${head.nBad})`],
    ['e2e = r·g_good + (1−r)·g_bad', fixed3(base.e2eCheck), fixed3(head.e2eCheck)],
    ['product model e2e / r', fixed3(base.productModelG), fixed3(head.productModelG)],
    ['ceiling r + (1−r)·g_bad', fixed3(base.ceiling), fixed3(head.ceiling)],
  ];
}

/** Why gGood and gBad cannot be read alone when r moved, with the paired causes that can. */
export function retrievalShiftNote(comparison: Comparison): string {
  const { regressions, fixed } = comparison.causes;
  return (
    'r moved significantly, so g_good and g_bad were measured on different sets of questions and cannot be compared alone. ' +
    `The paired causes are the reliable reading: of the regressions, ${regressions.retrieval} lost the gold document and ${regressions.generation} got a worse answer with the same or better retrieval; ` +
    `of the fixes, ${fixed.retrieval} came from retrieval and ${fixed.generation} from generation.`
  );
}

/** A listed question's id, or nothing when the id is the hash of its text (shown beside it). */
const shownId = (item: { readonly id: string; readonly question: string }) => (idFromText(item) ? '' : item.id);

/** "lost auth-0007, “Refunds are issued within 30 days…”": each document by its id, or its first words when the id is a hash. */
function lostWords(item: { readonly lostDocuments: readonly string[]; readonly evidence?: QuestionEvidence }): string {
  if (item.lostDocuments.length === 0) return '';
  return `lost ${item.lostDocuments.map((id) => ((label) => (label === null ? id : `“${label}”`))(documentLabel(id, item.evidence))).join(', ')}`;
}

function changeRows(changes: Comparison['regressions']): string[][] {
  return changes.map((change) => [
    shownId(change),
    change.cause,
    change.question.replace(/\s+/g, ' ').slice(0, 80),
    [change.correctRuns === undefined ? '' : correctRunsWords(change.correctRuns), lostWords(change)].filter(Boolean).join('; '),
  ]);
}

/** How the lost outcomes count: as failed, or (with `missing: exclude`) left out. */
function lostCounted(comparison: Comparison): string {
  return comparison.lostOutcomes.some((l) => l.counted === 'failed') ? 'counted as failed' : 'left out';
}

/**
 * What a question cost, base against head: each measure's means, ratio and quantiles, its test, and the questions
 * that rose most; null when neither run carries any.
 */
function usageSection(comparison: Comparison): string | null {
  const tests = comparison.tests.filter(isUsageTest);
  if (tests.length === 0) return null;
  const rows = tests.map((test) => [
    usageName(test.metric),
    test.gate ?? 'report',
    formatAmount(test.base, test.unit),
    formatAmount(test.head, test.unit),
    `${ratioWords(test.ratio, test.ratioCi)}${test.scale === 'log' ? ' geo' : ''}`,
    formatP(test.pValue),
    formatP(test.adjustedPValue),
    test.significant ? 'yes' : 'no',
    String(test.n),
  ]);
  const details = tests.flatMap((test) => {
    const noise = usageNoiseWords(test);
    const zeros = test.zeros > 0 ? `; ${plural(test.zeros, 'pair')} with a 0 left out (no logarithm)` : '';
    const rises = test.rises
      .slice(0, 5)
      .map((rise) => `    ${rise.id}  ${riseCell(test, rise.base, rise.head)}  ${rise.question.replace(/\s+/g, ' ').slice(0, 60)}`);
    return [
      `  ${usageName(test.metric)}: ${quantileWords(test).join('; ')}${noise === null ? '' : `; ${noise}`}${zeros}`,
      ...(test.significant && test.ratio > 1 && rises.length > 0 ? ['  rose most:', ...rises] : []),
    ];
  });
  return (
    `Latency, tokens and cost (means a question; ratio head/base with its 95% CI, geo: of the geometric means; paired randomization test, on log-latency for latency)\n` +
    textTable([['measure', 'gate', 'base', 'head', 'ratio', 'p', 'Holm p', 'significant', 'n'], ...rows]) +
    `\n${details.join('\n')}`
  );
}

/** The human-readable `compare` report. */
export function renderCompareText(comparison: Comparison, config: CompareConfig): string {
  const rule = config.eval.retrievalOk.name;
  const sections: string[] = [];
  const context = { retrievalOk: rule, judges: comparison.judges };
  const verdict = comparison.verdict === 'fail' ? 'FAIL' : 'PASS';
  sections.push(
    `rag-gate compare: ${verdict}\n` +
      comparison.reasons.map((reason) => `  - ${reasonText(reason, context)}\n`).join('') +
      `${plural(comparison.paired, 'paired question')}, ${comparison.missing.length} missing from head (counted as failed)` +
      (comparison.lostOutcomes.length > 0 ? `, ${comparison.lostOutcomes.length} with an outcome lost in head (${lostCounted(comparison)})` : '') +
      '; ' +
      `left out: ${comparison.added.length} added, ${comparison.removed.length} removed from the golden set, ${comparison.excluded.length} missing and excluded, ${comparison.labelsChanged.length} with changed labels` +
      comparisonScoringLines(comparison, config.eval)
        .map((line) => `\n  ${line}`)
        .join('') +
      (comparison.holdoutLeftOut.length > 0 ? `\n${holdoutLeftOutText(comparison.holdoutLeftOut.length)}` : ''),
  );
  const quality = comparison.tests.filter((test) => !isUsageTest(test));
  const rows = quality.map((test) => [
    testLabel(test.metric, rule),
    test.gate ?? 'report',
    fixed3(test.base),
    fixed3(test.head),
    formatDelta(test.delta),
    `[${formatDelta(test.ci[0])}, ${formatDelta(test.ci[1])}]`,
    formatP(test.pValue),
    formatP(test.adjustedPValue),
    test.significant ? 'yes' : 'no',
    String(test.n),
  ]);
  sections.push(
    `Tests (α = ${comparison.alpha}; Holm-adjusted across the gated tests)\n` +
      textTable([['metric', 'gate', 'base', 'head', 'Δ', '95% CI', 'p', 'Holm p', 'significant', 'n'], ...rows]) +
      (rows.length > 0 ? `\n  ${intervalNote(quality)}` : ''),
  );
  const usage = usageSection(comparison);
  if (usage !== null) sections.push(usage);
  const mcnemarLines = comparison.tests
    .filter((t): t is McNemarTest => t.kind === 'mcnemar')
    .map((t) => `  ${testLabel(t.metric, rule)}: ${[mcnemarSentence(t), oddsRatioWords(t)].filter(Boolean).join('; ')}`);
  if (mcnemarLines.length > 0) sections.push(`McNemar\n${mcnemarLines.join('\n')}`);
  const randomization = comparison.tests.filter((t): t is RandomizationTest => t.kind === 'randomization');
  if (randomization.length > 0) {
    sections.push(
      `Randomization\n${randomization
        .map(
          (t) =>
            `  ${testLabel(t.metric, rule)}: ${[t.rates === undefined ? '' : `${RATE_TEST_NAME}: ${rateMovementWords(t.rates)}`, monteCarloWords(t, config.permutations), extraTestWords(t)].filter(Boolean).join('; ')}`,
        )
        .join('\n')}`,
    );
  }
  const power = quality.flatMap((t) => {
    const needed = formatRequiredN(t.requiredN);
    return needed && t.delta !== 0
      ? [
          `  ${testLabel(t.metric, rule)}: not significant; ${needed} paired questions would be needed to tell a ${formatDelta(t.delta)} change from noise (80% power)`,
        ]
      : [];
  });
  if (power.length > 0) sections.push(`Cannot tell apart yet\n${power.join('\n')}`);

  if (comparison.missing.length > 0) {
    const rows = comparison.missing.map((m) => [
      shownId(m),
      m.question.replace(/\s+/g, ' ').slice(0, 80),
      m.wasCorrect === null ? '' : m.wasCorrect ? 'right in base' : 'wrong in base',
    ]);
    sections.push(`Missing from head, counted as failed (${comparison.missing.length})\n${textTable(rows)}`);
  }
  if (comparison.lostOutcomes.length > 0) {
    const rows = comparison.lostOutcomes.map((l) => [
      shownId(l),
      l.question.replace(/\s+/g, ' ').slice(0, 80),
      `no ${l.columns.join(', ')}`,
      l.tests.join(', '),
    ]);
    sections.push(
      `Outcomes lost in head, ${lostCounted(comparison)} (${comparison.lostOutcomes.length})\n` +
        textTable([['id', 'question', 'lost in head', lostCounted(comparison) === 'counted as failed' ? 'counted as failed in' : 'left out of'], ...rows]) +
        `\n  ${lostOutcomesFix(comparison.lostOutcomes)}`,
    );
  }
  const { regressions: causes } = comparison.causes;
  if (comparison.regressions.length > 0) {
    sections.push(
      `Regressed questions (${comparison.regressions.length}: ${causes.retrieval} retrieval, ${causes.generation} generation${causes.unknown > 0 ? `, ${causes.unknown} unknown` : ''})\n` +
        textTable([['id', 'cause', 'question', ''], ...changeRows(comparison.regressions)]),
    );
  }
  const rescued = comparison.retrievalRegressions.filter((r) => r.rescued);
  if (rescued.length > 0) {
    sections.push(
      `Lost the gold document but still answered right (${rescued.length})\n` +
        textTable(rescued.map((r) => [shownId(r), r.question.replace(/\s+/g, ' ').slice(0, 80), lostWords(r)])),
    );
  }
  if (comparison.fixed.length > 0) sections.push(`Fixed questions (${comparison.fixed.length})\n${textTable(changeRows(comparison.fixed))}`);
  const flaky = (['base', 'head'] as const).flatMap((side) => {
    const repeats = comparison.flaky?.[side];
    return repeats ? [`  ${side}: ${flakyRateWords(repeats)}`] : [];
  });
  if (flaky.length > 0) sections.push(`Repeated runs\n${flaky.join('\n')}`);
  const tags = Object.entries(comparison.regressionsByTag);
  if (tags.length > 0) sections.push(`Regressions by tag\n${textTable(tags.map(([tag, count]) => [tag, String(count)]))}`);

  const { base, head } = comparison.decomposition;
  if (base.n > 0 || head.n > 0) {
    let text = `Decomposition (paired answerable questions; retrieval ok: ${rule})\n${textTable([['', 'base', 'head'], ...decompositionRows(base, head)])}`;
    if (comparison.retrievalShifted) text += `\n  ! ${retrievalShiftNote(comparison)}`;
    sections.push(text);
  }
  if (comparison.judges.length > 0) {
    const notes = comparison.judges.flatMap((status) => status.judges.map((check) => `  ${sentenceText(judgeNote(status.field, check))}`));
    sections.push(`Judge\n${notes.join('\n')}`);
  }
  const warnings = [...comparison.warnings.map((w) => warningText(w, context)), ...decompositionWarnings(head).map((w) => `head: ${w}`)];
  if (warnings.length > 0) sections.push(`Warnings\n${warnings.map((w) => `  ! ${w}`).join('\n')}`);
  return `${sections.join('\n\n')}\n`;
}
