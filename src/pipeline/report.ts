import type { OutputValues } from '../core/catalog/outputs.js';
import type { Settings } from '../core/catalog/settings.js';
import { needsApproval, withPolicyVerdict } from '../core/compare/policy.js';
import type { CompareConfig, Comparison } from '../core/compare/types.js';
import type { History } from '../core/history/history.js';
import type { RunSummary } from '../core/scoring/summary.js';
import type { BaselineProblem } from '../render/baseline-problem.js';
import { commitStatusDescription } from '../render/commit-status.js';
import { type BaselineJson, comparisonReport } from '../render/compare-json.js';
import { renderCompareText } from '../render/compare-text.js';
import { evalJson } from '../render/eval-json.js';
import { renderEvalText } from '../render/eval-text.js';
import { reasonText } from '../render/gate-words.js';
import { gateChangesText, type GateChangesView, goldChangesText, type GoldApprovalView } from '../render/gate-changes.js';
import { type NoComparison, noComparisonText, renderHeadOnly } from '../render/head-only.js';
import { trendHead } from '../render/history.js';
import { type CommentOptions, renderComment } from '../render/markdown.js';
import { compareFiles, type ComparisonRun, evaluateFiles, type Evaluation } from './compare.js';
import type { ReadProgress } from '../sources/lines.js';
import type { GoldApproval } from './gold.js';

/**
 * The end of the one pipeline: a run's report, every word of it composed here from src/render, which a front end
 * only publishes (the action as a comment, job summary, outputs and check; the CLI on stdout, stderr, a file and
 * its exit code). A second CI front end publishes the same report its own way.
 */

/** The base results: found, or why not (absent, no base branch, or there but unreadable). */
export type BaseResults = FoundBase | MissingBase;

export interface FoundBase {
  readonly kind: 'found';
  readonly files: readonly string[];
  /** The base commit the results belong to, when known. */
  readonly sha: string | null;
  /** One line for the comment (`backtick` spans render as code); without it the report names the files. */
  readonly description?: string;
  /** The run whose results these are, linked beside the description. */
  readonly runUrl?: string;
}

export type MissingBase =
  { readonly kind: 'absent' | 'no-base-branch'; readonly reason: string } | { readonly kind: 'broken'; readonly problem: BaselineProblem };

/** The run held to its base branch's gate: its changes to it, whether they apply, and the gold changes' approval. */
export interface HeldGate {
  readonly view: GateChangesView;
  readonly approved: boolean;
  /** Asked by the comparison for the gold changes that move a gated outcome. */
  readonly approveGold: GoldApproval;
  /** The gold changes' approval as the reports show it, read once the comparison is done. */
  goldApproval(): GoldApprovalView | undefined;
}

/**
 * The front end's part of the render options, one value: the sticky comment's markers, where the full report is,
 * the run's page, and the job summary's budget when the front end writes one. The pipeline adds the rest.
 */
export type ReportPlace = Pick<CommentOptions, 'marker' | 'stateMarkers' | 'reportLink' | 'runUrl'> & {
  readonly summaryMaxBytes?: number;
};

/** What a run is asked to report on: its settings (held to the base's gate when it is), head files and place. */
export interface ReportRequest {
  readonly settings: Settings;
  readonly config: CompareConfig;
  readonly head: readonly string[];
  readonly held: HeldGate | null;
  readonly place: ReportPlace;
  readonly readerEntry?: URL;
  readonly onProgress?: ReadProgress;
  /** Makes found base files ready to compare (the action's judge scores them); they are used as they are without it. */
  readonly prepareBase?: (files: readonly string[]) => Promise<readonly string[]>;
  /** Why found base results that failed to read are a broken baseline rather than bad input; null: bad input. */
  readonly unreadableBase?: (error: unknown) => MissingBase | null;
  /** The base branch's run history, for the trend; read after the comparison. */
  readonly history?: () => Promise<History | null>;
}

/** A line for the log or terminal: our words (info), users' text (printed inert), or a warning. */
export type Note = { readonly kind: 'info' | 'text'; readonly text: string } | { readonly kind: 'warning'; readonly text: string; readonly title?: string };

/** The outputs a comparison gives; the front end adds where it wrote the files and what it posted. */
export type ReportOutputs = Pick<OutputValues<'gate'>, 'verdict' | 'p-value' | 'fixed' | 'broken' | 'regressions' | 'baseline-found' | 'baseline-sha'>;

/** Everything a front end publishes. The comment, summary and JSON are composed when first read. */
export interface Report {
  readonly verdict: 'pass' | 'fail' | 'neutral';
  /** Why the check fails (the message, and a warning's title in advisory mode), or null when it passes. */
  readonly failure: { readonly message: string; readonly title: string } | null;
  /** The run's changes to its gate and gold, and warnings, in the order they are said. */
  readonly notes: readonly Note[];
  /** The report for a log or terminal: users' text. */
  readonly text: string;
  readonly comment: string;
  /** The job summary: the comment with room for more questions, within `summaryMaxBytes`. */
  readonly summary: string;
  /** The JSON report, one object on one or more lines, newline-ended. */
  readonly json: string;
  readonly outputs: ReportOutputs;
  /** A commit status's description. */
  readonly status: string;
  /** Whether a comment written only on change has something to say. */
  readonly hasNews: boolean;
  /** The head run's summary, which a push adds to the run history. */
  readonly head: RunSummary;
}

/** A commit status's description for a run that stopped on an error before it could report. */
export function stoppedStatus(badInput: boolean): string {
  return commitStatusDescription({ kind: 'stopped', badInput });
}

/**
 * Compares the head with the base results and reports, or reports the head alone with why nothing was compared:
 * the base is absent, or unreadable by `unreadableBase`.
 */
export async function compareReport(request: ReportRequest, base: BaseResults): Promise<Report> {
  const compared = base.kind === 'found' ? await compareWith(request, base) : base;
  if (compared.kind === 'compared') return comparedReport(request, compared.base, compared.run, await request.history?.());
  const head = await evaluateFiles(request.head, request.config.eval, { holdout: request.settings.holdout });
  return headOnlyReport(request, noComparison(compared, request.settings), head);
}

/** The comparison with found base results, or why they turned out unreadable. */
async function compareWith(request: ReportRequest, base: FoundBase): Promise<{ kind: 'compared'; base: FoundBase; run: ComparisonRun } | MissingBase> {
  const { settings, config, held } = request;
  try {
    const files = { base: (await request.prepareBase?.(base.files)) ?? base.files, head: request.head, golden: settings.golden, holdout: settings.holdout };
    const run = await compareFiles(files, config, {
      readerEntry: request.readerEntry,
      threads: settings.threads,
      onProgress: request.onProgress,
      allowUngated: settings['allow-ungated'],
      ...(held === null ? {} : { approveGold: held.approveGold }),
    });
    return { kind: 'compared', base, run };
  } catch (error) {
    const unreadable = request.unreadableBase?.(error) ?? null;
    if (unreadable === null) throw error;
    return unreadable;
  }
}

/** Why nothing was compared, and whether that fails the check by the on-missing-baseline and on-baseline-error settings. */
function noComparison(base: MissingBase, settings: Settings): NoComparison {
  switch (base.kind) {
    case 'absent':
      return { kind: 'no-baseline', reason: base.reason, fails: settings['on-missing-baseline'] === 'fail' };
    case 'no-base-branch':
      return { kind: 'no-baseline', reason: base.reason, fails: false };
    case 'broken':
      return { kind: 'baseline-error', problem: base.problem, fails: settings['on-baseline-error'] === 'fail' };
  }
}

/** The run's changes to its gate, when it is held to a base and changes it. */
function gateChangesOf(held: HeldGate | null): GateChangesView | undefined {
  return held !== null && held.view.changes.length > 0 ? held.view : undefined;
}

function changesNotes(gateChanges: GateChangesView | undefined): Note[] {
  return gateChanges === undefined ? [] : [{ kind: 'text', text: gateChangesText(gateChanges) }];
}

const gateChangesJson = (gateChanges: GateChangesView | undefined) =>
  gateChanges === undefined ? {} : { gateChanges: { changes: gateChanges.changes, approval: gateChanges.approval } };

const jsonText = (report: object) => `${JSON.stringify(report, null, 2)}\n`;

/**
 * The job summary: a render capped at half the budget in UTF-16 code units (a code unit takes up to three bytes
 * in UTF-8, so the cap alone cannot promise the bytes), kept when its bytes fit, else the comment; without a
 * budget, the comment.
 */
function withinBudget(render: (maxLength: number) => string, comment: () => string, maxBytes: number | undefined): string {
  if (maxBytes === undefined) return comment();
  const text = render(maxBytes / 2);
  return Buffer.byteLength(text) <= maxBytes ? text : comment();
}

/** Composes a text once, when first read: the CLI reads the comment only for --markdown, the text only without --json, and never the summary. */
function once(compose: () => string): () => string {
  let text: string | undefined;
  return () => (text ??= compose());
}

/** The p-value that decides: the smallest Holm-adjusted p among the gated tests. */
function decidingPValue(comparison: Comparison): string {
  const adjusted = comparison.tests.flatMap((test) => (test.adjustedPValue === null ? [] : [test.adjustedPValue]));
  return adjusted.length === 0 ? '' : String(Math.min(...adjusted));
}

function hasNews(comparison: Comparison): boolean {
  return comparison.verdict === 'fail' || comparison.regressions.length > 0 || comparison.fixed.length > 0 || comparison.tests.some((test) => test.significant);
}

function comparedReport(request: ReportRequest, base: FoundBase, compared: ComparisonRun, history: History | null | undefined): Report {
  const { settings, config, held } = request;
  const { summaryMaxBytes, ...place } = request.place;
  const gateChanges = gateChangesOf(held);
  const run = { ...compared, comparison: withPolicyVerdict(compared.comparison, held?.view.changes ?? [], held === null || held.approved) };
  const { comparison } = run;
  const rule = config.eval.retrievalOk.name;
  const goldApproval = held?.goldApproval();
  const goldText = held === null ? '' : goldChangesText(comparison.goldChanges ?? [], goldApproval);
  const trend = history === null || history === undefined ? undefined : { history, head: trendHead(run.head) };
  const options: CommentOptions = {
    ...place,
    retrievalOk: rule,
    rules: config.eval,
    baseline: base.description,
    baselineRunUrl: base.runUrl,
    traceUrl: settings['trace-url'],
    trend,
    gateChanges,
    goldApproval,
  };
  const baseline: BaselineJson =
    base.description === undefined ? { found: true, files: base.files } : { found: true, sha: base.sha, description: base.description };
  const comment = once(() => renderComment(comparison, options));
  const text = once(() => renderCompareText(comparison, config));
  const words = { retrievalOk: rule, judges: comparison.judges };
  const correct = comparison.tests.find((test) => test.metric === 'correct') ?? comparison.tests.find((test) => test.metric === 'retrieval_ok');
  return {
    verdict: comparison.verdict,
    failure:
      comparison.verdict === 'fail'
        ? { message: `rag-gate: ${comparison.reasons.map((reason) => reasonText(reason, words)).join('; ')}`, title: 'rag-gate: regression' }
        : null,
    notes: [
      ...changesNotes(gateChanges),
      ...run.warnings.map((text): Note => ({ kind: 'warning', text })),
      ...(goldText === '' ? [] : [{ kind: 'text', text: goldText } as const]),
    ],
    get text() {
      return text();
    },
    get comment() {
      return comment();
    },
    get summary() {
      return withinBudget((maxLength) => renderComment(comparison, { ...options, maxLength }), comment, summaryMaxBytes);
    },
    get json() {
      return jsonText({ ...comparisonReport(run, config, baseline, trend), ...gateChangesJson(gateChanges) });
    },
    outputs: {
      verdict: comparison.verdict,
      'p-value': decidingPValue(comparison),
      fixed: correct?.kind === 'mcnemar' ? String(correct.fixed) : '',
      broken: correct?.kind === 'mcnemar' ? String(correct.broken) : '',
      regressions: String(comparison.regressions.length),
      'baseline-found': 'true',
      'baseline-sha': base.sha ?? '',
    },
    status: commitStatusDescription({ kind: 'compared', comparison, retrievalOk: rule, advisory: settings.mode === 'advisory' }),
    hasNews: hasNews(comparison),
    head: run.head,
  };
}

function headOnlyReport(request: ReportRequest, cause: NoComparison, head: Evaluation): Report {
  const { config, held, place } = request;
  const gateChanges = gateChangesOf(held);
  const rule = config.eval.retrievalOk.name;
  const why = noComparisonText(cause);
  const comment = once(() =>
    renderHeadOnly(head.summary, {
      cause,
      retrievalOk: rule,
      marker: place.marker,
      retrievalOkMetric: config.eval.retrievalOk.metric.name,
      holdoutLeftOut: head.holdoutLeftOut.length,
      gateChanges,
      stateMarkers: place.stateMarkers,
    }),
  );
  const changesFail = held !== null && !held.approved && gateChanges !== undefined;
  const verdict = cause.fails || changesFail ? 'fail' : 'neutral';
  const changeReasons = changesFail ? [{ kind: 'gate-changed-unapproved', changes: gateChanges.changes.filter(needsApproval) } as const] : [];
  const reasons = changeReasons.map((reason) => ({ ...reason, message: reasonText(reason, { retrievalOk: rule, judges: [] }) }));
  const title = cause.kind === 'baseline-error' ? 'rag-gate: baseline unreadable' : 'rag-gate: no baseline';
  const failures = [...reasons.map((reason) => reason.message), ...(cause.fails ? [why] : [])];
  return {
    verdict,
    failure: failures.length > 0 ? { message: `rag-gate: ${failures.join('; ')}`, title: changesFail ? 'rag-gate: gate changed' : title } : null,
    notes: [
      ...changesNotes(gateChanges),
      ...head.warnings.map((text): Note => ({ kind: 'warning', text })),
      // An unreadable baseline that lets the check pass still warns: the pull request was not compared.
      ...(cause.kind === 'baseline-error' && !cause.fails ? [{ kind: 'warning', text: `rag-gate: ${why}`, title } as const] : []),
    ],
    text: `${why}\nReporting the head results only.\n${renderEvalText(request.head.join(', '), head.summary, config.eval)}`,
    get comment() {
      return comment();
    },
    get summary() {
      return comment();
    },
    get json() {
      const baseline = cause.kind === 'baseline-error' ? { found: false, reason: why, problem: cause.problem } : { found: false, reason: cause.reason };
      return jsonText({ verdict, reasons, baseline, head: evalJson(head.summary, config.eval), ...gateChangesJson(gateChanges) });
    },
    outputs: { verdict, 'p-value': '', fixed: '', broken: '', regressions: '0', 'baseline-found': 'false', 'baseline-sha': '' },
    status: commitStatusDescription({ kind: 'not-compared', cause }),
    hasNews: true,
    head: head.summary,
  };
}
