import { isScoreMetric, scoreNameOf } from '../core/catalog/scores.js';
import { type GateCategory, type GateName, gatedTest, gatedTestOf, isScoreGate, isUsageGate, usageGate } from '../core/catalog/gates.js';
import { riseWords } from './usage-words.js';
import { answerMetric, QUESTION_COLUMNS, usageMeasure } from '../core/catalog/metrics.js';
import { parseRetrievalOkRule, type RetrievalOkRule } from '../core/catalog/parse/retrieval-ok.js';
import { suggestField } from '../core/record.js';
import type { JudgeCheck } from '../core/compare/calibration.js';
import type { JudgeStatus } from '../core/compare/judge-gate.js';
import { inertText, type Sentence, sentenceText, untrusted } from './untrusted.js';
import type { Floor } from '../core/catalog/parse/floor.js';
import type { CompareConfig, Drop, GateReason, GateWarning, PolicyChange } from '../core/compare/types.js';
import { plural } from './format.js';
import type { GateDataLost, LostOutcome } from '../core/compare/types.js';
import { grouped } from '../core/grouped.js';

/** The words every renderer uses for tests, gates and the gate's findings, the gates' phrases among them. */

/**
 * How reports speak of a gate. `{rule}` stands for the retrieval-ok rule, e.g. `hit@5`; `{rule-words}` for the
 * rule in words, e.g. "every gold document in the top 5".
 */
export interface GateWords {
  /** The gate in a verdict: "… regressed significantly". */
  readonly gate: string;
  /** What the test measures, as the subject of a sentence. */
  readonly subject: string;
  /** The questions its success rate counts, for a headline such as "questions answered right: 77.4% → 73.1%". */
  readonly share: string;
  /** The metric cell of the tests table. */
  readonly label: string;
  /** The two outcomes in the McNemar table's headers. */
  readonly outcomes: readonly [success: string, failure: string];
  /** The discordant pairs: "16 questions lost their gold document, 2 gained it". */
  readonly movement: (broken: number, fixed: number) => string;
}

const questions = (n: number, noun = 'question') => `${grouped(n)} ${noun}${n === 1 ? '' : 's'}`;

/** How reports speak of each gate of the catalog (src/core/catalog/gates.ts): one entry per row, checked by the type. */
export const GATE_WORDS: Readonly<Record<GateCategory, GateWords>> = {
  retrieval: {
    gate: 'retrieval',
    subject: '{rule}',
    share: 'questions with {rule-words}',
    label: '{rule} — retrieval ok',
    outcomes: ['ok', 'failed'],
    movement: (broken, fixed) => `${questions(broken)} lost ${broken === 1 ? 'its' : 'their'} gold document, ${fixed} gained it`,
  },
  'end-to-end': {
    gate: 'end-to-end correctness',
    subject: 'end-to-end correctness',
    share: 'questions answered right',
    label: 'correct — end to end',
    outcomes: ['right', 'wrong'],
    movement: (broken, fixed) => `${questions(broken)} went from right to wrong, ${fixed} from wrong to right`,
  },
  generation: {
    gate: 'generation',
    subject: 'correctness with retrieval ok on both sides',
    share: 'answers right where retrieval was ok on both sides',
    label: 'correct with retrieval ok — generation',
    outcomes: ['right', 'wrong'],
    movement: (broken, fixed) => `with retrieval ok on both sides, ${questions(broken, 'answer')} went from right to wrong, ${fixed} from wrong to right`,
  },
  refusal: {
    gate: 'refusal of unanswerable questions',
    subject: 'correct refusals on unanswerable questions',
    share: 'unanswerable questions refused',
    label: 'refusals on unanswerable',
    outcomes: ['right', 'wrong'],
    movement: (broken, fixed) => `${questions(broken, 'unanswerable question')} ${broken === 1 ? 'was' : 'were'} no longer refused, ${fixed} newly refused`,
  },
  latency: usageGateWords('latency', 'end-to-end latency', 'slower'),
  tokens: usageGateWords('tokens', 'tokens a question', 'more tokens'),
  cost: usageGateWords('cost', 'cost a question', 'costlier'),
};

/** A usage gate's words: it has no rate and no McNemar table (usage-words.ts words its numbers). */
function usageGateWords(gate: string, subject: string, worse: string): GateWords {
  return {
    gate,
    subject,
    share: subject,
    label: subject,
    outcomes: ['same or less', worse],
    movement: (broken, fixed) => `${questions(broken)} ${worse}, ${fixed} not`,
  };
}

/** The words of the gated test with this key (`retrieval_ok`, `correct`…), if it is one. */
export function wordsOf(metric: string): GateWords | undefined {
  const test = gatedTestOf(metric);
  return test === undefined ? undefined : GATE_WORDS[test.gate as GateCategory];
}

/** What the report needs besides a finding to put it in words. */
export interface WordsContext {
  /** The retrieval-ok rule, e.g. `hit@5`. */
  readonly retrievalOk: string;
  readonly judges: readonly JudgeStatus[];
}

const withRule = (template: string, rule: string) => template.replaceAll('{rule-words}', ruleWords(rule)).replaceAll('{rule}', rule);

const percent = (share: number) => `${+(share * 100).toFixed(1)}%`;

/**
 * A retrieval-ok rule in words, for "questions with …": `hit@5` → "a gold document in the top 5", `recall@5>=1` →
 * "every gold document in the top 5", `recall@10>=0.8` → "at least 80% of their gold documents in the top 10",
 * other rules as written ("ndcg@10 of at least 0.5"). A rule that does not parse is shown as it is.
 */
export function ruleWords(rule: string): string {
  let parsed: RetrievalOkRule;
  try {
    parsed = parseRetrievalOkRule(rule);
  } catch {
    return rule;
  }
  const { metric, threshold } = parsed;
  const top = Number.isFinite(metric.k) ? `the top ${metric.k}` : 'the ranking';
  if (metric.family === 'hit') return `a gold document in ${top}`;
  if (metric.family === 'recall') return threshold >= 1 ? `every gold document in ${top}` : `at least ${percent(threshold)} of their gold documents in ${top}`;
  return `${metric.name} of at least ${threshold}`;
}

/** The questions a gated test's rate counts ("questions answered right"), or null for a test that is not a rate. */
export function shareWords(metric: string, rule: string): string | null {
  const words = wordsOf(metric);
  return words === undefined ? null : withRule(words.share, rule);
}

/** A score another tool computed, as reports name it: "the score faithfulness (not calibrated here)". */
function scoreWords(metric: string): string {
  return `the score ${scoreNameOf(metric)} (${SCORE_NOT_CALIBRATED})`;
}

/** What a test measures, as the subject of a sentence: the catalog's phrase for a gated test, else its name. */
export function testSubject(metric: string, rule: string): string {
  if (isScoreMetric(metric)) return scoreWords(metric);
  const words = wordsOf(metric);
  return words === undefined ? metric : withRule(words.subject, rule);
}

/** The metric cell of the comment's tests table. */
export function testTableLabel(metric: string, rule: string): string {
  if (isScoreMetric(metric)) return `${scoreNameOf(metric)} — score, ${SCORE_NOT_CALIBRATED}`;
  const words = wordsOf(metric);
  return words === undefined ? metric : withRule(words.label, rule);
}

/** How a test's metric reads in the text report: the retrieval test names its rule, a score says where it came from. */
export function testLabel(metric: string, rule: string): string {
  if (isScoreMetric(metric)) return `${metric} (${SCORE_NOT_CALIBRATED})`;
  return metric === 'retrieval_ok' ? `retrieval_ok (${rule})` : metric;
}

/** The gate in a verdict: "end-to-end correctness", or "the score faithfulness (not calibrated here)". */
export function gateWords(gate: GateName): string {
  return isScoreGate(gate) ? `the score ${scoreNameOf(gate)} (${SCORE_NOT_CALIBRATED}, gated because fail-on names it)` : GATE_WORDS[gate].gate;
}

/** What every report says of a score another tool computed. */
export const SCORE_NOT_CALIBRATED = 'not calibrated here';

export function formatFloor(floor: Floor): string {
  return `${isScoreMetric(floor.metric) ? scoreNameOf(floor.metric) : floor.metric} ${floor.op === '>=' ? '≥' : '≤'} ${floor.value}`;
}

const formatShare = (share: number) => `${+(share * 100).toFixed(2)}%`;

const p4 = (p: number) => (p < 0.0001 ? p.toExponential(1) : p.toFixed(4));

/** "correct 0.690 → 0.620, 95 broken vs 60 fixed, p = 0.0123, Holm-adjusted 0.0246 < α 0.05". */
function dropWords(drop: Drop, rule: string): string {
  const metric = drop.metric === 'retrieval_ok' ? `retrieval ok (${rule})` : isScoreMetric(drop.metric) ? scoreNameOf(drop.metric) : drop.metric;
  const counts = drop.broken === undefined ? '' : `, ${drop.broken} broken vs ${drop.fixed} fixed`;
  return `${metric} ${drop.base.toFixed(3)} → ${drop.head.toFixed(3)}${counts}, p = ${p4(drop.pValue)}, Holm-adjusted ${p4(drop.adjustedPValue)} < α ${drop.alpha}`;
}

function brokenFloor(floor: Floor, value: number, reads = floor.metric): string {
  const metric = isScoreMetric(reads) ? `${scoreWords(reads)}, gated because a floor names it,` : floor.metric;
  // A budget (milliseconds, dollars a question) is read to its own precision, not to three decimals.
  const shown = usageMeasure(answerMetric(reads)?.column ?? '') === undefined ? value.toFixed(3) : String(+value.toPrecision(6));
  return `floor broken: ${metric} is ${shown} in head, the floor is ${formatFloor(floor)}`;
}

/** Longest model name or prompt version shown; they come from results files. */
const JUDGE_NAME_MAX = 80;

/** A sentence about a judge's calibration: our words, with the judge's names as untrusted pieces. */
export function judgeNote(field: string, check: JudgeCheck): Sentence {
  const judge: Sentence = ['judge ', untrusted(check.model, JUDGE_NAME_MAX), ' (', untrusted(check.promptVersion, JUDGE_NAME_MAX), ')'];
  const { verdict } = check;
  const uncalibrated = (...why: Sentence) => [...judge, ' is uncalibrated: ', ...why, '; its metrics are reported but do not gate'];
  switch (verdict.kind) {
    case 'calibrated':
      return [
        ...judge,
        ` is calibrated: kappa ${verdict.kappa.toFixed(3)} on n = ${verdict.n} (floor ${verdict.floor}, ${verdict.date})`,
        ...(verdict.threeLabelKappa === undefined
          ? []
          : [`; that is supported or not, and ${verdict.threeLabelKappa === null ? 'undefined' : verdict.threeLabelKappa.toFixed(3)} over the three verdicts`]),
      ];
    case 'never-calibrated':
      return [`${field} from `, ...judge, ' has no calibration; it is reported and never gates'];
    case 'no-record':
      return uncalibrated('no calibration record');
    case 'other-model':
      return uncalibrated('the calibration record is for model ', untrusted(verdict.recordModel, JUDGE_NAME_MAX));
    case 'other-prompt':
      return uncalibrated('the calibration record is for prompt ', untrusted(verdict.recordPrompt, JUDGE_NAME_MAX));
    case 'kappa-undefined':
      return uncalibrated(`kappa is undefined on the ${verdict.n} labels (both raters gave every item the same label)`);
    case 'below-floor':
      return uncalibrated(`kappa ${verdict.kappa.toFixed(3)} on n = ${verdict.n} is below the floor ${verdict.floor}`);
  }
}

/** At most this many judges are named per field; the rest are counted. */
const JUDGES_SHOWN = 5;

/** Every judge note of the judged fields (or of one field), at most {@link JUDGES_SHOWN} a field. */
export function judgeNotes(judges: readonly JudgeStatus[], field?: string): Sentence {
  const notes: Sentence[] = [];
  for (const status of judges) {
    if (field !== undefined && status.field !== field) continue;
    status.judges.slice(0, JUDGES_SHOWN).forEach((check) => notes.push(judgeNote(status.field, check)));
    const more = status.judges.length - JUDGES_SHOWN;
    if (more > 0) notes.push([`${more} more judge${more === 1 ? '' : 's'} filled ${status.field}`]);
  }
  return notes.flatMap((note, i) => (i === 0 ? note : ['; ', ...note]));
}

/** A warning of the gate, as one sentence without the final full stop. */
export function warningText(warning: GateWarning, context: WordsContext): string {
  return sentenceText(warningWords(warning, context));
}

/** One side of a policy change as a line: a list setting's lines joined, "(none)" for an empty value. */
export function policySide(value: string): string {
  const line = value.split('\n').filter(Boolean).join(', ').trim();
  return line === '' ? '(none)' : line;
}

/** "alpha 0.05 → 1e-12, looser": a change of the gate's policy, its values (from the config files) made inert and bounded. */
export function policyChangeText(change: PolicyChange): string {
  const side = (text: string) => inertText(policySide(text), 80);
  return `${change.setting} ${side(change.base)} → ${side(change.head)}, ${change.direction}`;
}

/** A reason the gate fails, as one sentence without the final full stop (reasons hold no untrusted text). */
export function reasonText(reason: GateReason, context: WordsContext): string {
  switch (reason.kind) {
    case 'gate-changed-unapproved':
      return `this pull request changes its own gate without a maintainer's approval (${reason.changes.map(policyChangeText).join('; ')}); the base branch's values applied`;
    case 'regressed':
      return `${isScoreGate(reason.gate) ? gateWords(reason.gate) : reason.gate} regressed significantly: ${dropWords(reason, context.retrievalOk)}`;
    case 'rose':
      return `${reason.gate} rose significantly beyond its tolerance: ${riseWords(reason)}`;
    case 'floor-broken':
      return brokenFloor(reason.floor, reason.value, reason.reads);
    case 'floor-unchecked':
      return `floor ${formatFloor(reason.floor)} cannot be checked: no head question carries ${isScoreMetric(reason.floor.metric) ? `a score named ${scoreNameOf(reason.floor.metric)}` : reason.floor.metric}`;
    case 'too-few-paired':
      return `only ${reason.paired} question${reason.paired === 1 ? ' is' : 's are'} paired, fewer than min-paired ${reason.minPaired}: too few to tell a regression from noise`;
    case 'low-coverage':
      return (
        `only ${reason.compared} of the base's ${reason.baseQuestions} questions are compared (${(reason.share * 100).toFixed(1)}%, below min-coverage ${formatShare(reason.minCoverage)}): ` +
        'the rest were relabelled and could not be re-scored, are missing from head and excluded, or lost a gated outcome in head and were left out of its test'
      );
    case 'gate-data-lost':
      return gateDataLostText(reason);
  }
}

/** A warning of the gate, as a sentence whose untrusted pieces (judges' names) the renderer keeps inert. */
export function warningWords(warning: GateWarning, context: WordsContext): Sentence {
  switch (warning.kind) {
    case 'gate-untestable': {
      const why = `cannot gate ${warning.gate}: no paired question carries its outcome in both runs`;
      if (warning.gate !== 'retrieval') return [why];
      const scores = (warning.standIns ?? []).map((score) => `add ${score} to fail-on (the score your tool wrote; not calibrated here)`);
      return [
        `${why}, so retrieval is not gated; to gate it, give each record its gold documents (relevant_ids, or the gold contexts as text: fields: reference_contexts=YOUR_COLUMN in rag-gate.yml)${scores.length > 0 ? `, or ${scores.join(', or ')}` : ''}`,
      ];
    }
    case 'drop-below-minimum-effect':
      return [`${warning.gate} dropped significantly but by less than the minimum effect ${warning.minEffect}: ${dropWords(warning, context.retrievalOk)}`];
    case 'rise-within-tolerance':
      return [`${warning.gate} rose significantly but within its tolerance, so it only warns: ${riseWords(warning)}`];
    case 'drop-from-uncalibrated-judge':
      return [
        `${warning.gate} dropped significantly (${dropWords(warning, context.retrievalOk)}), but it does not gate: `,
        ...judgeNotes(context.judges, warning.field),
      ];
    case 'floor-from-uncalibrated-judge':
      return [`${brokenFloor(warning.floor, warning.value)}, but it does not gate: `, ...judgeNotes(context.judges, warning.field)];
    case 'refusal-source-differs': {
      const [detected, read] = warning.base > 0 ? ['base', 'head'] : ['head', 'base'];
      return [
        `refusals were read differently: ${read} from its refused field, ${detected} by the text refusal detector for ${plural(Math.max(warning.base, warning.head), 'question')} without one; ` +
          "a change in refusal metrics may be the detector's rather than the pipeline's: give both runs a refused field, or neither",
      ];
    }
  }
}

/** The record fields an outcome column is read from, "retrieval_ok or retrieved_ids or relevant_ids"; `gold` false leaves out the gold labels. */
function columnFields(name: string, gold = true): string {
  if (isScoreMetric(name)) return `a "${scoreNameOf(name)}" field or scores.${scoreNameOf(name)}`;
  const needs = QUESTION_COLUMNS.find((c) => c.name === name)?.needs ?? [name];
  return needs.filter((field) => gold || !GOLD_LABELS.has(field)).join(' or ');
}

/** Fields that are gold labels: a pair's two records carry the same ones, so a lost outcome never lacks them alone. */
const GOLD_LABELS: ReadonlySet<string> = new Set(['relevant_ids', 'expected_answer', 'answerable']);

/** "retrieval (retrieval_ok, from retrieval_ok or retrieved_ids or relevant_ids)": a gate and the fields it needs. */
function gateNeeds(gate: GateName): string {
  if (isScoreGate(gate)) return `${gate} (${columnFields(gate)})`;
  if (isUsageGate(gate)) return `${gate} (${columnFields(usageGate(gate).column)})`;
  const test = gatedTest(gate);
  const columns = test.pairs === 'retrieval-ok-on-both-sides' ? [test.column, 'retrieval_ok'] : [test.column];
  const where = test.pairs === 'unanswerable' ? ', on questions with answerable: false' : '';
  return `${gate} (${test.metric}, from ${columns.map((name) => columnFields(name)).join(', and ')}${where})`;
}

/** The fields the results carried that rag-gate does not read, with the name each probably means, or nothing. */
function unknownFieldsText(unknownFields: ReadonlyMap<string, number>): string {
  const unknown = [...unknownFields].map(([field, count]) => {
    const hint = suggestField(field);
    return `"${field}" (${count} record${count === 1 ? '' : 's'}${hint === undefined ? '' : `; did you mean "${hint}"?`})`;
  });
  return unknown.length === 0 ? '' : ` The results carry fields rag-gate does not read: ${unknown.join(', ')}.`;
}

/**
 * Why a comparison measured nothing that could fail, and how to fix it: the fields each gate needs, and the
 * fields the head results carried that rag-gate does not read, with the name each probably means.
 */
export function ungatedText(config: CompareConfig, unknownFields: ReadonlyMap<string, number>): string {
  const needs = [...config.failOn].map(gateNeeds);
  const asked =
    needs.length === 0
      ? 'no gate is switched on (fail-on is empty) and no floor is set'
      : `no paired question carries what the gates need: ${needs.join('; ')}`;
  return `nothing to gate: ${asked}.${unknownFieldsText(unknownFields)} Rename the fields to the results format (README: "The results file"), or set allow-ungated (--allow-ungated) for a report without a gate`;
}

/** Gates fail-on names that neither run has data for: an input error, with the fields each needs. */
export function unmeasuredText(gates: readonly GateName[], unknownFields: ReadonlyMap<string, number>): string {
  return (
    `fail-on names ${gates.join(', ')}, but neither run carries what ${gates.length === 1 ? 'it needs' : 'they need'}: ${gates.map(gateNeeds).join('; ')}.` +
    `${unknownFieldsText(unknownFields)} Write those fields in the results (README: "The results file"), or take the gate out of fail-on`
  );
}

/** "retrieval cannot be tested: 20 paired questions carry retrieval_ok in base and none in head …". */
function gateDataLostText(lost: GateDataLost): string {
  const columns = lost.columns.map((name) => `${name} (from ${columnFields(name, false)})`).join(' and ');
  return (
    `${isScoreGate(lost.gate) ? gateWords(lost.gate) : lost.gate} cannot be tested: ${plural(lost.baseQuestions, 'paired question')} carry its outcome in base, ` +
    `and no paired head question carries ${columns}: write ${lost.columns.length === 1 ? 'it' : 'them'} in the head results`
  );
}

/** The fix for the lost outcomes listed: the fields to write, or the questions to remove. */
export function lostOutcomesFix(lost: readonly LostOutcome[]): string {
  const columns = [...new Set(lost.flatMap((l) => l.columns))].map((name) => `${name} (from ${columnFields(name, false)})`);
  const counted = lost.some((l) => l.counted === 'failed')
    ? 'counts as failed in the tests that read it, as a missing question does'
    : 'is left out of the tests that read it (missing: exclude), and its question is not counted as compared';
  return `A head record without an outcome its base record has ${counted}: write ${columns.join(' and ')} in the head results, or remove the question from the golden set`;
}

/** A lost outcome and its fix: "the head record has no correct (from correct or answer): write it, or remove the question from the golden set". */
export function lostOutcomeText(lost: LostOutcome): string {
  const columns = lost.columns.map((name) => `${name} (from ${columnFields(name, false)})`).join(' and no ');
  const counted = lost.counted === 'failed' ? `counted as failed in ${lost.tests.join(', ')}` : `left out of ${lost.tests.join(', ')}`;
  return `the head record has no ${columns}, which the base record has, so it is ${counted}: write ${lost.columns.length === 1 ? 'it' : 'them'}, or remove the question from the golden set`;
}
