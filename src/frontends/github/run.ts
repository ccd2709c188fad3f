import { randomUUID } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import type { Settings } from '../../core/catalog/settings.js';
import type { Comparison } from '../../core/compare/types.js';
import { InputError, SettingError } from '../../core/errors.js';
import { JudgeSetupError } from '../../judge/errors.js';
import { compareFiles, comparisonConfig, evaluateFiles } from '../../pipeline/compare.js';
import { resultFiles } from '../../pipeline/files.js';
import { loadSettings } from '../../pipeline/settings.js';
import { comparisonReport } from '../../render/compare-json.js';
import { renderCompareText } from '../../render/compare-text.js';
import { evalJson } from '../../render/eval-json.js';
import { renderEvalText } from '../../render/eval-text.js';
import { reasonText } from '../../render/gate-words.js';
import { renderHeadOnly } from '../../render/head-only.js';
import { renderComment } from '../../render/markdown.js';
import { renderSettings } from '../../render/settings-text.js';
import { writeFileAtomic } from '../../sources/write.js';
import { type Baseline, findArtifactBaseline } from './baseline.js';
import { commentMarker, type CommentResult, upsertComment } from './comment.js';
import { readEvent } from './event.js';
import { type GitHubApi, httpStatus, type PullRequestRef } from './github.js';
import { givenInputs, INPUT_NAMES, type InputName } from './inputs.js';
import { ActionJudge } from './judge.js';

/** Everything the action touches outside the pure core, so tests can run it without a runner or GitHub. */
export interface ActionRuntime {
  getInput(name: InputName): string;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** The event payload (GitHub writes it to GITHUB_EVENT_PATH). */
  readEventPayload(): unknown;
  createApi(token: string, owner: string, repo: string): GitHubApi;
  info(message: string): void;
  warning(message: string, title?: string): void;
  setOutput(name: string, value: string): void;
  setFailed(message: string): void;
  writeSummary(markdown: string): Promise<void>;
  now(): Date;
  /** The bundled entry file, to read the base run on a reader thread; without it both runs are read on this thread. */
  readonly readerEntry?: URL;
}

/** GitHub's job summary takes at most 1 MiB. */
const SUMMARY_MAX_BYTES = 1024 * 1024;

const FORK_HINT =
  'the token cannot write to this pull request (a pull request from a fork gets a read-only token). The summary, outputs and gate still apply; to get the comment, use the workflow_run recipe ("Pull requests from forks") in the rag-gate README.';

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The pull request this run reports on: from the event, from a workflow_run's head, or from the `pr-number` input. */
async function resolvePullRequest(api: GitHubApi, event: ReturnType<typeof readEvent>, prNumber: number | undefined): Promise<PullRequestRef | null> {
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
    if (error instanceof SettingError || error instanceof InputError || error instanceof JudgeSetupError) {
      runtime.setFailed(`rag-gate: bad input\n${error.message}`);
      return;
    }
    runtime.setFailed(`rag-gate: ${errorMessage(error)}`);
  }
}

async function run(runtime: ActionRuntime): Promise<void> {
  const { settings, texts, origins } = await loadSettings(givenInputs((name) => runtime.getInput(name)));
  runtime.info(`rag-gate settings:\n${renderSettings(INPUT_NAMES.filter((name) => name !== 'github-token'), texts, origins)}`);
  if (settings.results === undefined) throw new SettingError('input "results": is required: the path or glob of your results file(s), as the input or results: in the config file');
  const env = runtime.env;
  const [owner = '', repo = ''] = (env.GITHUB_REPOSITORY ?? '').split('/');
  const event = readEvent(env.GITHUB_EVENT_NAME ?? '', runtime.readEventPayload(), Number(env.GITHUB_RUN_ID ?? 0));
  const reportDir = join(env.RUNNER_TEMP || tmpdir(), 'rag-gate', settings['comment-tag']);
  await mkdir(reportDir, { recursive: true });

  const config = await comparisonConfig(settings);
  const judgeClient = settings.judge === 'openai' ? new ActionJudge(settings, env) : null;
  const judge = (files: readonly string[], side: string) =>
    judgeClient === null ? Promise.resolve([...files]) : judgeClient.judgeFiles(files, join(reportDir, 'judged', side), (message) => runtime.info(message));
  const headInputs = await resultFiles(settings.results, 'results', origins.results);
  const headFiles = await judge(headInputs, 'head');

  const api = runtime.createApi(settings['github-token'], owner, repo);
  const commentsAllowed = settings.comment !== 'never' && event.eventName !== 'push';
  const pullRequest = await resolvePullRequest(api, event, settings['pr-number']).catch((error: unknown) => {
    runtime.warning(`could not find the pull request of this ${event.eventName} event: ${errorMessage(error)}`);
    return null;
  });
  const baseline = await findBaseline(runtime, settings, origins.baseline, { api, pullRequest, event, owner, repo, headInputs, reportDir });

  const marker = commentMarker(settings['comment-tag']);
  const jsonFile = join(reportDir, 'report.json');
  const markdownFile = join(reportDir, 'comment.md');
  let comment: string;
  let summary: string;
  let comparison: Comparison | null = null;
  let report: object;
  const rule = config.eval.retrievalOk.name;
  if (baseline.found) {
    const run = await compareFiles({ base: await judge(baseline.files, 'base'), head: headFiles, golden: settings.golden }, config, {
      readerEntry: runtime.readerEntry,
      allowUngated: settings['allow-ungated'],
    });
    for (const warning of run.warnings) runtime.warning(warning);
    comparison = run.comparison;
    const options = { retrievalOk: rule, marker, baseline: baseline.description, reportLink: 'the `report-json` output' };
    comment = renderComment(comparison, options);
    summary = renderComment(comparison, { ...options, maxLength: SUMMARY_MAX_BYTES / 2 });
    report = comparisonReport(run, config, { found: true, sha: baseline.sha, description: baseline.description });
    logUntrusted(runtime, renderCompareText(comparison, config));
  } else {
    const head = await evaluateFiles(headFiles, config.eval);
    for (const warning of head.warnings) runtime.warning(warning);
    comment = renderHeadOnly(head.summary, { reason: `No baseline: ${baseline.reason}`, retrievalOk: rule, marker, retrievalOkMetric: config.eval.retrievalOk.metric.name });
    summary = comment;
    report = { verdict: 'neutral', reasons: [], baseline: { found: false, reason: baseline.reason }, head: evalJson(head.summary, config.eval) };
    logUntrusted(runtime, `No baseline: ${baseline.reason}. Reporting the head results only.\n${renderEvalText(headFiles.join(', '), head.summary, config.eval)}`);
  }
  judgeClient?.report(
    (message) => runtime.info(message),
    (message) => runtime.warning(`judge: ${message}`),
  );
  await writeFileAtomic(jsonFile, `${JSON.stringify(report, null, 2)}\n`);
  await writeFileAtomic(markdownFile, comment);

  await runtime.writeSummary(Buffer.byteLength(summary) <= SUMMARY_MAX_BYTES ? summary : comment).catch((error: unknown) => runtime.warning(`could not write the job summary: ${errorMessage(error)}`));

  let posted: CommentResult = { action: 'skipped', url: null };
  if (commentsAllowed && pullRequest !== null) {
    try {
      posted = await upsertComment(api, pullRequest.number, marker, comment, { onlyIfChanged: settings.comment === 'on-change', hasNews: comparison === null || hasNews(comparison) });
      if (posted.url !== null) runtime.info(`PR comment ${posted.action}: ${posted.url}`);
    } catch (error) {
      const status = httpStatus(error);
      const why = status === 403 ? FORK_HINT : `the GitHub API failed (${errorMessage(error)}); the verdict below still stands.`;
      runtime.warning(`rag-gate could not comment on pull request #${pullRequest.number}: ${why}`, 'rag-gate: no PR comment');
    }
  }

  const verdict = comparison?.verdict ?? 'neutral';
  const correct = comparison?.tests.find((test) => test.metric === 'correct') ?? comparison?.tests.find((test) => test.metric === 'retrieval_ok');
  runtime.setOutput('verdict', verdict);
  runtime.setOutput('p-value', comparison === null ? '' : decidingPValue(comparison));
  runtime.setOutput('fixed', correct?.kind === 'mcnemar' ? String(correct.fixed) : '');
  runtime.setOutput('broken', correct?.kind === 'mcnemar' ? String(correct.broken) : '');
  runtime.setOutput('regressions', String(comparison?.regressions.length ?? 0));
  runtime.setOutput('report-json', jsonFile);
  runtime.setOutput('report-markdown', markdownFile);
  runtime.setOutput('baseline-found', String(baseline.found));
  runtime.setOutput('baseline-sha', baseline.found ? (baseline.sha ?? '') : '');
  runtime.setOutput('comment-url', posted.url ?? '');

  if (comparison?.verdict === 'fail') {
    const context = { retrievalOk: rule, judges: comparison.judges };
    const message = `rag-gate: ${comparison.reasons.map((reason) => reasonText(reason, context)).join('; ')}`;
    if (settings.mode === 'gate') runtime.setFailed(message);
    else runtime.warning(`${message} (advisory mode: the check passes)`, 'rag-gate: regression');
  }
}

/** The base results: the `baseline` files when given, else the base branch's artifact, else why there are none. */
async function findBaseline(
  runtime: ActionRuntime,
  settings: Settings,
  baselineOrigin: Parameters<typeof resultFiles>[2],
  context: { api: GitHubApi; pullRequest: PullRequestRef | null; event: ReturnType<typeof readEvent>; owner: string; repo: string; headInputs: readonly string[]; reportDir: string },
): Promise<Baseline> {
  const { api, pullRequest, event, owner, repo } = context;
  if (settings.baseline !== undefined) {
    return { found: true, files: await resultFiles(settings.baseline, 'baseline', baselineOrigin), sha: null, description: `\`${settings.baseline}\`` };
  }
  if (pullRequest === null) return { found: false, reason: `a ${event.eventName || 'non-pull-request'} event has no base branch to compare with` };
  return findArtifactBaseline({
    api,
    pullRequest,
    producerRunId: event.producerRunId,
    repository: `${owner}/${repo}`,
    artifactName: settings['baseline-artifact'],
    maxAgeDays: settings['baseline-max-age-days'],
    resultNames: context.headInputs.map((file) => basename(file)),
    directory: join(context.reportDir, 'baseline'),
    now: runtime.now(),
  }).catch((error: unknown): Baseline => ({ found: false, reason: `the baseline lookup failed (${errorMessage(error)})` }));
}
