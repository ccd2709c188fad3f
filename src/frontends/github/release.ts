import { mkdir, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { tmpdir } from 'node:os';
import type { Settings, SettingName, SettingOrigin } from '../../core/catalog/settings.js';
import { SettingError } from '../../core/errors.js';
import { evaluationConfig } from '../../pipeline/compare.js';
import { resultFiles } from '../../pipeline/files.js';
import { evaluateHoldoutFiles, holdoutReport, ledgerWrittenText } from '../../pipeline/holdout.js';
import { holdoutFileExists } from '../../sources/holdout-file.js';
import type { GitHubApi } from './github.js';
import { setOutputs } from './outputs.js';
import type { ActionRuntime } from './runtime.js';
import { inflateEntry, zipEntries } from './zip.js';

/** A ledger past this size is not a ledger. */
const MAX_LEDGER_BYTES = 64 * 1024 * 1024;

const errorMessage = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * Puts the ledger where the evaluation reads it: the `holdout-ledger` file when the workflow restored it, else
 * the newest `holdout-ledger-artifact` of the repository. The ledger is the only memory of earlier looks, so an
 * artifact that exists but cannot be read fails the run rather than count this look as the first.
 */
async function restoreLedger(runtime: ActionRuntime, api: GitHubApi, settings: Settings): Promise<void> {
  const file = settings['holdout-ledger'];
  if (await holdoutFileExists(file)) {
    runtime.info(`holdout ledger: ${file}`);
    return;
  }
  const name = settings['holdout-ledger-artifact'];
  const fail = (why: string) =>
    new Error(
      `could not read the holdout ledger from the artifact ${name}: ${why}. Without it rag-gate cannot tell how often the holdout was looked at; re-run the job, or restore the ledger to ${file} before this step.`,
    );
  let artifact: Awaited<ReturnType<GitHubApi['findNewestArtifact']>>;
  try {
    artifact = await api.findNewestArtifact(name);
  } catch (error) {
    throw fail(`the GitHub API failed (${errorMessage(error)}); the job needs \`actions: read\``);
  }
  if (artifact === null) {
    runtime.warning(
      `no holdout ledger yet (no ${file}, no artifact ${name}): this evaluation is recorded as the first look. Upload the file of the holdout-ledger output as the artifact ${name} after this step, so that the next release sees it.`,
      'rag-gate: new holdout ledger',
    );
    return;
  }
  let content: Uint8Array;
  try {
    const zip = await api.downloadArtifact(artifact.id);
    const entries = zipEntries(zip).filter((entry) => !entry.name.endsWith('/') && entry.originalSize <= MAX_LEDGER_BYTES);
    const entry = entries.find((e) => basename(e.name) === basename(file)) ?? entries.find((e) => e.name.endsWith('.jsonl'));
    if (entry === undefined) throw new Error(`it holds no ${basename(file)} and no .jsonl file`);
    content = inflateEntry(zip, entry);
  } catch (error) {
    throw fail(errorMessage(error));
  }
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, content);
  runtime.info(`holdout ledger: the artifact ${name} of run ${artifact.runId ?? 'unknown'} (${artifact.createdAt})`);
}

/**
 * `mode: release`: evaluates the holdout against the development questions of the same results, once, before a
 * release; records the look in the ledger; writes the job summary, the report and the outputs. It reports and
 * warns; only bad input or an unreadable ledger fails the step.
 */
export async function runRelease(
  runtime: ActionRuntime,
  api: GitHubApi,
  settings: Settings,
  origins: Readonly<Record<SettingName, SettingOrigin>>,
): Promise<void> {
  if (settings.results === undefined)
    throw new SettingError('input "results": is required: the path or glob of your results file(s), as the input or results: in the config file');
  if (settings.holdout === undefined)
    throw new SettingError('mode release evaluates the holdout: give the holdout input (the file rag-gate split wrote), or holdout: in the config file');
  const { env, context } = runtime;
  const files = await resultFiles(settings.results, 'results', origins.results);
  await restoreLedger(runtime, api, settings);
  const look = await evaluateHoldoutFiles(files, {
    holdout: settings.holdout,
    ledger: settings['holdout-ledger'],
    config: evaluationConfig(settings),
    graded: settings.graded,
    commit: context.sha || null,
    by: `${context.workflow || 'workflow'} run ${Number.isInteger(context.runId) ? context.runId : '?'} (${context.eventName || 'event'}${context.actor ? ` by ${context.actor}` : ''})`,
    now: runtime.now(),
  });
  for (const warning of look.warnings) runtime.warning(warning);
  const reportDir = join(env.RUNNER_TEMP || tmpdir(), 'rag-gate', settings['comment-tag']);
  await mkdir(reportDir, { recursive: true });
  const jsonFile = join(reportDir, 'report.json');
  const markdownFile = join(reportDir, 'holdout.md');
  const report = holdoutReport(files, look);
  await runtime.writeReport(jsonFile, report.json);
  await runtime.writeReport(markdownFile, report.markdown);
  runtime.info(report.text);
  await runtime.writeSummary(report.markdown).catch((error: unknown) => runtime.warning(`could not write the job summary: ${errorMessage(error)}`));
  if (!look.ledger.clean)
    runtime.warning(
      `the holdout has been looked at ${look.ledger.looks} times since it was drawn (this commit and ${look.ledger.earlier.length} earlier looks): it is no longer a clean holdout. Draw a new one with rag-gate split --rotate.`,
      'rag-gate: holdout looked at more than once',
    );
  if (look.evaluation.reading?.kind === 'overfit')
    runtime.warning('the holdout is more than 8 points below the development questions: see the job summary', 'rag-gate: fitted to the development set');
  runtime.info(ledgerWrittenText(settings['holdout-ledger'], settings['holdout-ledger-artifact']));
  const headline = look.evaluation.headline;
  setOutputs(runtime, 'release', {
    verdict: 'neutral',
    'report-json': jsonFile,
    'report-markdown': markdownFile,
    'holdout-gap': headline?.gap === null || headline === null ? '' : String(headline.gap),
    'holdout-looks': String(look.ledger.looks),
    'holdout-ledger': settings['holdout-ledger'],
  });
}
