import type { Approver, ChangeApproval } from '../../core/compare/types.js';
import type { GitHubApi, IssueComment, LabelEvent } from './github.js';

/**
 * A maintainer's approval of the changes a pull request makes to its own gate: the approval label, applied by a user
 * with write access or more, after the sticky comment first showed those very changes. The comment carries a
 * fingerprint of the changes it shows and since when, one line for the settings (`policy`) and one for the gold of
 * its questions (`gold`); a later push that changes them again starts a new fingerprint, and the label applied
 * before it no longer counts.
 */

/** What an approval covers: the gate's settings and files, or the gold of questions. */
export type ApprovalKind = 'policy' | 'gold';

/** The changes a comment showed, and since when ('pending' until a later run reads the comment's time). */
export interface ShownChanges {
  readonly fingerprint: string;
  readonly since: string;
}

const TRUSTED = new Set(['admin', 'write']);

/** The hidden state line a comment carries: the fingerprint of the changes it shows and since when. */
export function changesMarker(kind: ApprovalKind, shown: ShownChanges): string {
  return `rag-gate-${kind}:${shown.fingerprint}@${shown.since}`;
}

/** The changes an earlier comment of this gate showed, from its hidden state line. */
export function shownChanges(comment: IssueComment | undefined, kind: ApprovalKind): ShownChanges | null {
  const match = comment?.body.match(new RegExp(`<!-- rag-gate-${kind}:([0-9a-f]{16,64})@(pending|[0-9TZ:.-]{20,30}) -->`));
  if (comment === undefined || !match) return null;
  // 'pending' is the run that first showed them; the comment's own time says when that was.
  return { fingerprint: match[1]!, since: match[2] === 'pending' ? comment.updatedAt : match[2]! };
}

/**
 * Since when the comment has shown `fingerprint`: carried over from the previous comment when it showed the same
 * changes, else 'pending' (this run shows them first; its comment's time becomes the start).
 */
export function changesShownSince(previous: ShownChanges | null, fingerprint: string): ShownChanges {
  return previous !== null && previous.fingerprint === fingerprint ? previous : { fingerprint, since: 'pending' };
}

/** The label application in force: the newest `labeled` event not undone by a later `unlabeled`. */
function labelInForce(events: readonly LabelEvent[]): LabelEvent | null {
  const last = events.at(-1);
  return last?.action === 'labeled' ? last : null;
}

/** Who applied the approval label that is on the pull request, with their permission; null when it is not on it. */
export async function labelApplied(api: GitHubApi, pullNumber: number, label: string): Promise<Approver | null> {
  const applied = labelInForce(await api.listLabelEvents(pullNumber, label));
  if (applied === null) return null;
  return { login: applied.actor, permission: await api.getPermission(applied.actor), at: applied.at };
}

/**
 * Whether changes with this fingerprint are approved by the label application `by`, given what this gate's earlier
 * comment showed (`previous`). Without the comment nothing can say what the label approved.
 */
export function approvalOf(by: Approver | null, fingerprint: string, previous: ShownChanges | null, commentsAllowed: boolean): ChangeApproval {
  if (!commentsAllowed) return { kind: 'no-comment' };
  if (by === null) return { kind: 'none' };
  if (!TRUSTED.has(by.permission ?? 'none')) return { kind: 'not-trusted', by };
  const shownSince = previous !== null && previous.fingerprint === fingerprint ? previous.since : null;
  // Strictly after: GitHub's times are whole seconds, and a label in the second the comment changed may predate it.
  if (shownSince === null || !(Date.parse(by.at ?? '') > Date.parse(shownSince))) return { kind: 'stale', by };
  return { kind: 'approved', by };
}
