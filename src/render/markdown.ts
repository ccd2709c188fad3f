/**
 * The PR comment body: a pure function from a Comparison to GitHub-flavoured Markdown.
 *
 * The document is built as an mdast tree and serialised by mdast-util-to-markdown with the GFM extension, so
 * escaping is never done by hand. Text that comes from users' files (question text, ids, tags, document ids) only
 * ever enters the tree as `inlineCode`: inside a code span nothing is HTML, a heading, a link, an image or an
 * @mention, and the GFM table serialiser escapes `|` in code spans inside cells. Raw `html` nodes carry only our
 * own fixed markup: the sticky-comment marker and the `<details><summary>` wrappers.
 */
import { correctRunsWords, flakyRateWords, passCountsText, RATE_TEST_NAME, rateMovementWords } from './repeats-words.js';
import { holdoutLeftOutText } from './holdout.js';
import type { List, Paragraph, PhrasingContent, RootContent, Table } from 'mdast';
import { gatedTestOf } from '../core/catalog/gates.js';
import { comparisonScoringLines, type ScoringRulesInUse } from './scoring-words.js';
import type { Comparison, McNemarTest, MissingQuestion, PairedTest, QuestionChange, RetrievalRegression } from '../core/compare/types.js';
import { decompositionRows, intervalNote, mcnemarSentence, oddsRatioWords, retrievalShiftNote } from './compare-text.js';
import { gateWords, judgeNotes, reasonText, testLabel, testSubject, testTableLabel, warningWords } from './gate-words.js';
import { formatDelta, formatP, formatRequiredN, plural } from './format.js';
import { annotated, type Cell, details, heading, inert, markerComment, paragraph, prose, sentencePhrasing, serialise, strong, table, text } from './mdast.js';
import type { Sentence } from './untrusted.js';
import { fixed3 } from './text-table.js';

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
}

/** GitHub rejects comment bodies over 65,536 characters; stay a little below. */
const DEFAULT_COMMENT_MAX_LENGTH = 65_000;
/** Longest question text shown, ellipsis included (in code points). */
const QUESTION_MAX_CHARS = 200;
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
  return gatedTestOf(test.metric)?.words.movement(test.broken, test.fixed) ?? `${test.broken} broken, ${test.fixed} fixed`;
}

/** "exact McNemar p = 0.0013, Holm-adjusted 0.0026 < α = 0.05". */
function pWords(test: PairedTest, alpha: number): string {
  const mcnemarNames = { exact: 'exact McNemar', 'mid-p': 'mid-p McNemar', chi2: 'McNemar χ²' };
  const name = test.kind === 'mcnemar' ? mcnemarNames[test.decidedBy] : test.rates === undefined ? 'randomization' : RATE_TEST_NAME;
  const decisive = test.adjustedPValue ?? test.pValue;
  const compare = `${decisive < alpha ? '<' : '≥'} α = ${alpha}`;
  return test.adjustedPValue === null
    ? `${name} p = ${formatP(test.pValue)} ${compare}`
    : `${name} p = ${formatP(test.pValue)}, Holm-adjusted ${formatP(test.adjustedPValue)} ${compare}`;
}

/** A significant gated test as evidence: bold "metric base → head", then the counts and p-values. */
function evidence(test: PairedTest, rule: string, alpha: number): PhrasingContent[] {
  const head = strong(...prose(`${testSubject(test.metric, rule)} ${fixed3(test.base)} → ${fixed3(test.head)}`));
  const detail =
    test.kind === 'mcnemar'
      ? `: ${movement(test)} (${pWords(test, alpha)}).`
      : test.rates !== undefined
        ? `: ${rateMovementWords(test.rates)}; Δ ${formatDelta(test.delta)}, 95% CI ${formatDelta(test.ci[0])} to ${formatDelta(test.ci[1])} (${pWords(test, alpha)}).`
        : `: Δ ${formatDelta(test.delta)}, 95% CI ${formatDelta(test.ci[0])} to ${formatDelta(test.ci[1])} (${pWords(test, alpha)}).`;
  return [head, ...prose(detail)];
}

/** The size of a difference in words: percentage points for rates, the signed delta otherwise. */
function sizeWords(test: PairedTest): string {
  const direction = test.delta < 0 ? 'drop' : 'gain';
  return test.kind === 'mcnemar' || test.rates !== undefined
    ? `a ${(Math.abs(test.delta) * 100).toFixed(1)}-point ${direction}`
    : `a ${formatDelta(test.delta)} ${direction}`;
}

/** "End-to-end correctness 0.690 → 0.645 is not significant yet (p = 0.0784): … about 405 paired questions …". */
function powerSentence(test: PairedTest, rule: string): string {
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
  const otherReasons = comparison.reasons.filter((r) => r.kind !== 'regressed').map((r) => reasonText(r, context));
  const failing = gated.filter((t) => t.gateOutcome === 'fails');
  const failingSet = new Set(failing);
  const join = (words: string[]) => (words.length <= 1 ? words.join('') : `${words.slice(0, -1).join(', ')} and ${words.at(-1)}`);

  if (comparison.verdict === 'fail') {
    const parts: string[] = [];
    if (failing.length > 0) parts.push(`${join(failing.map((t) => gateWords(t.gate!)))} regressed significantly`);
    const broken = comparison.floors.filter((f) => f.outcome === 'broken').length;
    const unchecked = comparison.floors.filter((f) => f.outcome === 'unchecked').length;
    if (broken > 0) parts.push(broken === 1 ? 'a floor is broken' : `${broken} floors are broken`);
    if (unchecked > 0) parts.push(unchecked === 1 ? 'a floor cannot be checked' : `${unchecked} floors cannot be checked`);
    if (comparison.reasons.some((r) => r.kind === 'too-few-paired' || r.kind === 'low-coverage')) parts.push('too few questions were compared');
    return { words: parts.length > 0 ? parts.join('; ') : 'this check fails', icon: '❌', failing: failingSet, otherReasons };
  }
  const uncalibrated = gated.filter((t) => t.gateOutcome === 'uncalibrated-judge');
  const smallDrops = gated.filter((t) => t.gateOutcome === 'below-minimum-effect');
  const gains = gated.filter((t) => t.significant && t.delta > 0);
  const words =
    uncalibrated.length > 0
      ? `${join(uncalibrated.map((t) => gateWords(t.gate!)))} dropped, but the judge is uncalibrated, so it does not gate`
      : smallDrops.length > 0
        ? 'no regression beyond the minimum effect'
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
  if (test.gate === null) return test.significant ? `report, significant ${test.delta < 0 ? 'drop' : 'gain'}` : 'report';
  if (failing.has(test)) return '❌ gate';
  if (test.gateOutcome === 'uncalibrated-judge') return '⚠️ gate, uncalibrated judge';
  if (test.gateOutcome === 'below-minimum-effect') return '⚠️ gate, below the minimum effect';
  if (!test.significant) return 'gate, not significant';
  return test.delta < 0 ? '⚠️ gate' : '✅ gate, improved';
}

// ---------------------------------------------------------------------------------------------------------------
// Sections

function verdictSections(comparison: Comparison, rule: string, verdict: Verdict): RootContent[] {
  const { alpha } = comparison;
  const gated = comparison.tests.filter((t) => t.gate !== null);
  const out: RootContent[] = [heading(3, `${verdict.icon} rag-gate: ${verdict.words}`)];

  const evidenceTests = verdict.failing.size > 0 ? [...verdict.failing] : gated.filter((t) => t.significant);
  const lead: PhrasingContent[] = [];
  for (const test of evidenceTests) {
    if (lead.length > 0) lead.push(text(' '));
    lead.push(...evidence(test, rule, alpha));
    if (test.gateOutcome === 'below-minimum-effect') lead.push(text(' The drop is smaller than the minimum effect, so it only warns.'));
    if (test.gateOutcome === 'uncalibrated-judge') lead.push(text(' Its values come from an uncalibrated judge, so it only warns.'));
  }
  for (const reason of verdict.otherReasons) {
    if (lead.length > 0) lead.push(text(' '));
    lead.push(...prose(`${capitalise(reason)}.`));
  }
  if (lead.length === 0) {
    const n = gated.length;
    lead.push(text(n === 0 ? 'No test is gated.' : `No gated test changed significantly (α = ${alpha}${n > 1 ? `, Holm-adjusted across ${n} tests` : ''}).`));
  }
  lead.push(text(comparison.verdict === 'fail' ? ' This check fails.' : ' This check passes.'));
  out.push(paragraph(...lead));

  const power = gated.filter((t) => !t.significant).map((t) => powerSentence(t, rule));
  if (power.length > 0) out.push(paragraph(...prose(power.join(' '))));

  out.push(paragraph(...causeLine(comparison)));
  return out;
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
      const words = `${count.toLocaleString('en-US')} ${why}`;
      out.push(count * 2 > regressions.length && count < regressions.length ? strong(text(words)) : text(words));
    });
  out.push(text(`.${fixedWords}`));
  return out;
}

function testsTable(comparison: Comparison, rule: string, failing: ReadonlySet<PairedTest>): Table {
  const rows = comparison.tests.map((test) => [
    testTableLabel(test.metric, rule),
    fixed3(test.base),
    fixed3(test.head),
    `${formatDelta(test.delta)} (${formatDelta(test.ci[0])}, ${formatDelta(test.ci[1])})`,
    formatP(test.pValue),
    formatP(test.adjustedPValue),
    roleCell(test, failing),
  ]);
  return table(['metric', 'base', 'head', 'Δ (95% CI)', 'p', 'Holm p', 'gate'], rows, ['left', 'right', 'right', 'right', 'right', 'right', 'left']);
}

function mcnemarSection(comparison: Comparison, rule: string): RootContent[] {
  const tests = comparison.tests.filter((t): t is McNemarTest => t.kind === 'mcnemar');
  if (tests.length === 0) return [];
  const body: RootContent[] = [];
  for (const test of tests) {
    const [ok, failed] = gatedTestOf(test.metric)?.words.outcomes ?? ['right', 'wrong'];
    body.push(
      table(
        [testLabel(test.metric, rule), `head ${ok}`, `head ${failed}`],
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

/** The cause cell of a regressed question: "retrieval: lost `auth-0007`" or "generation". */
function causeCell(change: QuestionChange, improving: boolean): PhrasingContent[] {
  if (change.cause === 'generation') return [text('generation')];
  if (change.cause === 'unknown') return [text('unknown (no retrieval outcome)')];
  if (improving) return [text('retrieval: found the gold document')];
  const documents = documentList(change.lostDocuments);
  return documents.length === 0 ? [text('retrieval: lost the gold document')] : [text('retrieval: lost '), ...documents];
}

/** Up to {@link DOCUMENTS_SHOWN} document ids as code, then a count of the rest. */
function documentList(ids: readonly string[]): PhrasingContent[] {
  const out: PhrasingContent[] = [];
  ids.slice(0, DOCUMENTS_SHOWN).forEach((id, i) => {
    if (i > 0) out.push(text(', '));
    out.push(inert(id, ID_MAX_CHARS));
  });
  if (ids.length > DOCUMENTS_SHOWN) out.push(text(` and ${ids.length - DOCUMENTS_SHOWN} more`));
  return out;
}

interface QuestionList {
  readonly header: readonly string[];
  readonly rows: readonly (readonly Cell[])[];
}

function questionCells(item: { id: string; question: string }): Cell[] {
  return [inert(item.id, ID_MAX_CHARS), inert(item.question, QUESTION_MAX_CHARS)];
}

function regressionList(changes: readonly QuestionChange[], improving: boolean): QuestionList {
  if (changes.some((c) => c.correctRuns !== undefined)) {
    return {
      header: ['id', 'question', 'runs', 'cause'],
      rows: changes.map((c) => [...questionCells(c), c.correctRuns === undefined ? '' : correctRunsWords(c.correctRuns), causeCell(c, improving)]),
    };
  }
  return { header: ['id', 'question', 'cause'], rows: changes.map((c) => [...questionCells(c), causeCell(c, improving)]) };
}

function retrievalList(items: readonly RetrievalRegression[], showRescued: boolean): QuestionList {
  const lost = (r: RetrievalRegression) => {
    const documents = documentList(r.lostDocuments);
    return documents.length === 0 ? [text('the gold document')] : documents;
  };
  return showRescued
    ? { header: ['id', 'question', 'lost', 'answer'], rows: items.map((r) => [...questionCells(r), lost(r), r.rescued ? 'still right' : 'wrong']) }
    : { header: ['id', 'question', 'lost'], rows: items.map((r) => [...questionCells(r), lost(r)]) };
}

/** "… and N more; see the full JSON (…)". */
function moreLine(hidden: number, reportLink: string | undefined): Paragraph {
  const where =
    reportLink === undefined || reportLink.trim() === '' ? [text('the full JSON report')] : [text('the full JSON ('), ...annotated(reportLink), text(')')];
  return paragraph(text(`… and ${hidden.toLocaleString('en-US')} more; see `), ...where);
}

/**
 * The first `keep` rows of a list as a table, and "… and N more" when rows were cut. An open list (`noun` given)
 * longer than {@link LIST_FOLD_AFTER} shows its first rows and folds the rest.
 */
function listBody(list: QuestionList, keep: number, noun: string | null, reportLink: string | undefined): RootContent[] {
  const rows = list.rows.slice(0, keep);
  const out: RootContent[] = [];
  if (noun !== null && rows.length > LIST_FOLD_AFTER) {
    out.push(table(list.header, rows.slice(0, LIST_VISIBLE)));
    out.push(...details(`the other ${plural(rows.length - LIST_VISIBLE, noun)}`, [table(list.header, rows.slice(LIST_VISIBLE))]));
  } else if (rows.length > 0) {
    out.push(table(list.header, rows));
  }
  if (keep < list.rows.length) out.push(moreLine(list.rows.length - keep, reportLink));
  return out;
}

/** How many rows of each truncatable list to render. */
interface Limits {
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
  readonly tags: readonly (readonly [string, number])[];
}

/** A missing question's base outcomes: what it lost by being left out. */
function baseOutcome(question: MissingQuestion): string {
  const parts = [
    question.wasCorrect === null ? '' : question.wasCorrect ? 'right' : 'wrong',
    question.retrievalWasOk === null ? '' : question.retrievalWasOk ? 'retrieval ok' : 'retrieval failed',
  ];
  return parts.filter(Boolean).join(', ') || '—';
}

function missingList(comparison: Comparison): QuestionList {
  return { header: ['id', 'question', 'in base'], rows: comparison.missing.map((m) => [...questionCells(m), baseOutcome(m)]) };
}

function buildLists(comparison: Comparison): Lists {
  const hasCorrect = comparison.tests.some((t) => t.metric === 'correct');
  if (!hasCorrect) {
    const items = comparison.retrievalRegressions;
    return {
      missing: missingList(comparison),
      main: { title: `Questions that lost their gold document (${items.length.toLocaleString('en-US')})`, noun: 'question', list: retrievalList(items, false) },
      extra: null,
      fixed: regressionList(comparison.fixed, true),
      tags: Object.entries(comparison.regressionsByTag),
    };
  }
  const regressed = new Set(comparison.regressions.map((r) => r.id));
  const others = comparison.retrievalRegressions.filter((r) => !regressed.has(r.id));
  const rescued = others.filter((r) => r.rescued).length;
  const summary =
    rescued === others.length
      ? `${others.length.toLocaleString('en-US')} more lost their gold document but ${others.length === 1 ? 'was' : 'were'} still answered right (rescued by the model)`
      : `${others.length.toLocaleString('en-US')} more lost their gold document (${rescued} still answered right)`;
  return {
    missing: missingList(comparison),
    main: {
      title: `Regressed questions (${comparison.regressions.length.toLocaleString('en-US')})`,
      noun: 'regressed question',
      list: regressionList(comparison.regressions, false),
    },
    extra: others.length === 0 ? null : { summary, list: retrievalList(others, rescued !== others.length) },
    fixed: regressionList(comparison.fixed, true),
    tags: Object.entries(comparison.regressionsByTag),
  };
}

function questionSections(lists: Lists, limits: Limits, reportLink: string | undefined): RootContent[] {
  const out: RootContent[] = [];
  const { missing, main, extra, fixed, tags } = lists;
  if (missing.rows.length > 0) {
    out.push(
      heading(4, `Missing from head: counted as failed (${missing.rows.length.toLocaleString('en-US')})`),
      ...listBody(missing, limits.missing, 'missing question', reportLink),
    );
  }
  if (main.list.rows.length > 0) out.push(heading(4, main.title), ...listBody(main.list, limits.main, main.noun, reportLink));
  if (extra !== null) out.push(...details(extra.summary, listBody(extra.list, limits.extra, null, reportLink)));
  if (fixed.rows.length > 0) {
    out.push(...details(`${plural(fixed.rows.length, 'question')} fixed (wrong in base, right in head)`, listBody(fixed, limits.fixed, null, reportLink)));
  }
  if (tags.length > 0) {
    const rows = tags.slice(0, limits.tags).map(([tag, count]) => [inert(tag, TAG_MAX_CHARS), count.toLocaleString('en-US')]);
    const body: RootContent[] = [];
    if (rows.length > 0) body.push(table(['tag', 'regressions'], rows, ['left', 'right']));
    if (limits.tags < tags.length) body.push(moreLine(tags.length - limits.tags, reportLink));
    if (tags.length > TAGS_FOLD_AFTER) out.push(...details(`Regressions by tag (${plural(tags.length, 'tag')})`, body));
    else out.push(paragraph(strong(text('Regressions by tag'))), ...body);
  }
  return out;
}

function decompositionSection(comparison: Comparison): RootContent[] {
  const { base, head } = comparison.decomposition;
  if (base.n === 0 && head.n === 0) return [];
  const body: RootContent[] = [table(['', 'base', 'head'], decompositionRows(base, head), ['left', 'right', 'right'])];
  if (comparison.retrievalShifted) body.push(paragraph(...prose(`⚠️ ${retrievalShiftNote(comparison)}`)));
  return details('Where the errors come from (decomposition)', body);
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
          ['id', 'question', 'passes'],
          shown.map((q) => [...questionCells(q), passCountsText(q.outcomes)]),
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

function warningsSection(comparison: Comparison, rule: string): RootContent[] {
  const context = { retrievalOk: rule, judges: comparison.judges };
  const warnings: Sentence[] = [
    ...comparison.warnings.map((w) => warningWords(w, context)),
    ...comparison.decomposition.head.warnings.map((w) => [`head: ${w}`]),
  ];
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
function scoringSection(comparison: Comparison, rules: ScoringRulesInUse | undefined): RootContent[] {
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
  if (options.baseline !== undefined && options.baseline.trim() !== '') parts.push([text('Baseline: '), ...annotated(options.baseline)]);
  const gated = comparison.tests.filter((t) => t.gate !== null).length;
  parts.push([
    text(
      `${plural(comparison.paired, 'paired question')}, ${comparison.missing.length.toLocaleString('en-US')} missing (counted as failed), ` +
        `${comparison.added.length.toLocaleString('en-US')} added, ${comparison.removed.length.toLocaleString('en-US')} removed, ` +
        `${comparison.excluded.length > 0 ? `${comparison.excluded.length.toLocaleString('en-US')} excluded, ` : ''}${comparison.labelsChanged.length.toLocaleString('en-US')} relabelled` +
        ` · α = ${comparison.alpha}${gated > 1 ? `, Holm-adjusted across ${gated} gated tests` : ''}` +
        (comparison.holdoutLeftOut.length > 0 ? ` · ${holdoutLeftOutText(comparison.holdoutLeftOut.length)}` : ''),
    ),
  ]);
  if (options.reportLink !== undefined && options.reportLink.trim() !== '') parts.push(annotated(options.reportLink));
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
  const rule = options.retrievalOk;
  const verdict = decideWords(comparison, rule);
  const lists = buildLists(comparison);

  const head: RootContent[] = [
    ...(options.marker !== undefined ? [markerComment(options.marker)] : []),
    ...verdictSections(comparison, rule, verdict),
    ...scoringSection(comparison, options.rules),
    testsTable(comparison, rule, verdict.failing),
    ...(comparison.tests.length > 0 ? [paragraph(...prose(`${intervalNote(comparison.tests)}.`))] : []),
    ...mcnemarSection(comparison, rule),
  ];
  const tail: RootContent[] = [
    ...decompositionSection(comparison),
    ...flakySection(comparison),
    ...judgeSection(comparison),
    ...warningsSection(comparison, rule),
    footer(comparison, options),
  ];
  const render = (limits: Limits) => serialise({ type: 'root', children: [...head, ...questionSections(lists, limits, options.reportLink), ...tail] });

  // No list can keep more rows than would fill the budget with their raw text alone; this keeps every render near
  // maxLength even when the lists hold thousands of questions.
  const limits: Limits = {
    missing: rowsWithin(lists.missing, maxLength),
    main: rowsWithin(lists.main.list, maxLength),
    extra: lists.extra === null ? 0 : rowsWithin(lists.extra.list, maxLength),
    fixed: rowsWithin(lists.fixed, maxLength),
    tags: Math.min(lists.tags.length, TAGS_SHOWN),
  };
  const fits = (candidate: Limits) => render(candidate).length <= maxLength;
  let best = limits;
  if (!fits(best)) {
    for (const key of ['fixed', 'extra', 'missing', 'main', 'tags'] as const) {
      const zero = { ...best, [key]: 0 };
      if (!fits(zero)) {
        best = zero;
        continue;
      }
      // Largest count that fits; fits(zero) holds and fits(best) does not.
      let lo = 0;
      let hi = best[key];
      while (hi - lo > 1) {
        const mid = Math.floor((lo + hi) / 2);
        if (fits({ ...best, [key]: mid })) lo = mid;
        else hi = mid;
      }
      best = { ...best, [key]: lo };
      break;
    }
  }
  return render(best);
}

/** A cap on rows: the most rows whose id and question text alone stay within `budget` characters. */
function rowsWithin(list: QuestionList, budget: number): number {
  let used = 0;
  for (let i = 0; i < list.rows.length; i++) {
    const row = list.rows[i]!;
    for (const cell of row.slice(0, 2)) used += cellLength(cell) + 4;
    if (used > budget) return i;
  }
  return list.rows.length;
}

function cellLength(cell: Cell): number {
  if (typeof cell === 'string') return cell.length;
  const nodes = Array.isArray(cell) ? cell : [cell];
  return nodes.reduce((sum, node) => sum + ('value' in node ? node.value.length : 0), 0);
}
