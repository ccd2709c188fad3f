import { mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SettingName, SettingOrigin, Settings } from '../../core/catalog/settings.js';
import type { MonitorReport } from '../../core/monitor/monitor.js';
import { monitorLogs, monitorOutput, type MonitorOutput } from '../../pipeline/monitor.js';
import { isOwnComment } from './comment.js';
import { apiFailure, type GitHubApi } from './github.js';
import { setOutputs } from './outputs.js';
import type { ActionRuntime } from './runtime.js';

const errorMessage = (error: unknown) => (error instanceof Error ? error.message : String(error));

const ISSUES_PERMISSION_HINT = 'the token may not write issues: add `issues: write` under `permissions:` in the workflow (or job) that runs the monitor';

/** What the run did with the monitoring issue. */
export type IssueAction = 'opened' | 'updated' | 'closed' | 'none';

/**
 * The one monitoring issue of this comment tag: opened when an alert fires, updated (body and a comment) while it is
 * open and a rate alerts again or stays above its ceiling, closed with a comment when both rates are back at or
 * below their ceilings. It is found again by its label and the hidden marker its body starts with, written by this
 * token's identity (as the sticky comment is).
 */
async function keepIssue(
  api: GitHubApi,
  settings: Settings,
  report: MonitorReport,
  output: MonitorOutput,
  body: (marker: string) => string,
  when: string,
): Promise<{ action: IssueAction; url: string | null }> {
  const marker = output.issueMarker(settings['comment-tag']);
  const label = settings['monitor-issue-label'];
  const login = await api.authenticatedLogin();
  const existing = (await api.listOpenIssues(label)).find((issue) => isOwnComment(issue, marker, login));
  const alert = output.alert;
  const elevated = Object.values(report.status).some((status) => status !== 'ok');
  if (existing === undefined) {
    if (!alert) return { action: 'none', url: null };
    const created = await api.createIssue(output.title, body(marker), [label]);
    return { action: 'opened', url: created.url };
  }
  if (alert || elevated) {
    const updated = await api.updateIssue(existing.number, { title: output.title, body: body(marker) });
    await api.createComment(
      existing.number,
      alert
        ? `The alert fired again (${when}); the description shows the latest run.`
        : `Still above the ceiling (${when}); the description shows the latest run.`,
    );
    return { action: 'updated', url: updated.url };
  }
  await api.createComment(existing.number, `Both rates are back at or below their ceilings (${when}): closing. The description shows the run before this one.`);
  const closed = await api.updateIssue(existing.number, { close: true });
  return { action: 'closed', url: closed.url };
}

/**
 * `mode: monitor`, for a scheduled workflow: the monitor over the `logs` input, the job summary with both rates
 * over time, the report files, and the monitoring issue. An alert warns and is reported through the issue and the
 * `monitor-alert` output; the step itself fails only on bad input or when it cannot write the issue an alert needs.
 */
export async function runMonitor(
  runtime: ActionRuntime,
  api: GitHubApi,
  settings: Settings,
  origins: Readonly<Record<SettingName, SettingOrigin>>,
  runUrl: string | undefined,
): Promise<void> {
  const env = runtime.env;
  const run = await monitorLogs(settings, origins, env);
  const report = run.report;
  const output = monitorOutput(run, settings['embedding-model']);
  const reportDir = join(env.RUNNER_TEMP || tmpdir(), 'rag-gate', settings['comment-tag']);
  await mkdir(reportDir, { recursive: true });
  const jsonFile = join(reportDir, 'report.json');
  const markdownFile = join(reportDir, 'monitor.md');
  const markdown = output.markdown({ runUrl });
  await runtime.writeReport(jsonFile, output.json);
  await runtime.writeReport(markdownFile, markdown);
  runtime.info(output.text);
  await runtime.writeSummary(markdown).catch((error: unknown) => runtime.warning(`could not write the job summary: ${errorMessage(error)}`));

  const alert = output.alert;
  let issue: { action: IssueAction; url: string | null } = { action: 'none', url: null };
  try {
    issue = await keepIssue(api, settings, report, output, (marker) => output.markdown({ marker, runUrl }), runUrl ?? runtime.now().toISOString());
    if (issue.url !== null) runtime.info(`monitoring issue ${issue.action}: ${issue.url}`);
  } catch (error) {
    const why = apiFailure(error).kind === 'forbidden' ? ISSUES_PERMISSION_HINT : `the GitHub API failed (${errorMessage(error)})`;
    // An alert nobody is told of is lost: without its issue, the step fails.
    if (alert) runtime.setFailed(`rag-gate: an alert fired but the monitoring issue could not be written: ${why}`);
    else runtime.warning(`rag-gate could not keep the monitoring issue: ${why}`, 'rag-gate: monitoring issue not updated');
  }
  if (alert) runtime.warning(`${output.title}: see the job summary${issue.url === null ? '' : ` and ${issue.url}`}`, 'rag-gate: monitoring alert');
  setOutputs(runtime, 'monitor', {
    verdict: 'neutral',
    'report-json': jsonFile,
    'report-markdown': markdownFile,
    'monitor-alert': String(alert),
    'monitor-issue': issue.url ?? '',
  });
}
