import type { Nodes, Parent, PhrasingContent, Root, RootContent, Table } from 'mdast';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { gfm } from 'micromark-extension-gfm';
import { describe, expect, it } from 'vitest';
import type { Comparison, QuestionChange } from '../../src/core/compare/types.js';
import { renderComment, type CommentOptions } from '../../src/render/markdown.js';
import {
  change,
  countByTag,
  gate,
  makeComparison,
  makePassingComparison,
  mcnemarTest,
  randomizationTest,
  retrievalRegression,
  sketchTests,
} from './comparison-fixture.js';

const RECALL_FLOOR_BROKEN = { floor: { metric: 'recall@5', op: '>=' as const, value: 0.8 }, reads: 'recall@5', value: 0.7, outcome: 'broken' as const };

const OPTIONS: CommentOptions = {
  retrievalOk: 'hit@5',
  marker: 'rag-gate:default',
  baseline: '`main` at `abc1234` (merge-base), run #1234, 2 hours old',
  reportLink: 'full JSON: the `report-json` output',
};

function parse(markdown: string): Root {
  return fromMarkdown(markdown, { extensions: [gfm()], mdastExtensions: [gfmFromMarkdown()] });
}

function render(comparison: Comparison, options: Partial<CommentOptions> = {}): { markdown: string; tree: Root } {
  const markdown = renderComment(comparison, { ...OPTIONS, ...options });
  return { markdown, tree: parse(markdown) };
}

/** Every node of the tree, depth first. */
function all(node: Nodes): Nodes[] {
  const out: Nodes[] = [node];
  if ('children' in node) for (const child of (node as Parent).children) out.push(...all(child as Nodes));
  return out;
}

/** The visible text of a node: text and code values, concatenated. */
function plain(node: Nodes): string {
  if (node.type === 'text' || node.type === 'inlineCode') return node.value;
  if ('children' in node) return (node as Parent).children.map((child) => plain(child as Nodes)).join('');
  return '';
}

function tables(tree: Root): Table[] {
  return all(tree).filter((n): n is Table => n.type === 'table');
}

function cellTexts(table: Table): string[][] {
  return table.children.map((row) => row.children.map((cell) => plain(cell)));
}

/**
 * The question list under the heading that starts with `title`: its open table, the table folded under "the other
 * N …" when there is one, and the "… and N more" line when the list was cut.
 */
function sectionAfter(tree: Root, title: string): RootContent[] {
  const start = tree.children.findIndex((n) => n.type === 'heading' && plain(n).startsWith(title));
  expect(start, `heading "${title}"`).toBeGreaterThanOrEqual(0);
  const out: RootContent[] = [];
  let i = start + 1;
  const at = (k: number) => tree.children[k];
  if (at(i)?.type === 'table') out.push(at(i++)!);
  const next = at(i);
  if (next?.type === 'html' && next.value.startsWith('<details><summary>the other ')) {
    out.push(...tree.children.slice(i, i + 3));
    i += 3;
  }
  if (at(i)?.type === 'paragraph' && plain(at(i)!).startsWith('… and ')) out.push(at(i)!);
  return out;
}

/** The html node that opens the fold whose summary starts with `summary`, and the nodes up to its close. */
function fold(tree: Root, summary: string): RootContent[] {
  const start = tree.children.findIndex((n) => n.type === 'html' && n.value.startsWith(`<details><summary>${summary}`));
  expect(start, `fold "${summary}"`).toBeGreaterThanOrEqual(0);
  const end = tree.children.findIndex((n, i) => i > start && n.type === 'html' && n.value === '</details>');
  return tree.children.slice(start + 1, end);
}

/** What the comment must show for a question: one line, at most 200 code points with the ellipsis. */
function shown(question: string): string {
  const flat = question.replace(/\s+/g, ' ').trim();
  const points = Array.from(flat);
  return points.length <= 200 ? flat : `${points.slice(0, 199).join('').trimEnd()}…`;
}

const MENTION = /(?:^|[^\w`])@[A-Za-z0-9]/;
const OUR_HTML = /^(?:<!-- rag-gate:default -->|<details><summary>[^<>]*<\/summary>|<\/details>)$/;

describe('renderComment: the sketch scenario (fails on retrieval)', () => {
  const { markdown, tree } = render(makeComparison());

  it('starts with the marker comment, then the verdict heading', () => {
    expect(markdown.split('\n')[0]).toBe('<!-- rag-gate:default -->');
    expect(tree.children[0]).toMatchObject({ type: 'html', value: '<!-- rag-gate:default -->' });
    const first = tree.children.find((n) => n.type === 'heading');
    expect(first).toMatchObject({ depth: 3 });
    expect(plain(first!)).toBe('❌ rag-gate: retrieval regressed significantly');
    expect(tree.children[1]).toBe(first);
  });

  it('gives the deciding evidence, the power note and the causes in the next three paragraphs', () => {
    const [evidence, power, causes] = tree.children.slice(2, 5).map((n) => plain(n));
    expect(evidence).toBe(
      'hit@5 0.912 → 0.829: 16 questions lost their gold document, 2 gained it (exact McNemar p = 0.0013, Holm-adjusted 0.0026 < α = 0.05). This check fails.',
    );
    expect(power).toMatch(
      /^End-to-end correctness 0\.690 → 0\.645 is not significant yet \(p = 0\.0784\): with this discordance about 405 paired questions would be needed to tell a 4\.5-point drop from noise\.$/,
    );
    expect(causes).toBe(
      '15 questions regressed: 11 because retrieval lost the gold document, 4 because the answer got worse with the same or better retrieval. 6 questions went from wrong to right.',
    );
    const bold = all(tree.children[4]!).find((n) => n.type === 'strong');
    expect(plain(bold!)).toBe('11 because retrieval lost the gold document');
  });

  it('has a tests table with one row per test and seven columns', () => {
    const table = tree.children[5];
    expect(table?.type).toBe('table');
    const cells = cellTexts(table as Table);
    expect(cells).toHaveLength(1 + 7);
    for (const row of cells) expect(row).toHaveLength(7);
    expect(cells[0]).toEqual(['metric', 'base', 'head', 'Δ (95% CI)', 'p', 'Holm p', 'gate']);
    // Rates get an interval too: 170 pairs, so the percentile bootstrap of the ±1/0 differences.
    expect(cells[1]).toEqual(['hit@5 — retrieval ok', '0.912', '0.829', '−0.082 (−0.129, −0.035)', '0.0013', '0.0026', '❌ gate']);
    expect(cells[2]).toEqual(['correct — end to end', '0.690', '0.645', '−0.045 (−0.090, 0.000)', '0.0784', '0.0784', 'gate, not significant']);
    expect(cells[5]).toEqual(['ndcg@10', '0.742', '0.688', '−0.054 (−0.081, −0.027)', '0.0002', '', 'report, significant drop']);
    expect(cells[7]?.[6]).toBe('report');
  });

  it('folds a McNemar 2×2 table for each binary test, with the sentence on which p decided', () => {
    const body = fold(tree, 'McNemar tables');
    const mcnemarTables = body.filter((n): n is Table => n.type === 'table');
    expect(mcnemarTables).toHaveLength(4);
    expect(cellTexts(mcnemarTables[0]!)).toEqual([
      ['retrieval_ok (hit@5)', 'head ok', 'head failed'],
      ['base ok', '139 both', '16 broken'],
      ['base failed', '2 fixed', '13 both'],
    ]);
    expect(plain(body[1]!)).toMatch(
      /χ² 9\.39 \(p 0\.0022\), exact p 0\.0013: 18 discordant < 25, so the exact binomial test decides\. Odds ratio fixed\/broken 0\.125 \(exact 95% CI 0\.0139 to 0\.532\)\.$/,
    );
  });

  it('lists every regressed question with its id, its text and its cause', () => {
    const comparison = makeComparison();
    const section = sectionAfter(tree, 'Regressed questions');
    expect(plain(tree.children.find((n) => n.type === 'heading' && n.depth === 4)!)).toBe('Regressed questions (15)');
    const table = section[0] as Table;
    expect(table.type).toBe('table');
    expect(table.children).toHaveLength(16);
    comparison.regressions.forEach((regression, i) => {
      const [id, question, cause] = table.children[i + 1]!.children;
      expect(id!.children).toEqual([expect.objectContaining({ type: 'inlineCode', value: regression.id })]);
      expect(question!.children).toEqual([expect.objectContaining({ type: 'inlineCode', value: regression.question })]);
      expect(plain(cause!)).toBe(regression.cause === 'retrieval' ? `retrieval: lost ${regression.lostDocuments[0]}` : 'generation');
    });
    const lost = table.children[1]!.children[2]!.children;
    expect(lost[1]).toMatchObject({ type: 'inlineCode', value: 'auth-0042' });
  });

  it('folds the rescued retrieval regressions and the fixed questions', () => {
    const rescued = fold(tree, '5 more lost their gold document but were still answered right');
    expect((rescued[0] as Table).children).toHaveLength(6);
    const fixed = fold(tree, '6 questions fixed');
    expect((fixed[0] as Table).children).toHaveLength(7);
  });

  it('counts regressions by tag', () => {
    const at = tree.children.findIndex((n) => plain(n) === 'Regressions by tag');
    expect(cellTexts(tree.children[at + 1] as Table)).toEqual([
      ['tag', 'regressions'],
      ['auth', '8'],
      ['billing', '7'],
    ]);
  });

  it('folds the decomposition with the r-moved warning', () => {
    const body = fold(tree, 'Where the errors come from');
    const cells = cellTexts(body[0] as Table);
    expect(cells[1]).toEqual(['r = P(retrieval ok)', '0.912 (155/170)', '0.829 (141/170)']);
    expect(cells[2]?.[0]).toBe('g_good = P(correct | ok)');
    expect(plain(body[1]!)).toContain('r moved significantly, so g_good and g_bad were measured on different sets of questions');
  });

  it('ends with the counts, the baseline and the report link', () => {
    const last = tree.children.at(-1)!;
    expect(plain(last)).toBe(
      'Baseline: main at abc1234 (merge-base), run #1234, 2 hours old · 200 paired questions, 0 missing (counted as failed), 0 added, 0 removed, 0 relabelled · α = 0.05, Holm-adjusted across 2 gated tests · full JSON: the report-json output',
    );
    const codes = all(last)
      .filter((n) => n.type === 'inlineCode')
      .map((n) => (n as { value: string }).value);
    expect(codes).toEqual(['main', 'abc1234', '#1234', 'report-json']);
  });

  it('uses no html but our own, and only our two headings', () => {
    for (const node of all(tree)) if (node.type === 'html') expect(node.value).toMatch(OUR_HTML);
    expect(all(tree).filter((n) => n.type === 'heading')).toHaveLength(2);
  });

  it('leaves the comparison it renders untouched (so the JSON report written after it is the same)', () => {
    const comparison = makeComparison();
    const before = structuredClone(comparison);
    renderComment(comparison, OPTIONS);
    expect(comparison).toEqual(before);
  });
});

describe('renderComment: variants', () => {
  it('passes with the power notes when nothing is significant', () => {
    const { tree } = render(makePassingComparison());
    expect(plain(tree.children[1]!)).toBe('✅ rag-gate: no significant regression');
    expect(plain(tree.children[2]!)).toBe('No gated test changed significantly (α = 0.05, Holm-adjusted across 2 tests). This check passes.');
    expect(plain(tree.children[3]!)).toMatch(
      /^hit@5 0\.912 → 0\.900 is not significant yet \(p = 0\.7539, Holm-adjusted 1\.0000\): .*about 3,334 paired questions.* End-to-end correctness/,
    );
    const cells = cellTexts(tree.children[5] as Table);
    expect(cells.slice(1).map((row) => row[6])).toEqual(['gate, not significant', 'gate, not significant', 'report']);
    expect(plain(tree)).not.toContain('r moved significantly');
  });

  it('says so when no question regressed', () => {
    const { tree } = render(
      makePassingComparison({
        regressions: [],
        retrievalRegressions: [],
        fixed: [],
        regressionsByTag: {},
        causes: { regressions: { retrieval: 0, generation: 0, unknown: 0 }, fixed: { retrieval: 0, generation: 0, unknown: 0 } },
      }),
    );
    expect(plain(tree.children[4]!)).toBe('No question went from right to wrong.');
    expect(all(tree).filter((n) => n.type === 'heading')).toHaveLength(1);
    expect(plain(tree)).not.toContain('Regressions by tag');
    expect(plain(tree)).not.toContain('fixed (wrong in base');
  });

  it('says a floor cannot be checked rather than broken', () => {
    const comparison = makePassingComparison({
      verdict: 'fail',
      reasons: [{ kind: 'floor-unchecked', floor: { metric: 'faithfulness', op: '>=', value: 0.9 } }],
      floors: [{ floor: { metric: 'faithfulness', op: '>=', value: 0.9 }, reads: 'faithfulness', value: null, outcome: 'unchecked' }],
    });
    const tree = parse(renderComment(comparison, OPTIONS));
    expect(plain(tree.children[1]!)).toBe('❌ rag-gate: a floor cannot be checked');
  });

  it('names every failing category and the floors in the heading', () => {
    const tests = gate([
      mcnemarTest('retrieval_ok', { fixed: 2, broken: 30, bothRight: 125, bothWrong: 13 }),
      mcnemarTest('correct', { fixed: 5, broken: 40, bothRight: 98, bothWrong: 57 }),
    ]);
    const comparison = makeComparison({
      tests,
      reasons: [
        {
          kind: 'regressed',
          gate: 'retrieval',
          metric: 'retrieval_ok',
          base: 0.912,
          head: 0.829,
          delta: -0.083,
          pValue: 0.0013,
          adjustedPValue: 0.0026,
          alpha: 0.05,
          broken: 16,
          fixed: 2,
        },
        {
          kind: 'regressed',
          gate: 'end-to-end',
          metric: 'correct',
          base: 0.69,
          head: 0.515,
          delta: -0.175,
          pValue: 1e-7,
          adjustedPValue: 1e-7,
          alpha: 0.05,
          broken: 40,
          fixed: 5,
        },
        { kind: 'floor-broken', floor: RECALL_FLOOR_BROKEN.floor, reads: 'recall@5', value: 0.7 },
      ],
      floors: [RECALL_FLOOR_BROKEN],
    });
    const { tree } = render(comparison);
    expect(plain(tree.children[1]!)).toBe('❌ rag-gate: retrieval and end-to-end correctness regressed significantly; a floor is broken');
    const evidence = plain(tree.children[2]!);
    expect(evidence).toContain('40 questions went from right to wrong, 5 from wrong to right');
    expect(evidence).toContain('Floor broken: recall@5 is 0.700 in head');
    expect(evidence.endsWith('This check fails.')).toBe(true);
    const roles = cellTexts(tree.children.find((n) => n.type === 'table') as Table).map((row) => row[6]);
    expect(roles.slice(1)).toEqual(['❌ gate', '❌ gate']);
  });

  it('fails on a floor alone', () => {
    const comparison = makePassingComparison({
      verdict: 'fail',
      reasons: [{ kind: 'floor-broken', floor: RECALL_FLOOR_BROKEN.floor, reads: 'recall@5', value: 0.7 }],
      floors: [RECALL_FLOOR_BROKEN],
    });
    const { tree } = render(comparison);
    expect(plain(tree.children[1]!)).toBe('❌ rag-gate: a floor is broken');
    expect(plain(tree.children[2]!)).toBe('Floor broken: recall@5 is 0.700 in head, the floor is recall@5 ≥ 0.8. This check fails.');
  });

  it('passes a significant drop below the minimum effect, saying it only warns', () => {
    const tests = sketchTests().map((t) => (t.metric === 'retrieval_ok' ? { ...t, gateOutcome: 'below-minimum-effect' as const } : t));
    const comparison = makeComparison({
      tests,
      verdict: 'pass',
      reasons: [],
      warnings: [
        {
          kind: 'drop-below-minimum-effect',
          minEffect: 0.1,
          gate: 'retrieval',
          metric: 'retrieval_ok',
          base: 0.912,
          head: 0.829,
          delta: -0.083,
          pValue: 0.0013,
          adjustedPValue: 0.0026,
          alpha: 0.05,
          broken: 16,
          fixed: 2,
        },
      ],
    });
    const { tree } = render(comparison);
    expect(plain(tree.children[1]!)).toBe('✅ rag-gate: no regression beyond the minimum effect');
    expect(plain(tree.children[2]!)).toContain('The drop is smaller than the minimum effect, so it only warns. This check passes.');
    expect(cellTexts(tree.children.find((n) => n.type === 'table') as Table)[1]?.[6]).toBe('⚠️ gate, below the minimum effect');
    expect(plain(tree)).toContain('retrieval dropped significantly but by less than the minimum effect');
  });

  it('reports a significant improvement as a pass', () => {
    const tests = gate([
      mcnemarTest('retrieval_ok', { fixed: 16, broken: 2, bothRight: 139, bothWrong: 13 }),
      mcnemarTest('correct', { fixed: 15, broken: 6, bothRight: 123, bothWrong: 56 }),
      randomizationTest('ndcg@10', { base: 0.688, head: 0.742, ci: [0.027, 0.081], pValue: 0.0002 }),
    ]);
    const { tree } = render(makePassingComparison({ tests }));
    expect(plain(tree.children[1]!)).toBe('✅ rag-gate: no significant regression; retrieval improved');
    expect(plain(tree.children[2]!)).toMatch(/^hit@5 0\.829 → 0\.912: 2 questions lost their gold document, 16 gained it .* This check passes\.$/);
  });

  it('omits the marker when none is given and keeps a hostile marker inside its comment', () => {
    expect(renderComment(makeComparison(), { retrievalOk: 'hit@5' }).startsWith('### ❌')).toBe(true);
    const markdown = renderComment(makeComparison(), { retrievalOk: 'hit@5', marker: 'x --> <b>@someone</b> <!--' });
    const firstLine = markdown.split('\n')[0]!;
    expect(firstLine).toMatch(/^<!-- [^<>]* -->$/);
    expect(firstLine.slice(4, -3)).not.toContain('--');
    expect(parse(markdown).children[0]).toMatchObject({ type: 'html', value: firstLine });
  });

  it('lists retrieval regressions as the main list when no question carries correctness', () => {
    const retrievalOnly = gate([mcnemarTest('retrieval_ok', { fixed: 2, broken: 16, bothRight: 139, bothWrong: 13 })], ['retrieval']);
    const lost = Array.from({ length: 16 }, (_, k) => retrievalRegression(change(42 + k, 'retrieval'), false));
    const { tree } = render(makeComparison({ tests: retrievalOnly, regressions: [], fixed: [], retrievalRegressions: lost, regressionsByTag: {} }));
    expect(plain(tree.children[3]!)).toBe('No question carries end-to-end correctness in both runs; 16 questions lost their gold document.');
    const section = sectionAfter(tree, 'Questions that lost their gold document (16)');
    expect((section[0] as Table).children).toHaveLength(17);
  });
});

describe('renderComment: untrusted text', () => {
  const HOSTILE = [
    'a | b || c',
    '<img src=x onerror=alert(1)>',
    '<script>alert(1)</script>',
    '`` ` ``',
    '`starts with a backtick',
    'ends with a backtick`',
    'line1\n# heading\n- list',
    'ping @someone and @org/team',
    '@someone at the start',
    '<!-- open comment',
    'close comment -->',
    '[link](http://evil)',
    '![img](x)',
    'see https://evil.example and www.evil.example',
    '<details><summary>fake</summary>',
    '| --- | --- |',
    '  padded with spaces  ',
    '\ttabs\r\nand CRLF\u0000and NUL\u202eRLO',
    '#123 and GH-1',
    '*bold* _em_ ~~strike~~ \\escaped',
    'x'.repeat(5_000),
    `${'long text with words '.repeat(250)}`,
  ];
  const regressions: QuestionChange[] = HOSTILE.map((question, i) =>
    change(i, i % 3 === 0 ? 'retrieval' : 'generation', {
      question,
      id: i % 4 === 0 ? `id|${i}|<b>@someone</b>` : `q-${i}`,
      tags: [i % 2 === 0 ? '@org/team' : '<img src=x>|tag'],
      lostDocuments: i % 3 === 0 ? [`doc|${i}`, '@someone', '[x](http://evil)', 'four', 'five'] : [],
    }),
  );
  const comparison = makeComparison({
    regressions,
    fixed: regressions.slice(0, 5),
    retrievalRegressions: [
      ...regressions.filter((r) => r.cause === 'retrieval').map((r) => retrievalRegression(r, false)),
      retrievalRegression(change(999, 'retrieval', { question: '<b>rescued</b> @someone |' }), true),
    ],
    regressionsByTag: countByTag(regressions),
    judges: [
      {
        field: 'correct',
        allowed: false,
        judges: [
          { model: 'evil@evil.example owner/repo#42 @someone', promptVersion: '$\\color{red}{FAKE}$ GH-77', allowed: false, verdict: { kind: 'no-record' } },
        ],
      },
    ],
    warnings: [{ kind: 'floor-from-uncalibrated-judge', floor: { metric: 'correct', op: '>=', value: 0.9 }, value: 0.5, field: 'correct' }],
  });
  const { markdown, tree } = render(comparison, { baseline: '`main` at `abc1234` by @octocat, run #1234' });
  const nodes = all(tree);

  it('produces no html, link, image or extra heading from user text', () => {
    for (const node of nodes) if (node.type === 'html') expect(node.value).toMatch(OUR_HTML);
    const forbidden = nodes.filter((n) =>
      ['link', 'image', 'linkReference', 'imageReference', 'definition', 'footnoteReference', 'footnoteDefinition', 'delete'].includes(n.type),
    );
    expect(forbidden).toEqual([]);
    expect(nodes.filter((n) => n.type === 'heading').map((n) => plain(n))).toEqual([
      '❌ rag-gate: retrieval regressed significantly',
      `Regressed questions (${HOSTILE.length})`,
    ]);
  });

  it('keeps every table rectangular and the regressed table one row per question', () => {
    for (const table of tables(tree)) {
      const width = table.children[0]!.children.length;
      for (const row of table.children) expect(row.children).toHaveLength(width);
    }
    const section = sectionAfter(tree, 'Regressed questions');
    const rows = section.filter((n): n is Table => n.type === 'table').flatMap((t) => t.children.slice(1));
    expect(rows).toHaveLength(HOSTILE.length);
    for (const table of section.filter((n): n is Table => n.type === 'table')) expect(table.children[0]!.children).toHaveLength(3);
  });

  it('shows each question, one line and at most 200 characters, as code in its row', () => {
    const section = sectionAfter(tree, 'Regressed questions');
    const rows = section.filter((n): n is Table => n.type === 'table').flatMap((t) => t.children.slice(1));
    regressions.forEach((regression, i) => {
      const [id, question] = rows[i]!.children;
      const visible = (char: string) => `<U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}>`;
      const expected = shown(regression.question.replace(/\p{Cc}/gu, ' ').replace(/[\u202a-\u202e]/g, visible));
      expect(question!.children).toEqual([expect.objectContaining({ type: 'inlineCode', value: expected })]);
      expect(Array.from(expected).length).toBeLessThanOrEqual(200);
      expect(id!.children).toEqual([expect.objectContaining({ type: 'inlineCode', value: regression.id })]);
    });
    const long = rows[HOSTILE.indexOf('x'.repeat(5_000))]!.children[1]!.children[0] as PhrasingContent & { value: string };
    expect(long.value).toBe(`${'x'.repeat(199)}…`);
    expect(markdown).not.toContain('x'.repeat(201));
  });

  it('never leaves an @mention or an #123 reference outside code', () => {
    for (const node of nodes) if (node.type === 'text') expect(node.value).not.toMatch(MENTION);
    for (const node of nodes) if (node.type === 'text') expect(node.value).not.toMatch(/(?:^|[^\w`])#\d/);
    // Every "@someone" in the raw markdown lies inside a code span of the parsed tree.
    const spans = nodes.filter((n) => n.type === 'inlineCode').map((n) => [n.position!.start.offset!, n.position!.end.offset!] as const);
    let from = 0;
    let found = 0;
    for (;;) {
      const at = markdown.indexOf('@someone', from);
      if (at < 0) break;
      found++;
      expect(
        spans.some(([start, end]) => start <= at && at < end),
        `@someone at ${at}`,
      ).toBe(true);
      from = at + 1;
    }
    expect(found).toBeGreaterThan(5);
    expect(nodes.filter((n) => n.type === 'inlineCode').map((n) => (n as { value: string }).value)).toEqual(
      expect.arrayContaining(['@octocat', '#1234', '@someone']),
    );
  });

  it('keeps pipes inside code spans in table cells', () => {
    const section = sectionAfter(tree, 'Regressed questions');
    const rows = section.filter((n): n is Table => n.type === 'table').flatMap((t) => t.children.slice(1));
    expect(rows[0]!.children[0]!.children[0]).toMatchObject({ type: 'inlineCode', value: 'id|0|<b>@someone</b>' });
    expect(rows[0]!.children[1]!.children[0]).toMatchObject({ type: 'inlineCode', value: 'a | b || c' });
    expect(markdown).toContain('`a \\| b \\|\\| c`');
    expect(plain(rows[0]!.children[2]!)).toBe('retrieval: lost doc|0, @someone, [x](http://evil) and 2 more');
  });

  it('handles backticks at the ends, surrounding spaces and empty text', () => {
    const edge = ['`tick', 'tick`', '`', '``', ' ` ', '', '   ', '\n\n'];
    const { tree } = render(makeComparison({ regressions: edge.map((question, i) => change(i, 'generation', { question })) }));
    const rows = (sectionAfter(tree, 'Regressed questions')[0] as Table).children.slice(1);
    const cells = rows.map((row) => row.children[1]!.children);
    expect(cells.slice(0, 5)).toEqual(['`tick', 'tick`', '`', '``', '`'].map((value) => [expect.objectContaining({ type: 'inlineCode', value })]));
    for (const cell of cells.slice(5))
      expect(cell).toEqual([expect.objectContaining({ type: 'emphasis', children: [expect.objectContaining({ value: 'empty' })] })]);
  });

  it('drops only the backslash before a pipe, never the table', () => {
    const { tree } = render(makeComparison({ regressions: ['a\\|b', 'a\\\\|b', 'end\\', '\\|'].map((question, i) => change(i, 'generation', { question })) }));
    const table = sectionAfter(tree, 'Regressed questions')[0] as Table;
    expect(table.children).toHaveLength(5);
    for (const row of table.children) expect(row.children).toHaveLength(3);
    expect(table.children.slice(1).map((row) => plain(row.children[1]!))).toEqual(['a|b', 'a\\\\|b', 'end\\', '|']);
  });
});

describe('renderComment: the length budget', () => {
  const many = (n: number, from: number, cause: QuestionChange['cause'] = 'retrieval') =>
    Array.from({ length: n }, (_, k) => change(from + k, cause, { question: `${'question text '.repeat(30)}${from + k}`, tags: [`tag-${(from + k) % 40}`] }));

  function keptRows(tree: Root, title: string): number {
    return sectionAfter(tree, title)
      .filter((n): n is Table => n.type === 'table')
      .reduce((sum, t) => sum + t.children.length - 1, 0);
  }

  function moreCount(nodes: readonly RootContent[]): number | null {
    const line = nodes.map((n) => plain(n)).find((t) => t.startsWith('… and '));
    return line === undefined ? null : Number(/… and ([\d,]+) more/.exec(line)![1]!.replace(/,/g, ''));
  }

  it('keeps 5,000 regressions under 65,000 characters with the verdict, the counts and the tests table', () => {
    const regressions = many(5_000, 0);
    const fixed = many(3_000, 10_000, 'generation');
    const comparison = makeComparison({
      regressions,
      fixed,
      retrievalRegressions: [...regressions.map((r) => retrievalRegression(r, false)), ...many(2_000, 20_000).map((r) => retrievalRegression(r, true))],
      regressionsByTag: countByTag(regressions),
      causes: { regressions: { retrieval: 5_000, generation: 0, unknown: 0 }, fixed: { retrieval: 0, generation: 3_000, unknown: 0 } },
    });
    const { markdown, tree } = render(comparison);
    expect(markdown.length).toBeLessThanOrEqual(65_000);
    expect(markdown.length).toBeGreaterThan(60_000);

    expect(plain(tree.children[1]!)).toBe('❌ rag-gate: retrieval regressed significantly');
    expect(plain(tree.children[4]!)).toMatch(
      /^5,000 questions regressed: 5,000 because retrieval lost the gold document\. 3,000 questions went from wrong to right\.$/,
    );
    expect(tree.children[5]?.type).toBe('table');
    expect((tree.children[5] as Table).children).toHaveLength(8);

    const section = sectionAfter(tree, 'Regressed questions (5,000)');
    const kept = keptRows(tree, 'Regressed questions (5,000)');
    expect(kept).toBeGreaterThan(100);
    expect(moreCount(section)).toBe(5_000 - kept);
    expect(plain(section.at(-1)!)).not.toBe('');
    expect(section.map((n) => plain(n))).toContain(
      `… and ${(5_000 - kept).toLocaleString('en-US')} more; see the full JSON (full JSON: the report-json output)`,
    );
    // The lists that go first are cut to nothing, with their counts kept.
    expect(moreCount(fold(tree, '2,000 more lost their gold document'))).toBe(2_000);
    expect(moreCount(fold(tree, '3,000 questions fixed'))).toBe(3_000);
    // The per-tag counts stay whole.
    expect((fold(tree, 'Regressions by tag (40 tags)')[0] as Table).children).toHaveLength(41);
    // The diagnosis and the footer survive.
    expect(plain(tree)).toContain('r moved significantly');
    expect(plain(tree.children.at(-1)!)).toContain('200 paired questions, 0 missing (counted as failed), 0 added, 0 removed, 0 relabelled');
  });

  it('cuts the fixed questions before the regressions', () => {
    const regressions = many(40, 0);
    const fixed = many(400, 1_000, 'generation');
    const comparison = makeComparison({ regressions, fixed, regressionsByTag: countByTag(regressions) });
    const { markdown, tree } = render(comparison, { maxLength: 30_000 });
    expect(markdown.length).toBeLessThanOrEqual(30_000);
    expect(keptRows(tree, 'Regressed questions (40)')).toBe(40);
    expect(moreCount(sectionAfter(tree, 'Regressed questions (40)'))).toBeNull();
    const fixedFold = fold(tree, '400 questions fixed');
    const keptFixed = fixedFold.filter((n): n is Table => n.type === 'table').reduce((sum, t) => sum + t.children.length - 1, 0);
    expect(keptFixed).toBeGreaterThan(0);
    expect(moreCount(fixedFold)).toBe(400 - keptFixed);
  });

  it('shows a long list with its first rows open and the rest folded', () => {
    const regressions = many(30, 0);
    const { tree } = render(makeComparison({ regressions, regressionsByTag: countByTag(regressions) }));
    const section = sectionAfter(tree, 'Regressed questions (30)');
    expect((section[0] as Table).children).toHaveLength(11);
    expect(section[1]).toMatchObject({ type: 'html', value: '<details><summary>the other 20 regressed questions</summary>' });
    expect((section[2] as Table).children).toHaveLength(21);
  });

  it('says "see the full JSON report" when no report link is given', () => {
    const regressions = many(2_000, 0);
    const markdown = renderComment(makeComparison({ regressions, regressionsByTag: countByTag(regressions) }), { retrievalOk: 'hit@5', maxLength: 20_000 });
    expect(markdown.length).toBeLessThanOrEqual(20_000);
    expect(markdown).toMatch(/… and [\d,]+ more; see the full JSON report/);
  });
});
