import type { Nodes, Parent, Root } from 'mdast';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { gfm } from 'micromark-extension-gfm';
import { describe, expect, it } from 'vitest';
import { type BaselineProblem, baselineProblemBrief, baselineProblemContent, baselineProblemText } from '../../src/render/baseline-problem.js';
import { commitStatusDescription, STATUS_DESCRIPTION_MAX } from '../../src/render/commit-status.js';
import { serialise } from '../../src/render/mdast.js';

const RUN = { id: 1011, url: 'https://github.com/octo/shop/actions/runs/1011' };

function problem(overrides: Partial<BaselineProblem>): BaselineProblem {
  return { kind: 'api-failed', step: 'list-artifacts', run: RUN, artifact: 'rag-gate-results', baseRef: 'main', detail: 'Server Error', ...overrides };
}

function all(node: Nodes): Nodes[] {
  return [node, ...('children' in node ? (node as Parent).children.flatMap((child) => all(child as Nodes)) : [])];
}

function commentTree(value: BaselineProblem): Root {
  const markdown = serialise({ type: 'root', children: baselineProblemContent(value) });
  return fromMarkdown(markdown, { extensions: [gfm()], mdastExtensions: [gfmFromMarkdown()] });
}

describe('a broken baseline in words', () => {
  it.each<[BaselineProblem['kind'], RegExp]>([
    ['forbidden', /Fix: add actions: read under permissions:/],
    ['timeout', /Fix: re-run this job, or raise api-timeout-seconds/],
    ['api-failed', /Fix: re-run this job\./],
    ['corrupt-artifact', /Fix: re-run the base branch's workflow \(run 1011\) so that it uploads the artifact again/],
    [
      'no-results-file',
      /Fix: in the base branch's workflow, upload the results file under the artifact name rag-gate-results \(actions\/upload-artifact with name: rag-gate-results and path: the results file\), then re-run it \(run 1011\)/,
    ],
    ['invalid-results', /Fix: fix the results the base branch writes and re-run its workflow \(run 1011\)/],
  ])('%s: names the run by its URL, and the fix', (kind, fix) => {
    const text = baselineProblemText(problem({ kind, timeoutSeconds: 30 }));
    expect(text).toMatch(/^could not read the base branch's results: /);
    expect(text).toContain('(run https://github.com/octo/shop/actions/runs/1011)');
    expect(text).toContain('rag-gate-results');
    expect(text).toMatch(fix);
  });

  it('keeps untrusted detail in code spans: no link, HTML, heading or mention of its own', () => {
    const hostile = '@mallory <img src=x onerror=alert(1)> [click](https://evil.example) https://evil.example/x\n# heading\n::error::injected';
    const tree = commentTree(problem({ kind: 'invalid-results', step: 'read-results', detail: hostile }));
    const nodes = all(tree);
    expect(nodes.filter((node) => node.type === 'html' || node.type === 'heading')).toEqual([]);
    expect(nodes.flatMap((node) => (node.type === 'link' ? [node.url] : []))).toEqual([RUN.url]);
    const code = nodes.flatMap((node) => (node.type === 'inlineCode' ? [node.value] : []));
    expect(code).toEqual(
      expect.arrayContaining(['@mallory <img src=x onerror=alert(1)> [click](https://evil.example) https://evil.example/x', '# heading', '::error::injected']),
    );
    for (const node of nodes) if (node.type === 'text') expect(node.value).not.toMatch(/mallory|evil|injected/);
  });

  it('an artifact without a results file: what it holds, each name in a code span, and the fix', () => {
    const value = problem({ kind: 'no-results-file', step: 'unpack', detail: 'logs/run.log\n@mallory #1 [x](https://evil.example)' });
    expect(baselineProblemText(value)).toBe(
      "could not read the base branch's results: artifact rag-gate-results of run 1011 holds no results file (no .jsonl, .ndjson or .json file but the run history) (run https://github.com/octo/shop/actions/runs/1011). Fix: in the base branch's workflow, upload the results file under the artifact name rag-gate-results (actions/upload-artifact with name: rag-gate-results and path: the results file), then re-run it (run 1011).\nIt holds: logs/run.log\n@mallory #1 [x](https://evil.example)",
    );
    const nodes = all(commentTree(value));
    expect(nodes.flatMap((node) => (node.type === 'inlineCode' ? [node.value] : []))).toEqual(
      expect.arrayContaining(['rag-gate-results', 'logs/run.log', '@mallory #1 [x](https://evil.example)']),
    );
    expect(nodes.flatMap((node) => (node.type === 'link' ? [node.url] : []))).toEqual([RUN.url]);
    for (const node of nodes) if (node.type === 'text') expect(node.value).not.toMatch(/mallory|evil/);
    expect(nodes.some((node) => node.type === 'text' && node.value.includes('It holds:'))).toBe(true);
  });

  it('shows the first problems of a long list and counts the rest', () => {
    const detail = Array.from({ length: 8 }, (_, i) => `rag-gate-results/results.jsonl:${i + 1}: id: is required`).join('\n');
    const code = all(commentTree(problem({ kind: 'invalid-results', detail }))).flatMap((node) => (node.type === 'inlineCode' ? [node.value] : []));
    expect(code.filter((value) => value.includes('results.jsonl:'))).toEqual(detail.split('\n').slice(0, 5));
    expect(serialise({ type: 'root', children: baselineProblemContent(problem({ kind: 'invalid-results', detail })) })).toContain(
      '… and 3 more in the job log',
    );
  });
});

describe('commit status descriptions', () => {
  it('fit in 140 characters, cut with an ellipsis and never inside a surrogate pair', () => {
    for (const pad of [0, 1, 2, 3]) {
      const reason = `${'x'.repeat(120 + pad)}${'🙂'.repeat(20)}`;
      const description = commitStatusDescription({ kind: 'not-compared', cause: { kind: 'no-baseline', reason, fails: false } });
      expect(description.length).toBeLessThanOrEqual(STATUS_DESCRIPTION_MAX);
      expect(description.endsWith('…')).toBe(true);
      expect(description).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/);
    }
  });

  it('say why nothing was compared, in plain text', () => {
    expect(commitStatusDescription({ kind: 'not-compared', cause: { kind: 'no-baseline', reason: 'no run on `main`', fails: true } })).toBe(
      'no baseline: no run on main',
    );
    const broken = problem({ kind: 'forbidden', step: 'list-runs', status: 403 });
    expect(commitStatusDescription({ kind: 'not-compared', cause: { kind: 'baseline-error', problem: broken, fails: true } })).toBe(
      baselineProblemBrief(broken),
    );
    expect(commitStatusDescription({ kind: 'stopped', badInput: true })).toBe('bad input: see the job log');
  });

  it.each<BaselineProblem['kind']>(['forbidden', 'timeout', 'api-failed', 'corrupt-artifact', 'no-results-file', 'invalid-results'])(
    'a %s baseline fits',
    (kind) => {
      expect(
        commitStatusDescription({
          kind: 'not-compared',
          cause: { kind: 'baseline-error', problem: problem({ kind, artifact: 'a'.repeat(100) }), fails: false },
        }).length,
      ).toBeLessThanOrEqual(STATUS_DESCRIPTION_MAX);
    },
  );
});
