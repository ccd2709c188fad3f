import type { Link, Nodes, Parent, PhrasingContent, Root, RootContent, Table } from 'mdast';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { gfm } from 'micromark-extension-gfm';
import { beforeEach, describe, expect, it } from 'vitest';
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
import { missingQuestion } from './comparison-variants.js';

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
const OUR_HTML = /^(?:<!-- rag-gate:default -->|<details><summary>[^<>]*<\/summary>|<\/details>|<br>)$/;

describe('renderComment: the sketch scenario (fails on retrieval)', () => {
  let markdown: string;
  let tree: Root;
  beforeEach(() => ({ markdown, tree } = render(makeComparison())));

  it('starts with the marker comment, then the verdict heading', () => {
    expect(markdown.split('\n')[0]).toBe('<!-- rag-gate:default -->');
    expect(tree.children[0]).toMatchObject({ type: 'html', value: '<!-- rag-gate:default -->' });
    const first = tree.children.find((n) => n.type === 'heading');
    expect(first).toMatchObject({ depth: 3 });
    expect(plain(first!)).toBe('❌ rag-gate: retrieval regressed significantly');
    expect(tree.children[1]).toBe(first);
  });

  it('gives the deciding evidence in words, the verdict, the power note and the causes', () => {
    expect(tree.children[2]?.type).toBe('list');
    const [evidence, verdict, power, causes] = tree.children.slice(2, 6).map((n) => plain(n));
    expect(evidence).toBe('Questions with a gold document in the top 5: 91.2% → 82.9%: 16 questions lost their gold document, 2 gained it (p = 0.0026).');
    expect(plain(all(tree.children[2]!).find((n) => n.type === 'strong')!)).toBe('Questions with a gold document in the top 5: 91.2% → 82.9%');
    expect(verdict).toBe('This check fails. (p: exact McNemar, Holm-adjusted across 2 gated tests; α = 0.05.)');
    expect(power).toMatch(
      /^End-to-end correctness 0\.690 → 0\.645 is not significant yet \(p = 0\.0784\): with this discordance about 405 paired questions would be needed to tell a 4\.5-point drop from noise\.$/,
    );
    expect(causes).toBe(
      '15 questions regressed: 11 because retrieval lost the gold document, 4 because the answer got worse with the same or better retrieval. 6 questions went from wrong to right.',
    );
    const bold = all(tree.children[5]!).find((n) => n.type === 'strong');
    expect(plain(bold!)).toBe('11 because retrieval lost the gold document');
  });

  it('has a tests table of the gated tests, seven columns, and the other tests folded under a count', () => {
    const table = tree.children[6];
    expect(table?.type).toBe('table');
    const cells = cellTexts(table as Table);
    expect(cells).toHaveLength(1 + 2);
    for (const row of cells) expect(row).toHaveLength(7);
    expect(cells[0]).toEqual(['metric', 'base', 'head', 'Δ (95% CI)', 'p', 'Holm p', 'gate']);
    // Rates get an interval too: 170 pairs, so the percentile bootstrap of the ±1/0 differences. Its exact
    // distribution (the resample sum is N₊ − N₋, multinomial over 2, 16 and 152 of 170) puts 2.25% at or below −23
    // and 3.75% at or below −22, 97.09% at or below −7 and 98.48% at or below −6: 2,000 seeded resamples give
    // −23/170 and −6/170 (−22/170 would be as plausible a draw for the lower end).
    expect(cells[1]).toEqual(['hit@5 — retrieval ok', '0.912', '0.829', '−0.082 (−0.135, −0.035)', '0.0013', '0.0026', '❌ gate']);
    expect(cells[2]).toEqual(['correct — end to end', '0.690', '0.645', '−0.045 (−0.090, 0.000)', '0.0784', '0.0784', 'gate, not significant']);
    // ndcg@10 and recall@5 dropped significantly beside the failing retrieval gate: the same drop, folded.
    const folded = fold(tree, '5 more metrics: 2 measure the gated retrieval drop again, 3 did not change significantly</summary>');
    expect(folded.map((n) => n.type)).toEqual(['table']);
    const rest = cellTexts(folded[0] as Table);
    expect(rest[0]).toEqual(cells[0]);
    expect(rest.slice(1).map((row) => row[0])).toEqual([
      'correct with retrieval ok — generation',
      'refusals on unanswerable',
      'ndcg@10',
      'recall@5',
      'faithfulness',
    ]);
    expect(rest[3]).toEqual(['ndcg@10', '0.742', '0.688', '−0.054 (−0.081, −0.027)', '0.0002', '', 'report, the gated retrieval drop again']);
    expect(rest[5]?.[6]).toBe('report');
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

  it('lists every regressed question: its id first, its text as prose, what retrieval lost, and its cause', () => {
    const comparison = makeComparison();
    const section = sectionAfter(tree, 'Regressed questions');
    expect(plain(tree.children.find((n) => n.type === 'heading' && n.depth === 4)!)).toBe('Regressed questions (15)');
    const table = section[0] as Table;
    expect(table.type).toBe('table');
    expect(table.children).toHaveLength(16);
    expect(cellTexts(table)[0]).toEqual(['question', 'cause']);
    comparison.regressions.forEach((regression, i) => {
      const [question, cause] = table.children[i + 1]!.children;
      const [id, ...rest] = question!.children;
      expect(id).toMatchObject({ type: 'inlineCode', value: regression.id });
      // "(#42)" holds an issue reference: that word alone is code, the rest of the question is text.
      expect(rest.slice(0, 2)).toEqual([
        expect.objectContaining({ type: 'text', value: ` ${regression.question.replace(/ \(#\d+\)$/, '')} ` }),
        expect.objectContaining({ type: 'inlineCode', value: regression.question.match(/\(#\d+\)$/)![0] }),
      ]);
      const lostLine = rest.slice(3);
      if (regression.cause === 'retrieval') {
        expect(rest[2]).toMatchObject({ type: 'html', value: '<br>' });
        expect(lostLine.map((n) => plain(n)).join('')).toBe(`lost ${regression.lostDocuments[0]}`);
        expect(lostLine[1]).toMatchObject({ type: 'inlineCode', value: regression.lostDocuments[0] });
      } else expect(rest).toHaveLength(2);
      expect(plain(cause!)).toBe(regression.cause);
    });
  });

  it('folds the rescued retrieval regressions and the fixed questions', () => {
    const rescued = fold(tree, '5 more lost their gold document but were still answered right');
    expect((rescued[0] as Table).children).toHaveLength(6);
    const fixed = fold(tree, '6 questions fixed');
    expect((fixed[0] as Table).children).toHaveLength(7);
  });

  it('compares base and head by tag, most moved first, marking what is significant after Holm', () => {
    const at = tree.children.findIndex((n) => plain(n) === 'By tag');
    // auth: 8 broken, 3 fixed of 100 (p 0.227); billing: 7 broken, 3 fixed (p 0.344); neither significant.
    expect(cellTexts(tree.children[at + 1] as Table)).toEqual([
      ['tag', 'questions', 'answered right', 'broken', 'fixed'],
      ['auth', '100', '70.0%\u00a0→\u00a065.0%', '8', '3'],
      ['billing', '100', '70.0%\u00a0→\u00a066.0%', '7', '3'],
    ]);
    expect(plain(tree.children[at + 2]!)).toContain("significant after Holm's correction across the 2 per-tag McNemar tests");
  });

  it('marks a tag whose drop is significant after Holm', () => {
    const regressions = Array.from({ length: 30 }, (_, k) => change(k, 'generation', { tags: ['billing'] }));
    const { tree } = render(makeComparison({ regressions, fixed: [] }));
    const at = tree.children.findIndex((n) => plain(n) === 'By tag');
    expect(cellTexts(tree.children[at + 1] as Table)[1]).toEqual(['billing', '100', '70.0%\u00a0→\u00a040.0%\u00a0⚠️', '30', '0']);
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
    expect(cells.slice(1).map((row) => row[6])).toEqual(['gate, not significant', 'gate, not significant']);
    expect(cellTexts(fold(tree, '1 more metric, none changed significantly</summary>')[0] as Table)[1]?.[6]).toBe('report');
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
    expect(evidence).toContain('Questions answered right: 69.0% → 51.5%: 40 questions went from right to wrong, 5 from wrong to right');
    expect(evidence).toContain('Floor broken: recall@5 is 0.700 in head');
    expect(plain(tree.children[3]!).startsWith('This check fails.')).toBe(true);
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
    expect(plain(tree.children[2]!)).toBe('Floor broken: recall@5 is 0.700 in head, the floor is recall@5 ≥ 0.8.');
    expect(plain(tree.children[3]!)).toBe('This check fails.');
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
    expect(plain(tree.children[2]!)).toContain('The drop is smaller than the minimum effect, so it only warns.');
    expect(plain(tree.children[3]!).startsWith('This check passes.')).toBe(true);
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
    expect(plain(tree.children[2]!)).toMatch(
      /^Questions with a gold document in the top 5: 82\.9% → 91\.2%: 2 questions lost their gold document, 16 gained it \(p = [\d.]+\)\.$/,
    );
    expect(plain(tree.children[3]!).startsWith('This check passes.')).toBe(true);
    const roles = cellTexts(tree.children.find((n) => n.type === 'table') as Table).map((row) => row[6]);
    expect(roles.at(-1)).toBe('✅ report, significant gain');
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
    expect(plain(tree.children[4]!)).toBe('No question carries end-to-end correctness in both runs; 16 questions lost their gold document.');
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
  let markdown: string;
  let tree: Root;
  let nodes: ReturnType<typeof all>;
  beforeEach(() => {
    ({ markdown, tree } = render(comparison, { baseline: '`main` at `abc1234` by @octocat, run #1234' }));
    nodes = all(tree);
  });

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
    for (const table of section.filter((n): n is Table => n.type === 'table')) expect(table.children[0]!.children).toHaveLength(2);
  });

  /**
   * The question's own nodes in its cell: after the id, up to the line break before the documents, the space after
   * the id taken off (it parses as part of the next text).
   */
  const questionNodes = (cell: { children: PhrasingContent[] }): PhrasingContent[] => {
    const rest = cell.children.slice(1);
    const end = rest.findIndex((n) => n.type === 'html');
    const own = end < 0 ? rest : rest.slice(0, end);
    const [first, ...others] = own;
    if (first?.type !== 'text') return own;
    return first.value === ' ' ? others : [{ ...first, value: first.value.slice(1) }, ...others];
  };

  it('shows each question after its id, one line and at most 200 characters, as text with live words in code', () => {
    const section = sectionAfter(tree, 'Regressed questions');
    const rows = section.filter((n): n is Table => n.type === 'table').flatMap((t) => t.children.slice(1));
    regressions.forEach((regression, i) => {
      const cell = rows[i]!.children[0]!;
      const visible = (char: string) => `<U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}>`;
      const expected = shown(regression.question.replace(/\p{Cc}/gu, ' ').replace(/[\u202a-\u202e]/g, visible));
      const question = questionNodes(cell);
      expect(question.map((n) => plain(n)).join('')).toBe(expected);
      expect(Array.from(expected).length).toBeLessThanOrEqual(200);
      for (const node of question) {
        if (node.type === 'inlineCode') expect(node.value).toMatch(/[@#$`\\]|:\/\/|www\.|GH-\d/);
        else expect(node.type).toBe('text');
      }
      expect(cell.children[0]).toMatchObject({ type: 'inlineCode', value: regression.id });
    });
    const long = questionNodes(rows[HOSTILE.indexOf('x'.repeat(5_000))]!.children[0]!)[0] as PhrasingContent & { value: string };
    expect(long).toMatchObject({ type: 'text', value: `${'x'.repeat(199)}…` });
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
    expect(questionNodes(rows[0]!.children[0]!)).toEqual([expect.objectContaining({ type: 'text', value: 'a | b || c' })]);
    expect(markdown).toContain('a \\| b \\|\\| c');
    const lost = rows[0]!.children[0]!.children.slice(rows[0]!.children[0]!.children.findIndex((n) => n.type === 'html') + 1);
    expect(lost.map((n) => plain(n)).join('')).toBe('lost doc|0, @someone, [x](http://evil) and 2 more');
    expect(lost.filter((n) => n.type === 'inlineCode').map((n) => (n as { value: string }).value)).toEqual(['doc|0', '@someone', '[x](http://evil)']);
  });

  it('handles backticks at the ends, surrounding spaces and empty text', () => {
    const edge = ['`tick', 'tick`', '`', '``', ' ` ', '', '   ', '\n\n'];
    const { tree } = render(makeComparison({ regressions: edge.map((question, i) => change(i, 'generation', { question })) }));
    const rows = (sectionAfter(tree, 'Regressed questions')[0] as Table).children.slice(1);
    const cells = rows.map((row) => questionNodes(row.children[0]!));
    expect(cells.slice(0, 5)).toEqual(['`tick', 'tick`', '`', '``', '`'].map((value) => [expect.objectContaining({ type: 'inlineCode', value })]));
    for (const cell of cells.slice(5))
      expect(cell).toEqual([expect.objectContaining({ type: 'emphasis', children: [expect.objectContaining({ value: 'empty' })] })]);
  });

  it('drops only the backslash before a pipe, never the table', () => {
    const { tree } = render(makeComparison({ regressions: ['a\\|b', 'a\\\\|b', 'end\\', '\\|'].map((question, i) => change(i, 'generation', { question })) }));
    const table = sectionAfter(tree, 'Regressed questions')[0] as Table;
    expect(table.children).toHaveLength(5);
    for (const row of table.children) expect(row.children).toHaveLength(2);
    expect(
      table.children.slice(1).map((row) =>
        questionNodes(row.children[0]!)
          .map((n) => plain(n))
          .join(''),
      ),
    ).toEqual(['a|b', 'a\\\\|b', 'end\\', '|']);
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

  it('keeps 5,000 regressions under 65,000 characters with the verdict, the counts and the tests table (slow)', () => {
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
    expect(plain(tree.children[5]!)).toMatch(
      /^5,000 questions regressed: 5,000 because retrieval lost the gold document\. 3,000 questions went from wrong to right\.$/,
    );
    expect(tree.children[6]?.type).toBe('table');
    expect((tree.children[6] as Table).children).toHaveLength(3);

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
    expect((fold(tree, 'By tag (40 tags moved)')[0] as Table).children).toHaveLength(41);
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

  it('renders a comparison the same at any budget whatever was rendered from it before (its lists are shared)', () => {
    const regressions = many(300, 0);
    const comparison = makeComparison({ regressions, fixed: many(200, 1_000, 'generation'), regressionsByTag: countByTag(regressions) });
    const budgets = [500_000, 30_000, 12_000, 30_000];
    const shared = budgets.map((maxLength) => render(comparison, { maxLength }).markdown);
    const fresh = budgets.map((maxLength) => render(structuredClone(comparison), { maxLength }).markdown);
    expect(shared).toEqual(fresh);
    expect(new Set(shared).size).toBe(3);
    const traced = render(comparison, { maxLength: 30_000, traceUrl: 'https://t.example/{id}' }).markdown;
    expect(traced).toContain('](https://t.example/q-0000)');
    expect(traced).toBe(render(structuredClone(comparison), { maxLength: 30_000, traceUrl: 'https://t.example/{id}' }).markdown);
  });

  it('cuts the missing questions before the regressions', () => {
    const regressions = many(40, 0);
    const missing = Array.from({ length: 1_200 }, (_, k) => missingQuestion(k, false, null));
    const { markdown, tree } = render(makeComparison({ regressions, missing, regressionsByTag: countByTag(regressions) }), { maxLength: 30_000 });
    expect(markdown.length).toBeLessThanOrEqual(30_000);
    expect(keptRows(tree, 'Regressed questions (40)')).toBe(40);
    const title = 'Missing from head: counted as failed (1,200)';
    const keptMissing = keptRows(tree, title);
    expect(keptMissing).toBeGreaterThan(0);
    expect(moreCount(sectionAfter(tree, title))).toBe(1_200 - keptMissing);
  });

  it('cuts only as many fixed questions as it must when all of them would fit the budget on their own', () => {
    // The fixed rows alone are far below the budget, the comment with all of them 5,000 characters over: the lower
    // bound of a cut list must count only the rows kept, or every cut of the fixed list looks too long and the
    // regressions are cut too (with the bound of all 30 rows, nothing of either list was kept).
    const regressions = many(40, 0);
    const fixed = many(30, 1_000, 'generation');
    const comparison = makeComparison({ regressions, fixed, regressionsByTag: countByTag(regressions) });
    const whole = render(comparison, { maxLength: 200_000 }).markdown.length;
    const { markdown, tree } = render(comparison, { maxLength: whole - 5_000 });
    expect(markdown.length).toBeLessThanOrEqual(whole - 5_000);
    expect(keptRows(tree, 'Regressed questions (40)')).toBe(40);
    const fixedFold = fold(tree, '30 questions fixed');
    const keptFixed = fixedFold.filter((n): n is Table => n.type === 'table').reduce((sum, t) => sum + t.children.length - 1, 0);
    expect(keptFixed).toBeGreaterThan(0);
    expect(moreCount(fixedFold)).toBe(30 - keptFixed);
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

describe('renderComment: answers, documents and links', () => {
  const evidence = {
    expectedAnswer: 'Keys can expire after 7 days to 2 years.',
    base: {
      answer: 'Create a new key, deploy it, revoke the old one; expiry 7 days to 2 years.',
      top: ['auth-0042', 'auth-0007'],
      traceUrl: 'https://smith.example/r/base-1',
    },
    head: { answer: `Create a new key and ping @someone. ${'More words. '.repeat(60)}`, top: ['faq-0001', 'auth-0007'], traceUrl: 'javascript:alert(1)' },
  };
  const regressions = [
    change(42, 'retrieval', { evidence }),
    change(107, 'generation', { evidence: { ...evidence, base: { ...evidence.base, traceUrl: undefined } } }),
  ];
  let tree: Root;
  let markdown: string;
  let rows: Table['children'];
  beforeEach(() => {
    ({ tree, markdown } = render(makeComparison({ regressions, fixed: [] }), {
      runUrl: 'https://github.com/octo/shop/actions/runs/5000',
      traceUrl: 'https://traces.example/q/{id}?x=1',
    }));
    rows = (sectionAfter(tree, 'Regressed questions')[0] as Table).children.slice(1);
  });
  const nodes = (i: number) => all(rows[i]!.children[0]!);

  it('folds the expected, base and head answers under the question, cut to 300 characters, live words in code', () => {
    const html = nodes(0)
      .filter((n) => n.type === 'html')
      .map((n) => (n as { value: string }).value);
    // Inline HTML parses tag by tag.
    expect(html).toEqual(['<br>', '<details>', '<summary>', '</summary>', '<br>', '<br>', '</details>']);
    expect(markdown).toContain('<details><summary>answers side by side</summary>**expected**: Keys can expire');
    const fold = plain(rows[0]!.children[0]!).split('answers side by side')[1]!;
    expect(fold.startsWith('expected: Keys can expire after 7 days to 2 years.base (right): Create a new key')).toBe(true);
    expect(fold).toContain('head (wrong): Create a new key and ping @someone. More words.');
    const headAnswer = fold.split('head (wrong): ')[1]!;
    expect(Array.from(headAnswer).length).toBe(300);
    expect(headAnswer.endsWith('…')).toBe(true);
    expect(nodes(0).find((n) => n.type === 'inlineCode' && n.value === '@someone.')).toBeDefined();
  });

  it('says what retrieval lost and what took its place', () => {
    const line = plain(rows[0]!.children[0]!).split('answers side by side')[0]!;
    expect(line.endsWith('lost auth-0042 · in its place faq-0001')).toBe(true);
  });

  it("links the record's own http(s) trace, else the template's, and never another scheme", () => {
    const links = (i: number) =>
      nodes(i)
        .filter((n): n is Link => n.type === 'link')
        .map((n) => [n.url, plain(n)]);
    expect(links(0)).toEqual([['https://smith.example/r/base-1', 'base trace']]);
    expect(links(1)).toEqual([['https://traces.example/q/q-0107?x=1', 'trace']]);
    expect(markdown).not.toContain('javascript:');
  });

  it('links the workflow run in the last line', () => {
    const last = all(tree.children.at(-1)!).filter((n): n is Link => n.type === 'link');
    expect(last.map((n) => [n.url, plain(n)])).toEqual([['https://github.com/octo/shop/actions/runs/5000', 'workflow run']]);
  });

  it('encodes the id in a template and links nothing that is not http(s)', () => {
    const hostile = change(1, 'generation', { id: 'a b/../"x"<y>@z' });
    const { tree } = render(makeComparison({ regressions: [hostile], fixed: [] }), { traceUrl: 'https://t.example/{id}', runUrl: 'file:///etc/passwd' });
    const links = all(tree).filter((n): n is Link => n.type === 'link');
    // The first link is the regressed question's; the others are the rescued retrieval regressions'.
    expect(links[0]?.url).toBe('https://t.example/a%20b%2F..%2F%22x%22%3Cy%3E%40z');
    expect(links.map((n) => n.url)).not.toContain('file:///etc/passwd');
  });
});

describe('renderComment: the trend on the base branch', () => {
  it('shows a Mermaid chart per gated rate, the PR last, and its reading, only when a history is given', () => {
    const runs = Array.from({ length: 10 }, (_, i) => ({
      commit: `${String(i).padStart(7, '0')}ffff`,
      date: '2026-01-01T00:00:00.000Z',
      n: 200,
      metrics: { retrieval_ok: { value: 0.95 - i * 0.005, n: 200 } },
    }));
    const { tree, markdown } = render(makeComparison(), { trend: { history: { version: 1, runs }, head: { retrieval_ok: 0.9 } } });
    const at = tree.children.findIndex((n) => plain(n) === 'Trend on the base branch');
    expect(at).toBeGreaterThan(0);
    const chart = tree.children[at + 1] as { type: string; lang: string; value: string };
    expect(chart).toMatchObject({ type: 'code', lang: 'mermaid' });
    expect(chart.value).toContain('line [95.0, 94.5, 94.0, 93.5, 93.0, 92.5, 92.0, 91.5, 91.0, 90.5, 90.0]');
    expect(plain(tree.children[at + 2]!)).toMatch(/^Retrieval ok \(hit@5\) has fallen 5\.0 points over the last 11 runs .*a significant decline\.$/);
    expect(markdown).toContain('```mermaid\nxychart-beta');
    expect(renderComment(makeComparison(), OPTIONS)).not.toContain('Trend on the base branch');
  });
});
