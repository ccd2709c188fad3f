import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { blockedMetrics, judgeStatuses } from '../../../src/core/compare/judge-gate.js';
import type { CalibrationRecord } from '../../../src/core/compare/calibration.js';
import { calibrationRecord as calibration } from '../../helpers/outcomes.js';
import { correctnessPairs, type Question } from '../../helpers/paired-runs.js';
import { runCli, tempDir, writeJsonl } from '../../helpers/files.js';
import { judgeNote } from '../../../src/render/gate-words.js';
import { sentenceText } from '../../../src/render/untrusted.js';

const JUDGE = { model: 'judge-1', prompt_version: 'correctness-v1' };

/** End-to-end correctness that drops significantly (60 fixed, 95 broken of 500), every value from the judge. */
function judgedDrop(): { base: Question[]; head: Question[] } {
  const { base, head } = correctnessPairs({ bothRight: 250, fixed: 60, broken: 95, bothWrong: 95 });
  const judged = (records: Question[]) => records.map((record) => ({ ...record, judged_by: { correct: JUDGE } }));
  return { base: judged(base), head: judged(head) };
}

async function compare(base: object[], head: object[], records: CalibrationRecord[] = [], extra: string[] = []) {
  const dir = tempDir();
  const calibrationArgs = records.flatMap((record, i) => {
    const file = join(dir, `calibration-${i}.json`);
    writeFileSync(file, JSON.stringify(record));
    return ['--judge-calibration', file];
  });
  const result = await runCli([
    'compare',
    '--base',
    writeJsonl(dir, 'b.jsonl', base),
    '--head',
    writeJsonl(dir, 'h.jsonl', head),
    '--json',
    ...calibrationArgs,
    ...extra,
  ]);
  return { ...result, json: JSON.parse(result.stdout) };
}

describe('judged metrics gate only when their judge is calibrated', () => {
  it('an uncalibrated judge’s significant end-to-end drop is reported but does not fail the check', async () => {
    const { base, head } = judgedDrop();
    const { code, json } = await compare(base, head);
    expect(code).toBe(0);
    expect(json.verdict).toBe('pass');
    expect(json.judges).toEqual([
      {
        field: 'correct',
        allowed: false,
        judges: [
          {
            model: 'judge-1',
            promptVersion: 'correctness-v1',
            allowed: false,
            verdict: { kind: 'no-record' },
            message: 'judge judge-1 (correctness-v1) is uncalibrated: no calibration record; its metrics are reported but do not gate',
          },
        ],
      },
    ]);
    expect(json.warnings.map((w: { message: string }) => w.message).join('\n')).toMatch(
      /end-to-end dropped significantly .* but it does not gate: judge judge-1 \(correctness-v1\) is uncalibrated/,
    );
  });

  it('a calibrated judge (kappa ≥ floor, same model and prompt) fails the check', async () => {
    const { base, head } = judgedDrop();
    const { code, json } = await compare(base, head, [calibration({})]);
    expect(code).toBe(1);
    expect(json.reasons[0]!.message).toMatch(/^end-to-end regressed significantly/);
    expect(json.judges[0].allowed).toBe(true);
    expect(json.judges[0].judges[0].message).toBe('judge judge-1 (correctness-v1) is calibrated: kappa 0.720 on n = 100 (floor 0.6, 2026-11-01)');
  });

  it('kappa below the floor, another model or another prompt version do not vouch for the judge', async () => {
    const { base, head } = judgedDrop();
    for (const record of [calibration({ kappa: 0.55 }), calibration({ model: 'judge-2' }), calibration({ promptVersion: 'correctness-v0' })]) {
      const { code, json } = await compare(base, head, [record]);
      expect(code).toBe(0);
      expect(json.judges[0].allowed).toBe(false);
    }
    expect((await compare(base, head, [calibration({ kappa: 0.65 })], ['--kappa-floor', '0.7'])).code).toBe(0);
  });

  it('turns a broken floor on an uncalibrated judged metric into a warning', async () => {
    const records = [
      {
        id: 'a',
        question: 'a?',
        claims: [{ text: 'x', verdict: 'NOT_STATED' }],
        judged_by: { claims: { model: 'judge-1', prompt_version: 'faithfulness-v1' } },
      },
      {
        id: 'b',
        question: 'b?',
        claims: [{ text: 'y', verdict: 'SUPPORTED' }],
        judged_by: { claims: { model: 'judge-1', prompt_version: 'faithfulness-v1' } },
      },
    ];
    const { code, json } = await compare(records, records, [], ['--min-paired', '1', '--floor', 'faithfulness=0.9']);
    expect(code).toBe(0);
    expect(json.warnings.map((w: { message: string }) => w.message).join('\n')).toMatch(/floor broken: faithfulness is 0\.500 in head.*but it does not gate/);
    const calibrated = await compare(
      records,
      records,
      [calibration({ kind: 'faithfulness', promptVersion: 'faithfulness-v1' })],
      ['--min-paired', '1', '--floor', 'faithfulness=0.9'],
    );
    expect(calibrated.code).toBe(1);
  });

  it('values a pipeline supplies itself (no judged_by) gate as before', async () => {
    const { base, head } = correctnessPairs({ bothRight: 250, fixed: 60, broken: 95, bothWrong: 95 });
    const { code, json } = await compare(base, head);
    expect(code).toBe(1);
    expect(json.judges).toEqual([]);
  });

  it('answer relevance from the judge has no calibration path and never gates', () => {
    const statuses = judgeStatuses([{ field: 'answer_relevance', model: 'm', promptVersion: 'answer-relevance-v1', questions: 3 }], [calibration({})], 0.6);
    expect(statuses).toEqual([
      {
        field: 'answer_relevance',
        allowed: false,
        judges: [{ model: 'm', promptVersion: 'answer-relevance-v1', allowed: false, verdict: { kind: 'never-calibrated' } }],
      },
    ]);
    expect(sentenceText(judgeNote('answer_relevance', statuses[0]!.judges[0]!))).toBe(
      'answer_relevance from judge m (answer-relevance-v1) has no calibration; it is reported and never gates',
    );
  });

  it('names a calibration file that is not a record (exit 2)', async () => {
    const dir = tempDir();
    const bad = join(dir, 'calibration.json');
    writeFileSync(bad, JSON.stringify({ model: 'm' }));
    const file = writeJsonl(dir, 'r.jsonl', [{ id: 'a', question: 'a?' }]);
    const result = await runCli(['compare', '--base', file, '--head', file, '--judge-calibration', bad]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/calibration\.json: promptVersion: is required/);
  });
});

describe('judge errors are counted', () => {
  it('eval reports records the judge could not score', async () => {
    const dir = tempDir();
    const file = writeJsonl(dir, 'r.jsonl', [
      { id: 'a', question: 'a?', judge_errors: [{ metric: 'faithfulness', kind: 'timeout', message: 'no reply in 60 s' }] },
      { id: 'b', question: 'b?' },
    ]);
    const result = await runCli(['eval', '--results', file, '--json']);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    expect(JSON.parse(result.stdout).excluded.judgeErrors).toBe(1);
  });
});

describe('a faithfulness record keeps the three-label kappa beside the one that decides', () => {
  it('names both in the judge note; the supported-or-not kappa alone decides', () => {
    const record = calibration({ kind: 'faithfulness', promptVersion: 'faithfulness-v1', kappa: 0.72, threeLabelKappa: 0.55 });
    const [status] = judgeStatuses([{ field: 'claims', model: 'judge-1', promptVersion: 'faithfulness-v1', questions: 10 }], [record], 0.6);
    expect(status!.allowed).toBe(true);
    expect(sentenceText(judgeNote('claims', status!.judges[0]!))).toBe(
      'judge judge-1 (faithfulness-v1) is calibrated: kappa 0.720 on n = 100 (floor 0.6, 2026-11-01); that is supported or not, and 0.550 over the three verdicts',
    );
  });
});

describe('judgeStatuses', () => {
  const use = (field: 'claims' | 'correct', model: string, promptVersion: string) => ({ field, model, promptVersion, questions: 5 });

  it('one status per field, in name order, each listing its own judges once, allowed only when every one is', () => {
    const uses = [
      use('correct', 'judge-1', 'correctness-v1'),
      use('claims', 'judge-1', 'faithfulness-v1'),
      use('correct', 'judge-2', 'correctness-v1'),
      use('correct', 'judge-1', 'correctness-v1'),
    ];
    const records = [calibration({}), calibration({ kind: 'faithfulness', promptVersion: 'faithfulness-v1', kappa: 0.8, n: 50, date: '2026-10-01T00:00:00Z' })];
    expect(judgeStatuses(uses, records, 0.6)).toStrictEqual([
      {
        field: 'claims',
        allowed: true,
        judges: [
          {
            model: 'judge-1',
            promptVersion: 'faithfulness-v1',
            allowed: true,
            verdict: { kind: 'calibrated', kappa: 0.8, n: 50, floor: 0.6, date: '2026-10-01' },
          },
        ],
      },
      {
        field: 'correct',
        allowed: false,
        judges: [
          {
            model: 'judge-1',
            promptVersion: 'correctness-v1',
            allowed: true,
            verdict: { kind: 'calibrated', kappa: 0.72, n: 100, floor: 0.6, date: '2026-11-01' },
          },
          { model: 'judge-2', promptVersion: 'correctness-v1', allowed: false, verdict: { kind: 'other-model', recordModel: 'judge-1' } },
        ],
      },
    ]);
  });

  it('only a record of the kind the field needs applies', () => {
    const faithfulness = calibration({ kind: 'faithfulness' });
    const [status] = judgeStatuses([use('correct', 'judge-1', 'correctness-v1')], [faithfulness], 0.6);
    expect(status!.judges).toStrictEqual([{ model: 'judge-1', promptVersion: 'correctness-v1', allowed: false, verdict: { kind: 'no-record' } }]);
  });

  it("the judge's own record applies, the newest when there are several; the first listed wins a tie of dates", () => {
    const verdict = (records: CalibrationRecord[]) => judgeStatuses([use('correct', 'judge-1', 'correctness-v1')], records, 0.6)[0]!.judges[0]!.verdict;
    const own = calibration({ kappa: 0.8, date: '2026-01-01T00:00:00Z' });
    const otherPrompt = calibration({ promptVersion: 'correctness-v2', kappa: 0.9, date: '2026-02-01T00:00:00Z' });
    const otherModel = calibration({ model: 'judge-2', kappa: 0.9, date: '2026-03-01T00:00:00Z' });
    for (const records of [
      [own, otherPrompt, otherModel],
      [otherModel, otherPrompt, own],
    ]) {
      expect(verdict(records)).toStrictEqual({ kind: 'calibrated', kappa: 0.8, n: 100, floor: 0.6, date: '2026-01-01' });
    }
    const older = calibration({ kappa: 0.9, date: '2026-01-01T00:00:00Z' });
    const newer = calibration({ kappa: 0.3, date: '2026-05-01T00:00:00Z' });
    expect(verdict([older, newer])).toStrictEqual({ kind: 'below-floor', kappa: 0.3, n: 100, floor: 0.6 });
    expect(verdict([newer, older])).toStrictEqual({ kind: 'below-floor', kappa: 0.3, n: 100, floor: 0.6 });
    const first = calibration({ kappa: 0.9, date: '2026-05-01T00:00:00Z' });
    expect(verdict([first, newer])).toMatchObject({ kind: 'calibrated', kappa: 0.9 });
    expect(verdict([newer, first])).toMatchObject({ kind: 'below-floor', kappa: 0.3 });
  });

  it("without the judge's own record, the newest record of the kind says why none applies", () => {
    const verdict = (records: CalibrationRecord[]) => judgeStatuses([use('correct', 'judge-1', 'correctness-v1')], records, 0.6)[0]!.judges[0]!.verdict;
    const otherPrompt = calibration({ promptVersion: 'correctness-v2', date: '2026-02-01T00:00:00Z' });
    const otherModel = calibration({ model: 'judge-2', date: '2026-03-01T00:00:00Z' });
    expect(verdict([otherPrompt, otherModel])).toStrictEqual({ kind: 'other-model', recordModel: 'judge-2' });
    expect(verdict([otherModel, calibration({ promptVersion: 'correctness-v0', date: '2026-04-01T00:00:00Z' })])).toStrictEqual({
      kind: 'other-prompt',
      recordPrompt: 'correctness-v0',
    });
    expect(verdict([])).toStrictEqual({ kind: 'no-record' });
  });
});

describe('blockedMetrics', () => {
  const status = (field: 'claims' | 'correct' | 'answer_relevance', allowed: boolean) => ({ field, allowed, judges: [] });

  it('blocks every metric and gated test built on an uncalibrated field, and nothing of a calibrated one', () => {
    // `correct_given_retrieval` is a gated test on the `correct` column, not an answer metric.
    expect([...blockedMetrics([status('correct', false)])]).toEqual([
      ['correct', 'correct'],
      ['correct_given_retrieval', 'correct'],
    ]);
    expect([...blockedMetrics([status('claims', false), status('correct', true)])]).toEqual([['faithfulness', 'claims']]);
    expect([...blockedMetrics([status('answer_relevance', false)])]).toEqual([['answer_relevance', 'answer_relevance']]);
    expect(blockedMetrics([status('claims', true), status('correct', true)]).size).toBe(0);
    expect(blockedMetrics([]).size).toBe(0);
  });
});
