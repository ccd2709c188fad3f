import { spawnSync } from 'node:child_process';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { JudgeStatus } from '../../src/core/compare/judge-gate.js';
import type { Comparison, MissingQuestion, QuestionChange } from '../../src/core/compare/types.js';
import { renderComment } from '../../src/render/markdown.js';
import { inertProse } from '../../src/render/mdast.js';
import { codeQuoted, inertText } from '../../src/render/untrusted.js';
import { change, countByTag, makeComparison, retrievalRegression } from './comparison-fixture.js';

/**
 * Untrusted text in every field of the comment, rendered by the reference GFM renderer (cmark-gfm, with the
 * extensions GitHub uses), never becomes a link, an e-mail address, a mention, a cross-reference, math, HTML or an
 * invisible character; and the comment and the job summary stay within GitHub's limits whatever their size.
 */

/** The snippets GitHub's renderer acts on, and the characters that hide or reorder text. */
const HOSTILE = [
  '@someone',
  '@org/team',
  'owner/repo#42',
  '#42',
  'GH-77',
  'evil@evil.example',
  'evil\\@evil.example',
  '$\\color{red}{\\Huge FAKE PASS}$',
  '$$x^2$$',
  '$`x`$',
  'http://evil.example/x',
  'www.evil.example',
  '[click](http://evil.example)',
  '![img](http://evil.example/x.png)',
  '<img src=x onerror=alert(1)>',
  '<script>alert(1)</script>',
  '<!-- x -->',
  '<details><summary>x',
  '\u202e',
  '\u061c',
  '\u200b',
  '\u2066',
  '\ufeff',
  '\u2028',
  '|',
  '`',
  '```',
  '\n# heading\n',
  '\n---\n',
  '::error::injected',
  ':+1:',
  '~~struck~~',
  '\\',
  '*',
  '_',
];

const hostileText = fc
  .array(fc.oneof(fc.constantFrom(...HOSTILE), fc.string({ unit: 'grapheme', maxLength: 8 }), fc.string({ unit: 'binary', maxLength: 4 })), { maxLength: 12 })
  .map((parts) => parts.join(''));

const judges = (names: readonly string[]): JudgeStatus[] => [
  {
    field: 'correct',
    allowed: false,
    judges: names.map((model) => ({ model, promptVersion: `${model} v`, allowed: false, verdict: { kind: 'other-model', recordModel: model } })),
  },
];

function comparisonOf(texts: { ids: string[]; questions: string[]; tags: string[]; docs: string[]; models: string[] }): Comparison {
  const at = (list: string[], i: number) => list[i % list.length] ?? '';
  const regressions: QuestionChange[] = texts.ids.map((id, i) =>
    change(i, i % 2 === 0 ? 'retrieval' : 'generation', {
      id,
      question: at(texts.questions, i),
      tags: [at(texts.tags, i)],
      lostDocuments: i % 2 === 0 ? [at(texts.docs, i)] : [],
      // Answers, documents and trace URLs from the records: as hostile as the rest.
      evidence: {
        expectedAnswer: at(texts.questions, i + 1),
        base: { answer: at(texts.questions, i + 2), top: [at(texts.docs, i), at(texts.docs, i + 1)], traceUrl: at(texts.ids, i + 1) },
        head: { answer: at(texts.models, i), top: [at(texts.docs, i + 2)], traceUrl: `http://trace.example/${at(texts.ids, i)}` },
      },
    }),
  );
  const missing: MissingQuestion[] = texts.ids
    .slice(0, 3)
    .map((id, i) => ({ id, question: at(texts.questions, i + 1), tags: [], wasCorrect: true, retrievalWasOk: null }));
  return makeComparison({
    regressions,
    fixed: regressions.slice(0, 2),
    retrievalRegressions: regressions.filter((r) => r.cause === 'retrieval').map((r) => retrievalRegression(r, false)),
    regressionsByTag: countByTag(regressions),
    missing,
    judges: judges(texts.models),
    warnings: [{ kind: 'floor-from-uncalibrated-judge', floor: { metric: 'correct', op: '>=', value: 0.9 }, value: 0.5, field: 'correct' }],
  });
}

const hostileComparison = fc
  .record({
    ids: fc.array(hostileText, { minLength: 1, maxLength: 6 }),
    questions: fc.array(hostileText, { minLength: 1, maxLength: 3 }),
    tags: fc.array(hostileText, { minLength: 1, maxLength: 3 }),
    docs: fc.array(hostileText, { minLength: 1, maxLength: 3 }),
    models: fc.array(hostileText, { minLength: 1, maxLength: 3 }),
  })
  .map(comparisonOf);

/** A baseline line as the action writes it, with a hostile branch name (the first missing id stands in for one). */
const baselineLine = (comparison: Comparison) => `${codeQuoted(comparison.missing[0]?.id ?? 'main', 100)} at \`abc1234\`, results from run 7`;

const OPTIONS = { retrievalOk: 'hit@5', marker: 'rag-gate:default', baseline: '`main` at `abc1234`', reportLink: 'the `report-json` output' };

/** The comment as GitHub's reference renderer turns it into HTML. */
function gfmHtml(markdown: string): string {
  const run = spawnSync('cmark-gfm', ['-e', 'table', '-e', 'autolink', '-e', 'strikethrough', '-e', 'tagfilter'], { input: markdown, encoding: 'utf8' });
  if (run.error) throw new Error(`cmark-gfm is needed for this test (.ci/run installs Debian's cmark-gfm): ${run.error.message}`);
  return run.stdout;
}

/** The text GitHub would read as prose: the HTML without code spans, tags and our own fixed markup. */
function proseOf(html: string): string {
  return html
    .replace(/<code>[\s\S]*?<\/code>/g, ' ')
    .replace(/<!--[\s\S]*?-->/g, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"');
}

const INVISIBLE = /[\p{Cf}\u2028\u2029]/u;

describe('one inert path for untrusted text', () => {
  it('makes bidi, invisible and control characters visible or spaces, and bounds the length', () => {
    expect(inertText('a\u202eb\u061cc\u200bd', 80)).toBe('a<U+202E>b<U+061C>c<U+200B>d');
    expect(inertText(' a\n\tb\u0000c ', 80)).toBe('a b c');
    expect(inertText('x'.repeat(100), 10)).toBe(`${'x'.repeat(9)}…`);
    expect(inertText('👍'.repeat(20), 5)).toBe('👍👍👍👍…');
    // Exactly `max` code points, then only white space past the prefix a long text is first flattened from: not cut.
    expect(inertText(`${'a'.repeat(10)}${' '.repeat(30)}`, 10)).toBe('a'.repeat(10));
    expect(codeQuoted('a`b@evil.example`', 80)).toBe('`a<U+0060>b@evil.example<U+0060>`');
  });

  it('flattens and cuts as its definition does, long texts included (property)', () => {
    const definition = (value: string, max: number) => {
      const flat = value
        .replace(/\p{Cc}/gu, ' ')
        .replace(/[\p{Cf}\u2028\u2029\u115f\u1160\u3164\uffa0]/gu, (char) => `<U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}>`)
        .replace(/\s+/gu, ' ')
        .trim();
      const points = Array.from(flat);
      return points.length <= max
        ? flat
        : `${points
            .slice(0, max - 1)
            .join('')
            .trimEnd()}…`;
    };
    // Runs of white space and invisible characters around where a prefix of 2 × max + 16 code units ends.
    const unit = fc.constantFrom('a', 'é', ' ', '  ', '\n\t', '\u0000', '\u200b', '\u{E0001}', '\u{1F44D}', '\uD83D', '\uDC4D', '\u3000');
    fc.assert(
      fc.property(fc.array(unit, { maxLength: 140 }), fc.integer({ min: 1, max: 40 }), (units, max) => {
        const value = units.join('');
        expect(inertText(value, max)).toBe(definition(value, max));
      }),
      { numRuns: 5000 },
    );
    // Plain ASCII (a shortcut takes it) up to, at or past the prefix, then anything: spaces at its ends and doubled.
    const plain = fc.constantFrom('a', 'Z', '~', '!', ' ', ' ', '  ');
    fc.assert(
      fc.property(fc.array(plain, { maxLength: 120 }), fc.array(unit, { maxLength: 20 }), fc.integer({ min: 1, max: 40 }), (head, tail, max) => {
        const value = head.join('') + tail.join('');
        expect(inertText(value, max)).toBe(definition(value, max));
      }),
      { numRuns: 5000 },
    );
  });

  it('puts every live word of prose in a code span and leaves the rest one text, as word by word (property)', () => {
    // Each white-space-separated word on its own, as inertProse has always decided them.
    const LIVE = /[@#$`\\]|:\/\/|^https?:|www\.|\bgh-\d|\b(?=[0-9a-f]*\d)[0-9a-f]{7,}\b/i;
    const byWord = (line: string) => {
      const out: { type: string; value: string }[] = [];
      let words: string[] = [];
      const flush = (last: boolean) => {
        if (words.length > 0) out.push({ type: 'text', value: `${out.length > 0 ? ' ' : ''}${words.join(' ')}${last ? '' : ' '}` });
        words = [];
      };
      for (const word of line.split(' ')) {
        if (!LIVE.test(word)) {
          words.push(word);
          continue;
        }
        flush(false);
        if (out.at(-1)?.type === 'inlineCode') out.push({ type: 'text', value: ' ' });
        out.push({ type: 'inlineCode', value: word });
      }
      flush(true);
      return out;
    };
    const word = fc.constantFrom(
      'plan',
      'https:x',
      'xhttps:',
      '-https:',
      'http://a',
      'HTTP:b',
      '@me',
      'a#1',
      'gh-12',
      'GH-1',
      'deadbeef1',
      'cafe',
      'a$b',
      'www.x',
      'x`y',
      'a\\b',
      'é',
    );
    const gap = fc.constantFrom(' ', ' ', '  ', '\t', '\n');
    fc.assert(
      fc.property(fc.array(fc.tuple(word, gap), { minLength: 1, maxLength: 12 }), (pairs) => {
        const value = pairs.map(([w, g]) => w + g).join('');
        expect(inertProse(value, 1000)).toEqual(byWord(inertText(value, 1000)));
      }),
      { numRuns: 3000 },
    );
    expect(inertProse('see https:x and more', 1000)).toEqual([
      { type: 'text', value: 'see ' },
      { type: 'inlineCode', value: 'https:x' },
      { type: 'text', value: ' and more' },
    ]);
  });

  it('renders 2,000 hostile comments, through cmark-gfm, with no link, e-mail, mention, reference, math, HTML or invisible character from user text', () => {
    fc.assert(
      // 20 comments to one cmark-gfm call: each ends its own blocks, so nothing spills from one into the next.
      fc.property(fc.array(hostileComparison, { minLength: 20, maxLength: 20 }), (comparisons) => {
        const rendered = gfmHtml(
          comparisons
            .map((comparison) => renderComment(comparison, { ...OPTIONS, baseline: baselineLine(comparison), traceUrl: `https://trace.example/{id}` }))
            .join('\n\n'),
        );
        // The only links are our own words to http(s) URLs (trace links); everything else is checked without them.
        const ourLinks = /<a href="https?:\/\/[^"\s<>`]+">(?:base trace|head trace|trace)<\/a>/g;
        expect(rendered.match(ourLinks)?.length ?? 0).toBeGreaterThan(0);
        const html = rendered.replace(ourLinks, ' ');
        expect(html).not.toMatch(/<a |<img|<script|<details><summary>[^<]*[<@#$]/);
        expect(html).not.toMatch(INVISIBLE);
        const prose = proseOf(html);
        // As GitHub reads them: a mention or an issue reference needs no word character before it.
        expect(prose).not.toMatch(/(^|[^\w`])@[A-Za-z0-9]/);
        expect(prose).not.toMatch(/(^|[^\w&])#\d|[\w.-]+\/[\w.-]+#\d|\bGH-\d/);
        expect(prose).not.toMatch(/[\w.+-]+@[\w-]+\.[a-z]/i);
        expect(prose).not.toContain('$');
        expect(prose).not.toMatch(/https?:|www\./);
        // Our own markup only: the details folds and the marker.
        for (const tag of html.matchAll(/<(\/?[a-z0-9]+)/g))
          expect([
            'p',
            '/p',
            'h3',
            '/h3',
            'h4',
            '/h4',
            'table',
            '/table',
            'thead',
            '/thead',
            'tbody',
            '/tbody',
            'tr',
            '/tr',
            'th',
            '/th',
            'td',
            '/td',
            'code',
            '/code',
            'strong',
            '/strong',
            'em',
            '/em',
            'ul',
            '/ul',
            'li',
            '/li',
            'details',
            '/details',
            'summary',
            '/summary',
          ]).toContain(tag[1]);
      }),
      { numRuns: 100 },
    );
  }, 300_000);
});

describe('the length bound of the fitting', () => {
  it('keeps a hostile comment whole when the budget is exactly its length: no row or section is counted longer than it serialises', () => {
    fc.assert(
      fc.property(hostileComparison, (comparison) => {
        const options = { ...OPTIONS, baseline: baselineLine(comparison), traceUrl: `https://trace.example/{id}` };
        const whole = renderComment(comparison, { ...options, maxLength: Number.MAX_SAFE_INTEGER });
        expect(renderComment(comparison, { ...options, maxLength: whole.length })).toBe(whole);
        expect(renderComment(comparison, { ...options, maxLength: whole.length - 1 }).length).toBeLessThan(whole.length);
      }),
      { numRuns: 300 },
    );
  }, 300_000);
});

describe('length caps hold for every section', () => {
  /** A hostile string repeated to about `n` characters: generating that many random characters would be slow. */
  const huge = (n: number) => hostileText.filter((t) => t.length > 0).map((t) => t.repeat(Math.ceil(n / t.length)));

  it('keeps the comment within 65,536 characters and the summary within 1 MiB, with the verdict first, for inputs of any size', () => {
    fc.assert(
      fc.property(
        fc.record({
          ids: fc.array(fc.oneof(huge(70_000), hostileText), { minLength: 1, maxLength: 300 }),
          questions: fc.array(huge(50_000), { minLength: 1, maxLength: 3 }),
          tags: fc.array(fc.oneof(huge(10_000), hostileText), { minLength: 1, maxLength: 60 }),
          docs: fc.array(huge(20_000), { minLength: 1, maxLength: 3 }),
          models: fc.array(fc.oneof(huge(70_000), hostileText), { minLength: 1, maxLength: 150 }),
        }),
        (texts) => {
          const comparison = comparisonOf(texts);
          const comment = renderComment(comparison, OPTIONS);
          const summary = renderComment(comparison, { ...OPTIONS, maxLength: 512 * 1024 });
          expect(comment.length).toBeLessThanOrEqual(65_536);
          expect(Buffer.byteLength(summary)).toBeLessThanOrEqual(1024 * 1024);
          for (const body of [comment, summary]) expect(body).toMatch(/^<!-- rag-gate:default -->\n\n### ❌ rag-gate: /);
        },
      ),
      { numRuns: 25 },
    );
  }, 300_000);
});
