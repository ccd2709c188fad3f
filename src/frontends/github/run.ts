import { randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, isAbsolute, join, relative, resolve, sep } from 'node:path';
import type { SettingName, SettingOrigin, Settings, SettingText } from '../../core/catalog/settings.js';
import { goldFingerprint, needsApproval, withPolicyVerdict } from '../../core/compare/policy.js';
import type { Approver, ChangeApproval, Comparison } from '../../core/compare/types.js';
import type { RunSummary } from '../../core/scoring/summary.js';
import { InputError, SettingError } from '../../core/errors.js';
import { JudgeSetupError } from '../../judge/errors.js';
import { compareFiles, type ComparisonRun, comparisonConfig, evaluateFiles } from '../../pipeline/compare.js';
import { resultFiles } from '../../pipeline/files.js';
import type { GoldApproval } from '../../pipeline/gold.js';
import { holdToBase, settingsUnder } from '../../pipeline/policy.js';
import { loadSettings, type ResolvedSettings } from '../../pipeline/settings.js';
import { commitStatusDescription, type StatusSubject } from '../../render/commit-status.js';
import { comparisonReport } from '../../render/compare-json.js';
import { codeQuoted } from '../../render/untrusted.js';
import { renderCompareText } from '../../render/compare-text.js';
import { evalJson } from '../../render/eval-json.js';
import { renderEvalText } from '../../render/eval-text.js';
import { reasonText } from '../../render/gate-words.js';
import { gateChangesText, type GateChangesView, goldChangesText } from '../../render/gate-changes.js';
import { type NoComparison, noComparisonText, renderHeadOnly } from '../../render/head-only.js';
import { historyWrittenNote, trendHead } from '../../render/history.js';
import { renderComment } from '../../render/markdown.js';
import { renderSettings } from '../../render/settings-text.js';
import { type Baseline, type BaselineBroken, type BaselineFound, findArtifactBaseline, invalidArtifactResults } from './baseline.js';
import { type ApprovalKind, approvalOf, changesMarker, changesShownSince, labelApplied, type ShownChanges, shownChanges } from './approval.js';
import { commentMarker, type CommentResult, findOwnComment, upsertComment } from './comment.js';
import { type EventInfo, readEvent } from './event.js';
import { apiFailure, type CommitStatus, type GitHubApi, httpStatus, type IssueComment, type PullRequestRef } from './github.js';
import { previousHistory, pullRequestHistory, recordRun } from './history.js';
import { givenInputs, INPUT_NAMES } from './inputs.js';
import { ActionJudge } from './judge.js';
import { runMonitor } from './monitor.js';
import { setOutputs } from './outputs.js';
import { runRelease } from './release.js';
import type { ActionRuntime } from './runtime.js';

export type { ActionRuntime } from './runtime.js';

/** GitHub's job summary takes at most 1 MiB. */
const SUMMARY_MAX_BYTES = 1024 * 1024;

const FORK_HINT =
  'the token cannot write to this pull request (a pull request from a fork gets a read-only token). The summary, outputs and gate still apply; to get the comment, use the workflow_run recipe ("Pull requests from forks") in the rag-gate README.';

const STATUS_PERMISSION_HINT =
  'the token may not write commit statuses: add `statuses: write` under `permissions:` in the workflow (or job) that runs rag-gate';

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

const isBadInput = (error: unknown) => error instanceof SettingError || error instanceof InputError || error instanceof JudgeSetupError;

/** The pull request this run reports on: from the event, from a workflow_run's head, or from the `pr-number` input. */
async function resolvePullRequest(api: GitHubApi, event: EventInfo, prNumber: number | undefined): Promise<PullRequestRef | null> {
  if (prNumber !== undefined) return api.getPullRequest(prNumber);
  if (event.pullRequest !== null) {
    if (event.eventName !== 'workflow_run') return event.pullRequest;
    return api.getPullRequest(event.pullRequest.number);
  }
  if (event.workflowRunHead !== null) {
    const { owner, branch, sha } = event.workflowRunHead;
    return api.findPullRequest(owner, branch, sha);
  }
  return null;
}

function hasNews(comparison: Comparison): boolean {
  return comparison.verdict === 'fail' || comparison.regressions.length > 0 || comparison.fixed.length > 0 || comparison.tests.some((test) => test.significant);
}

/** The p-value that decides: the smallest Holm-adjusted p among the gated tests. */
function decidingPValue(comparison: Comparison): string {
  const adjusted = comparison.tests.flatMap((test) => (test.adjustedPValue === null ? [] : [test.adjustedPValue]));
  return adjusted.length === 0 ? '' : String(Math.min(...adjusted));
}

/**
 * Prints a report made of users' text to the log with workflow commands switched off around it, so that no line
 * of it (an id such as `::set-output …`) is ever run by the runner.
 */
function logUntrusted(runtime: ActionRuntime, text: string): void {
  const token = randomUUID();
  runtime.info(`::stop-commands::${token}`);
  runtime.info(text);
  runtime.info(`::${token}::`);
}

/** Runs the action: read, compare with the base branch's results, report, and decide the gate. */
export async function runAction(runtime: ActionRuntime): Promise<void> {
  try {
    await run(runtime);
  } catch (error) {
    if (isBadInput(error)) {
      runtime.setFailed(`rag-gate: bad input\n${error.message}`);
      return;
    }
    runtime.setFailed(`rag-gate: ${errorMessage(error)}`);
  }
}

/** This workflow run's page, from the variables the runner sets. */
function runUrl(env: ActionRuntime['env']): string | undefined {
  if (!env.GITHUB_REPOSITORY || !env.GITHUB_RUN_ID) return undefined;
  return `${env.GITHUB_SERVER_URL || 'https://github.com'}/${env.GITHUB_REPOSITORY}/actions/runs/${env.GITHUB_RUN_ID}`;
}

/** Where this run's commit status goes, when it sets one. */
interface StatusTarget {
  readonly sha: string;
  readonly context: string;
  readonly targetUrl: string;
}

/**
 * The commit to set a status on: only when this job's own check is not on the pull request's head (workflow_run
 * and other events that are not pull_request), and then on the commit whose results these are: a workflow_run's
 * head, not the pull request's newest commit, which may not have been measured yet.
 */
function statusTarget(event: EventInfo, pullRequest: PullRequestRef | null, tag: string, env: ActionRuntime['env']): StatusTarget | null {
  if (event.eventName === 'pull_request' || pullRequest === null) return null;
  return {
    sha: event.workflowRunHead?.sha || pullRequest.headSha,
    context: `rag-gate/${tag}`,
    targetUrl: `${env.GITHUB_SERVER_URL || 'https://github.com'}/${env.GITHUB_REPOSITORY}/actions/runs/${env.GITHUB_RUN_ID}`,
  };
}

/** Sets the commit status; a failure only warns, since the job's own check still carries the verdict. */
async function setCommitStatus(
  runtime: ActionRuntime,
  api: GitHubApi,
  target: StatusTarget,
  state: CommitStatus['state'],
  subject: StatusSubject,
): Promise<void> {
  try {
    await api.createCommitStatus(target.sha, { state, context: target.context, description: commitStatusDescription(subject), targetUrl: target.targetUrl });
    runtime.info(`commit status ${target.context}: ${state} on ${target.sha}`);
  } catch (error) {
    const why = apiFailure(error).kind === 'forbidden' ? STATUS_PERMISSION_HINT : `the GitHub API failed (${errorMessage(error)})`;
    runtime.warning(
      `rag-gate could not set the commit status ${target.context} on ${target.sha.slice(0, 7)}: ${why}. The verdict below still stands.`,
      'rag-gate: no commit status',
    );
  }
}

/** What the run decided: the verdict output, and why the check fails when it does (before advisory mode). */
interface Outcome {
  readonly verdict: 'pass' | 'fail' | 'neutral';
  readonly failure: { readonly message: string; readonly title: string } | null;
  readonly status: StatusSubject;
}

async function run(runtime: ActionRuntime): Promise<void> {
  const given = givenInputs((name) => runtime.getInput(name));
  const head = await loadSettings(given);
  const { origins } = head;
  runtime.info(
    `rag-gate settings:\n${renderSettings(
      INPUT_NAMES.filter((name) => name !== 'github-token'),
      head.texts,
      origins,
    )}`,
  );
  const env = runtime.env;
  const [owner = '', repo = ''] = (env.GITHUB_REPOSITORY ?? '').split('/');
  const api = runtime.createApi({ token: head.settings['github-token'], owner, repo, timeoutMs: head.settings['api-timeout-seconds'] * 1000 });
  const event = readEvent(env.GITHUB_EVENT_NAME ?? '', runtime.readEventPayload(), Number(env.GITHUB_RUN_ID ?? 0));
  const pullRequest = await resolvePullRequest(api, event, head.settings['pr-number']).catch((error: unknown) => {
    runtime.warning(`could not find the pull request of this ${event.eventName} event: ${errorMessage(error)}`);
    return null;
  });
  // A pull request runs under its base branch's gate: its own changes to it are shown, and loosenings wait for approval.
  const gate = pullRequest === null ? null : await heldGate(runtime, api, given, head, pullRequest);
  const settings = gate?.settings ?? head.settings;
  if (settings.mode === 'monitor') {
    await runMonitor(runtime, api, settings, origins, runUrl(env));
    return;
  }
  if (settings.results === undefined)
    throw new SettingError('input "results": is required: the path or glob of your results file(s), as the input or results: in the config file');
  const headInputs = await resultFiles(settings.results, 'results', origins.results);
  if (settings.mode === 'release') {
    await runRelease(runtime, api, settings, origins);
    return;
  }
  const status = statusTarget(event, pullRequest, settings['comment-tag'], env);

  let outcome: Outcome;
  try {
    outcome = await compareAndReport(runtime, settings, origins.baseline, { api, event, pullRequest, owner, repo, headInputs, gate });
  } catch (error) {
    // A required status that is never set would block the pull request without saying why.
    if (status !== null) await setCommitStatus(runtime, api, status, 'failure', { kind: 'stopped', badInput: isBadInput(error) });
    throw error;
  }
  const fails = outcome.failure !== null && settings.mode === 'gate';
  if (status !== null) await setCommitStatus(runtime, api, status, fails ? 'failure' : 'success', outcome.status);
  if (outcome.failure === null) return;
  if (fails) runtime.setFailed(outcome.failure.message);
  else runtime.warning(`${outcome.failure.message} (advisory mode: the check passes)`, outcome.failure.title);
}

/** The gate a pull request runs under, its changes to it, and what the comment must carry for the next run. */
interface HeldGate {
  readonly settings: Settings;
  readonly approved: boolean;
  readonly view: GateChangesView;
  /** Decides on the gold changes that change a gated outcome, once the comparison knows them. */
  readonly approveGold: GoldApproval;
  /** The gold changes' approval, once decided. */
  goldApproval?: ChangeApproval;
  /** Hidden state lines for the comment: the changes it shows that need approval, and since when. */
  readonly stateMarkers: string[];
}

/** A setting's file as a path inside the repository, to read the base branch's version of it. */
function repositoryPath(setting: 'config' | 'golden' | 'holdout', file: string, workspace: string | undefined): string {
  const inside = relative(workspace || process.cwd(), resolve(file));
  if (inside === '' || inside.startsWith('..') || isAbsolute(inside))
    throw new SettingError(
      `input "${setting}": ${file} is not a file inside the repository checkout, so its base branch version cannot be read; keep it in the repository`,
    );
  return inside.split(sep).join('/');
}

/** Reads a file at the base commit through the API, failing closed: the gate's policy is not guessed. */
async function fileAtBase(api: GitHubApi, path: string, pullRequest: PullRequestRef): Promise<Buffer | null> {
  return api.getFileAt(path, pullRequest.baseSha).catch((error: unknown) => {
    const why = apiFailure(error).kind === 'forbidden' ? 'add `contents: read` under `permissions:` in the workflow' : 're-run the job';
    throw new Error(
      `could not read the base branch's ${path} at ${pullRequest.baseSha.slice(0, 7)} (${errorMessage(error)}): what decides pass or fail comes from the base branch, so rag-gate does not gate without it; ${why}`,
    );
  });
}

/** The base branch's version of the golden set or holdout file, copied to `directory`; null where the base has none. */
async function baseCopy(
  api: GitHubApi,
  setting: 'golden' | 'holdout',
  file: string | undefined,
  context: { pullRequest: PullRequestRef; workspace: string | undefined; directory: string },
): Promise<string | null | undefined> {
  if (file === undefined) return undefined;
  const content = await fileAtBase(api, repositoryPath(setting, file, context.workspace), context.pullRequest);
  if (content === null) return null;
  const copy = join(context.directory, `${setting}-${basename(file)}`);
  await mkdir(context.directory, { recursive: true });
  await writeFile(copy, content);
  return copy;
}

/**
 * Holds the run's settings to the base branch's config file at the pull request's base commit, read through the
 * API (the inputs come from the workflow, which code owners guard), and finds whether the head's changes that
 * need approval have it. Fails closed: a base whose settings cannot be read stops the run.
 */
async function heldGate(
  runtime: ActionRuntime,
  api: GitHubApi,
  given: ReadonlyMap<SettingName, SettingText>,
  head: ResolvedSettings,
  pullRequest: PullRequestRef,
): Promise<HeldGate> {
  const workspace = runtime.env.GITHUB_WORKSPACE;
  const path = repositoryPath('config', head.settings.config, workspace);
  const content = await fileAtBase(api, path, pullRequest);
  const where = { pullRequest, workspace, directory: join(runtime.env.RUNNER_TEMP || tmpdir(), 'rag-gate', head.settings['comment-tag'], 'base-branch') };
  const baseFiles = {
    golden: await baseCopy(api, 'golden', head.settings.golden, where),
    holdout: await baseCopy(api, 'holdout', head.settings.holdout, where),
  };
  const held = await holdToBase(given, head, { name: `${path} at ${pullRequest.baseSha.slice(0, 7)} (base branch)`, content }, baseFiles);
  const label = head.settings['approve-label'];
  const approveWith = { kind: 'label', label } as const;
  const commentsAllowed = head.settings.comment !== 'never';
  const marker = commentMarker(head.settings['comment-tag']);
  // The comment and the label are read once, and only when a change needs approval.
  let read: Promise<{ comment: IssueComment | undefined; by: Approver | null }> | undefined;
  const readApprovals = () =>
    (read ??= (async () => {
      if (!commentsAllowed) return { comment: undefined, by: null };
      const [comment, by] = await Promise.all([findOwnComment(api, pullRequest.number, marker), labelApplied(api, pullRequest.number, label)]);
      return { comment, by };
    })());
  const stateMarkers: string[] = [];
  const decide = async (kind: ApprovalKind, fingerprint: string): Promise<ChangeApproval> => {
    let previous: ShownChanges | null = null;
    let approval: ChangeApproval = { kind: 'none' };
    try {
      const { comment, by } = await readApprovals();
      previous = shownChanges(comment, kind);
      approval = approvalOf(by, fingerprint, previous, commentsAllowed);
    } catch (error) {
      runtime.warning(`rag-gate could not check for an approval of this pull request's ${kind} changes (${errorMessage(error)}); they count as not approved`);
    }
    stateMarkers.push(changesMarker(kind, changesShownSince(previous, fingerprint)));
    return approval;
  };
  const approval: ChangeApproval = held.fingerprint === null ? { kind: 'none' } : await decide('policy', held.fingerprint);
  const approved = held.fingerprint === null || approval.kind === 'approved';
  const gate: HeldGate = {
    settings: settingsUnder(held, head.settings, approved),
    approved,
    view: { changes: held.changes, approval, approveWith },
    stateMarkers,
    approveGold: async (changes) => {
      gate.goldApproval = await decide('gold', goldFingerprint(changes));
      return gate.goldApproval.kind === 'approved';
    },
  };
  return gate;
}

/** The pushed commit, which the runner names in GITHUB_SHA: the history's entries are keyed by it. */
function pushedCommit(env: ActionRuntime['env']): string {
  const sha = env.GITHUB_SHA ?? '';
  if (!/^[0-9a-f]{40}([0-9a-f]{24})?$/.test(sha))
    throw new Error(
      `GITHUB_SHA is ${sha === '' ? 'not set' : `"${sha}", not a commit`}: a push run keys its history entry by the pushed commit, which the runner sets there`,
    );
  return sha;
}

/** Why nothing was compared, and whether that fails the check by the on-missing-baseline and on-baseline-error settings. */
function noComparison(baseline: Exclude<Baseline, BaselineFound>, settings: Settings): NoComparison {
  switch (baseline.kind) {
    case 'absent':
      return { kind: 'no-baseline', reason: baseline.reason, fails: settings['on-missing-baseline'] === 'fail' };
    case 'no-base-branch':
      return { kind: 'no-baseline', reason: baseline.reason, fails: false };
    case 'broken':
      return { kind: 'baseline-error', problem: baseline.problem, fails: settings['on-baseline-error'] === 'fail' };
  }
}

/** Reads the results, compares them with the baseline when there is one, and reports: log, files, summary, comment, outputs. */
async function compareAndReport(
  runtime: ActionRuntime,
  settings: Settings,
  baselineOrigin: SettingOrigin,
  context: {
    api: GitHubApi;
    event: EventInfo;
    pullRequest: PullRequestRef | null;
    owner: string;
    repo: string;
    headInputs: readonly string[];
    gate: HeldGate | null;
  },
): Promise<Outcome> {
  const { api, event, pullRequest, headInputs, gate } = context;
  const gateChanges = gate !== null && gate.view.changes.length > 0 ? gate.view : undefined;
  if (gateChanges !== undefined) logUntrusted(runtime, gateChangesText(gateChanges));
  const unapproved = gate !== null && !gate.approved;
  const env = runtime.env;
  const reportDir = join(env.RUNNER_TEMP || tmpdir(), 'rag-gate', settings['comment-tag']);
  await mkdir(reportDir, { recursive: true });

  if (headInputs.some((file) => basename(file) === basename(settings.history)))
    throw new SettingError(
      `input "history": ${settings.history} has the name of a results file; the baseline artifact holds both, so give the history another name`,
    );
  // On push, the history this run extends: read before anything is judged or evaluated, so that a bad history file stops the run first.
  const push =
    event.pushedBranch === null
      ? null
      : {
          commit: pushedCommit(env),
          previous: await previousHistory(runtime, settings.history, {
            api,
            branch: event.pushedBranch,
            producerRunId: event.producerRunId,
            repository: `${context.owner}/${context.repo}`,
            artifactName: settings['baseline-artifact'],
            now: runtime.now(),
          }),
        };

  const config = await comparisonConfig(settings);
  const judgeClient = settings.judge === 'openai' ? new ActionJudge(settings, env) : null;
  const judge = (files: readonly string[], side: string) =>
    judgeClient === null ? Promise.resolve([...files]) : judgeClient.judgeFiles(files, join(reportDir, 'judged', side), (message) => runtime.info(message));
  const headFiles = await judge(headInputs, 'head');

  const commentsAllowed = settings.comment !== 'never' && event.eventName !== 'push';
  const found = await findBaseline(runtime, settings, baselineOrigin, { ...context, reportDir });
  const compareWith = async (baseline: BaselineFound): Promise<{ kind: 'compared'; baseline: BaselineFound; run: ComparisonRun } | BaselineBroken> => {
    try {
      return {
        kind: 'compared',
        baseline,
        run: await compareFiles({ base: await judge(baseline.files, 'base'), head: headFiles, golden: settings.golden, holdout: settings.holdout }, config, {
          readerEntry: runtime.readerEntry,
          allowUngated: settings['allow-ungated'],
          ...(gate === null ? {} : { approveGold: gate.approveGold }),
        }),
      };
    } catch (error) {
      const invalid = invalidArtifactResults(baseline, error);
      if (invalid === null) throw error;
      return invalid;
    }
  };
  const result = found.kind === 'found' ? await compareWith(found) : found;

  const marker = commentMarker(settings['comment-tag']);
  const jsonFile = join(reportDir, 'report.json');
  const markdownFile = join(reportDir, 'comment.md');
  let comment: string;
  let summary: string;
  let comparison: Comparison | null = null;
  let report: object;
  let outcome: Outcome;
  const rule = config.eval.retrievalOk.name;
  let headSummary: RunSummary;
  if (result.kind === 'compared') {
    const { baseline } = result;
    const run = { ...result.run, comparison: withPolicyVerdict(result.run.comparison, gate?.view.changes ?? [], !unapproved) };
    for (const warning of run.warnings) runtime.warning(warning);
    comparison = run.comparison;
    const goldApproval = gate?.goldApproval === undefined ? undefined : { approval: gate.goldApproval, approveWith: gate.view.approveWith };
    const goldText = goldChangesText(comparison.goldChanges ?? [], goldApproval);
    if (goldText !== '') logUntrusted(runtime, goldText);
    headSummary = run.head;
    const history = pullRequest === null ? null : await pullRequestHistory(runtime, settings.history, baseline);
    const trend = history === null ? undefined : { history, head: trendHead(run.head) };
    const options = {
      retrievalOk: rule,
      rules: config.eval,
      marker,
      baseline: baseline.description,
      reportLink: 'the `report-json` output',
      runUrl: runUrl(env),
      baselineRunUrl: baseline.artifact?.run.url,
      traceUrl: settings['trace-url'],
      trend,
      gateChanges,
      goldApproval,
      stateMarkers: gate?.stateMarkers,
    };
    comment = renderComment(comparison, options);
    summary = renderComment(comparison, { ...options, maxLength: SUMMARY_MAX_BYTES / 2 });
    report = {
      ...comparisonReport(run, config, { found: true, sha: baseline.sha, description: baseline.description }, trend),
      ...(gateChanges === undefined ? {} : { gateChanges: { changes: gateChanges.changes, approval: gateChanges.approval } }),
    };
    logUntrusted(runtime, renderCompareText(comparison, config));
    const words = { retrievalOk: rule, judges: comparison.judges };
    outcome = {
      verdict: comparison.verdict,
      failure:
        comparison.verdict === 'fail'
          ? { message: `rag-gate: ${comparison.reasons.map((reason) => reasonText(reason, words)).join('; ')}`, title: 'rag-gate: regression' }
          : null,
      status: { kind: 'compared', comparison, retrievalOk: rule, advisory: settings.mode === 'advisory' },
    };
  } else {
    const cause = noComparison(result, settings);
    const why = noComparisonText(cause);
    const head = await evaluateFiles(headFiles, config.eval, { holdout: settings.holdout });
    for (const warning of head.warnings) runtime.warning(warning);
    headSummary = head.summary;
    comment = renderHeadOnly(head.summary, {
      cause,
      retrievalOk: rule,
      marker,
      retrievalOkMetric: config.eval.retrievalOk.metric.name,
      holdoutLeftOut: head.holdoutLeftOut.length,
      gateChanges,
      stateMarkers: gate?.stateMarkers,
    });
    summary = comment;
    const changesFail = unapproved && gateChanges !== undefined;
    const verdict = cause.fails || changesFail ? 'fail' : 'neutral';
    const baselineJson = cause.kind === 'baseline-error' ? { found: false, reason: why, problem: cause.problem } : { found: false, reason: cause.reason };
    const changeReasons = changesFail ? [{ kind: 'gate-changed-unapproved', changes: gateChanges.changes.filter(needsApproval) } as const] : [];
    report = {
      verdict,
      reasons: changeReasons.map((reason) => ({ ...reason, message: reasonText(reason, { retrievalOk: rule, judges: [] }) })),
      baseline: baselineJson,
      head: evalJson(head.summary, config.eval),
      ...(gateChanges === undefined ? {} : { gateChanges: { changes: gateChanges.changes, approval: gateChanges.approval } }),
    };
    logUntrusted(runtime, `${why}\nReporting the head results only.\n${renderEvalText(headFiles.join(', '), head.summary, config.eval)}`);
    const title = cause.kind === 'baseline-error' ? 'rag-gate: baseline unreadable' : 'rag-gate: no baseline';
    if (cause.kind === 'baseline-error' && !cause.fails) runtime.warning(`rag-gate: ${why}`, title);
    const failures = [...changeReasons.map((reason) => reasonText(reason, { retrievalOk: rule, judges: [] })), ...(cause.fails ? [why] : [])];
    outcome = {
      verdict,
      failure: failures.length > 0 ? { message: `rag-gate: ${failures.join('; ')}`, title: changesFail ? 'rag-gate: gate changed' : title } : null,
      status: { kind: 'not-compared', cause },
    };
  }
  judgeClient?.report(
    (message) => runtime.info(message),
    (message) => runtime.warning(`judge: ${message}`),
  );
  await runtime.writeReport(jsonFile, `${JSON.stringify(report, null, 2)}\n`);
  await runtime.writeReport(markdownFile, comment);
  if (push !== null) {
    const history = await recordRun(settings.history, push.previous, headSummary, push.commit, runtime.now());
    runtime.info(historyWrittenNote(settings.history, history.runs.length, settings['baseline-artifact']));
  }

  await runtime
    .writeSummary(Buffer.byteLength(summary) <= SUMMARY_MAX_BYTES ? summary : comment)
    .catch((error: unknown) => runtime.warning(`could not write the job summary: ${errorMessage(error)}`));

  let posted: CommentResult = { action: 'skipped', url: null };
  if (commentsAllowed && pullRequest !== null) {
    try {
      posted = await upsertComment(api, pullRequest.number, marker, comment, {
        onlyIfChanged: settings.comment === 'on-change',
        hasNews: comparison === null || hasNews(comparison),
      });
      if (posted.url !== null) runtime.info(`PR comment ${posted.action}: ${posted.url}`);
    } catch (error) {
      const status = httpStatus(error);
      const why = status === 403 ? FORK_HINT : `the GitHub API failed (${errorMessage(error)}); the verdict below still stands.`;
      runtime.warning(`rag-gate could not comment on pull request #${pullRequest.number}: ${why}`, 'rag-gate: no PR comment');
    }
  }

  const correct = comparison?.tests.find((test) => test.metric === 'correct') ?? comparison?.tests.find((test) => test.metric === 'retrieval_ok');
  const compared = {
    verdict: outcome.verdict,
    'p-value': comparison === null ? '' : decidingPValue(comparison),
    fixed: correct?.kind === 'mcnemar' ? String(correct.fixed) : '',
    broken: correct?.kind === 'mcnemar' ? String(correct.broken) : '',
    regressions: String(comparison?.regressions.length ?? 0),
    'report-json': jsonFile,
    'report-markdown': markdownFile,
    'baseline-found': String(result.kind === 'compared'),
    'baseline-sha': result.kind === 'compared' ? (result.baseline.sha ?? '') : '',
  };
  if (push === null) setOutputs(runtime, 'gate', { ...compared, 'comment-url': posted.url ?? '' });
  else setOutputs(runtime, 'push', { ...compared, history: settings.history });
  return outcome;
}

/** The base results: the `baseline` files when given, else the base branch's artifact, else why there are none. */
async function findBaseline(
  runtime: ActionRuntime,
  settings: Settings,
  baselineOrigin: SettingOrigin,
  context: {
    api: GitHubApi;
    pullRequest: PullRequestRef | null;
    event: EventInfo;
    owner: string;
    repo: string;
    headInputs: readonly string[];
    reportDir: string;
  },
): Promise<Baseline> {
  const { api, pullRequest, event, owner, repo } = context;
  if (settings.baseline !== undefined) {
    return {
      kind: 'found',
      files: await resultFiles(settings.baseline, 'baseline', baselineOrigin),
      sha: null,
      description: codeQuoted(settings.baseline, 200),
    };
  }
  if (pullRequest === null) return { kind: 'no-base-branch', reason: `a ${event.eventName || 'non-pull-request'} event has no base branch to compare with` };
  return findArtifactBaseline({
    api,
    pullRequest,
    producerRunId: event.producerRunId,
    repository: `${owner}/${repo}`,
    serverUrl: runtime.env.GITHUB_SERVER_URL || 'https://github.com',
    artifactName: settings['baseline-artifact'],
    maxAgeDays: settings['baseline-max-age-days'],
    resultNames: context.headInputs.map((file) => basename(file)),
    historyName: basename(settings.history),
    directory: join(context.reportDir, 'baseline'),
    now: runtime.now(),
  });
}
