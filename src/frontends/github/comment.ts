import type { GitHubApi, IssueComment } from './github.js';

/** The hidden marker that finds this gate's sticky comment; one per pull request and comment tag. */
export function commentMarker(tag: string): string {
  return `rag-gate:${tag}`;
}

export type CommentAction = 'created' | 'updated' | 'unchanged' | 'skipped';

export interface CommentResult {
  readonly action: CommentAction;
  readonly url: string | null;
}

/** Who writes with GITHUB_TOKEN: the GitHub Actions app, as its bot user. */
const GITHUB_ACTIONS_BOT = 'github-actions[bot]';
const GITHUB_ACTIONS_APP = 'github-actions';

/**
 * Whether a comment (or an issue) is this gate's own: it starts with the marker (as every body rag-gate writes does) and was
 * written by the token's identity. When the token cannot say who it is (GITHUB_TOKEN cannot read /user), only
 * GitHub Actions' own bot qualifies: never a human, nor another app that happens to write the marker.
 */
export function isOwnComment(comment: Pick<IssueComment, 'body' | 'authorLogin' | 'authorType' | 'appSlug'>, marker: string, login: string | null): boolean {
  if (!comment.body.trimStart().startsWith(`<!-- ${marker} -->`)) return false;
  if (login !== null) return comment.authorLogin === login;
  return comment.authorType === 'Bot' && (comment.authorLogin === GITHUB_ACTIONS_BOT || comment.appSlug === GITHUB_ACTIONS_APP);
}

/** This gate's sticky comment on the pull request, if it has one. */
export async function findOwnComment(api: GitHubApi, issueNumber: number, marker: string): Promise<IssueComment | undefined> {
  const login = await api.authenticatedLogin();
  return (await api.listComments(issueNumber)).find((comment) => isOwnComment(comment, marker, login));
}

/**
 * Creates or updates the sticky comment. With `onlyIfChanged`, a pull request without a comment yet gets one only
 * when there is something to report (`hasNews`); an existing comment is always kept current.
 */
export async function upsertComment(
  api: GitHubApi,
  issueNumber: number,
  marker: string,
  body: string,
  options: { onlyIfChanged: boolean; hasNews: boolean },
): Promise<CommentResult> {
  const existing = await findOwnComment(api, issueNumber, marker);
  if (existing === undefined) {
    if (options.onlyIfChanged && !options.hasNews) return { action: 'skipped', url: null };
    const created = await api.createComment(issueNumber, body);
    return { action: 'created', url: created.url };
  }
  if (existing.body === body) return { action: 'unchanged', url: existing.url };
  const updated = await api.updateComment(existing.id, body);
  return { action: 'updated', url: updated.url };
}
