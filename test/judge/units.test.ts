import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cacheKey } from '../../src/judge/cache.js';
import { type CalibrationRecord, type JudgeCheck, judgeMayGate } from '../../src/core/compare/calibration.js';
import { judgeNote } from '../../src/render/gate-words.js';
import { sentenceText } from '../../src/render/untrusted.js';
import { readCalibrationRecord } from '../../src/judge/calibration.js';
import { readLabels } from '../../src/judge/labels.js';
import { cosine } from '../../src/core/stats/cosine.js';
import { rewriteRecord } from '../../src/judge/raw.js';
import { backoffDelay, parseRetryAfter, retryAfterFromHeaders } from '../../src/judge/retry.js';
import { jsonl, runMain, scratchDir } from '../helpers/cli.js';

const scratch = scratchDir();
afterAll(() => scratch.cleanup());

describe('Retry-After and backoff', () => {
  const now = Date.parse('2025-01-01T00:00:00Z');
  it('reads delay-seconds and HTTP dates', () => {
    expect(parseRetryAfter('1', now)).toBe(1000);
    expect(parseRetryAfter(' 2.5 ', now)).toBe(2500);
    expect(parseRetryAfter('Wed, 01 Jan 2025 00:00:03 GMT', now)).toBe(3000);
    expect(parseRetryAfter('Tue, 31 Dec 2024 23:59:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter(null, now)).toBeUndefined();
    expect(parseRetryAfter('', now)).toBeUndefined();
  });

  it('prefers retry-after-ms', () => {
    expect(retryAfterFromHeaders(new Headers({ 'retry-after': '5', 'retry-after-ms': '120' }), now)).toBe(120);
    expect(retryAfterFromHeaders(new Headers({ 'retry-after': '5' }), now)).toBe(5000);
    expect(retryAfterFromHeaders(new Headers(), now)).toBeUndefined();
  });

  it('doubles per retry, with jitter in the upper half, capped', () => {
    expect(backoffDelay(1, 100, () => 0)).toBe(50);
    expect(backoffDelay(1, 100, () => 1)).toBe(100);
    expect(backoffDelay(3, 100, () => 0)).toBe(200);
    expect(backoffDelay(3, 100, () => 1)).toBe(400);
    expect(backoffDelay(20, 100, () => 1, 30_000)).toBe(30_000);
  });
});

describe('cache key', () => {
  const base = {
    endpoint: 'chat',
    model: 'm',
    promptVersion: 'faithfulness-v1',
    task: 'faithfulness.answer',
    input: [{ role: 'user', content: 'x' }],
  } as const;
  it('is a sha256 hex digest, equal for equal calls', () => {
    expect(cacheKey(base)).toMatch(/^[0-9a-f]{64}$/);
    expect(cacheKey({ ...base, input: [{ role: 'user', content: 'x' }] })).toBe(cacheKey(base));
  });
  it('changes with the model, prompt version, endpoint, task and input', () => {
    const keys = new Set([
      cacheKey(base),
      cacheKey({ ...base, model: 'n' }),
      cacheKey({ ...base, promptVersion: 'faithfulness-v2' }),
      cacheKey({ ...base, endpoint: 'embeddings' }),
      cacheKey({ ...base, task: 'faithfulness.claim' }),
      cacheKey({ ...base, input: [{ role: 'user', content: 'y' }] }),
    ]);
    expect(keys.size).toBe(6);
  });
});

/** The check in the report's words. */
const note = (check: JudgeCheck) => sentenceText(judgeNote('claims', check));

describe('judgeMayGate', () => {
  const record: CalibrationRecord = {
    model: 'gpt-x',
    promptVersion: 'faithfulness-v1',
    kind: 'faithfulness',
    kappa: 0.697,
    observed: 0.88,
    expected: 0.604,
    n: 100,
    date: '2025-03-01T10:00:00.000Z',
  };
  it('allows a judge calibrated at or above the floor for the same model and prompt', () => {
    const decision = judgeMayGate(record, 'gpt-x', 'faithfulness-v1');
    expect(decision.allowed).toBe(true);
    expect(decision.verdict).toEqual({ kind: 'calibrated', kappa: 0.697, n: 100, floor: 0.6, date: '2025-03-01' });
    expect(note(decision)).toBe('judge gpt-x (faithfulness-v1) is calibrated: kappa 0.697 on n = 100 (floor 0.6, 2025-03-01)');
    expect(judgeMayGate({ ...record, kappa: 0.6 }, 'gpt-x', 'faithfulness-v1').allowed).toBe(true);
  });
  it.each([
    ['no record', undefined, 'gpt-x', 'faithfulness-v1', 0.6, 'no calibration record'],
    ['another model', record, 'gpt-y', 'faithfulness-v1', 0.6, 'the calibration record is for model gpt-x'],
    ['another prompt version', record, 'gpt-x', 'faithfulness-v2', 0.6, 'the calibration record is for prompt faithfulness-v1'],
    ['kappa below the floor', { ...record, kappa: 0.55 }, 'gpt-x', 'faithfulness-v1', 0.6, 'kappa 0.550 on n = 100 is below the floor 0.6'],
    ['a higher floor', record, 'gpt-x', 'faithfulness-v1', 0.7, 'kappa 0.697 on n = 100 is below the floor 0.7'],
    ['undefined kappa', { ...record, kappa: null }, 'gpt-x', 'faithfulness-v1', 0.6, 'kappa is undefined'],
  ])('refuses with %s', (_name, rec, model, version, floor, reason) => {
    const decision = judgeMayGate(rec, model, version, floor);
    expect(decision.allowed).toBe(false);
    expect(note(decision)).toContain(reason);
    expect(note(decision)).toMatch(/is uncalibrated: .*; its metrics are reported but do not gate$/);
  });
});

describe('readCalibrationRecord', () => {
  it('names the file and field of a bad record', async () => {
    const file = join(scratch.dir, 'bad-calibration.json');
    writeFileSync(file, JSON.stringify({ model: 'm', promptVersion: 'p', kind: 'faithfulness', kappa: '0.7', observed: 0.9, expected: 0.5, n: 10, date: 'x' }));
    await expect(readCalibrationRecord(file)).rejects.toThrow(`${file}: kappa: must be a number or null`);
    await expect(readCalibrationRecord(join(scratch.dir, 'missing.json'))).rejects.toThrow('cannot read: no such file');
  });

  it('names a key given twice, with its line', async () => {
    const file = join(scratch.dir, 'twice-calibration.json');
    writeFileSync(
      file,
      '{\n "model": "m", "promptVersion": "p", "kind": "faithfulness", "kappa": 0.9,\n "observed": 0.9, "expected": 0.5, "n": 10, "date": "x",\n "kappa": 0.1\n}\n',
    );
    await expect(readCalibrationRecord(file)).rejects.toThrow(`${file}:4: kappa: duplicate key "kappa" in one object; keep one`);
  });
});

describe('readLabels', () => {
  it('names a key given twice in a label', async () => {
    const file = join(scratch.dir, 'twice-labels.jsonl');
    writeFileSync(
      file,
      '{"id": "a", "claim": "c", "context": "k", "human_verdict": "SUPPORTED"}\n{"id": "b", "claim": "c", "context": "k", "human_verdict": "SUPPORTED", "human_verdict": "CONTRADICTED"}\n',
    );
    await expect(readLabels(file)).rejects.toThrow(`${file}:2: human_verdict: duplicate key "human_verdict" in one object; keep one`);
  });
});

describe('rewriteRecord', () => {
  const set = new Map<string, unknown>([['claims', []]]);
  it('appends new fields to a JSON line, keeping its bytes and style', () => {
    expect(rewriteRecord('{"id": "a",  "x": 1.50}', true, set, new Set())).toBe('{"id": "a",  "x": 1.50, "claims": []}');
    expect(rewriteRecord('{"id":"a","x":1.50}  ', true, set, new Set())).toBe('{"id":"a","x":1.50,"claims":[]}');
  });
  it('re-serialises when a field is replaced or removed, keeping key order', () => {
    expect(rewriteRecord('{"claims": [1], "id": "a", "judge_errors": []}', true, set, new Set(['judge_errors']))).toBe('{"claims":[],"id":"a"}');
  });
  it('leaves an unchanged JSON line alone and compacts a JSON array element', () => {
    expect(rewriteRecord('{"id": "a"}', true, new Map(), new Set(['judge_errors']))).toBe('{"id": "a"}');
    expect(rewriteRecord('{\n  "id": "a"\n}', false, new Map(), new Set())).toBe('{"id":"a"}');
  });
});

describe('cosine', () => {
  it('is 1 for parallel vectors, 0 for orthogonal ones, NaN for a zero vector', () => {
    expect(cosine([1, 2], [2, 4])).toBeCloseTo(1, 12);
    expect(cosine([1, 0], [0, 3])).toBe(0);
    expect(cosine([0, 0], [1, 1])).toBeNaN();
  });
});

describe('results schema: retrieved_contexts', () => {
  it('is accepted aligned with retrieved_ids, and a length mismatch names the field', async () => {
    const ok = join(scratch.dir, 'contexts-ok.jsonl');
    writeFileSync(
      ok,
      jsonl([
        { id: 'q1', question: 'a', retrieved_ids: ['d1', 'd2'], retrieved_contexts: ['one', 'two'] },
        { id: 'q2', question: 'b', retrieved_contexts: ['only texts'] },
      ]),
    );
    const good = await runMain(['eval', '--results', ok]);
    expect(good.code, good.stderr).toBe(0);
    expect(good.stderr).not.toContain('retrieved_contexts');

    const bad = join(scratch.dir, 'contexts-bad.jsonl');
    writeFileSync(
      bad,
      jsonl([
        { id: 'q1', question: 'a', retrieved_ids: ['d1', 'd2', 'd3'], retrieved_contexts: ['one', 'two'] },
        { id: 'q2', question: 'b', retrieved_contexts: 'text' },
      ]),
    );
    const run = await runMain(['eval', '--results', bad]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`${bad}:1: retrieved_contexts: has 2 texts but retrieved_ids has 3 ids; give one text per retrieved id, in the same order`);
    expect(run.stderr).toContain(`${bad}:2: retrieved_contexts: must be a list of strings`);
  });
});
