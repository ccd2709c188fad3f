import type { CalibrationRecord } from '../../src/core/compare/calibration.js';
import type { QuestionOutcomes } from '../../src/core/scoring/outcomes.js';

/**
 * Hand-built outcomes of a run, as the reader would build them: the given fields, and for the rest one question per
 * id with no tags, one shared gold-label fingerprint, nothing found, and nothing counted or derived.
 */
export function questionOutcomes(fields: Pick<QuestionOutcomes, 'ids' | 'columns'> & Partial<QuestionOutcomes>): QuestionOutcomes {
  const { ids } = fields;
  return {
    size: ids.length,
    questions: ids,
    tags: ids.map(() => []),
    goldKeys: ids.map(() => 'same labels'),
    goldFound: ids.map(() => undefined),
    labelPairs: [],
    noClaims: 0,
    judgeErrors: 0,
    judges: [],
    noRelevant: 0,
    idsFromQuestion: 0,
    retrievalByText: 0,
    correctByRule: 0,
    refusedByDetector: 0,
    formats: ['jsonl'],
    scores: new Map(),
    ...fields,
  };
}

/** A judge's calibration record: judge-1 with prompt correctness-v1, kappa 0.72 on 100 pairs, unless `fields` say otherwise. */
export function calibrationRecord(fields: Partial<CalibrationRecord>): CalibrationRecord {
  return {
    model: 'judge-1',
    promptVersion: 'correctness-v1',
    kind: 'correctness',
    kappa: 0.72,
    observed: 0.9,
    expected: 0.64,
    n: 100,
    date: '2026-11-01T08:30:00Z',
    ...fields,
  };
}
