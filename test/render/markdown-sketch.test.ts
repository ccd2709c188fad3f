/**
 * The sketch scenario of comparison-fixture.ts as the Markdown a reader gets, line for line, rendered inside each
 * test (a mutation run activates its mutant per test, so a render made while the tests are collected cannot catch
 * one). The numbers are worked in the comments; markdown.test.ts checks the same scenario on the parsed tree.
 */
import { describe, expect, it } from 'vitest';
import { change, makeComparison } from './comparison-fixture.js';
import { block, linesBetween, renderBody } from './comparison-variants.js';

describe('renderComment: the sketch scenario, line for line', () => {
  it('opens with the verdict, its evidence, the power of the other gated test and the causes', () => {
    const markdown = renderBody(makeComparison(), { marker: 'rag-gate:default' });
    expect(markdown.split('\n\n').slice(0, 6)).toEqual([
      '<!-- rag-gate:default -->',
      '### ❌ rag-gate: retrieval regressed significantly',
      // ok 155/170 = 91.2% → 141/170 = 82.9%; 18 discordant: p = 2·(1 + 18 + 153)/2^18 = 0.0013, Holm × 2 = 0.0026.
      '- **Questions with a gold document in the top 5: 91.2% → 82.9%**: 16 questions lost their gold document, 2 gained it (p = 0.0026).',
      'This check fails. (p: exact McNemar, Holm-adjusted across 2 gated tests; α = 0.05.)',
      // right 138/200 → 129/200; 21 discordant, 6 fixed: p = 0.0784 (its Holm p, max(0.0784, 0.0026), is the same);
      // n = (1.96·√ψ + 0.8416·√(ψ − δ²))²/δ² with ψ = 21/200, δ = 9/200: 404.6, about 405; a 4.5-point drop.
      'End-to-end correctness 0.690 → 0.645 is not significant yet (p = 0.0784): with this discordance about 405 paired questions would be needed to tell a 4.5-point drop from noise.',
      // 11 of the 15 regressions are retrieval's: more than half of them, so in bold.
      '15 questions regressed: **11 because retrieval lost the gold document**, 4 because the answer got worse with the same or better retrieval. 6 questions went from wrong to right.',
    ]);
  });

  it('gives the gated tests a row with their Holm p and role, and folds the others, the repeats of the gated drop named', () => {
    const markdown = renderBody(makeComparison());
    // Δ of the rates: hit@5 −14/170, correct −9/200, generation −2/139, refusal 0/30; their intervals are the
    // fixture's bootstrap intervals (markdown.test.ts works the first). Exact p: generation 2·(1 + 6 + 15)/2^6 =
    // 0.6875, refusal 1. The graded tests are the fixture's numbers; recall@5 and ndcg@10 are significant drops,
    // retrieval metrics beside the failing retrieval gate: its drop again, so folded with the tests that did not move.
    const header = ['| metric | base | head | Δ (95% CI) | p | Holm p | gate |', '| :- | -: | -: | -: | -: | -: | :- |'];
    expect(block(markdown, '| metric |')).toBe(
      [
        ...header,
        '| hit\\@5 — retrieval ok | 0.912 | 0.829 | −0.082 (−0.135, −0.035) | 0.0013 | 0.0026 | ❌ gate |',
        '| correct — end to end | 0.690 | 0.645 | −0.045 (−0.090, 0.000) | 0.0784 | 0.0784 | gate, not significant |',
      ].join('\n'),
    );
    expect(
      linesBetween(
        markdown,
        '<details><summary>5 more metrics: 2 measure the gated retrieval drop again, 3 did not change significantly</summary>',
        '</details>',
      ),
    ).toBe(
      [
        '<details><summary>5 more metrics: 2 measure the gated retrieval drop again, 3 did not change significantly</summary>',
        '',
        ...header,
        '| correct with retrieval ok — generation | 0.748 | 0.734 | −0.014 (−0.050, +0.022) | 0.6875 | | report |',
        '| refusals on unanswerable | 0.900 | 0.900 | 0.000 (−0.098, +0.098) | 1.0000 | | report |',
        '| ndcg\\@10 | 0.742 | 0.688 | −0.054 (−0.081, −0.027) | 0.0002 | | report, the gated retrieval drop again |',
        '| recall\\@5 | 0.871 | 0.815 | −0.056 (−0.090, −0.022) | 0.0011 | | report, the gated retrieval drop again |',
        '| faithfulness | 0.884 | 0.879 | −0.005 (−0.021, +0.011) | 0.4100 | | report |',
        '',
        '</details>',
      ].join('\n'),
    );
    expect(markdown).toContain("\n\n95% CI of Δ: percentile bootstrap (100 pairs or more); Student's t (fewer than 100 pairs).\n\n");
  });

  it('folds a 2×2 table for each McNemar test, with the sentence on which p decided', () => {
    const markdown = renderBody(makeComparison());
    const fold = linesBetween(markdown, '<details><summary>McNemar tables</summary>', '</details>');
    // correct: χ² = (|6 − 15| − 1)²/21 = 3.05, exact p 2·P(X ≤ 6 of 21) = 0.0784, odds ratio 6/15 = 0.400.
    expect(fold).toContain(
      [
        '| correct | head right | head wrong |',
        '| - | - | - |',
        '| **base right** | 123 both | **15 broken** |',
        '| **base wrong** | **6 fixed** | 56 both |',
        '',
        'Both right 123, fixed 6, broken 15, both wrong 56; χ² 3.05 (p 0.0809), exact p 0.0784: 21 discordant < 25, so the exact binomial test decides. Odds ratio fixed/broken 0.400 (exact 95% CI 0.127 to 1.09).',
      ].join('\n'),
    );
    // hit@5: χ² = (14 − 1)²/18 = 9.39, odds ratio 2/16 = 0.125.
    expect(fold).toContain(
      [
        '| retrieval_ok (hit\\@5) | head ok | head failed |',
        '| - | - | - |',
        '| **base ok** | 139 both | **16 broken** |',
        '| **base failed** | **2 fixed** | 13 both |',
        '',
        'Both right 139, fixed 2, broken 16, both wrong 13; χ² 9.39 (p 0.0022), exact p 0.0013: 18 discordant < 25, so the exact binomial test decides. Odds ratio fixed/broken 0.125 (exact 95% CI 0.0139 to 0.532).',
      ].join('\n'),
    );
    expect(fold.split('\n').filter((line) => line.startsWith('| - | - | - |'))).toHaveLength(4);
  });

  it('lists the regressed questions, the rescued ones and the fixed ones, and counts the tags', () => {
    const markdown = renderBody(makeComparison());
    expect(
      linesBetween(markdown, '#### Regressed questions (15)', '| `q-0043` Which regions support data residency? `(#43)`<br>lost `auth-0043` | retrieval |'),
    ).toBe(
      [
        '#### Regressed questions (15)',
        '',
        '| question | cause |',
        '| - | - |',
        '| `q-0042` Can I export audit logs to S3? `(#42)`<br>lost `auth-0042` | retrieval |',
        '| `q-0043` Which regions support data residency? `(#43)`<br>lost `auth-0043` | retrieval |',
      ].join('\n'),
    );
    expect(markdown).toContain('\n| `q-0107` Which regions support data residency? `(#107)` | generation |\n');
    expect(markdown).toContain(
      '\n<details><summary>5 more lost their gold document but were still answered right (rescued by the model)</summary>\n\n| question |\n| - |\n| `q-0180` How long are deleted projects kept before purge? `(#180)`<br>lost `auth-0180` |\n',
    );
    expect(markdown).toContain(
      '\n<details><summary>6 questions fixed (wrong in base, right in head)</summary>\n\n| question | cause |\n| - | - |\n| `q-0150` What is the rate limit for the search endpoint? `(#150)` | retrieval: found the gold document |\n',
    );
    expect(markdown).toContain('\n| `q-0152` How do I rotate my API key without downtime? `(#152)` | generation |\n');
    // auth: 8 broken, 3 fixed of 100, 70 right in base: 70.0% → 65.0%; billing 7 and 3: 66.0%.
    expect(linesBetween(markdown, '**By tag**', '| `billing` | 100 | 70.0%\u00a0→\u00a066.0% | 7 | 3 |')).toBe(
      [
        '**By tag**',
        '',
        '| tag | questions | answered right | broken | fixed |',
        '| :- | -: | -: | -: | -: |',
        '| `auth` | 100 | 70.0%\u00a0→\u00a065.0% | 8 | 3 |',
        '| `billing` | 100 | 70.0%\u00a0→\u00a066.0% | 7 | 3 |',
      ].join('\n'),
    );
  });

  it('folds the decomposition with the warning that r moved', () => {
    const markdown = renderBody(makeComparison());
    const fold = linesBetween(markdown, '<details><summary>Where the errors come from (decomposition)</summary>', '</details>');
    // 155 of 170 answerable questions had retrieval ok in base, 141 in head.
    expect(fold).toContain('\n| | base | head |\n| :- | -: | -: |\n| r = P(retrieval ok) | 0.912 (155/170) | 0.829 (141/170) |\n');
    expect(fold).toContain(
      '\n⚠️ r moved significantly, so g_good and g_bad were measured on different sets of questions and cannot be compared alone. The paired causes are the reliable reading: of the regressions, 11 lost the gold document and 4 got a worse answer with the same or better retrieval; of the fixes, 2 came from retrieval and 4 from generation.\n',
    );
    expect(renderBody(makeComparison({ retrievalShifted: false }))).not.toContain('r moved significantly');
  });

  it('ends with the baseline, the counts, the report link and the workflow run', () => {
    const markdown = renderBody(makeComparison(), {
      baseline: '`main` at `abc1234` (merge-base), run #1234, 2 hours old',
      reportLink: 'full JSON: the `report-json` output',
      runUrl: 'https://github.com/octo/shop/actions/runs/5000',
    });
    expect(markdown.trimEnd().split('\n').at(-1)).toBe(
      'Baseline: `main` at `abc1234` (merge-base), run `#1234`, 2 hours old · 200 paired questions, 0 missing (counted as failed), 0 added, 0 removed, 0 relabelled · α = 0.05, Holm-adjusted across 2 gated tests · full JSON: the `report-json` output · [workflow run](https://github.com/octo/shop/actions/runs/5000)',
    );
  });
});

describe('renderComment: documents and the judge', () => {
  it('names 3 lost documents and counts the rest, then what took their place', () => {
    // Base's top held d1 and x; head's top holds x and four documents base's lacked.
    const regression = change(42, 'retrieval', {
      lostDocuments: ['d1', 'd2', 'd3', 'd4', 'd5'],
      evidence: { base: { top: ['d1', 'x'] }, head: { top: ['x', 'n1', 'n2', 'n3', 'n4'] } },
    });
    const markdown = renderBody(makeComparison({ regressions: [regression], fixed: [] }));
    expect(markdown).toContain(
      '\n| `q-0042` Can I export audit logs to S3? `(#42)`<br>lost `d1`, `d2`, `d3` and 2 more · in its place `n1`, `n2`, `n3` and 1 more | retrieval |\n',
    );
  });

  it('says which judge filled the judged metrics and how it was calibrated, before the footer', () => {
    const judges = [
      {
        field: 'correct' as const,
        allowed: true,
        judges: [
          {
            model: 'gpt-4o',
            promptVersion: 'v2',
            allowed: true,
            verdict: { kind: 'calibrated' as const, kappa: 0.81, n: 120, floor: 0.6, date: '2026-01-01' },
          },
        ],
      },
    ];
    const markdown = renderBody(makeComparison({ judges }));
    expect(markdown).toContain('\n\n**Judge**: judge `gpt-4o` (`v2`) is calibrated: kappa 0.810 on n = 120 (floor 0.6, 2026-01-01)\n\n200 paired questions,');
    expect(renderBody(makeComparison())).not.toContain('**Judge**');
  });
});
