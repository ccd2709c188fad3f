import { describe, expect, it } from 'vitest';
import { commentMarker, upsertComment } from '../../../src/frontends/github/comment.js';
import { comment, FakeGitHub } from './fakes.js';

const MARKER = commentMarker('default');
const BODY = `<!-- ${MARKER} -->\n### rag-gate: pass\n`;
const ALWAYS = { onlyIfChanged: false, hasNews: true };

describe('commentMarker', () => {
  it('is keyed by the comment tag', () => {
    expect(commentMarker('default')).toBe('rag-gate:default');
    expect(commentMarker('nightly')).toBe('rag-gate:nightly');
  });
});

describe('upsertComment', () => {
  it('creates a comment when there is none', async () => {
    const api = new FakeGitHub();
    api.comments = [comment({ id: 1, body: 'LGTM' })];
    const result = await upsertComment(api, 42, MARKER, BODY, ALWAYS);
    expect(result).toEqual({ action: 'created', url: 'https://github.com/octo/shop/pull/42#issuecomment-9000' });
    expect(api.called('createComment').map((call) => call.args)).toEqual([[42, BODY]]);
    expect(api.called('listComments').map((call) => call.args)).toEqual([[42]]);
  });

  it('updates its own comment, found by login', async () => {
    const api = new FakeGitHub();
    api.login = 'gate-bot';
    api.comments = [comment({ id: 1, body: 'LGTM' }), comment({ id: 2, body: `<!-- ${MARKER} -->\nold`, authorLogin: 'gate-bot', authorType: 'User' })];
    const result = await upsertComment(api, 42, MARKER, BODY, ALWAYS);
    expect(result).toEqual({ action: 'updated', url: expect.stringContaining('issuecomment-2') });
    expect(api.called('updateComment').map((call) => call.args)).toEqual([[2, BODY]]);
    expect(api.called('createComment')).toEqual([]);
  });

  it('does not take another bot with the marker for its own when the login is known', async () => {
    const api = new FakeGitHub();
    api.login = 'gate-bot';
    api.comments = [comment({ id: 2, body: `<!-- ${MARKER} -->\nold`, authorLogin: 'github-actions[bot]', authorType: 'Bot' })];
    expect((await upsertComment(api, 42, MARKER, BODY, ALWAYS)).action).toBe('created');
    expect(api.called('updateComment')).toEqual([]);
  });

  it('updates a bot comment with the marker when the token cannot say who it is (GITHUB_TOKEN)', async () => {
    const api = new FakeGitHub();
    api.login = null;
    api.comments = [
      comment({ id: 1, body: 'LGTM' }),
      comment({ id: 2, body: `<!-- ${MARKER} -->\nold`, authorLogin: 'github-actions[bot]', authorType: 'Bot' }),
    ];
    expect((await upsertComment(api, 42, MARKER, BODY, ALWAYS)).action).toBe('updated');
    expect(api.called('updateComment').map((call) => call.args)).toEqual([[2, BODY]]);
  });

  it('updates a comment written through the GitHub Actions app when the token cannot say who it is', async () => {
    const api = new FakeGitHub();
    api.comments = [comment({ id: 2, body: `<!-- ${MARKER} -->\nold`, authorLogin: 'github-actions[bot]', authorType: 'Bot', appSlug: 'github-actions' })];
    expect((await upsertComment(api, 42, MARKER, BODY, ALWAYS)).action).toBe('updated');
  });

  it("never patches another app's comment with the marker when the token cannot say who it is: creates its own", async () => {
    const api = new FakeGitHub();
    api.login = null;
    const other = comment({ id: 2, body: `<!-- ${MARKER} -->\nnot ours`, authorLogin: 'some-other-app[bot]', authorType: 'Bot', appSlug: 'some-other-app' });
    api.comments = [other];
    expect((await upsertComment(api, 42, MARKER, BODY, ALWAYS)).action).toBe('created');
    expect(api.called('updateComment')).toEqual([]);
    expect(api.comments.find((c) => c.id === 2)).toEqual(other);
  });

  it.each([
    ['the login is unknown', null],
    ['the login is known', 'gate-bot'],
  ])("never edits a human's comment that contains the marker (%s): creates its own", async (_label, login) => {
    const api = new FakeGitHub();
    api.login = login;
    const quoted = `Why does the bot write \`<!-- ${MARKER} -->\`?\n<!-- ${MARKER} -->`;
    api.comments = [comment({ id: 1, body: quoted, authorLogin: 'alice', authorType: 'User' })];
    expect((await upsertComment(api, 42, MARKER, BODY, ALWAYS)).action).toBe('created');
    expect(api.called('updateComment')).toEqual([]);
    expect(api.comments.find((c) => c.id === 1)?.body).toBe(quoted);
  });

  it('does not take a comment by the same login that only quotes the marker (a personal token’s own words)', async () => {
    const api = new FakeGitHub();
    api.login = 'alice';
    api.comments = [comment({ id: 3, body: `Why does the bot write <!-- ${MARKER} --> here?`, authorLogin: 'alice', authorType: 'User' })];
    const result = await upsertComment(api, 42, MARKER, BODY, ALWAYS);
    expect(result.action).toBe('created');
    expect(api.called('updateComment')).toEqual([]);
  });

  it("ignores another tag's comment", async () => {
    const api = new FakeGitHub();
    api.comments = [comment({ id: 2, body: `<!-- ${commentMarker('nightly')} -->\nold`, authorLogin: 'github-actions[bot]', authorType: 'Bot' })];
    expect((await upsertComment(api, 42, MARKER, BODY, ALWAYS)).action).toBe('created');
  });

  it('on-change: creates nothing when nothing changed', async () => {
    const api = new FakeGitHub();
    const result = await upsertComment(api, 42, MARKER, BODY, { onlyIfChanged: true, hasNews: false });
    expect(result).toEqual({ action: 'skipped', url: null });
    expect(api.called('createComment')).toEqual([]);
  });

  it('on-change: creates one when something changed', async () => {
    const api = new FakeGitHub();
    expect((await upsertComment(api, 42, MARKER, BODY, { onlyIfChanged: true, hasNews: true })).action).toBe('created');
  });

  it('on-change: keeps an existing comment current even when nothing changed', async () => {
    const api = new FakeGitHub();
    api.comments = [comment({ id: 2, body: `<!-- ${MARKER} -->\nwas failing`, authorLogin: 'github-actions[bot]', authorType: 'Bot' })];
    expect((await upsertComment(api, 42, MARKER, BODY, { onlyIfChanged: true, hasNews: false })).action).toBe('updated');
    expect(api.called('updateComment').map((call) => call.args)).toEqual([[2, BODY]]);
  });

  it('sends no update when the body is unchanged', async () => {
    const api = new FakeGitHub();
    api.comments = [comment({ id: 2, body: BODY, authorLogin: 'github-actions[bot]', authorType: 'Bot' })];
    const result = await upsertComment(api, 42, MARKER, BODY, ALWAYS);
    expect(result).toEqual({ action: 'unchanged', url: expect.stringContaining('issuecomment-2') });
    expect(api.called('updateComment')).toEqual([]);
    expect(api.called('createComment')).toEqual([]);
  });

  it('lets a failed write reach the caller (which warns and carries on)', async () => {
    const api = new FakeGitHub();
    api.fail.createComment = Object.assign(new Error('Resource not accessible by integration'), { status: 403 });
    await expect(upsertComment(api, 42, MARKER, BODY, ALWAYS)).rejects.toMatchObject({ status: 403 });
  });
});
