import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT, runBin, scratchDir } from '../helpers/cli.js';

const scratch = scratchDir();
afterAll(() => scratch.cleanup());

const REFRESH = 'run `node scripts/demo.mjs --update-docs` (or `node examples/pipeline/run.mjs`) and commit the result';

interface Comparison {
  verdict: string;
  tests: { metric: string; fixed: number; broken: number; significant: boolean }[];
  causes: { regressions: { retrieval: number; generation: number } };
  retrievalRegressions: { id: string; rescued: boolean }[];
  retrievalShifted: boolean;
  decomposition: { base: { r: number; gBad: number; nBad: number }; head: { r: number; gBad: number; nBad: number } };
}

describe('the example pipeline', () => {
  it('regenerates examples/base.jsonl and examples/head.jsonl byte for byte', () => {
    const run = spawnSync(process.execPath, [join(ROOT, 'examples', 'pipeline', 'run.mjs'), '--out', scratch.dir], { cwd: ROOT, encoding: 'utf8' });
    expect(run.status, run.stderr).toBe(0);
    for (const name of ['base.jsonl', 'head.jsonl']) {
      const fresh = readFileSync(join(scratch.dir, name), 'utf8');
      const committed = readFileSync(join(ROOT, 'examples', name), 'utf8');
      expect(fresh === committed, `examples/${name} is out of date: ${REFRESH}`).toBe(true);
    }
  });

  it('writes results rag-gate reads without a warning', () => {
    for (const name of ['base.jsonl', 'head.jsonl']) {
      const run = runBin(['eval', '--results', `examples/${name}`, '--json']);
      expect(run.code, run.stderr).toBe(0);
      expect(run.stderr).toBe('');
    }
  });

  it('tells the story: a significant retrieval regression, regressions mostly caused by retrieval, some rescued', () => {
    const run = runBin(['compare', '--base', 'examples/base.jsonl', '--head', 'examples/head.jsonl', '--retrieval-ok', 'recall@5>=1', '--json']);
    expect(run.code, run.stderr).toBe(1);
    const comparison = JSON.parse(run.stdout) as Comparison;
    expect(comparison.verdict).toBe('fail');
    const retrieval = comparison.tests.find((t) => t.metric === 'retrieval_ok');
    expect(retrieval?.significant).toBe(true);
    expect(retrieval!.broken).toBeGreaterThan(retrieval!.fixed);
    expect(comparison.retrievalShifted).toBe(true);
    const { retrieval: byRetrieval, generation } = comparison.causes.regressions;
    expect(byRetrieval).toBeGreaterThan(generation);
    expect(comparison.retrievalRegressions.some((r) => r.rescued)).toBe(true);
    const { base, head } = comparison.decomposition;
    expect(head.r).toBeLessThan(base.r);
    expect(head.gBad).toBeGreaterThan(0);
  });

  it('shows the misattribution under hit@5: two-article questions that lost one article look like generation failures', () => {
    const run = runBin(['compare', '--base', 'examples/base.jsonl', '--head', 'examples/head.jsonl', '--retrieval-ok', 'hit@5', '--json']);
    const comparison = JSON.parse(run.stdout) as Comparison;
    expect(comparison.tests.find((t) => t.metric === 'retrieval_ok')?.significant).toBe(false);
    const { retrieval, generation } = comparison.causes.regressions;
    expect(generation).toBeGreaterThan(retrieval);
  });
});
