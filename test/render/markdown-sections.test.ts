/**
 * The comment's sections that the sketch scenario leaves out, each compared line for line with what a reader must
 * see: flaky questions of repeated runs, questions missing from head, the retrieval regressions the model rescued,
 * answers, documents and trace links in a question's cell, warnings and tags beyond what is shown, the scoring line,
 * the decomposition and the footer's counts and links.
 */
import { describe, expect, it } from 'vitest';
import type { Comparison, QuestionEvidence, TagChange, TagOutcome } from '../../src/core/compare/types.js';
import { decompose, type DecompositionWarning } from '../../src/core/scoring/decomposition.js';
import {
  change,
  makeComparison,
  makePassingComparison,
  mcnemarTest,
  randomizationTest,
  RETRIEVAL_DROP,
  retrievalRegression,
  tagChangesOf,
} from './comparison-fixture.js';
import { block, flakyQuestions, linesBetween, missingQuestion, renderBody, repeatSummary } from './comparison-variants.js';

const FLAKY_NOTE =
  'A flaky question is one whose outcome differs across its runs: it flips between any two runs by luck, which the pass-rate test and the noise floor account for.';

/** The table rows of flaky questions `f-<from>`… as flakyQuestions makes them: correct 1/5, 2/5, 3/5, 4/5, 1/5, … */
const flakyRows = (from: number, count: number) =>
  Array.from({ length: count }, (_, k) => `| \`f-${from + k}\` Flaky question ${from + k}? | correct ${1 + ((from + k) % 4)}/5 |`);

describe('renderComment: flaky questions of repeated runs', () => {
  it('folds each repeated run: its flaky rate, its first 10 flaky questions and a count of the rest', () => {
    // Base: 12 of 40 flaky (0.300), 10 shown and 2 counted; head: exactly 10 of 40 (0.250), all shown, none counted.
    const flaky = {
      base: repeatSummary({ metric: 'correct', repeated: 40, flaky: 12 }, flakyQuestions(12)),
      head: repeatSummary({ metric: 'correct', repeated: 40, flaky: 10 }, flakyQuestions(10, 100)),
    };
    const markdown = renderBody(makeComparison({ flaky }));
    expect(linesBetween(markdown, '<details><summary>Flaky questions in base and head</summary>', '</details>')).toBe(
      [
        '<details><summary>Flaky questions in base and head</summary>',
        '',
        '**Base**: flaky questions: 12 of 40 on correct (0.300).',
        '',
        '| question | passes |',
        '| - | - |',
        ...flakyRows(0, 10),
        '',
        '… and 2 more in the JSON report.',
        '',
        '**Head**: flaky questions: 10 of 40 on correct (0.250).',
        '',
        '| question | passes |',
        '| - | - |',
        ...flakyRows(100, 10),
        '',
        FLAKY_NOTE,
        '',
        '</details>',
      ].join('\n'),
    );
  });

  it('shows only the run that was repeated, and no table when none of its questions was flaky', () => {
    const flaky = { base: null, head: repeatSummary({ metric: 'correct', repeated: 40, flaky: 0 }, []) };
    const markdown = renderBody(makeComparison({ flaky }));
    expect(linesBetween(markdown, '<details><summary>Flaky questions in base and head</summary>', '</details>')).toBe(
      [
        '<details><summary>Flaky questions in base and head</summary>',
        '',
        '**Head**: flaky questions: 0 of 40 on correct (0.000).',
        '',
        FLAKY_NOTE,
        '',
        '</details>',
      ].join('\n'),
    );
  });

  it('has no flaky section when neither run was repeated', () => {
    expect(renderBody(makeComparison({ flaky: { base: null, head: null } }))).not.toContain('Flaky questions');
    expect(renderBody(makeComparison())).not.toContain('Flaky questions');
  });
});

describe('renderComment: questions missing from head', () => {
  const missing = [
    missingQuestion(1, true, true),
    missingQuestion(2, false, false),
    missingQuestion(3, null, true),
    missingQuestion(4, false, null),
    missingQuestion(5, null, false),
    missingQuestion(6, true, null),
    missingQuestion(7, null, null),
  ];

  it("lists them first, counted as failed, each with the base's outcomes it carried", () => {
    const markdown = renderBody(makeComparison({ missing }), { traceUrl: 'https://t.example/{id}' });
    expect(linesBetween(markdown, '#### Missing from head: counted as failed (7)', '| `m-7` Missing question 7? · [trace](https://t.example/m-7) | — |')).toBe(
      [
        '#### Missing from head: counted as failed (7)',
        '',
        '| question | in base |',
        '| - | - |',
        '| `m-1` Missing question 1? · [trace](https://t.example/m-1) | right, retrieval ok |',
        '| `m-2` Missing question 2? · [trace](https://t.example/m-2) | wrong, retrieval failed |',
        '| `m-3` Missing question 3? · [trace](https://t.example/m-3) | retrieval ok |',
        '| `m-4` Missing question 4? · [trace](https://t.example/m-4) | wrong |',
        '| `m-5` Missing question 5? · [trace](https://t.example/m-5) | retrieval failed |',
        '| `m-6` Missing question 6? · [trace](https://t.example/m-6) | right |',
        '| `m-7` Missing question 7? · [trace](https://t.example/m-7) | — |',
      ].join('\n'),
    );
    // The missing list comes before the regressed questions, and the footer counts it.
    expect(markdown.indexOf('#### Missing from head')).toBeLessThan(markdown.indexOf('#### Regressed questions (15)'));
    expect(markdown).toContain('\n200 paired questions, 7 missing (counted as failed), 0 added, 0 removed, 0 relabelled ·');
  });

  it('folds all but the first 10 of more than 20 missing questions', () => {
    const many = Array.from({ length: 1_200 }, (_, k) => missingQuestion(k, false, null));
    const markdown = renderBody(makePassingComparison({ missing: many }));
    expect(markdown).toContain('\n#### Missing from head: counted as failed (1,200)\n');
    expect(markdown).toContain('\n<details><summary>the other 1,190 missing questions</summary>\n');
    expect(markdown).toContain('\n| `m-1199` Missing question 1199? | wrong |\n');
  });

  it('has no missing list when nothing is missing', () => {
    expect(renderBody(makeComparison())).not.toContain('Missing from head');
  });
});

describe('renderComment: a question cell', () => {
  const evidence: QuestionEvidence = {
    expectedAnswer: 'Expected.',
    base: { answer: 'Base says.', top: ['a', 'b'], traceUrl: 'https://b.example/1' },
    head: { answer: 'Head says.', top: ['b', 'a'], traceUrl: 'https://h.example/1' },
  };
  const regressions = [
    change(42, 'retrieval', { evidence, correctRuns: { base: { passes: 5, runs: 5 }, head: { passes: 1, runs: 5 } } }),
    change(43, 'retrieval', { lostDocuments: [] }),
    change(44, 'unknown', { evidence: { expectedAnswer: 'Only expected.' } }),
    change(45, 'generation', { evidence: { base: { answer: 'Base only.' }, head: { answer: 'Head only.' } } }),
  ];
  const rescued = { ...retrievalRegression(change(180, 'retrieval'), true), evidence: { base: { answer: 'B.' }, head: { answer: 'H.' } } };
  const comparison = makeComparison({
    regressions,
    fixed: [],
    retrievalRegressions: [
      ...regressions.filter((r) => r.cause === 'retrieval').map((r) => retrievalRegression(r, false)),
      rescued,
      retrievalRegression(change(181, 'retrieval'), false),
      retrievalRegression(change(182, 'retrieval'), true),
    ],
  });
  // Rendered in each test, never while the tests are collected: a mutation run activates its mutant per test.
  const rendered = () => renderBody(comparison);

  it('adds a runs column when questions ran several times, blank for a question without counts', () => {
    const markdown = rendered();
    expect(
      linesBetween(
        markdown,
        '#### Regressed questions (4)',
        '| `q-0045` Does SSO work with Okta SCIM provisioning? `(#45)`' + HEAD_ONLY_FOLD + ' | | generation |',
      ),
    ).toBe(
      [
        '#### Regressed questions (4)',
        '',
        '| question | runs | cause |',
        '| - | - | - |',
        // Own trace links of both sides; lost `auth-0042`, and head's top holds no document base's lacked.
        "| `q-0042` Can I export audit logs to S3? `(#42)` · [base trace](https://b.example/1) · [head trace](https://h.example/1)<br>lost `auth-0042` · head's top `b`, `a`" +
          '<details><summary>answers side by side</summary>**expected**: Expected.<br>**base** (right): Base says.<br>**head** (wrong): Head says.</details>' +
          ' | correct in 1/5 head runs vs 5/5 base runs | retrieval |',
        // A retrieval regression whose lost documents were not named.
        '| `q-0043` Which regions support data residency? `(#43)`<br>lost the gold document | | retrieval |',
        // The expected answer alone: both answers shown as a dash.
        '| `q-0044` How long are deleted projects kept before purge? `(#44)`' +
          '<details><summary>answers side by side</summary>**expected**: Only expected.<br>**base** (right): —<br>**head** (wrong): —</details>' +
          ' | | unknown (no retrieval outcome) |',
        '| `q-0045` Does SSO work with Okta SCIM provisioning? `(#45)`' + HEAD_ONLY_FOLD + ' | | generation |',
      ].join('\n'),
    );
  });

  it('folds the retrieval regressions that were not all rescued with each answer: still right or wrong', () => {
    const markdown = rendered();
    // 3 retrieval regressions beyond the regressed questions, 2 of them still answered right.
    expect(linesBetween(markdown, '<details><summary>3 more lost their gold document (2 still answered right)</summary>', '</details>')).toBe(
      [
        '<details><summary>3 more lost their gold document (2 still answered right)</summary>',
        '',
        '| question | answer |',
        '| - | - |',
        '| `q-0180` How long are deleted projects kept before purge? `(#180)`<br>lost `auth-0180`' +
          '<details><summary>answers side by side</summary>**base**: B.<br>**head** (still right): H.</details> | still right |',
        '| `q-0181` Does SSO work with Okta SCIM provisioning? `(#181)`<br>lost `auth-0181` | wrong |',
        '| `q-0182` What is the rate limit for the search endpoint? `(#182)`<br>lost `auth-0182` | still right |',
        '',
        '</details>',
      ].join('\n'),
    );
  });

  it('says wrong in the answers of a retrieval regression that was not rescued, and no outcome when no question carries correctness', () => {
    const lost = { ...retrievalRegression(change(181, 'retrieval'), false), evidence: { base: { answer: 'B.' }, head: { answer: 'H.' } } };
    const withCorrect = renderBody(makeComparison({ retrievalRegressions: [rescued, lost] }));
    expect(withCorrect).toContain(
      '\n| `q-0181` Does SSO work with Okta SCIM provisioning? `(#181)`<br>lost `auth-0181`<details><summary>answers side by side</summary>**base**: B.<br>**head** (wrong): H.</details> | wrong |\n',
    );
    const retrievalOnly = makeComparison({
      tests: [mcnemarTest('retrieval_ok', { fixed: 2, broken: 16, bothRight: 139, bothWrong: 13 })],
      regressions: [],
      fixed: [],
      retrievalRegressions: [lost],
    });
    expect(renderBody(retrievalOnly)).toContain(
      '\n| `q-0181` Does SSO work with Okta SCIM provisioning? `(#181)`<br>lost `auth-0181`<details><summary>answers side by side</summary>**base**: B.<br>**head**: H.</details> |\n',
    );
  });
});

describe('renderComment: the lists when no question carries correctness', () => {
  it('lists the retrieval regressions without an answer column, folding all but 10 of more than 20', () => {
    const lost = Array.from({ length: 25 }, (_, k) => retrievalRegression(change(42 + k, 'retrieval'), k % 2 === 0));
    const fixed = [change(150, 'retrieval', { evidence: { base: { answer: 'Was wrong.' }, head: { answer: 'Now right.' } } })];
    const comparison = makeComparison({
      tests: [mcnemarTest('retrieval_ok', { fixed: 2, broken: 16, bothRight: 139, bothWrong: 13 })],
      regressions: [],
      fixed,
      retrievalRegressions: lost,
    });
    const markdown = renderBody(comparison);
    expect(linesBetween(markdown, '#### Questions that lost their gold document (25)', '<details><summary>the other 15 questions</summary>')).toBe(
      [
        '#### Questions that lost their gold document (25)',
        '',
        '| question |',
        '| - |',
        ...Array.from({ length: 10 }, (_, k) => `| \`q-00${42 + k}\` ${QUESTION_TEXTS[(42 + k) % 8]} \`(#${42 + k})\`<br>lost \`auth-00${42 + k}\` |`),
        '',
        '<details><summary>the other 15 questions</summary>',
      ].join('\n'),
    );
    // A fixed question: wrong in base, right in head, found by retrieval.
    expect(markdown).toContain(
      '\n| `q-0150` What is the rate limit for the search endpoint? `(#150)`<details><summary>answers side by side</summary>**base** (wrong): Was wrong.<br>**head** (right): Now right.</details> | retrieval: found the gold document |\n',
    );
  });
});

/** The question texts of comparison-fixture.ts, question i being the (i mod 8)-th. */
const QUESTION_TEXTS = [
  'How do I rotate my API key without downtime?',
  'What is the refund window for enterprise annual plans purchased through a reseller?',
  'Can I export audit logs to S3?',
  'Which regions support data residency?',
  'How long are deleted projects kept before purge?',
  'Does SSO work with Okta SCIM provisioning?',
  'What is the rate limit for the search endpoint?',
  'How do I reset two-factor authentication for a user?',
];

describe('renderComment: list limits', () => {
  const generation = (n: number) => Array.from({ length: n }, (_, k) => change(100 + k, 'generation'));

  it('keeps a list of exactly 20 questions open, and folds all but 10 of 21', () => {
    const twenty = renderBody(makeComparison({ regressions: generation(20), fixed: [] }));
    expect(block(twenty, '| question | cause |').split('\n')).toHaveLength(2 + 20);
    expect(twenty).not.toContain('the other');
    const markdown = renderBody(makeComparison({ regressions: generation(21), fixed: [] }));
    expect(block(markdown, '| question | cause |').split('\n')).toHaveLength(2 + 10);
    expect(markdown).toContain('\n<details><summary>the other 11 regressed questions</summary>\n');
  });

  it('names exactly 3 lost documents without a count', () => {
    const regression = change(42, 'retrieval', { lostDocuments: ['d1', 'd2', 'd3'] });
    expect(renderBody(makeComparison({ regressions: [regression], fixed: [] }))).toContain(
      '\n| `q-0042` Can I export audit logs to S3? `(#42)`<br>lost `d1`, `d2`, `d3` | retrieval |\n',
    );
  });

  it('says "was" of a single rescued retrieval regression', () => {
    const regressions = [change(42, 'retrieval')];
    const retrievalRegressions = [retrievalRegression(regressions[0]!, false), retrievalRegression(change(180, 'retrieval'), true)];
    expect(renderBody(makeComparison({ regressions, fixed: [], retrievalRegressions }))).toContain(
      '\n<details><summary>1 more lost their gold document but was still answered right (rescued by the model)</summary>\n\n| question |\n| - |\n| `q-0180` How long are deleted projects kept before purge? `(#180)`<br>lost `auth-0180` |\n',
    );
  });
});

describe('renderComment: partial evidence and trace links', () => {
  it('shows what one side of the evidence holds: documents, answers', () => {
    const regressions = [
      // Only head's top is known: all of it is new.
      change(42, 'retrieval', { evidence: { head: { top: ['n1'] } } }),
      // Only base's top is known: nothing to say of head.
      change(43, 'retrieval', { evidence: { base: { top: ['auth-0043'] } } }),
      change(44, 'generation', { evidence: { base: { answer: 'Only base.' } } }),
      change(45, 'generation', { evidence: { head: { answer: 'Only head.' } } }),
    ];
    const markdown = renderBody(makeComparison({ regressions, fixed: [] }));
    expect(block(markdown, '| question | cause |')).toBe(
      [
        '| question | cause |',
        '| - | - |',
        '| `q-0042` Can I export audit logs to S3? `(#42)`<br>lost `auth-0042` · in its place `n1` | retrieval |',
        '| `q-0043` Which regions support data residency? `(#43)`<br>lost `auth-0043` | retrieval |',
        '| `q-0044` How long are deleted projects kept before purge? `(#44)`<details><summary>answers side by side</summary>**base** (right): Only base.<br>**head** (wrong): —</details> | generation |',
        '| `q-0045` Does SSO work with Okta SCIM provisioning? `(#45)`<details><summary>answers side by side</summary>**base** (right): —<br>**head** (wrong): Only head.</details> | generation |',
      ].join('\n'),
    );
    // No fixed question, no fold for them.
    expect(markdown).not.toContain('questions fixed');
  });

  it('has no fold of other retrieval regressions when every one is a regressed question', () => {
    const regressions = [change(42, 'retrieval'), change(43, 'generation')];
    const markdown = renderBody(makeComparison({ regressions, fixed: [], retrievalRegressions: [retrievalRegression(regressions[0]!, false)] }));
    expect(markdown).toContain('\n#### Regressed questions (2)\n');
    expect(markdown).not.toContain('more lost their gold document');
  });

  it("links a record's own trace rather than the template's, and no template that is not http(s)", () => {
    const regressions = [change(42, 'generation', { evidence: { head: { traceUrl: 'https://h.example/42' } } }), change(43, 'generation')];
    const markdown = renderBody(makeComparison({ regressions, fixed: [], retrievalRegressions: [] }), { traceUrl: 'https://t.example/{id}' });
    expect(block(markdown, '| question | cause |')).toBe(
      [
        '| question | cause |',
        '| - | - |',
        '| `q-0042` Can I export audit logs to S3? `(#42)` · [head trace](https://h.example/42) | generation |',
        '| `q-0043` Which regions support data residency? `(#43)` · [trace](https://t.example/q-0043) | generation |',
      ].join('\n'),
    );
    const unsafe = renderBody(makeComparison({ regressions, fixed: [], retrievalRegressions: [] }), { traceUrl: 'javascript:alert("{id}")' });
    expect(unsafe).toContain('\n| `q-0043` Which regions support data residency? `(#43)` | generation |\n');
  });
});

describe('renderComment: a comment exactly as long as the limit', () => {
  it('is left whole', () => {
    const full = renderBody(makeComparison());
    expect(renderBody(makeComparison(), { maxLength: full.length })).toBe(full);
    expect(renderBody(makeComparison(), { maxLength: full.length - 1 })).toContain('… and 1 more; see the full JSON report');
  });
});

describe('renderComment: a comment too long for any question row', () => {
  it('cuts every list to its count, with no empty table left', () => {
    // 2,000 characters cannot hold even the verdict and the tests table, so every list is cut to nothing.
    const markdown = renderBody(makeComparison(), { maxLength: 2_000 });
    expect(linesBetween(markdown, '#### Regressed questions (15)', '</details>')).toBe(
      [
        '#### Regressed questions (15)',
        '',
        '… and 15 more; see the full JSON report',
        '',
        '<details><summary>5 more lost their gold document but were still answered right (rescued by the model)</summary>',
        '',
        '… and 5 more; see the full JSON report',
        '',
        '</details>',
      ].join('\n'),
    );
    expect(linesBetween(markdown, '<details><summary>6 questions fixed (wrong in base, right in head)</summary>', '</details>')).toBe(
      ['<details><summary>6 questions fixed (wrong in base, right in head)</summary>', '', '… and 6 more; see the full JSON report', '', '</details>'].join(
        '\n',
      ),
    );
    expect(markdown).toContain('\n**By tag**\n\n… and 2 more; see the full JSON report\n');
    expect(markdown).not.toContain('| question');
    expect(markdown).not.toContain('| tag');
  });
});

/** The answers of q-0045: no expected answer, so the fold starts with base. */
const HEAD_ONLY_FOLD = '<details><summary>answers side by side</summary>**base** (right): Base only.<br>**head** (wrong): Head only.</details>';

describe('renderComment: warnings', () => {
  const untestable = (n: number) => Array.from({ length: n }, () => ({ kind: 'gate-untestable' as const, gate: 'generation' as const }));
  const withHeadWarnings = (comparison: Comparison, warnings: DecompositionWarning[]): Comparison => ({
    ...comparison,
    decomposition: { ...comparison.decomposition, head: { ...comparison.decomposition.head, warnings } },
  });
  const UNTESTABLE = '- cannot gate generation: no paired question carries its outcome in both runs';

  it("lists the gate's warnings, 20 at most and a count of the rest", () => {
    const markdown = renderBody(makeComparison({ warnings: untestable(21) }));
    expect(linesBetween(markdown, '**Warnings**', '- … and 1 more in the JSON report')).toBe(
      ['**Warnings**', '', ...Array.from({ length: 20 }, () => UNTESTABLE), '- … and 1 more in the JSON report'].join('\n'),
    );
  });

  it("words the head decomposition's warnings plainly, in its fold rather than the warnings list", () => {
    const markdown = renderBody(
      withHeadWarnings(makeComparison(), [
        { kind: 'right-without-retrieval', productModelG: 1.18, rightWithoutRetrieval: 12, wrongWithRetrieval: 5 },
        { kind: 'small-split', split: 'bad', n: 1 },
      ]),
    );
    expect(markdown).not.toContain('**Warnings**');
    expect(markdown).not.toContain('misspecified');
    const fold = linesBetween(markdown, '<details><summary>Where the errors come from (decomposition)</summary>', '</details>');
    expect(fold).toContain(
      '⚠️ In head, retrieval and generation do not separate cleanly here: more answers were right with retrieval failed (12 questions) than wrong with retrieval ok (5 questions), so the model often answers without the gold document (from its own knowledge, or another passage that holds the fact). Read g_good and g_bad apart: e2e / r (1.180) is above 1 and says nothing about generation here.',
    );
    expect(fold).toContain('⚠️ In head, g_bad rests on only 1 question: read it as a rough figure.');
  });

  it('words each warning with the retrieval rule and the judges, and has no warnings section without one', () => {
    const drop = RETRIEVAL_DROP;
    const judges = [
      {
        field: 'correct' as const,
        allowed: false,
        judges: [{ model: 'gpt-4o', promptVersion: 'v2', allowed: false, verdict: { kind: 'no-record' as const } }],
      },
    ];
    const warnings: Comparison['warnings'] = [
      { kind: 'drop-below-minimum-effect', minEffect: 0.1, ...drop },
      { kind: 'drop-from-uncalibrated-judge', field: 'correct', ...drop, gate: 'end-to-end', metric: 'correct', base: 0.69, head: 0.6, broken: 20 },
    ];
    const markdown = renderBody(makeComparison({ warnings, judges }));
    expect(block(markdown, '- retrieval dropped')).toBe(
      [
        '- retrieval dropped significantly but by less than the minimum effect 0.1: retrieval ok (hit\\@5) 0.912 → 0.829, 16 broken vs 2 fixed, p = 0.0013, Holm-adjusted 0.0026 < α 0.05',
        '- end-to-end dropped significantly (correct 0.690 → 0.600, 20 broken vs 2 fixed, p = 0.0013, Holm-adjusted 0.0026 < α 0.05), but it does not gate: judge `gpt-4o` (`v2`) is uncalibrated: no calibration record; its metrics are reported but do not gate',
      ].join('\n'),
    );
    expect(renderBody(makeComparison())).not.toContain('**Warnings**');
  });

  it('lists exactly 20 warnings without a count', () => {
    const markdown = renderBody(makeComparison({ warnings: untestable(20) }));
    const list = block(markdown, '- cannot gate generation');
    expect(list).toBe(Array.from({ length: 20 }, () => UNTESTABLE).join('\n'));
  });
});

describe('renderComment: tags', () => {
  /** One regression in each of `n` tags `t-00`, `t-01`, …: every tag moved by one broken answer. */
  function tagged(n: number): Comparison {
    const regressions = Array.from({ length: n }, (_, k) => change(k, 'generation', { tags: [`t-${String(k).padStart(2, '0')}`] }));
    return makeComparison({ regressions, fixed: [], byTag: tagChangesOf(regressions, []) });
  }

  it('counts 50 tags at most, and says how many more are in the report', () => {
    const markdown = renderBody(tagged(51), { reportLink: 'full JSON: the `report-json` output' });
    const body = linesBetween(markdown, '<details><summary>By tag (51 tags moved)</summary>', '</details>');
    // Each tag: 100 questions, 70 right in base, 1 broken: 70.0% → 69.0%.
    expect(body.split('\n').filter((line) => line.startsWith('| `t-'))).toEqual(
      Array.from({ length: 50 }, (_, k) => `| \`t-${String(k).padStart(2, '0')}\` | 100 | 70.0%\u00a0→\u00a069.0% | 1 | 0 |`),
    );
    expect(body).toContain('\n… and 1 more; see the full JSON (full JSON: the `report-json` output)\n');
  });

  it('says "the full JSON report" when the report link is blank', () => {
    expect(renderBody(tagged(51), { reportLink: '  ' })).toContain('\n… and 1 more; see the full JSON report\n');
  });

  it('shows every tag up to 50', () => {
    const markdown = renderBody(tagged(50));
    expect(markdown).toContain('<details><summary>By tag (50 tags moved)</summary>');
    expect(markdown).toContain('\n| `t-49` | 100 | 70.0%\u00a0→\u00a069.0% | 1 | 0 |\n');
    expect(markdown).not.toContain('… and ');
  });

  const outcome = (metric: TagOutcome['metric'], base: number, head: number, broken: number, fixed: number, significant: boolean): TagOutcome => ({
    metric,
    n: 100,
    base,
    head,
    broken,
    fixed,
    pValue: significant ? 0.0001 : 0.5,
    adjustedPValue: significant ? 0.0003 : 1,
    significant,
  });

  it('shows 8 tags open and folds 9', () => {
    expect(renderBody(tagged(8))).toContain('\n**By tag**\n\n| tag |');
    expect(renderBody(tagged(9))).toContain('\n<details><summary>By tag (9 tags moved)</summary>\n\n| tag |');
  });

  it('leaves out the tags none of whose outcomes moved', () => {
    const byTag: TagChange[] = [
      { tag: 'moved', questions: 100, outcomes: [outcome('correct', 0.7, 0.69, 1, 0, false)] },
      // As many broken as fixed on retrieval: still moved.
      { tag: 'balanced', questions: 100, outcomes: [outcome('correct', 0.7, 0.7, 0, 0, false), outcome('retrieval_ok', 0.8, 0.8, 3, 3, false)] },
      { tag: 'still', questions: 100, outcomes: [outcome('correct', 0.7, 0.7, 0, 0, false)] },
    ];
    const markdown = renderBody(makeComparison({ byTag }));
    expect(block(markdown, '| tag |')).toBe(
      [
        '| tag | questions | answered right | broken | fixed | retrieval ok |',
        '| :- | -: | -: | -: | -: | -: |',
        '| `moved` | 100 | 70.0%\u00a0→\u00a069.0% | 1 | 0 | — |',
        '| `balanced` | 100 | 70.0%\u00a0→\u00a070.0% | 0 | 0 | 80.0%\u00a0→\u00a080.0% |',
      ].join('\n'),
    );
    // The tests counted are those of the tags shown: 1 + 2.
    expect(markdown).toContain('across the 3 per-tag McNemar tests.\n');
    expect(renderBody(makeComparison({ byTag: byTag.slice(2) }))).not.toContain('By tag');
  });

  it('adds a retrieval column, a dash where a tag lacks it, and ✅ on a significant gain', () => {
    const byTag: TagChange[] = [
      { tag: 'auth', questions: 100, outcomes: [outcome('correct', 0.5, 0.7, 2, 22, true), outcome('retrieval_ok', 0.8, 0.75, 6, 1, false)] },
      { tag: 'billing', questions: 100, outcomes: [outcome('correct', 0.7, 0.65, 8, 3, false)] },
    ];
    const markdown = renderBody(makeComparison({ byTag }));
    expect(
      linesBetween(
        markdown,
        '**By tag**',
        "Paired questions of each tag, most moved first; broken and fixed count answers. ⚠️ (✅) marks a drop (gain) significant after Holm's correction across the 3 per-tag McNemar tests.",
      ),
    ).toBe(
      [
        '**By tag**',
        '',
        '| tag | questions | answered right | broken | fixed | retrieval ok |',
        '| :- | -: | -: | -: | -: | -: |',
        '| `auth` | 100 | 50.0%\u00a0→\u00a070.0%\u00a0✅ | 2 | 22 | 80.0%\u00a0→\u00a075.0% |',
        '| `billing` | 100 | 70.0%\u00a0→\u00a065.0% | 8 | 3 | — |',
        '',
        "Paired questions of each tag, most moved first; broken and fixed count answers. ⚠️ (✅) marks a drop (gain) significant after Holm's correction across the 3 per-tag McNemar tests.",
      ].join('\n'),
    );
  });

  it("counts each tag's broken and fixed on the first column's outcome, whatever the order of its outcomes", () => {
    const byTag: TagChange[] = [
      // Retrieval listed first: the broken and fixed columns still count answers (1 and 0).
      { tag: 'auth', questions: 100, outcomes: [outcome('retrieval_ok', 0.8, 0.8, 3, 3, false), outcome('correct', 0.7, 0.69, 1, 0, false)] },
      // No correctness outcome: a dash and no counts.
      { tag: 'billing', questions: 100, outcomes: [outcome('retrieval_ok', 0.8, 0.7, 12, 2, false)] },
    ];
    expect(block(renderBody(makeComparison({ byTag })), '| tag |')).toBe(
      [
        '| tag | questions | answered right | broken | fixed | retrieval ok |',
        '| :- | -: | -: | -: | -: | -: |',
        '| `auth` | 100 | 70.0%\u00a0→\u00a069.0% | 1 | 0 | 80.0%\u00a0→\u00a080.0% |',
        '| `billing` | 100 | — | 0 | 0 | 80.0%\u00a0→\u00a070.0% |',
      ].join('\n'),
    );
  });

  it('counts retrievals when no tag carries correctness', () => {
    const byTag: TagChange[] = [{ tag: 'auth', questions: 100, outcomes: [outcome('retrieval_ok', 0.8, 0.7, 12, 2, false)] }];
    const markdown = renderBody(makeComparison({ byTag }));
    expect(block(markdown, '| tag |')).toBe(
      ['| tag | questions | retrieval ok | broken | fixed |', '| :- | -: | -: | -: | -: |', '| `auth` | 100 | 80.0%\u00a0→\u00a070.0% | 12 | 2 |'].join('\n'),
    );
    expect(markdown).toContain(
      "\nPaired questions of each tag, most moved first; broken and fixed count retrievals. ⚠️ (✅) marks a drop (gain) significant after Holm's correction across the 1 per-tag McNemar test.\n",
    );
  });
});

describe('renderComment: the scoring line', () => {
  const RULES = { correctness: { kind: 'contains' }, contextMatch: { kind: 'exact' } } as const;
  const provenance = (over: Partial<Comparison['provenance']['base']>) => ({
    idsFromQuestion: 0,
    retrievalByText: 0,
    correctByRule: 0,
    refusedByDetector: 0,
    formats: ['jsonl' as const],
    scores: {},
    ...over,
  });

  it('states the rules that computed a value and the derivations, joined by dots, under the verdict', () => {
    const comparison = makeComparison({ provenance: { base: provenance({ idsFromQuestion: 5 }), head: provenance({ correctByRule: 3 }) } });
    const markdown = renderBody(comparison, { rules: RULES });
    expect(markdown).toContain(
      '\n**Scoring**: correct: expected answer contained in the answer (computed for 3 questions without a correct field) · ids derived from question text for 5 questions\n',
    );
    expect(markdown.indexOf('**Scoring**')).toBeLessThan(markdown.indexOf('| metric |'));
  });

  it('has no scoring line when nothing was computed or derived, or when no rules are given', () => {
    expect(renderBody(makeComparison(), { rules: RULES })).not.toContain('Scoring');
    const derived = makeComparison({ provenance: { base: provenance({ correctByRule: 3 }), head: provenance({}) } });
    expect(renderBody(derived)).not.toContain('Scoring');
  });
});

describe('renderComment: McNemar tables and the decomposition', () => {
  it('folds a single McNemar table under its singular summary, a test outside the catalog with right and wrong', () => {
    // A true/false score another tool wrote, with no discordant pair: no odds ratio to state.
    const markdown = renderBody(makePassingComparison({ tests: [mcnemarTest('score:flag', { fixed: 0, broken: 0, bothRight: 150, bothWrong: 50 })] }));
    expect(linesBetween(markdown, '<details><summary>McNemar table</summary>', '</details>')).toBe(
      [
        '<details><summary>McNemar table</summary>',
        '',
        '| score:flag (not calibrated here) | head right | head wrong |',
        '| - | - | - |',
        '| **base right** | 150 both | **0 broken** |',
        '| **base wrong** | **0 fixed** | 50 both |',
        '',
        'Both right 150, fixed 0, broken 0, both wrong 50; χ² 0.00 (p 1.0000), exact p 1.0000: no discordant pair, p = 1.',
        '',
        '</details>',
      ].join('\n'),
    );
  });

  it('has no McNemar fold without a binary test, and no interval note without any test', () => {
    const graded = renderBody(makePassingComparison({ tests: [randomizationTest('ndcg@10', { base: 0.742, head: 0.738, ci: [-0.02, 0.012], pValue: 0.52 })] }));
    expect(graded).not.toContain('<details><summary>McNemar');
    // No correct test, so the retrieval regressions are the main list: 3 regressed for retrieval, 3 rescued.
    expect(graded).toContain('\n95% CI of Δ: percentile bootstrap (100 pairs or more).\n\n#### Questions that lost their gold document (6)\n');
    const none = renderBody(makePassingComparison({ tests: [] }));
    expect(none).not.toContain('95% CI of Δ');
    // No test, no metrics table: not even its header.
    expect(none).not.toContain('| metric |');
    expect(none).toContain('\n\n#### Questions that lost their gold document (6)\n');
  });

  it('folds the decomposition when either run has questions, and leaves it out when neither has', () => {
    const empty = decompose([], [], [], []);
    const head = makeComparison().decomposition.head;
    expect(renderBody(makeComparison({ decomposition: { base: empty, head } }))).toContain(
      '\n<details><summary>Where the errors come from (decomposition)</summary>\n',
    );
    const base = makeComparison().decomposition.base;
    expect(renderBody(makeComparison({ decomposition: { base, head: empty } }))).toContain(
      '\n<details><summary>Where the errors come from (decomposition)</summary>\n',
    );
    expect(renderBody(makeComparison({ decomposition: { base: empty, head: empty } }))).not.toContain('Where the errors come from');
  });
});

describe('renderComment: the footer', () => {
  it("links the baseline's run, and counts the excluded and the holdout questions left out", () => {
    const comparison = makeComparison({ excluded: ['x-1', 'x-2'], holdoutLeftOut: ['h-1', 'h-2', 'h-3'] });
    const markdown = renderBody(comparison, { baseline: '`main` at `abc1234`', baselineRunUrl: 'https://github.com/o/r/actions/runs/7' });
    expect(markdown.trimEnd().split('\n').at(-1)).toBe(
      'Baseline: `main` at `abc1234` ([its run](https://github.com/o/r/actions/runs/7)) · 200 paired questions, 0 missing (counted as failed), 0 added, 0 removed, 2 excluded, 0 relabelled' +
        ' · α = 0.05, Holm-adjusted across 2 gated tests · 3 holdout questions not looked at (left out: the holdout is evaluated once, before a release)',
    );
  });

  it('leaves out a blank baseline and a blank report link', () => {
    const markdown = renderBody(makeComparison(), { baseline: '  ', reportLink: ' ', baselineRunUrl: 'https://github.com/o/r/actions/runs/7' });
    expect(markdown.trimEnd().split('\n').at(-1)).toBe(
      '200 paired questions, 0 missing (counted as failed), 0 added, 0 removed, 0 relabelled · α = 0.05, Holm-adjusted across 2 gated tests',
    );
  });

  it('counts 1,000 excluded questions with a thousands separator, and links no run that is not http(s)', () => {
    const excluded = Array.from({ length: 1_000 }, (_, k) => `x-${k}`);
    const markdown = renderBody(makePassingComparison({ excluded }), { baseline: '`main`', baselineRunUrl: 'javascript:alert(1)' });
    expect(markdown.trimEnd().split('\n').at(-1)).toBe(
      'Baseline: `main` · 200 paired questions, 0 missing (counted as failed), 0 added, 0 removed, 1,000 excluded, 0 relabelled · α = 0.05, Holm-adjusted across 2 gated tests',
    );
  });
});
