import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CMARK_ARGS, htmlProblems } from '../../scripts/comment-checks.mjs';
import { scratchDir } from '../helpers/cli.js';
import { textContextsComment } from '../helpers/text-contexts.js';

/**
 * The comment a reviewer gets from a Ragas-like export without document ids (helpers/text-contexts.ts) must name
 * documents by their first words and questions by their text, never by the hashes of the ids derived.
 */

const DERIVED_ID = /\b(?:text|q)-[0-9a-f]{16}\b/;

const scratch = scratchDir();
afterAll(() => scratch.cleanup());

describe('a comment from text contexts', () => {
  let comment: string;
  let terminal: string;
  let html: string;
  beforeAll(async () => {
    const run = await textContextsComment(scratch);
    expect(run.code, run.stderr).toBe(1);
    terminal = run.stdout;
    comment = run.comment;
    const cmark = spawnSync('cmark-gfm', CMARK_ARGS, { input: comment, encoding: 'utf8' });
    if (cmark.error) throw new Error(`cmark-gfm is needed for this test (.ci/run installs Debian's cmark-gfm): ${cmark.error.message}`);
    html = cmark.stdout;
  });

  it('names each lost document and the one in its place by its first words, and a question by its text alone', () => {
    expect(comment).not.toMatch(DERIVED_ID);
    // Topic 0 lost its three gold contexts (sections 0, 1000, 2000) and got sections 120, 160, 200 in their place.
    // Eight words at most, each label cut where the next word would not fit, with the ellipsis.
    expect(comment).toContain(
      '| How many days after the invoice can a Team customer on topic 0 request a change?<br>' +
        'lost “The billing policy, section 0: customers on the…”, “The storage policy, section 1000: customers on the…”, “The login policy, section 2000: customers on the…”' +
        ' · in its place “The billing policy, section 120: customers on the…”, “The storage policy, section 160: customers on the…”, “The login policy, section 200: customers on the…”<details>',
    );
    // A given id is still shown, first in its cell.
    expect(comment).toContain('| `faq-0006` How many days after the invoice can a Team customer on topic 6 request a change?<br>lost “');
  });

  it("keeps a document's words inert: every live word in a code span, the bidi override shown by code point", () => {
    expect(comment).toContain('lost “`@octocat` see `#12` `https://evil.example` `` `rm` `` \\<U+202E>evil —…”');
    expect(html).not.toMatch(/<a href="https:\/\/evil|\u202E/);
  });

  it('passes the checks of npm run look that need no browser, with no code span in a table but a given id or a live word', () => {
    const { problems, tables, rowsIntact } = htmlProblems(html);
    expect(problems).toEqual([]);
    expect(tables).toBeGreaterThan(2);
    expect(rowsIntact).toBe(true);
    const spans = [...html.matchAll(/<td[^>]*>([\s\S]*?)<\/td>/g)].flatMap(([, cell]) => [...cell!.matchAll(/<code>([^<]*)<\/code>/g)].map(([, code]) => code));
    expect(spans).toContain('faq-0006');
    for (const span of spans) expect(['faq-0006', '@octocat', '#12', 'https://evil.example', '`rm`']).toContain(span);
  });

  it('says the same in the terminal', () => {
    expect(terminal).not.toMatch(DERIVED_ID);
    // The terminal's table cuts its last column; the labels start it.
    expect(terminal).toMatch(
      /^ +retrieval +How many days after the invoice can a Team customer on topic 0 request a change\? +lost “The billing policy, section 0: customers on the…”, “The storage/m,
    );
    expect(terminal).toContain('lost “@octocat see #12 https://evil.example `rm` <U+202E>evil —…”');
  });
});
