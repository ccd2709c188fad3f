import type { PassCount, RepeatSummary } from '../scoring/repeats.js';
import type { GateName, UsageGate } from '../catalog/gates.js';
import type { Floor } from '../catalog/parse/floor.js';
import type { ExtraTest } from '../catalog/settings.js';
import type { Decomposition } from '../scoring/decomposition.js';
import type { EvalConfig } from '../scoring/score.js';
import type { GoldLabels } from '../scoring/outcomes.js';
import type { RunProvenance } from '../scoring/summary.js';
import type { PairedTTest, WilcoxonTest } from '../stats/classical.js';
import type { McNemarResult, McNemarSmallSample } from '../stats/mcnemar.js';
import type { IntervalMethod } from '../stats/mean-interval.js';
import type { CalibrationRecord } from './calibration.js';
import type { JudgeStatus } from './judge-gate.js';

/** The comparison's vocabulary: its settings, its tests, and the gate's structured findings. */

export type Verdict = 'pass' | 'fail';

/**
 * What a gated test's significant drop did: failed the check, or only warned because it was smaller than the
 * minimum effect or came from an uncalibrated judge. Null when the test shows no significant drop.
 */
export type GateOutcome = 'fails' | 'below-minimum-effect' | 'uncalibrated-judge' | 'within-tolerance';

/** How a floor fared on head: its value, and whether it held, broke (failing the check) or could not be checked. */
export interface FloorCheck {
  readonly floor: Floor;
  /** The metric read on head: the floor's own, or `score:NAME` when only another tool's score of that name is there. */
  readonly reads: string;
  readonly value: number | null;
  readonly outcome: 'holds' | 'broken' | 'unchecked' | 'uncalibrated-judge';
}

/** A significant drop of a gated test, with the numbers that decided it. */
export interface Drop {
  readonly gate: GateName;
  readonly metric: string;
  readonly base: number;
  readonly head: number;
  readonly delta: number;
  readonly pValue: number;
  readonly adjustedPValue: number;
  readonly alpha: number;
  /** McNemar's discordant counts, for the binary tests. */
  readonly broken?: number;
  readonly fixed?: number;
}

/** A significant rise of a usage gate (latency, cost, tokens), with the numbers that decided it. */
export interface Rise {
  readonly gate: GateName;
  readonly metric: string;
  readonly scale: 'log' | 'plain';
  /** Head/base: of the geometric means (log scale) or of the means, with its 95% interval. */
  readonly ratio: number;
  readonly ratioCi: readonly [number, number];
  readonly pValue: number;
  readonly adjustedPValue: number;
  readonly alpha: number;
  /** The rise the gate tolerates, as a share (0.1 for 10%). */
  readonly tolerance: number;
}

/**
 * A setting that decides pass or fail whose value the pull request changes (its catalog name and the text on each
 * side): `tighter` applies at once; `looser` and `changed` (no order, such as another retrieval-ok rule) need approval.
 */
export interface PolicyChange {
  readonly setting: string;
  readonly base: string;
  readonly head: string;
  readonly direction: 'tighter' | 'looser' | 'changed';
}

/**
 * Whether a pull request's changes to its own gate were approved: by whom (a login, with the permission checked
 * and the label's time, or the CLI's `--approve`), or why not.
 */
export type ChangeApproval =
  | { readonly kind: 'approved'; readonly by: Approver }
  /** No approval was given (no label, no `--approve`). */
  | { readonly kind: 'none' }
  /** The label was applied by a user without write access. */
  | { readonly kind: 'not-trusted'; readonly by: Approver }
  /** The label was applied before the comment showed these changes: a later push changed them. */
  | { readonly kind: 'stale'; readonly by: Approver }
  /** Without the sticky comment (comment: never) no label can say what it approved. */
  | { readonly kind: 'no-comment' };

export interface Approver {
  readonly login: string;
  /** admin, write, read or none, as GitHub reports it; absent for the CLI's flag. */
  readonly permission?: string;
  /** When the label was applied (ISO 8601); absent for the CLI's flag. */
  readonly at?: string;
}

/**
 * A question whose gold (relevant documents, expected answer, answerable) differs between base and head. A change
 * that changes a gated outcome of either run (or cannot be re-scored to tell) needs approval; until it has one the
 * question is scored under the base's gold in both runs, or counted as failed (`lost`) when the head record
 * cannot be re-scored under it.
 */
export interface GoldChange {
  readonly id: string;
  readonly base: GoldLabels;
  readonly head: GoldLabels;
  readonly changesOutcome: boolean;
  readonly scoredUnder: 'head' | 'base' | 'lost';
}

/** Why the gate fails. Words are the renderers' business. */
export type GateReason =
  /** The pull request loosens or changes its own gate and no maintainer approved it: the base's values applied. */
  | { readonly kind: 'gate-changed-unapproved'; readonly changes: readonly PolicyChange[] }
  | ({ readonly kind: 'regressed' } & Drop)
  /** A usage gate (latency, cost, tokens): a significant rise beyond its tolerance. */
  | ({ readonly kind: 'rose' } & Rise)
  | { readonly kind: 'floor-broken'; readonly floor: Floor; readonly reads: string; readonly value: number }
  | { readonly kind: 'floor-unchecked'; readonly floor: Floor }
  | { readonly kind: 'too-few-paired'; readonly paired: number; readonly minPaired: number }
  | { readonly kind: 'low-coverage'; readonly compared: number; readonly baseQuestions: number; readonly share: number; readonly minCoverage: number }
  | ({ readonly kind: 'gate-data-lost' } & GateDataLost);

/**
 * A gate whose outcome the base carries on paired questions and the head on none of them (a field dropped or
 * misspelt): it cannot be tested, and that fails rather than passing untested.
 */
export interface GateDataLost {
  readonly gate: GateName;
  /** The per-question columns the gate reads that no paired head question carries (`retrieval_ok`, `correct`…). */
  readonly columns: readonly string[];
  /** Paired questions whose base carries every column the gate reads. */
  readonly baseQuestions: number;
}

/** What the gate saw but did not fail on. `field` names the judged field whose judge is uncalibrated. */
export type GateWarning =
  /** `standIns`: scores another tool wrote that measure what the gate would (context_recall for retrieval), when there are. */
  | { readonly kind: 'gate-untestable'; readonly gate: GateName; readonly standIns?: readonly string[] }
  | ({ readonly kind: 'drop-below-minimum-effect'; readonly minEffect: number } & Drop)
  /** A usage gate rose significantly, but by no more than its tolerance. */
  | ({ readonly kind: 'rise-within-tolerance' } & Rise)
  | ({ readonly kind: 'drop-from-uncalibrated-judge'; readonly field: string } & Drop)
  | { readonly kind: 'floor-from-uncalibrated-judge'; readonly floor: Floor; readonly value: number; readonly field: string }
  /** One run's `refused` came from its records' field, the other's (for `base`/`head` questions) from the text refusal detector. */
  | { readonly kind: 'refusal-source-differs'; readonly base: number; readonly head: number };

export interface CompareConfig {
  readonly eval: EvalConfig;
  /** What a base question missing from head counts as. */
  readonly missing: 'fail' | 'exclude';
  /** The gate fails with fewer paired questions, or a smaller share of the base compared. */
  readonly minPaired: number;
  readonly minCoverage: number;
  readonly alpha: number;
  readonly failOn: ReadonlySet<GateName>;
  /** An absolute drop smaller than this only warns, even when significant. */
  readonly minEffect: number;
  /** The rise each usage gate tolerates, as a share of base (0.1 for 10%): a significant rise within it only warns. */
  readonly tolerances: Readonly<Record<UsageGate, number>>;
  readonly floors: readonly Floor[];
  readonly permutations: number;
  /** Graded per-question metrics that get a paired randomization test. */
  readonly gradedMetrics: readonly string[];
  /** Below 25 discordant pairs McNemar's exact test decides, or its mid-p version. */
  readonly mcnemarSmallSample: McNemarSmallSample;
  /** Classical paired tests reported (never gating) beside each randomization test. */
  readonly extraTests: ReadonlySet<ExtraTest>;
  /**
   * The gates fail-on names when it is set to other than the default: each must have data in one run or the other.
   * The default's gates may lack it (results without retrieval data are common) and only warn.
   */
  readonly namedGates: ReadonlySet<GateName>;
  /** Calibration records of `rag-gate calibrate`: judged metrics gate only with kappa ≥ kappaFloor. */
  readonly calibrations: readonly CalibrationRecord[];
  readonly kappaFloor: number;
}

export interface TestBase {
  readonly metric: string;
  /** The gate category this test decides, or null when it is reported only. */
  readonly gate: GateName | null;
  /** Paired questions in the test. */
  readonly n: number;
  readonly base: number;
  readonly head: number;
  readonly delta: number;
  /** 95% interval of delta, the mean paired difference head − base (of 0/1 outcomes for McNemar). */
  readonly ci: readonly [number, number];
  /** Student's t below 100 pairs, else the percentile bootstrap (see core/stats/mean-interval.ts). */
  readonly ciMethod: IntervalMethod;
  readonly pValue: number;
  /** Holm–Bonferroni adjusted over the tests the gate uses; null for report-only tests. */
  readonly adjustedPValue: number | null;
  /** Adjusted p below alpha for gated tests, raw p below alpha otherwise. */
  readonly significant: boolean;
  /** For a gated test with a significant drop: whether it failed the check or only warned, and why. */
  readonly gateOutcome: GateOutcome | null;
  /** When not significant: paired questions needed to detect the observed difference at alpha with 80% power. */
  readonly requiredN: number | null;
}

export interface McNemarTest extends TestBase, Omit<McNemarResult, 'pValue'> {
  readonly kind: 'mcnemar';
}

/**
 * A 0/1 outcome compared on per-question pass rates (a run had repeats): how many questions' rates fell or rose,
 * and, when base ran each question at least twice, how many run-to-run noise alone would make fall or rise.
 */
export interface RateCounts {
  /** Questions whose head pass rate is below their base pass rate. */
  readonly broken: number;
  readonly fixed: number;
  /** Expected from noise, over the questions base ran at least twice: each question's runs dealt at random between the sides (noise-floor.ts). */
  readonly noise: { readonly broken: number; readonly fixed: number; readonly questions: number } | null;
}

export interface RandomizationTest extends TestBase {
  readonly kind: 'randomization';
  /** For a 0/1 outcome tested on per-question pass rates (repeated runs): its counts and noise floor. */
  readonly rates?: RateCounts;
  /** Random sign-flip arrangements drawn: the `permutations` setting, more when p was too close to alpha to call. */
  readonly permutations: number;
  /** Monte Carlo standard error of pValue. */
  readonly monteCarloSE: number;
  /** pValue is Hoeffding's bound on the sign-flip tail, below what the permutations could show; none was drawn. */
  readonly tailBound: boolean;
  /** The `extra-tests` asked for (report only; null where undefined, e.g. differences without spread). */
  readonly extra: { readonly t?: PairedTTest | null; readonly wilcoxon?: WilcoxonTest | null };
}

/** A question whose latency, tokens or cost rose most from base to head. */
export interface UsageRise {
  readonly id: string;
  readonly question: string;
  readonly base: number;
  readonly head: number;
}

/** A head/base ratio of one quantile of a usage measure, with its paired bootstrap interval. */
export interface QuantileRatio {
  readonly q: number;
  readonly base: number;
  readonly head: number;
  readonly ratio: number;
  readonly ci: readonly [number, number];
}

/**
 * Run-to-run noise of a usage measure, from the questions base ran at least twice: how many questions rose by more
 * than the tolerance, and how many noise alone would make rise that much (each question's own spread between its
 * runs, as a normal difference of the two sides' means).
 */
export interface UsageNoise {
  readonly questions: number;
  readonly rose: number;
  readonly expected: number;
}

/**
 * What a question cost, base against head: the paired sign-flip randomization test on the per-question
 * differences (of the logarithms for latency, a ratio; of the values for tokens and dollars), the head/base ratio
 * with its interval, each quantile's ratio, and the questions that rose most. `base`, `head`, `delta` and `ci` are
 * the means, in the measure's unit.
 */
export interface UsageTest extends TestBase {
  readonly kind: 'usage';
  readonly unit: 'ms' | 'tokens' | 'usd';
  readonly scale: 'log' | 'plain';
  /** Head/base: of the geometric means (log scale: exp of the mean log difference) or of the means. */
  readonly ratio: number;
  readonly ratioCi: readonly [number, number];
  readonly quantiles: readonly QuantileRatio[];
  readonly permutations: number;
  readonly monteCarloSE: number;
  readonly tailBound: boolean;
  /** The tolerance of its gate, when it has one. */
  readonly tolerance: number | null;
  /** The questions that rose most (by ratio for latency, by amount otherwise), at most 10. */
  readonly rises: readonly UsageRise[];
  /** Pairs left out because a latency was 0 (no logarithm). */
  readonly zeros: number;
  readonly noise: UsageNoise | null;
}

export type PairedTest = McNemarTest | RandomizationTest | UsageTest;

export type RegressionCause = 'retrieval' | 'generation' | 'unknown';

/** What one run did with a question, as its record says (text bounded when it is read). */
export interface QuestionSide {
  readonly answer?: string;
  /** The first documents retrieved, up to the retrieval-ok rule's cut-off. */
  readonly top?: readonly string[];
  /** The record's `trace_url`, unchecked: renderers link it only when it is an http(s) URL. */
  readonly traceUrl?: string;
  /**
   * The start of the text of each document in `top` whose id was derived from that text (`text-…`, no id given),
   * by id: a hash means nothing to a reader, so reports show the document's first words instead.
   */
  readonly documentTexts?: Readonly<Record<string, string>>;
}

/**
 * The answers and documents of a changed question on both sides, so a reviewer can judge the change. Read for
 * the listed questions only, after the comparison (see `readEvidence`), never kept for a whole run.
 */
export interface QuestionEvidence {
  /** The head's expected answer (its labels are the ones compared). */
  readonly expectedAnswer?: string;
  readonly base?: QuestionSide;
  readonly head?: QuestionSide;
}

export interface QuestionChange {
  readonly id: string;
  readonly question: string;
  readonly tags: readonly string[];
  readonly cause: RegressionCause;
  /** Relevant documents found within the retrieval-ok cut-off in base but not in head. */
  readonly lostDocuments: readonly string[];
  readonly evidence?: QuestionEvidence;
  /** With repeated runs: correct in `passes` of `runs` runs, in base and in head. */
  readonly correctRuns?: { readonly base: PassCount; readonly head: PassCount };
}

export interface RetrievalRegression {
  readonly id: string;
  readonly question: string;
  readonly tags: readonly string[];
  readonly lostDocuments: readonly string[];
  /** Still answered right in head, from the model's own knowledge. */
  readonly rescued: boolean;
  readonly evidence?: QuestionEvidence;
}

/** One outcome of the paired questions of a tag, base against head, with its McNemar test. */
export interface TagOutcome {
  /** `correct` or `retrieval_ok`. */
  readonly metric: 'correct' | 'retrieval_ok';
  /** Pairs where both runs carry the outcome. */
  readonly n: number;
  readonly base: number;
  readonly head: number;
  readonly broken: number;
  readonly fixed: number;
  readonly pValue: number;
  /** Holm-adjusted across every tag's tests of the comparison. */
  readonly adjustedPValue: number;
  readonly significant: boolean;
}

/** How the paired questions of one tag moved. */
export interface TagChange {
  readonly tag: string;
  /** Paired questions with the tag. */
  readonly questions: number;
  readonly outcomes: readonly TagOutcome[];
}

/** A base question the head results lack, counted as failed in head for every gated test. */
export interface MissingQuestion {
  readonly id: string;
  readonly question: string;
  readonly tags: readonly string[];
  /** Its base outcomes, null where the base run did not carry them. */
  readonly wasCorrect: boolean | null;
  readonly retrievalWasOk: boolean | null;
}

/**
 * A paired question whose head record lacks an outcome its base record has, for a test that reads it: like a
 * missing question, it counts as failed in those tests (with `missing: exclude`, it is left out of them instead).
 */
export interface LostOutcome {
  readonly id: string;
  readonly question: string;
  readonly tags: readonly string[];
  /** The outcome columns the head record lacks: `correct`, `retrieval_ok`, `refused`, or a gated `score:NAME`. */
  readonly columns: readonly string[];
  /** The tests it counts as failed in, or is left out of (`correct`, `correct_given_retrieval`…). */
  readonly tests: readonly string[];
  readonly counted: 'failed' | 'left-out';
}

/** Why a base question whose gold labels changed in head could not be re-scored under the head's labels. */
export type NotRescorable = 'correct-given' | 'retrieval-ok-given' | 'not-rescored';

/** A question left out because its gold labels changed and its base record could not be re-scored. */
export interface Relabelled {
  readonly id: string;
  readonly reason: NotRescorable;
}

/** How much of the base run the comparison accounts for. */
export interface Coverage {
  /** Questions in both runs with the same gold labels. */
  readonly paired: number;
  /** Base questions missing from head, counted as failed. */
  readonly missing: number;
  /**
   * Paired questions that lost in head an outcome of a gated test their base has: counted as failed (compared),
   * or, with `missing: exclude`, left out of that test and not counted as compared.
   */
  readonly lostOutcomes: number;
  /** paired + missing, less the questions whose lost outcomes were left out. */
  readonly compared: number;
  /** Base questions still in the golden set. */
  readonly baseQuestions: number;
  /** compared / baseQuestions. */
  readonly share: number;
}

export interface Comparison {
  readonly paired: number;
  readonly added: readonly string[];
  /** Base questions no longer in the head's golden set: removed on purpose, left out. */
  readonly removed: readonly string[];
  /** Base questions missing from head and left out because `missing` is `exclude`. */
  readonly excluded: readonly string[];
  readonly missing: readonly MissingQuestion[];
  /** Paired questions whose head record lacks an outcome their base has, for a test that reads it. */
  readonly lostOutcomes: readonly LostOutcome[];
  /** Questions whose gold labels changed in head and whose base was re-scored under the head's labels: paired. */
  readonly rescored: readonly string[];
  /** Questions whose gold labels changed and could not be re-scored: left out. */
  readonly labelsChanged: readonly Relabelled[];
  /** Holdout questions (of either run) left out: a pull request never looks at the holdout. */
  readonly holdoutLeftOut: readonly string[];
  readonly coverage: Coverage;
  readonly alpha: number;
  readonly tests: readonly PairedTest[];
  /** Right in base, wrong in head, with the cause. */
  readonly regressions: readonly QuestionChange[];
  /** Retrieval ok in base, failed in head, whether or not the answer survived. */
  readonly retrievalRegressions: readonly RetrievalRegression[];
  /** Wrong in base, right in head. */
  readonly fixed: readonly QuestionChange[];
  readonly regressionsByTag: Readonly<Record<string, number>>;
  /** Base against head by tag, the tags that moved most first (largest change of any outcome). */
  readonly byTag: readonly TagChange[];
  readonly causes: { readonly regressions: Readonly<Record<RegressionCause, number>>; readonly fixed: Readonly<Record<RegressionCause, number>> };
  /** On the paired questions, so the two sides describe the same set. */
  readonly decomposition: { readonly base: Decomposition; readonly head: Decomposition };
  /** r moved significantly (the retrieval test, Holm-adjusted when gated): gGood and gBad were measured on different subsets. */
  readonly retrievalShifted: boolean;
  /** Each `--floor`, its head value and whether it held. */
  readonly floors: readonly FloorCheck[];
  /** For each field `rag-gate judge` filled: whether its judge is calibrated and may gate. */
  readonly judges: readonly JudgeStatus[];
  /** What each run's reader derived (ids, text matching) and the scores other tools wrote. */
  readonly provenance: { readonly base: RunProvenance; readonly head: RunProvenance };
  readonly verdict: Verdict;
  /** Flakiness of each run whose questions were run several times (absent when neither was). */
  readonly flaky?: { readonly base: RepeatSummary | null; readonly head: RepeatSummary | null };
  /** No gated test had data and no floor was set: nothing was measured that could fail. */
  readonly ungated: boolean;
  /** Gates fail-on names that neither run has data for: an input error, never a pass. */
  readonly unmeasured: readonly GateName[];
  readonly reasons: readonly GateReason[];
  readonly warnings: readonly GateWarning[];
  /** Questions whose gold the head changed, and how each was scored (absent when none did). */
  readonly goldChanges?: readonly GoldChange[];
}
