import { describe, expect, it } from 'vitest';
import { parseJsonOutput } from '../helpers/cli.js';
import { runCli, tempDir, writeJsonl } from '../helpers/files.js';

/**
 * A Ragas evaluation exported per sample: no ids, Ragas' field names, its score columns. The head's faithfulness
 * falls on 24 of 60 questions; everything else is the same.
 */
function ragasRun(faithfulness: (i: number) => number, passed: (i: number) => boolean = () => true) {
  return Array.from({ length: 60 }, (_, i) => ({
    user_input: `How do I configure feature ${i}?`,
    response: `Open settings and enable feature ${i}.`,
    reference: `enable feature ${i}`,
    faithfulness: faithfulness(i),
    answer_relevancy: 0.9,
    'factual_correctness(mode=f1)': 0.5,
    passed: passed(i),
  }));
}

const base = ragasRun(() => 0.95);
const head = ragasRun((i) => (i < 24 ? 0.4 : 0.95));

interface Report {
  verdict: string;
  reasons: { kind: string; gate?: string; metric?: string; message: string; reads?: string }[];
  tests: { metric: string; kind: string; gate: string | null; base: number; head: number; significant: boolean }[];
  floors: { reads: string; value: number; outcome: string }[];
  provenance: { head: { idsFromQuestion: number; scores: Record<string, string> } };
}

async function compare(extra: string[], runs = { base, head }) {
  const dir = tempDir();
  const run = await runCli([
    'compare',
    '--base',
    writeJsonl(dir, 'base.jsonl', runs.base),
    '--head',
    writeJsonl(dir, 'head.jsonl', runs.head),
    '--json',
    ...extra,
  ]);
  return { code: run.code, stderr: run.stderr, report: parseJsonOutput<Report>(run.stdout) };
}

describe("another tool's scores in compare", () => {
  it('are tested and reported, but do not gate unless named: a large faithfulness drop passes by default', async () => {
    const { code, report } = await compare([]);
    expect(code).toBe(0);
    const faithfulness = report.tests.find((test) => test.metric === 'score:faithfulness')!;
    expect(faithfulness).toMatchObject({ kind: 'randomization', gate: null, significant: true });
    expect(faithfulness.base).toBeCloseTo(0.95, 12);
    expect(faithfulness.head).toBeCloseTo((24 * 0.4 + 36 * 0.95) / 60, 12);
    expect(report.tests.find((test) => test.metric === 'score:passed')).toMatchObject({ kind: 'mcnemar', gate: null });
    expect(report.provenance.head.idsFromQuestion).toBe(60);
    expect(report.provenance.head.scores).toEqual({
      faithfulness: 'number',
      answer_relevancy: 'number',
      factual_correctness_mode_f1: 'number',
      passed: 'boolean',
    });
  });

  it('--fail-on score:faithfulness fails the check on the significant drop, saying the score is not calibrated here', async () => {
    const { code, report } = await compare(['--fail-on', 'end-to-end,score:faithfulness']);
    expect(code).toBe(1);
    expect(report.verdict).toBe('fail');
    const [reason] = report.reasons;
    expect(reason).toMatchObject({ kind: 'regressed', gate: 'score:faithfulness', metric: 'score:faithfulness' });
    expect(reason!.message).toMatch(
      /^the score faithfulness \(not calibrated here, gated because fail-on names it\) regressed significantly: faithfulness 0\.950 → 0\.730, p = /,
    );
  });

  it('a true/false score gates through McNemar when named', async () => {
    const dropped = {
      base,
      head: ragasRun(
        () => 0.95,
        (i) => i >= 20,
      ),
    };
    const { code, report } = await compare(['--fail-on', 'score:passed'], dropped);
    expect(code).toBe(1);
    expect(report.reasons[0]).toMatchObject({ kind: 'regressed', gate: 'score:passed', broken: 20, fixed: 0 });
  });

  it('--floor faithfulness=0.8 reads the score when no question carries claims; a floor on a missing score cannot be checked', async () => {
    const { code, report } = await compare(['--floor', 'faithfulness=0.8', '--floor', 'answer_relevancy>=0.85']);
    expect(code).toBe(1);
    expect(report.floors).toEqual([
      { floor: { metric: 'faithfulness', op: '>=', value: 0.8 }, reads: 'score:faithfulness', value: expect.closeTo(0.73, 12), outcome: 'broken' },
      { floor: { metric: 'score:answer_relevancy', op: '>=', value: 0.85 }, reads: 'score:answer_relevancy', value: expect.closeTo(0.9, 12), outcome: 'holds' },
    ]);
    expect(report.reasons[0]!.message).toBe(
      'floor broken: the score faithfulness (not calibrated here), gated because a floor names it, is 0.730 in head, the floor is faithfulness ≥ 0.8',
    );
    const missing = await compare(['--floor', 'context_recall>=0.5']);
    expect(missing.code).toBe(1);
    expect(missing.report.reasons[0]!.message).toBe('floor context_recall ≥ 0.5 cannot be checked: no head question carries a score named context_recall');
  });

  it('fail-on refuses a score name rag-gate would not spell so, and says how it spells it', async () => {
    const dir = tempDir();
    const file = writeJsonl(dir, 'r.jsonl', base);
    const run = await runCli(['compare', '--base', file, '--head', file, '--fail-on', 'score:Factual Correctness']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('"score:Factual Correctness" does not name a score as rag-gate spells them');
    expect(run.stderr).toContain('write score:factual_correctness');
  });
});
