import { mkdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, isAbsolute, join, relative, resolve, sep } from 'node:path';
import type { SettingName, Settings, SettingText } from '../../core/catalog/settings.js';
import { goldFingerprint } from '../../core/compare/policy.js';
import type { Approver, ChangeApproval } from '../../core/compare/types.js';
import { SettingError } from '../../core/errors.js';
import { holdToBase, settingsUnder } from '../../pipeline/policy.js';
import type { HeldGate as PipelineHeldGate } from '../../pipeline/report.js';
import type { ResolvedSettings } from '../../pipeline/settings.js';
import { type ApprovalKind, approvalOf, changesMarker, changesShownSince, labelApplied, type ShownChanges, shownChanges } from './approval.js';
import { commentMarker, findOwnComment } from './comment.js';
import { apiFailure, type GitHubApi, type IssueComment, type PullRequestRef } from './github.js';
import type { ActionRuntime } from './runtime.js';

const errorMessage = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * The gate a pull request runs under, its changes to it (approved by a label), and what the comment must carry for
 * the next run.
 */
export interface HeldGate extends PipelineHeldGate {
  readonly settings: Settings;
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
export async function heldGate(
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
  // The gold changes' approval, once the comparison has asked for it.
  let gold: ChangeApproval | undefined;
  return {
    settings: settingsUnder(held, head.settings, approved),
    approved,
    view: { changes: held.changes, approval, approveWith },
    stateMarkers,
    approveGold: async (changes) => {
      gold = await decide('gold', goldFingerprint(changes));
      return gold.kind === 'approved';
    },
    goldApproval: () => (gold === undefined ? undefined : { approval: gold, approveWith }),
  };
}
