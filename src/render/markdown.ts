/**
 * The PR comment body: a pure function from a Comparison to GitHub-flavoured Markdown.
 *
 * The document is built as an mdast tree and serialised by mdast-util-to-markdown with the GFM extension, so
 * escaping is never done by hand. Text that comes from users' files enters the tree only through mdast.ts: ids,
 * tags and document ids as `inert` code spans, questions and answers as `inertProse` (text, with every word GitHub
 * could act on in a code span), URLs only through `safeHttpUrl`. Raw `html` nodes carry only our own fixed markup:
 * the sticky-comment marker, the `<details><summary>` wrappers and `<br>`.
 */
import { fitLists } from './fit.js';
import { correctRunsWords, flakyRateWords, passCountsText, RATE_TEST_NAME, rateMovementWords } from './repeats-words.js';
import { holdoutLeftOutText } from './holdout.js';
import type { List, Paragraph, PhrasingContent, RootContent } from 'mdast';
import { comparisonScoringLines, type ScoringRulesInUse } from './scoring-words.js';
import type {
  Comparison,
  UsageTest,
  McNemarTest,
  MissingQuestion,
  PairedTest,
  QuestionChange,
  QuestionEvidence,
  RetrievalRegression,
  TagChange,
  TagOutcome,
} from '../core/compare/types.js';
import { decompositionRows, intervalNote, mcnemarSentence, oddsRatioWords, retrievalShiftNote } from './compare-text.js';
import { gateWords, judgeNotes, lostOutcomesFix, reasonText, shareWords, testLabel, testSubject, testTableLabel, warningWords, wordsOf } from './gate-words.js';
import { formatDelta, formatP, formatRequiredN, plural } from './format.js';
import {
  annotated,
  type Cell,
  details,
  heading,
  inert,
  inertProse,
  inlineDetails,
  lineBreak,
  link,
  markerComment,
  paragraph,
  prose,
  rowLengthAtLeast,
  sentencePhrasing,
  serialise,
  strong,
  table,
  text,
  writtenRowLines,
} from './mdast.js';
import { safeHttpUrl, type Sentence } from './untrusted.js';
import { DOCUMENT_LABEL_MAX, documentLabel, idFromText } from './documents.js';
import { type MetricRow, metricsTable } from './metrics-table.js';
import { decompositionWarnings } from './decomposition-words.js';
import { parseRetrievalMetric } from '../core/catalog/retrieval-metrics.js';
import { fixed3 } from './text-table.js';
import {
  dollarPhrasing,
  formatAmount,
  isHeadlineUsage,
  isUsageTest,
  quantileWords,
  ratioKind,
  ratioWords,
  riseCell,
  toleranceWords,
  usageEvidence,
  usageHeadline,
  usageLine,
  usageName,
  usageNoiseWords,
  worsened,
} from './usage-words.js';
import type { History } from '../core/history/history.js';
import { trendSection } from './history.js';
import { gateChangesSection, type GateChangesView, goldChangesSection, type GoldApprovalView } from './gate-changes.js';
import { grouped } from '../core/grouped.js';

/**
 * The comment's options, one value handed down whole to every section that reads one: a new option is a field
 * here and the lines that use it, with no parameter threaded through the sections between.
 */
export interface CommentOptions {
  /** Names the retrieval test, e.g. "hit@5". */
  retrievalOk: string;
  /** Hidden marker for the sticky comment, e.g. "rag-gate:default", rendered first as `<!-- rag-gate:default -->`. */
  marker?: string;
  /** One line of provenance written by our code; `backtick` spans in it render as code. */
  baseline?: string;
  /** Where the full report is, e.g. "full JSON: the `report-json` output". */
  reportLink?: string;
  /** Upper bound on the comment's length in UTF-16 code units (default {@link DEFAULT_COMMENT_MAX_LENGTH}). */
  maxLength?: number;
  /** The scoring rules, stated under the verdict (how `correct` was computed, what was matched by text). */
  rules?: ScoringRulesInUse;
  /** The workflow run that wrote this comment, linked in the last line. */
  runUrl?: string;
  /** The run whose results are the baseline, linked beside the baseline line. */
  baselineRunUrl?: string;
  /** A trace link for every listed question: a URL with `{id}` where the question's id goes (URL-encoded). */
  traceUrl?: string;
  /** The pull request's changes to its own gate, listed under the verdict. */
  gateChanges?: GateChangesView;
  /** Whether the gold changes that change a gated outcome were approved, when that was asked. */
  goldApproval?: GoldApprovalView;
  /** Hidden state for the next run (what changes this comment shows, since when), after the marker. */
  stateMarkers?: readonly string[];
  /** The base branch's run history and the head run's values of the same metrics: the trend section. */
  trend?: { readonly history: History; readonly head: Readonly<Record<string, number | undefined>> };
}

/** GitHub rejects comment bodies over 65,536 characters; stay a little below. */
const DEFAULT_COMMENT_MAX_LENGTH = 65_000;
/** Longest question text shown, ellipsis included (in code points). */
const QUESTION_MAX_CHARS = 200;
/** Longest answer shown side by side, ellipsis included: enough to judge it, short enough to compare. */
const ANSWER_MAX_CHARS = 300;
const ID_MAX_CHARS = 80;
const TAG_MAX_CHARS = 60;
/** Lost documents named per question; the rest are counted. */
const DOCUMENTS_SHOWN = 3;
/** A question list longer than this shows its first {@link LIST_VISIBLE} rows and folds the rest. */
const LIST_FOLD_AFTER = 20;
const LIST_VISIBLE = 10;
/** More tags than this fold the tag table. */
const TAGS_FOLD_AFTER = 8;
/** At most this many tags are counted in the comment; the rest are in the JSON. */
const TAGS_SHOWN = 50;

// ---------------------------------------------------------------------------------------------------------------
// Words for tests

const capitalise = (value: string) => value.charAt(0).toUpperCase() + value.slice(1);

/** The subject at the start of a sentence: our phrases capitalised, metric names as they are spelt. */
function sentenceStart(test: PairedTest, rule: string): string {
  const words = testSubject(test.metric, rule);
  return words === rule || words === test.metric ? words : capitalise(words);
}

/** "16 questions lost their gold document, 2 gained it": the discordant pairs in the test's own words. */
function movement(test: McNemarTest): string {
  return wordsOf(test.metric)?.movement(test.broken, test.fixed) ?? `${test.broken} broken, ${test.fixed} fixed`;
}

const percent = (share: number) => `${(share * 100).toFixed(1)}%`;

/**
 * A significant gated test as evidence, in words first: bold "questions answered right: 77.4% → 73.1%" (a score as
 * "metric base → head"), then the questions that moved and the deciding p-value; how p was computed is said once,
 * under the list.
 */
function evidence(test: PairedTest, rule: string): PhrasingContent[] {
  if (test.kind === 'usage') {
    const [headline, detail] = usageEvidence(test).split(/: (.*)/s);
    return [strong(...dollarPhrasing(capitalise(headline!))), ...dollarPhrasing(`: ${detail}.`)];
  }
  const share = shareWords(test.metric, rule);
  const headline =
    share === null
      ? `${testSubject(test.metric, rule)} ${fixed3(test.base)} → ${fixed3(test.head)}`
      : `${capitalise(share)}: ${percent(test.base)} → ${percent(test.head)}`;
  // A p from Hoeffding's bound is at most that (so is its Holm adjustment).
  const p = `p ${test.kind === 'randomization' && test.tailBound ? '≤' : '='} ${formatP(test.adjustedPValue ?? test.pValue)}`;
  const detail =
    test.kind === 'mcnemar'
      ? `: ${movement(test)} (${p}).`
      : test.rates !== undefined
        ? `: ${rateMovementWords(test.rates)}; Δ ${formatDelta(test.delta)}, 95% CI ${formatDelta(test.ci[0])} to ${formatDelta(test.ci[1])} (${p}).`
        : `: Δ ${formatDelta(test.delta)}, 95% CI ${formatDelta(test.ci[0])} to ${formatDelta(test.ci[1])} (${p}).`;
  return [strong(...prose(headline)), ...prose(detail)];
}

/** How the evidence's p-values were computed: "exact McNemar, Holm-adjusted across 2 gated tests; α = 0.05". */
function pMethod(tests: readonly PairedTest[], gatedCount: number, alpha: number): string {
  const mcnemarNames = { exact: 'exact McNemar', 'mid-p': 'mid-p McNemar', chi2: 'McNemar χ²' };
  const names = [
    ...new Set(
      tests.map((test) => {
        if (test.kind === 'mcnemar') return mcnemarNames[test.decidedBy];
        const name =
          test.kind === 'usage'
            ? test.scale === 'log'
              ? 'paired randomization on log-latency'
              : 'paired randomization'
            : test.rates === undefined
              ? 'paired randomization'
              : RATE_TEST_NAME;
        return test.tailBound ? `${name} (Hoeffding's bound on its tail)` : name;
      }),
    ),
  ];
  const holm = tests.some((test) => test.adjustedPValue !== null) && gatedCount > 1 ? `, Holm-adjusted across ${gatedCount} gated tests` : '';
  return `p: ${names.join(' and ')}${holm}; α = ${alpha}`;
}

/** The size of a difference in words: percentage points for rates, the signed delta otherwise. */
function sizeWords(test: Exclude<PairedTest, UsageTest>): string {
  const direction = test.delta < 0 ? 'drop' : 'gain';
  return test.kind === 'mcnemar' || test.rates !== undefined
    ? `a ${(Math.abs(test.delta) * 100).toFixed(1)}-point ${direction}`
    : `a ${formatDelta(test.delta)} ${direction}`;
}

/** "End-to-end correctness 0.690 → 0.645 is not significant yet (p = 0.0784): … about 405 paired questions …". */
function powerSentence(test: Exclude<PairedTest, UsageTest>, rule: string): string {
  const what = `${sentenceStart(test, rule)} ${fixed3(test.base)} → ${fixed3(test.head)}`;
  const p =
    test.adjustedPValue !== null && test.adjustedPValue !== test.pValue
      ? `p = ${formatP(test.pValue)}, Holm-adjusted ${formatP(test.adjustedPValue)}`
      : `p = ${formatP(test.pValue)}`;
  if (test.delta === 0) return `${what}: no net change (${p}).`;
  const needed = formatRequiredN(test.requiredN);
  const spread = test.kind === 'mcnemar' ? 'this discordance' : 'this spread';
  return needed === null
    ? `${what} is not significant (${p}).`
    : `${what} is not significant yet (${p}): with ${spread} ${needed} paired questions would be needed to tell ${sizeWords(test)} from noise.`;
}

// ---------------------------------------------------------------------------------------------------------------
// The verdict

interface Verdict {
  /** The verdict in a few words, also a commit status's description: "retrieval regressed significantly". */
  readonly words: string;
  readonly icon: '❌' | '⚠️' | '✅';
  /** Gated tests whose significant drop fails the check. */
  readonly failing: ReadonlySet<PairedTest>;
  /** Reasons that are not a failing test (floors), in words. */
  readonly otherReasons: readonly string[];
}

function decideWords(comparison: Comparison, rule: string): Verdict {
  const gated = comparison.tests.filter((t) => t.gate !== null);
  const context = { retrievalOk: rule, judges: comparison.judges };
  // The gate's own changes have their section, with the values as inert text.
  const otherReasons = comparison.reasons
    .filter((r) => r.kind !== 'regressed' && r.kind !== 'rose' && r.kind !== 'gate-changed-unapproved')
    .map((r) => reasonText(r, context));
  const failing = gated.filter((t) => t.gateOutcome === 'fails');
  const failingQuality = failing.filter((t) => !isUsageTest(t));
  const failingUsage = failing.filter(isUsageTest);
  const failingSet = new Set(failing);
  const join = (words: string[]) => (words.length <= 1 ? words.join('') : `${words.slice(0, -1).join(', ')} and ${words.at(-1)}`);

  if (comparison.verdict === 'fail') {
    const parts: string[] = [];
    if (comparison.reasons.some((r) => r.kind === 'gate-changed-unapproved')) parts.push('the pull request changes its own gate without approval');
    if (failingQuality.length > 0) parts.push(`${join(failingQuality.map((t) => gateWords(t.gate!)))} regressed significantly`);
    if (failingUsage.length > 0) parts.push(`${join(failingUsage.map((t) => gateWords(t.gate!)))} rose significantly beyond tolerance`);
    const broken = comparison.floors.filter((f) => f.outcome === 'broken').length;
    const unchecked = comparison.floors.filter((f) => f.outcome === 'unchecked').length;
    if (broken > 0) parts.push(broken === 1 ? 'a floor is broken' : `${broken} floors are broken`);
    if (unchecked > 0) parts.push(unchecked === 1 ? 'a floor cannot be checked' : `${unchecked} floors cannot be checked`);
    if (comparison.reasons.some((r) => r.kind === 'too-few-paired' || r.kind === 'low-coverage')) parts.push('too few questions were compared');
    const lostGates = comparison.reasons.flatMap((r) => (r.kind === 'gate-data-lost' ? [gateWords(r.gate)] : []));
    if (lostGates.length > 0) parts.push(`the head results lost the data of ${join(lostGates)}`);
    return { words: parts.length > 0 ? parts.join('; ') : 'this check fails', icon: '❌', failing: failingSet, otherReasons };
  }
  const uncalibrated = gated.filter((t) => t.gateOutcome === 'uncalibrated-judge');
  const smallDrops = gated.filter((t) => t.gateOutcome === 'below-minimum-effect');
  const tolerated = gated.filter((t) => t.gateOutcome === 'within-tolerance');
  const gains = gated.filter((t) => t.significant && !worsened(t) && (t.kind === 'usage' ? t.ratio < 1 : t.delta > 0));
  const words =
    uncalibrated.length > 0
      ? `${join(uncalibrated.map((t) => gateWords(t.gate!)))} dropped, but the judge is uncalibrated, so it does not gate`
      : smallDrops.length > 0 || tolerated.length > 0
        ? `no regression beyond the ${smallDrops.length > 0 ? 'minimum effect' : 'tolerance'}`
        : gains.length > 0
          ? `no significant regression; ${join(gains.map((t) => gateWords(t.gate!)))} improved`
          : 'no significant regression';
  return { words, icon: uncalibrated.length > 0 ? '⚠️' : '✅', failing: failingSet, otherReasons };
}

/** The verdict in a few words, as the comment's heading says it. */
export function verdictWords(comparison: Comparison, rule: string): string {
  return decideWords(comparison, rule).words;
}

/** The last column of the tests table: what the test does to the verdict. */
function roleCell(test: PairedTest, failing: ReadonlySet<PairedTest>): string {
  const [worse, better] = test.kind === 'usage' ? ['rise', 'fall'] : ['drop', 'gain'];
  if (test.gate === null) return test.significant ? (worsened(test) ? `⚠️ report, significant ${worse}` : `✅ report, significant ${better}`) : 'report';
  if (failing.has(test)) return '❌ gate';
  if (test.gateOutcome === 'uncalibrated-judge') return '⚠️ gate, uncalibrated judge';
  if (test.gateOutcome === 'below-minimum-effect') return '⚠️ gate, below the minimum effect';
  if (test.kind === 'usage' && test.gateOutcome === 'within-tolerance') return `⚠️ gate, within the ${toleranceWords(test)}`;
  if (!test.significant) return 'gate, not significant';
  return worsened(test) ? '⚠️ gate' : '✅ gate, improved';
}

// ---------------------------------------------------------------------------------------------------------------
// Sections

function verdictSections(comparison: Comparison, options: CommentOptions, verdict: Verdict): RootContent[] {
  const rule = options.retrievalOk;
  const { alpha } = comparison;
  const gated = comparison.tests.filter((t) => t.gate !== null);
  const out: RootContent[] = [heading(3, `${verdict.icon} rag-gate: ${verdict.words}`)];

  const evidenceTests = verdict.failing.size > 0 ? [...verdict.failing] : gated.filter((t) => t.significant);
  const items: PhrasingContent[][] = evidenceTests.map((test) => [
    ...evidence(test, rule),
    ...(test.gateOutcome === 'below-minimum-effect' ? [text(' The drop is smaller than the minimum effect, so it only warns.')] : []),
    ...(test.gateOutcome === 'uncalibrated-judge' ? [text(' Its values come from an uncalibrated judge, so it only warns.')] : []),
    ...(test.kind === 'usage' && test.gateOutcome === 'within-tolerance' ? [text(` The rise is within the ${toleranceWords(test)}, so it only warns.`)] : []),
  ]);
  for (const reason of verdict.otherReasons) items.push(prose(`${capitalise(reason)}.`));
  if (items.length > 0) out.push(bulletList(items));

  const closing: string[] = [];
  if (evidenceTests.length === 0 && verdict.otherReasons.length === 0) {
    const n = gated.length;
    closing.push(n === 0 ? 'No test is gated.' : `No gated test changed significantly (α = ${alpha}${n > 1 ? `, Holm-adjusted across ${n} tests` : ''}).`);
  }
  closing.push(comparison.verdict === 'fail' ? 'This check fails.' : 'This check passes.');
  if (evidenceTests.length > 0) closing.push(`(${pMethod(evidenceTests, gated.length, alpha)}.)`);
  out.push(paragraph(...prose(closing.join(' '))));

  const power = gated.filter((t) => !t.significant && !isUsageTest(t)).map((t) => powerSentence(t as Exclude<PairedTest, UsageTest>, rule));
  if (power.length > 0) out.push(paragraph(...prose(power.join(' '))));
  const usage = usageLine(comparison);
  if (usage !== null) out.push(paragraph(...dollarPhrasing(`${capitalise(usage)}.`)));

  out.push(paragraph(...causeLine(comparison)));
  return out;
}

function bulletList(items: readonly PhrasingContent[][]): List {
  return {
    type: 'list',
    ordered: false,
    spread: false,
    children: items.map((item) => ({ type: 'listItem', spread: false, children: [paragraph(...item)] })),
  };
}

/** "15 questions regressed: **11 because retrieval lost the gold document**, 4 because …". */
function causeLine(comparison: Comparison): PhrasingContent[] {
  const hasCorrect = comparison.tests.some((t) => t.metric === 'correct');
  const { regressions, fixed } = comparison;
  if (!hasCorrect) {
    const lost = comparison.retrievalRegressions.length;
    return [
      text(
        lost === 0
          ? 'No question carries end-to-end correctness in both runs, and none lost its gold document.'
          : `No question carries end-to-end correctness in both runs; ${plural(lost, 'question')} lost ${lost === 1 ? 'its' : 'their'} gold document.`,
      ),
    ];
  }
  const fixedWords = fixed.length === 0 ? '' : ` ${plural(fixed.length, 'question')} went from wrong to right.`;
  if (regressions.length === 0) return [text(`No question went from right to wrong.${fixedWords}`)];
  const causes = comparison.causes.regressions;
  const parts: [number, string][] = [
    [causes.retrieval, 'because retrieval lost the gold document'],
    [causes.generation, 'because the answer got worse with the same or better retrieval'],
    [causes.unknown, 'with no retrieval outcome to tell why'],
  ];
  const out: PhrasingContent[] = [text(`${plural(regressions.length, 'question')} regressed: `)];
  parts
    .filter(([count]) => count > 0)
    .forEach(([count, why], i) => {
      if (i > 0) out.push(text(', '));
      const words = `${grouped(count)} ${why}`;
      out.push(count * 2 > regressions.length && count < regressions.length ? strong(text(words)) : text(words));
    });
  out.push(text(`.${fixedWords}`));
  return out;
}

/** Whether a report row's metric is a retrieval metric (`ndcg@10`, `mrr`…): the gated retrieval test's kin. */
function isRetrievalMetric(metric: string): boolean {
  try {
    parseRetrievalMetric(metric);
    return true;
  } catch {
    return false;
  }
}

/**
 * The gated drop a report-only test measures again, in the gate's words: a retrieval metric's significant drop
 * beside a significant drop of the gated retrieval test says nothing the gated row does not.
 */
function repeatedDrop(test: PairedTest, tests: readonly PairedTest[]): string | undefined {
  if (test.gate !== null || !test.significant || test.delta >= 0 || !isRetrievalMetric(test.metric)) return undefined;
  const gated = tests.find((t) => t.gate === 'retrieval' && t.significant && t.delta < 0);
  return gated === undefined ? undefined : gateWords('retrieval');
}

/**
 * The tests table: gated rows and significant changes open, the rest (and the repeats of a gated drop) folded. What
 * a question cost has a row only when it moved significantly (the line under the verdict says the rest), for
 * latency, tokens and cost: its label names the p95 (or the mean) and the ratio, base and head are the means, Δ
 * their difference.
 */
function testsTable(comparison: Comparison, options: CommentOptions, failing: ReadonlySet<PairedTest>): RootContent[] {
  const rows = comparison.tests
    .filter((test) => !isUsageTest(test) || (isHeadlineUsage(test) && test.significant))
    .map((test): MetricRow => {
      if (test.kind === 'usage') {
        return {
          cells: [
            dollarPhrasing(`${usageHeadline(test)}, ${ratioKind(test.scale)} ${ratioWords(test.ratio, test.ratioCi)}`),
            dollarPhrasing(formatAmount(test.base, test.unit)),
            dollarPhrasing(formatAmount(test.head, test.unit)),
            dollarPhrasing(`${signedAmount(test.delta, test.unit)} (${signedAmount(test.ci[0], test.unit)}, ${signedAmount(test.ci[1], test.unit)})`),
            formatP(test.pValue),
            formatP(test.adjustedPValue),
            roleCell(test, failing),
          ],
          gated: test.gate !== null,
          significant: test.significant,
        };
      }
      const repeats = repeatedDrop(test, comparison.tests);
      return {
        cells: [
          testTableLabel(test.metric, options.retrievalOk),
          fixed3(test.base),
          fixed3(test.head),
          `${formatDelta(test.delta)} (${formatDelta(test.ci[0])}, ${formatDelta(test.ci[1])})`,
          formatP(test.pValue),
          formatP(test.adjustedPValue),
          repeats === undefined ? roleCell(test, failing) : `report, the gated ${repeats} drop again`,
        ],
        gated: test.gate !== null,
        significant: test.significant,
        ...(repeats === undefined ? {} : { repeats }),
      };
    });
  return metricsTable(['metric', 'base', 'head', 'Δ (95% CI)', 'p', 'Holm p', 'gate'], rows, ['left', 'right', 'right', 'right', 'right', 'right', 'left']);
}

/** A signed amount with a true minus sign: "+540 ms", "−$0.0003". */
function signedAmount(value: number, unit: UsageTest['unit']): string {
  const amount = formatAmount(Math.abs(value), unit);
  return value < 0 ? `−${amount}` : value > 0 ? `+${amount}` : amount;
}

/** Questions listed per usage measure in the comment (the JSON report holds ten). */
const RISES_SHOWN = 5;

/**
 * A folded section of the questions whose latency, tokens or cost rose most, for each measure that rose
 * significantly, with each quantile's ratio and the noise floor when there were repeats.
 */
function risesSection(comparison: Comparison): RootContent[] {
  const rose = comparison.tests.filter(isHeadlineUsage).filter((test) => test.significant && test.ratio > 1);
  if (rose.length === 0) return [];
  const body: RootContent[] = [];
  for (const test of rose) {
    const noise = usageNoiseWords(test);
    body.push(
      paragraph(
        strong(text(capitalise(usageName(test.metric)))),
        ...dollarPhrasing(`: ${quantileWords(test).join('; ')}${noise === null ? '' : `; ${noise}`}.`),
      ),
    );
    const shown = test.rises.slice(0, RISES_SHOWN);
    if (shown.length > 0)
      body.push(
        table(
          ['question', usageName(test.metric)],
          shown.map((rise) => [questionCell(rise, undefined, null), dollarPhrasing(riseCell(test, rise.base, rise.head))]),
        ),
      );
  }
  const names = rose.map((test) => usageName(test.metric));
  return details(`Questions whose ${names.length === 1 ? names[0] : `${names.slice(0, -1).join(', ')} or ${names.at(-1)}`} rose most`, body);
}

function mcnemarSection(comparison: Comparison, options: CommentOptions): RootContent[] {
  const tests = comparison.tests.filter((t): t is McNemarTest => t.kind === 'mcnemar');
  if (tests.length === 0) return [];
  const body: RootContent[] = [];
  for (const test of tests) {
    const [ok, failed] = wordsOf(test.metric)?.outcomes ?? ['right', 'wrong'];
    body.push(
      table(
        [testLabel(test.metric, options.retrievalOk), `head ${ok}`, `head ${failed}`],
        [
          [strong(text(`base ${ok}`)), `${test.bothRight} both`, strong(text(`${test.broken} broken`))],
          [strong(text(`base ${failed}`)), strong(text(`${test.fixed} fixed`)), `${test.bothWrong} both`],
        ],
      ),
      paragraph(...prose(`${capitalise(mcnemarSentence(test))}.${((words) => (words === null ? '' : ` ${capitalise(words)}.`))(oddsRatioWords(test))}`)),
    );
  }
  return details(tests.length === 1 ? 'McNemar table' : 'McNemar tables', body);
}

/** The cause cell of a changed question, in words only, so that its column is never squeezed. */
function causeCell(change: QuestionChange, improving: boolean): string {
  if (change.cause === 'unknown') return 'unknown (no retrieval outcome)';
  if (change.cause === 'retrieval' && improving) return 'retrieval: found the gold document';
  return change.cause;
}

/**
 * What retrieval lost: "lost `auth-0007` · in its place `faq-0012`" (the head's top documents that base's top
 * lacked), or the head's top documents when none is new (its slots taken by other passages of the same ones).
 */
function lostLine(lost: readonly string[], evidence: QuestionEvidence | undefined): PhrasingContent[] {
  const documents = documentList(lost, evidence);
  const out: PhrasingContent[] = documents.length === 0 ? [text('lost the gold document')] : [text('lost '), ...documents];
  const before = new Set(evidence?.base?.top ?? []);
  const newcomers = (evidence?.head?.top ?? []).filter((id) => !before.has(id));
  if (newcomers.length > 0) out.push(text(' · in its place '), ...documentList(newcomers, evidence));
  else if (evidence?.head?.top !== undefined) out.push(text(" · head's top "), ...documentList(evidence.head.top, evidence));
  return out;
}

/**
 * Up to {@link DOCUMENTS_SHOWN} documents, then a count of the rest: each by its id as code, or, when the id is a
 * hash of its text, by its first words in quotes.
 */
function documentList(ids: readonly string[], evidence: QuestionEvidence | undefined): PhrasingContent[] {
  const out: PhrasingContent[] = [];
  ids.slice(0, DOCUMENTS_SHOWN).forEach((id, i) => {
    if (i > 0) out.push(text(', '));
    const label = documentLabel(id, evidence);
    out.push(...(label === null ? [inert(id, ID_MAX_CHARS)] : [text('“'), ...inertProse(label, DOCUMENT_LABEL_MAX), text('”')]));
  });
  if (ids.length > DOCUMENTS_SHOWN) out.push(text(` and ${ids.length - DOCUMENTS_SHOWN} more`));
  return out;
}

interface QuestionList {
  readonly header: readonly string[];
  /** How many rows the list has. */
  readonly length: number;
  /** Row `index`, built when first asked for (most rows of a long list are never shown), then kept: a row rendered again is the same cells. */
  row(index: number): readonly Cell[];
  /** The first `count` rows. */
  rows(count: number): readonly (readonly Cell[])[];
}

/** A list of `items`, each row made by `row` when first asked for. */
function questionList<T>(header: readonly string[], items: readonly T[], row: (item: T) => readonly Cell[]): QuestionList {
  const built: (readonly Cell[])[] = [];
  const upTo = (end: number) => {
    while (built.length < end) built.push(row(items[built.length]!));
  };
  return {
    header,
    length: items.length,
    row: (index) => {
      upTo(index + 1);
      return built[index]!;
    },
    rows: (count) => {
      const end = Math.min(count, items.length);
      upTo(end);
      return built.slice(0, end);
    },
  };
}

/** A listed question, with what the reports know of it. */
interface Listed {
  readonly id: string;
  readonly question: string;
  readonly evidence?: QuestionEvidence;
}

/** How each side's answer fared (null where unknown), for the answers side by side; null: no answers shown. */
type AnswerOutcomes = readonly [base: string | null, head: string | null] | null;

/**
 * The question cell: the id first (unless it is the hash of the question), so that it starts the cell's first line
 * and never breaks at its hyphen, then the question as prose, its trace links, what retrieval lost, and its answers
 * side by side folded under it. The other columns hold short words, so this one takes the width a pull request
 * page leaves.
 */
function questionCell(item: Listed, traceUrl: string | undefined, outcomes: AnswerOutcomes, lost?: readonly string[]): PhrasingContent[] {
  const links = traceLinks(item, traceUrl);
  return [
    // An id that is the hash of the question says nothing the question does not.
    ...(idFromText(item) ? [] : [inert(item.id, ID_MAX_CHARS), text(' ')]),
    ...inertProse(item.question, QUESTION_MAX_CHARS),
    ...(links.length > 0 ? [text(' · '), ...links] : []),
    // Document ids start a line of their own in the widest column, where they do not break at a hyphen.
    ...(lost === undefined ? [] : [lineBreak(), ...lostLine(lost, item.evidence)]),
    ...(outcomes === null ? [] : answersFold(item.evidence, outcomes)),
  ];
}

/** The question's trace links: the records' own `trace_url` (base and head), else the `trace-url` template's. */
function traceLinks(item: Listed, template: string | undefined): PhrasingContent[] {
  const own = (['base', 'head'] as const).flatMap((side) => {
    const given = item.evidence?.[side]?.traceUrl;
    const url = given === undefined ? null : safeHttpUrl(given);
    return url === null ? [] : [link(url, `${side} trace`)];
  });
  if (own.length === 0 && template !== undefined) {
    const url = safeHttpUrl(template.replaceAll('{id}', encodeURIComponent(item.id)));
    if (url !== null) own.push(link(url, 'trace'));
  }
  return own.flatMap((node, i) => (i === 0 ? [node] : [text(' · '), node]));
}

/** The expected answer, then the base and head answers, each cut to a readable length, folded. */
function answersFold(evidence: QuestionEvidence | undefined, [baseOutcome, headOutcome]: readonly [string | null, string | null]): PhrasingContent[] {
  const { expectedAnswer, base, head } = evidence ?? {};
  if (expectedAnswer === undefined && base?.answer === undefined && head?.answer === undefined) return [];
  const answer = (value: string | undefined) => (value === undefined ? [text('—')] : inertProse(value, ANSWER_MAX_CHARS));
  return inlineDetails('answers side by side', [
    ...(expectedAnswer === undefined ? [] : [strong(text('expected')), text(': '), ...answer(expectedAnswer), lineBreak()]),
    strong(text('base')),
    text(baseOutcome === null ? ': ' : ` (${baseOutcome}): `),
    ...answer(base?.answer),
    lineBreak(),
    strong(text('head')),
    text(headOutcome === null ? ': ' : ` (${headOutcome}): `),
    ...answer(head?.answer),
  ]);
}

function regressionList(changes: readonly QuestionChange[], improving: boolean, options: CommentOptions): QuestionList {
  const outcomes: AnswerOutcomes = improving ? ['wrong', 'right'] : ['right', 'wrong'];
  const lost = (c: QuestionChange) => (c.cause === 'retrieval' && !improving ? c.lostDocuments : undefined);
  const cell = (c: QuestionChange) => questionCell(c, options.traceUrl, outcomes, lost(c));
  // With repeated runs, how often each side was right: "correct in 1/5 head runs vs 5/5 base runs".
  if (changes.some((c) => c.correctRuns !== undefined)) {
    return questionList(['question', 'runs', 'cause'], changes, (c) => [
      cell(c),
      c.correctRuns === undefined ? '' : correctRunsWords(c.correctRuns),
      causeCell(c, improving),
    ]);
  }
  return questionList(['question', 'cause'], changes, (c) => [cell(c), causeCell(c, improving)]);
}

function retrievalList(items: readonly RetrievalRegression[], showRescued: boolean, options: CommentOptions): QuestionList {
  const cell = (r: RetrievalRegression) =>
    questionCell(r, options.traceUrl, [null, showRescued ? (r.rescued ? 'still right' : 'wrong') : null], r.lostDocuments);
  return showRescued
    ? questionList(['question', 'answer'], items, (r) => [cell(r), r.rescued ? 'still right' : 'wrong'])
    : questionList(['question'], items, (r) => [cell(r)]);
}

/** "… and N more; see the full JSON (…)". */
function moreLine(hidden: number, { reportLink }: CommentOptions): Paragraph {
  const where =
    reportLink === undefined || reportLink.trim() === '' ? [text('the full JSON report')] : [text('the full JSON ('), ...annotated(reportLink), text(')')];
  return paragraph(text(`… and ${grouped(hidden)} more; see `), ...where);
}

/**
 * The first `keep` rows of a list as a table, and "… and N more" when rows were cut. An open list (`noun` given)
 * longer than {@link LIST_FOLD_AFTER} shows its first rows and folds the rest.
 */
function listBody(list: QuestionList, keep: number, noun: string | null, options: CommentOptions): RootContent[] {
  const rows = list.rows(keep);
  const out: RootContent[] = [];
  if (noun !== null && rows.length > LIST_FOLD_AFTER) {
    out.push(table(list.header, rows.slice(0, LIST_VISIBLE)));
    out.push(...details(`the other ${plural(rows.length - LIST_VISIBLE, noun)}`, [table(list.header, rows.slice(LIST_VISIBLE))]));
  } else if (rows.length > 0) {
    out.push(table(list.header, rows));
  }
  if (keep < list.length) out.push(moreLine(list.length - keep, options));
  return out;
}

/** How many rows of each truncatable list to render. */
export interface Limits {
  missing: number;
  main: number;
  extra: number;
  fixed: number;
  tags: number;
}

interface Lists {
  /** Base questions missing from head, counted as failed. */
  readonly missing: QuestionList;
  /** The regressed questions, or the retrieval regressions when no question carries correctness. */
  readonly main: { readonly title: string; readonly noun: string; readonly list: QuestionList };
  /** Retrieval regressions not in the main list (mostly rescued by the model). */
  readonly extra: { readonly summary: string; readonly list: QuestionList } | null;
  readonly fixed: QuestionList;
  /** The tags whose questions moved, most moved first. */
  readonly tags: readonly TagChange[];
}

/** A missing question's base outcomes: what it lost by being left out. */
function baseOutcome(question: MissingQuestion): string {
  const parts = [
    question.wasCorrect === null ? '' : question.wasCorrect ? 'right' : 'wrong',
    question.retrievalWasOk === null ? '' : question.retrievalWasOk ? 'retrieval ok' : 'retrieval failed',
  ];
  return parts.filter(Boolean).join(', ') || '—';
}

function missingList(comparison: Comparison, options: CommentOptions): QuestionList {
  return questionList(['question', 'in base'], comparison.missing, (m) => [questionCell(m, options.traceUrl, null), baseOutcome(m)]);
}

/**
 * A comparison's lists, built once for all its renders: the comment and the job summary then share their row
 * nodes, and with them each row's serialised text (the rows of the comment are the first of the summary's).
 */
const builtLists = new WeakMap<Comparison, Map<string | undefined, Lists>>();

function listsOf(comparison: Comparison, options: CommentOptions): Lists {
  let byTraceUrl = builtLists.get(comparison);
  if (byTraceUrl === undefined) builtLists.set(comparison, (byTraceUrl = new Map()));
  let lists = byTraceUrl.get(options.traceUrl);
  if (lists === undefined) byTraceUrl.set(options.traceUrl, (lists = buildLists(comparison, options)));
  return lists;
}

function buildLists(comparison: Comparison, options: CommentOptions): Lists {
  const hasCorrect = comparison.tests.some((t) => t.metric === 'correct');
  const tags = comparison.byTag.filter((tag) => tag.outcomes.some((o) => o.broken + o.fixed > 0));
  if (!hasCorrect) {
    const items = comparison.retrievalRegressions;
    return {
      missing: missingList(comparison, options),
      main: {
        title: `Questions that lost their gold document (${grouped(items.length)})`,
        noun: 'question',
        list: retrievalList(items, false, options),
      },
      extra: null,
      fixed: regressionList(comparison.fixed, true, options),
      tags,
    };
  }
  const regressed = new Set(comparison.regressions.map((r) => r.id));
  const others = comparison.retrievalRegressions.filter((r) => !regressed.has(r.id));
  const rescued = others.filter((r) => r.rescued).length;
  const summary =
    rescued === others.length
      ? `${grouped(others.length)} more lost their gold document but ${others.length === 1 ? 'was' : 'were'} still answered right (rescued by the model)`
      : `${grouped(others.length)} more lost their gold document (${rescued} still answered right)`;
  return {
    missing: missingList(comparison, options),
    main: {
      title: `Regressed questions (${grouped(comparison.regressions.length)})`,
      noun: 'regressed question',
      list: regressionList(comparison.regressions, false, options),
    },
    extra: others.length === 0 ? null : { summary, list: retrievalList(others, rescued !== others.length, options) },
    fixed: regressionList(comparison.fixed, true, options),
    tags,
  };
}

function questionSections(lists: Lists, limits: Limits, options: CommentOptions): RootContent[] {
  const out: RootContent[] = [];
  const { missing, main, extra, fixed, tags } = lists;
  if (missing.length > 0) {
    out.push(
      heading(4, `Missing from head: counted as failed (${grouped(missing.length)})`),
      ...listBody(missing, limits.missing, 'missing question', options),
    );
  }
  if (main.list.length > 0) out.push(heading(4, main.title), ...listBody(main.list, limits.main, main.noun, options));
  if (extra !== null) out.push(...details(extra.summary, listBody(extra.list, limits.extra, null, options)));
  if (fixed.length > 0) {
    out.push(...details(`${plural(fixed.length, 'question')} fixed (wrong in base, right in head)`, listBody(fixed, limits.fixed, null, options)));
  }
  if (tags.length > 0) {
    const body: RootContent[] = [];
    if (limits.tags > 0) body.push(...tagTable(tags.slice(0, limits.tags), tags));
    if (limits.tags < tags.length) body.push(moreLine(tags.length - limits.tags, options));
    if (tags.length > TAGS_FOLD_AFTER) out.push(...details(`By tag (${plural(tags.length, 'tag')} moved)`, body));
    else out.push(paragraph(strong(text('By tag'))), ...body);
  }
  return out;
}

/** The outcomes of the tag table, in its column order, with their headers. */
const TAG_COLUMNS: readonly [TagOutcome['metric'], string][] = [
  ['correct', 'answered right'],
  ['retrieval_ok', 'retrieval ok'],
];

/**
 * Base against head by tag: the questions, each outcome's rates (⚠️ where its change is significant after Holm's
 * correction across every per-tag test), and the regressions and fixes of the first outcome shown.
 */
function tagTable(shown: readonly TagChange[], all: readonly TagChange[]): RootContent[] {
  const columns = TAG_COLUMNS.filter(([metric]) => all.some((tag) => tag.outcomes.some((o) => o.metric === metric)));
  const [first] = columns;
  if (first === undefined) return [];
  const rate = (tag: TagChange, metric: TagOutcome['metric']) => {
    const outcome = tag.outcomes.find((o) => o.metric === metric);
    if (outcome === undefined) return '—';
    // No-break spaces: a rate pair reads as one value and never breaks around its arrow.
    return `${percent(outcome.base)}\u00a0→\u00a0${percent(outcome.head)}${outcome.significant ? (outcome.head < outcome.base ? '\u00a0⚠️' : '\u00a0✅') : ''}`;
  };
  const counts = (tag: TagChange) => tag.outcomes.find((o) => o.metric === first[0]);
  const rows = shown.map((tag) => [
    inert(tag.tag, TAG_MAX_CHARS),
    grouped(tag.questions),
    rate(tag, first[0]),
    grouped(counts(tag)?.broken ?? 0),
    grouped(counts(tag)?.fixed ?? 0),
    ...columns.slice(1).map(([metric]) => rate(tag, metric)),
  ]);
  const tests = all.reduce((sum, tag) => sum + tag.outcomes.length, 0);
  const header = ['tag', 'questions', first[1], 'broken', 'fixed', ...columns.slice(1).map(([, name]) => name)];
  return [
    table(header, rows, ['left', 'right', 'right', 'right', 'right', 'right']),
    paragraph(
      ...prose(
        `Paired questions of each tag, most moved first; broken and fixed count ${first[0] === 'correct' ? 'answers' : 'retrievals'}. ⚠️ (✅) marks a drop (gain) significant after Holm's correction across the ${plural(tests, 'per-tag McNemar test')}.`,
      ),
    ),
  ];
}

function decompositionSection(comparison: Comparison): RootContent[] {
  const { base, head } = comparison.decomposition;
  if (base.n === 0 && head.n === 0) return [];
  const body: RootContent[] = [table(['', 'base', 'head'], decompositionRows(base, head), ['left', 'right', 'right'])];
  if (comparison.retrievalShifted) body.push(paragraph(...prose(`⚠️ ${retrievalShiftNote(comparison)}`)));
  for (const warning of decompositionWarnings(head)) body.push(paragraph(...prose(`⚠️ In head, ${warning}`)));
  return details('Where the errors come from (decomposition)', body);
}

/** At most this many lost outcomes are listed; the rest are counted (all are in the JSON). */
const LOST_OUTCOMES_SHOWN = 20;

/** Paired questions whose head record lacks an outcome their base has: what each lost, where it counts, the fix. */
function lostOutcomesSection(comparison: Comparison, options: CommentOptions): RootContent[] {
  const lost = comparison.lostOutcomes;
  if (lost.length === 0) return [];
  const failed = lost.some((l) => l.counted === 'failed');
  // A score's name comes from the results: code, inert, like an id.
  const names = (values: readonly string[]) => joinCells(values.map((value) => inert(value, ID_MAX_CHARS)));
  const rows = lost.slice(0, LOST_OUTCOMES_SHOWN).map((l) => [questionCell(l, undefined, null), names(l.columns), names(l.tests)]);
  return [
    heading(4, `Outcomes lost in head: ${failed ? 'counted as failed' : 'left out'} (${grouped(lost.length)})`),
    table(['question', 'lost in head', failed ? 'counted as failed in' : 'left out of'], rows),
    ...(lost.length > LOST_OUTCOMES_SHOWN ? [moreLine(lost.length - LOST_OUTCOMES_SHOWN, options)] : []),
    paragraph(...prose(`${lostOutcomesFix(lost)}.`)),
  ];
}

/** Cell pieces separated by commas. */
function joinCells(pieces: PhrasingContent[]): PhrasingContent[] {
  return pieces.flatMap((piece, i) => (i === 0 ? [piece] : [text(', '), piece]));
}

/** At most this many warnings are listed; the rest are counted (all are in the JSON). */
const WARNINGS_SHOWN = 20;

/** Flaky questions shown per run in the folded section; the JSON report holds them all. */
const FLAKY_SHOWN = 10;

/** A folded "Flaky questions" section: each repeated run's flaky rates and its first flaky questions. */
function flakySection(comparison: Comparison): RootContent[] {
  const sides = (['base', 'head'] as const).flatMap((side) => {
    const repeats = comparison.flaky?.[side];
    return repeats ? [[side, repeats] as const] : [];
  });
  if (sides.length === 0) return [];
  const body: RootContent[] = [];
  for (const [side, repeats] of sides) {
    body.push(paragraph(strong(text(side === 'base' ? 'Base' : 'Head')), ...prose(`: ${flakyRateWords(repeats)}.`)));
    const shown = repeats.flakyQuestions.slice(0, FLAKY_SHOWN);
    if (shown.length > 0)
      body.push(
        table(
          ['question', 'passes'],
          shown.map((q) => [questionCell(q, undefined, null), passCountsText(q.outcomes)]),
        ),
      );
    if (repeats.flakyQuestions.length > FLAKY_SHOWN)
      body.push(paragraph(text(`… and ${repeats.flakyQuestions.length - FLAKY_SHOWN} more in the JSON report.`)));
  }
  body.push(
    paragraph(
      ...prose(
        'A flaky question is one whose outcome differs across its runs: it flips between any two runs by luck, which the pass-rate test and the noise floor account for.',
      ),
    ),
  );
  return details('Flaky questions in base and head', body);
}

function warningsSection(comparison: Comparison, options: CommentOptions): RootContent[] {
  const context = { retrievalOk: options.retrievalOk, judges: comparison.judges };
  const warnings: Sentence[] = [...comparison.warnings.map((w) => warningWords(w, context))];
  if (warnings.length === 0) return [];
  const shown = warnings.slice(0, WARNINGS_SHOWN);
  if (warnings.length > WARNINGS_SHOWN) shown.push([`… and ${warnings.length - WARNINGS_SHOWN} more in the JSON report`]);
  const list: List = {
    type: 'list',
    ordered: false,
    spread: false,
    children: shown.map((w) => ({ type: 'listItem', spread: false, children: [paragraph(...sentencePhrasing(w))] })),
  };
  return [paragraph(strong(text('Warnings'))), list];
}

/** How the numbers were scored, in one line: the rules and what the readers derived. */
function scoringSection(comparison: Comparison, { rules }: CommentOptions): RootContent[] {
  if (rules === undefined) return [];
  const lines = comparisonScoringLines(comparison, rules);
  return lines.length === 0 ? [] : [paragraph(strong(text('Scoring')), text(`: ${lines.join(' · ')}`))];
}

/** Which judge produced the judged metrics and whether it is calibrated (model, prompt version, kappa). */
function judgeSection(comparison: Comparison): RootContent[] {
  const notes = judgeNotes(comparison.judges);
  return notes.length === 0 ? [] : [paragraph(strong(text('Judge')), text(': '), ...sentencePhrasing(notes))];
}

function footer(comparison: Comparison, options: CommentOptions): Paragraph {
  const parts: PhrasingContent[][] = [];
  if (options.baseline !== undefined && options.baseline.trim() !== '') {
    const baselineRun = options.baselineRunUrl === undefined ? null : safeHttpUrl(options.baselineRunUrl);
    parts.push([text('Baseline: '), ...annotated(options.baseline), ...(baselineRun === null ? [] : [text(' ('), link(baselineRun, 'its run'), text(')')])]);
  }
  const gated = comparison.tests.filter((t) => t.gate !== null).length;
  parts.push([
    text(
      `${plural(comparison.paired, 'paired question')}, ${grouped(comparison.missing.length)} missing (counted as failed), ` +
        `${grouped(comparison.added.length)} added, ${grouped(comparison.removed.length)} removed, ` +
        `${comparison.excluded.length > 0 ? `${grouped(comparison.excluded.length)} excluded, ` : ''}${grouped(comparison.labelsChanged.length)} relabelled` +
        ` · α = ${comparison.alpha}${gated > 1 ? `, Holm-adjusted across ${gated} gated tests` : ''}` +
        (comparison.holdoutLeftOut.length > 0 ? ` · ${holdoutLeftOutText(comparison.holdoutLeftOut.length)}` : ''),
    ),
  ]);
  if (options.reportLink !== undefined && options.reportLink.trim() !== '') parts.push(annotated(options.reportLink));
  const run = options.runUrl === undefined ? null : safeHttpUrl(options.runUrl);
  if (run !== null) parts.push([link(run, 'workflow run')]);
  return paragraph(...parts.flatMap((part, i) => (i === 0 ? part : [text(' · '), ...part])));
}

// ---------------------------------------------------------------------------------------------------------------
// Assembly and the length budget

/**
 * Renders the PR comment for a comparison. Pure and deterministic. The verdict, the counts, the tests table and
 * the folded diagnosis are always whole. When the comment would exceed `maxLength`, the question lists shrink,
 * measured on the serialised text: the fixed questions first, then the rescued retrieval regressions, then the
 * regressed questions (which keep as many rows as fit), and the per-tag counts (at most 50 tags) only when nothing
 * else is left; each cut list ends with "… and N more; see the full JSON (…)".
 */
export function renderComment(comparison: Comparison, options: CommentOptions): string {
  const maxLength = options.maxLength ?? DEFAULT_COMMENT_MAX_LENGTH;
  const { head, tail, lists, render, limits } = commentRenders(comparison, options);

  // A render holds the text of the head, of the tail and of every row shown, so their lengths bound it from below
  // without serialising a row: rows past the budget are never serialised, however many questions a list holds.
  const textOf = (children: RootContent[]) => serialise({ type: 'root', children }).trimEnd().length;
  // The lists in the order their rows are added up, the one cut last first: while the others are cut, its rows
  // alone are mostly over the budget, and the rows of the others are then neither built nor measured.
  const rowLengths: [keyof Limits, (count: number) => number][] = [
    ['main', prefixLengths(lists.main.list, maxLength)],
    ['missing', prefixLengths(lists.missing, maxLength)],
    ['extra', prefixLengths(lists.extra?.list, maxLength)],
    ['fixed', prefixLengths(lists.fixed, maxLength)],
  ];
  // The sum of the rows' lengths, or, once a part of it is over `over`, that part: it is over `over` just when the
  // sum is, which is all the bound is compared for.
  const rowsAt = (at: Limits, over: number) => {
    let sum = 0;
    for (const [key, lengths] of rowLengths) {
      if (sum > over) break;
      sum += lengths(at[key]);
    }
    return sum;
  };
  // The head and tail are serialised apart only when a cut is weighed: most comments fit whole.
  let fixedLength: number | undefined;
  const atLeast = (at: Limits) => {
    fixedLength ??= textOf(head) + textOf(tail);
    return fixedLength + rowsAt(at, maxLength - fixedLength);
  };
  // When the rows alone are within the budget the whole comment is rendered first, and returned if it fits.
  let whole: string | undefined;
  if (rowsAt(limits, maxLength) <= maxLength) {
    whole = render(limits);
    if (whole.length <= maxLength) return whole;
  }
  return fitLists(CUT_ORDER, limits, maxLength, {
    render: (at) => (at === limits && whole !== undefined ? whole : render(at)),
    atLeast,
    guess: (key, shown, excess) => guessCount(lists, key, shown, excess),
  });
}

/** The order in which `renderComment` cuts the lists to fit its budget. */
export const CUT_ORDER: readonly (keyof Limits)[] = ['fixed', 'extra', 'missing', 'main', 'tags'];

/**
 * The comment `renderComment` fits to its budget: its render at any number of rows of each list (`limits`: all
 * of them, and the tags up to {@link TAGS_SHOWN}), with the parts around the lists.
 */
export function commentRenders(comparison: Comparison, options: CommentOptions) {
  const rule = options.retrievalOk;
  const verdict = decideWords(comparison, rule);
  const lists = listsOf(comparison, options);

  const head: RootContent[] = [
    ...(options.marker !== undefined ? [markerComment(options.marker)] : []),
    ...(options.stateMarkers ?? []).map(markerComment),
    ...verdictSections(comparison, options, verdict),
    ...(options.gateChanges === undefined ? [] : gateChangesSection(options.gateChanges)),
    ...goldChangesSection(comparison.goldChanges ?? [], options.goldApproval),
    ...scoringSection(comparison, options),
    ...testsTable(comparison, options, verdict.failing),
    ...(comparison.tests.length > 0 ? [paragraph(...prose(`${intervalNote(comparison.tests)}.`))] : []),
    ...mcnemarSection(comparison, options),
    ...risesSection(comparison),
    ...lostOutcomesSection(comparison, options),
  ];
  const trend = options.trend === undefined ? [] : trendSection(options.trend.history, options.trend.head, rule);
  const tail: RootContent[] = [
    ...(trend.length > 0 ? [paragraph(strong(text('Trend on the base branch'))), ...trend] : []),
    ...decompositionSection(comparison),
    ...flakySection(comparison),
    ...judgeSection(comparison),
    ...warningsSection(comparison, options),
    footer(comparison, options),
  ];
  const render = (limits: Limits) => serialise({ type: 'root', children: [...head, ...questionSections(lists, limits, options), ...tail] });
  const limits: Limits = {
    missing: lists.missing.length,
    main: lists.main.list.length,
    extra: lists.extra?.list.length ?? 0,
    fixed: lists.fixed.length,
    tags: Math.min(lists.tags.length, TAGS_SHOWN),
  };
  return { head, tail, lists, render, limits };
}

/**
 * At least the length of the first `count` rows of `list`, serialised: the rows are measured as far as asked, and
 * not past `budget`, where the sum stops (rows past it add to a sum already over the budget).
 */
function prefixLengths(list: QuestionList | undefined, budget: number): (count: number) => number {
  const sums = [0];
  const rows = list?.length ?? 0;
  return (count) => {
    while (sums.length <= Math.min(count, rows) && sums.at(-1)! <= budget) sums.push(sums.at(-1)! + rowLengthAtLeast(list!.row(sums.length - 1)));
    return sums[Math.min(count, sums.length - 1)]!;
  };
}

/**
 * A first guess at the rows of list `key` to keep, so that a render of ~`maxLength` characters is repeated a few
 * times rather than once per step of a bisection: the rows are dropped from the end until their serialised lines
 * cover `excess`. Without `tablePipeAlign` each row is one line of its own length.
 */
function guessCount(lists: Lists, key: keyof Limits, shown: number, excess: number): number | undefined {
  // The tag table is short enough to search without a guess.
  if (key === 'tags') return undefined;
  const list = { missing: lists.missing, main: lists.main.list, extra: lists.extra?.list, fixed: lists.fixed }[key];
  if (list === undefined) return undefined;
  // The rows' lines as the render over the budget wrote them (a table at the root), else serialised.
  const rows = list.rows(shown);
  let lines = writtenRowLines(rows);
  if (lines === undefined) {
    const serialised = serialise({ type: 'root', children: [table(list.header, rows)] }).split('\n');
    // Header, delimiter row, one line per row, and the final newline's empty string.
    if (serialised.length !== shown + 3) return undefined;
    lines = serialised.slice(2, -1);
  }
  let count = shown;
  while (count > 0 && excess > 0) excess -= lines[--count]!.length + 1;
  return count;
}
