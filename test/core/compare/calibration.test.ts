import { describe, expect, it } from 'vitest';
import { judgeMayGate } from '../../../src/core/compare/calibration.js';
import { calibrationRecord as record } from '../../helpers/outcomes.js';

const JUDGE = { model: 'judge-1', promptVersion: 'correctness-v1' } as const;

describe('judgeMayGate', () => {
  it('a record of the same judge with kappa at or above the floor allows it, with the day of the record', () => {
    expect(judgeMayGate(record({}), 'judge-1', 'correctness-v1', 0.6)).toStrictEqual({
      ...JUDGE,
      allowed: true,
      verdict: { kind: 'calibrated', kappa: 0.72, n: 100, floor: 0.6, date: '2026-11-01' },
    });
    // Exactly at the floor still gates ("kappa ≥ the floor").
    expect(judgeMayGate(record({ kappa: 0.6 }), 'judge-1', 'correctness-v1', 0.6)).toStrictEqual({
      ...JUDGE,
      allowed: true,
      verdict: { kind: 'calibrated', kappa: 0.6, n: 100, floor: 0.6, date: '2026-11-01' },
    });
    // Without a floor argument, the floor is KAPPA_FLOOR (0.6).
    expect(judgeMayGate(record({ kappa: 0.6 }), 'judge-1', 'correctness-v1').verdict).toMatchObject({ kind: 'calibrated', floor: 0.6 });
  });

  it('keeps the three-label kappa only when the record has one (null kept as null)', () => {
    expect(judgeMayGate(record({ threeLabelKappa: 0.55 }), 'judge-1', 'correctness-v1', 0.6).verdict).toStrictEqual({
      kind: 'calibrated',
      kappa: 0.72,
      threeLabelKappa: 0.55,
      n: 100,
      floor: 0.6,
      date: '2026-11-01',
    });
    expect(judgeMayGate(record({ threeLabelKappa: null }), 'judge-1', 'correctness-v1', 0.6).verdict).toStrictEqual({
      kind: 'calibrated',
      kappa: 0.72,
      threeLabelKappa: null,
      n: 100,
      floor: 0.6,
      date: '2026-11-01',
    });
    const without = judgeMayGate(record({}), 'judge-1', 'correctness-v1', 0.6).verdict;
    expect(Object.keys(without)).toEqual(['kind', 'kappa', 'n', 'floor', 'date']);
  });

  it('kappa just below the floor, or undefined (null), does not allow the judge', () => {
    expect(judgeMayGate(record({ kappa: 0.5999 }), 'judge-1', 'correctness-v1', 0.6)).toStrictEqual({
      ...JUDGE,
      allowed: false,
      verdict: { kind: 'below-floor', kappa: 0.5999, n: 100, floor: 0.6 },
    });
    expect(judgeMayGate(record({ kappa: null, n: 12 }), 'judge-1', 'correctness-v1', 0.6)).toStrictEqual({
      ...JUDGE,
      allowed: false,
      verdict: { kind: 'kappa-undefined', n: 12 },
    });
    // NaN compares false with everything: never calibrated.
    expect(judgeMayGate(record({ kappa: Number.NaN }), 'judge-1', 'correctness-v1', 0.6).verdict.kind).toBe('below-floor');
  });

  it('no record, or a record of another model or prompt version, says why it does not apply', () => {
    expect(judgeMayGate(undefined, 'judge-1', 'correctness-v1', 0.6)).toStrictEqual({ ...JUDGE, allowed: false, verdict: { kind: 'no-record' } });
    expect(judgeMayGate(record({ model: 'judge-2' }), 'judge-1', 'correctness-v1', 0.6)).toStrictEqual({
      ...JUDGE,
      allowed: false,
      verdict: { kind: 'other-model', recordModel: 'judge-2' },
    });
    expect(judgeMayGate(record({ promptVersion: 'correctness-v0' }), 'judge-1', 'correctness-v1', 0.6)).toStrictEqual({
      ...JUDGE,
      allowed: false,
      verdict: { kind: 'other-prompt', recordPrompt: 'correctness-v0' },
    });
    // The model is checked before the prompt version, and both before kappa.
    expect(judgeMayGate(record({ model: 'judge-2', promptVersion: 'x', kappa: null }), 'judge-1', 'correctness-v1', 0.6).verdict.kind).toBe('other-model');
    expect(judgeMayGate(record({ promptVersion: 'x', kappa: null }), 'judge-1', 'correctness-v1', 0.6).verdict.kind).toBe('other-prompt');
  });
});
