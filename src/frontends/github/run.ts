import { mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SettingOrigin, Settings } from '../../core/catalog/settings.js';
import { InputError, SettingError } from '../../core/errors.js';
import { JudgeSetupError } from '../../judge/errors.js';
import { comparisonConfig } from '../../pipeline/compare.js';
import { resultFiles } from '../../pipeline/files.js';
import { compareReport, type Report, type ReportRequest, stoppedStatus } from '../../pipeline/report.js';
import { loadSettings, settingsText } from '../../pipeline/settings.js';
import { findBaseline, invalidArtifactResults } from './baseline.js';
import { type EventInfo, readEvent, repository, resolvePullRequest, runUrl } from './event.js';
import { type HeldGate, heldGate } from './gate.js';
import type { GitHubApi, PullRequestRef } from './github.js';
import { checkHistoryName, pullRequestHistory, pushHistory, recordPush } from './history.js';
import { givenInputs, INPUT_NAMES } from './inputs.js';
import { JudgeBatchNotCollected, runJudge } from './judge.js';
import { BATCH_PENDING_STATUS } from '../../pipeline/judge.js';
import { runMonitor } from './monitor.js';
import { logReport, publication, publishReport } from './publish.js';
import { runRelease } from './release.js';
import type { ActionRuntime } from './runtime.js';
import { setCommitStatus, statusTarget } from './status.js';

export type { ActionRuntime } from './runtime.js';

const errorMessage = (error: unknown) => (error instanceof Error ? error.message : String(error));

const isBadInput = (error: unknown) => error instanceof SettingError || error instanceof InputError || error instanceof JudgeSetupError;

/** Runs the action: read, compare with the base branch's results, report, and decide the gate. */
export async function runAction(runtime: ActionRuntime): Promise<void> {
  try {
    await run(runtime);
  } catch (error) {
    runtime.setFailed(isBadInput(error) ? `rag-gate: bad input\n${errorMessage(error)}` : `rag-gate: ${errorMessage(error)}`);
  }
}

async function run(runtime: ActionRuntime): Promise<void> {
  const given = givenInputs((name) => runtime.getInput(name));
  const head = await loadSettings(given);
  const { origins } = head;
  const logged = INPUT_NAMES.filter((name) => name !== 'github-token');
  runtime.info(`rag-gate settings:\n${settingsText(logged, head)}`);
  const { owner, repo } = repository(runtime.context);
  const api = runtime.createApi({ token: head.settings['github-token'], owner, repo, timeoutMs: head.settings['api-timeout-seconds'] * 1000 });
  const event = readEvent(runtime.context);
  const pullRequest = await resolvePullRequest(api, event, head.settings['pr-number']).catch((error: unknown) => {
    runtime.warning(`could not find the pull request of this ${event.eventName} event: ${errorMessage(error)}`);
    return null;
  });
  // A pull request runs under its base branch's gate: its own changes to it are shown, and loosenings wait for approval.
  const gate = pullRequest === null ? null : await heldGate(runtime, api, given, head, pullRequest);
  const settings = gate?.settings ?? head.settings;
  if (settings.mode === 'monitor') return runMonitor(runtime, api, settings, origins, runUrl(runtime.context));
  if (settings.results === undefined)
    throw new SettingError('input "results": is required: the path or glob of your results file(s), as the input or results: in the config file');
  const headInputs = await resultFiles(settings.results, 'results', origins.results);
  if (settings.mode === 'release') return runRelease(runtime, api, settings, origins);
  const status = statusTarget(event, pullRequest, settings['comment-tag'], runUrl(runtime.context));
  const context = { api, event, pullRequest, repository: `${owner}/${repo}`, headInputs, gate };
  const report = await compareAndReport(runtime, settings, origins.baseline, context).catch(async (error: unknown) => {
    // judge-mode batch: the batch is submitted (or still running); nothing to compare until a later run collects it.
    if (error instanceof JudgeBatchNotCollected) {
      runtime.info(error.message);
      await setCommitStatus(runtime, api, status, 'pending', BATCH_PENDING_STATUS);
      return null;
    }
    // A required status that is never set would block the pull request without saying why.
    await setCommitStatus(runtime, api, status, 'failure', stoppedStatus(isBadInput(error)));
    throw error;
  });
  if (report === null) return;
  const fails = report.failure !== null && settings.mode === 'gate';
  await setCommitStatus(runtime, api, status, fails ? 'failure' : 'success', report.status);
  if (report.failure === null) return;
  if (fails) runtime.setFailed(report.failure.message);
  else runtime.warning(`${report.failure.message} (advisory mode: the check passes)`, report.failure.title);
}

/** Reads the results, compares them with the baseline when there is one, and publishes the report. */
async function compareAndReport(
  runtime: ActionRuntime,
  settings: Settings,
  baselineOrigin: SettingOrigin,
  context: { api: GitHubApi; event: EventInfo; pullRequest: PullRequestRef | null; repository: string; headInputs: readonly string[]; gate: HeldGate | null },
): Promise<Report> {
  const { api, event, pullRequest, gate } = context;
  const reportDir = join(runtime.env.RUNNER_TEMP || tmpdir(), 'rag-gate', settings['comment-tag']);
  await mkdir(reportDir, { recursive: true });
  checkHistoryName(settings.history, context.headInputs);
  const push = await pushHistory(runtime, api, settings, event, context.repository);
  const config = await comparisonConfig(settings);
  const judge = runJudge(runtime, settings, reportDir);
  const head = await judge.files(context.headInputs, 'head');
  const baseline = await findBaseline(runtime, settings, baselineOrigin, { ...context, reportDir });
  const found = baseline.kind === 'found' ? baseline : null;
  const where = publication(runtime, settings, { reportDir, event, pullRequest, stateMarkers: gate?.stateMarkers, pushed: push !== null });
  const request: ReportRequest = {
    settings,
    config,
    head,
    held: gate,
    place: where.place,
    readerEntry: runtime.readerEntry,
    prepareBase: (files) => judge.files(files, 'base'),
    unreadableBase: (error) => (found === null ? null : invalidArtifactResults(found, error)),
    history: async () => (pullRequest === null ? null : pullRequestHistory(runtime, settings.history, found)),
  };
  const report = await compareReport(request, found === null ? baseline : { ...found, runUrl: found.artifact?.run.url });
  logReport(runtime, report);
  judge.report();
  if (push !== null) await recordPush(runtime, push, settings, report.head);
  await publishReport(runtime, api, report, where);
  return report;
}
