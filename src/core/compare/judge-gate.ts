import { GATED_TESTS } from '../catalog/gates.js';
import { ANSWER_METRICS, JUDGED_FIELDS, judgedFieldOf } from '../catalog/metrics.js';
import { type CalibrationRecord, type JudgeCheck, judgeMayGate } from './calibration.js';
import type { JudgeUse } from '../scoring/outcomes.js';

/** Whether the judges behind a field may fail the check, and why (shown in the report). */
export interface JudgeStatus {
  readonly field: JudgeUse['field'];
  readonly allowed: boolean;
  readonly judges: readonly JudgeCheck[];
}

/**
 * Decides, for every field that `rag-gate judge` filled in either run, whether its metrics may gate: only when
 * each judge (model and prompt version) that filled it has a calibration record of the right kind with kappa at
 * or above the floor. Values a pipeline supplies itself carry no `judged_by` and are its own responsibility.
 */
export function judgeStatuses(uses: readonly JudgeUse[], calibrations: readonly CalibrationRecord[], kappaFloor: number): JudgeStatus[] {
  const fields = [...new Set(uses.map((use) => use.field))].sort();
  return fields.map((field) => {
    const judges = new Map<string, JudgeUse>();
    for (const use of uses) if (use.field === field) judges.set(JSON.stringify([use.model, use.promptVersion]), use);
    const kind = JUDGED_FIELDS[field].calibration;
    const verdicts = [...judges.values()].map((use) => {
      if (kind === null)
        return { model: use.model, promptVersion: use.promptVersion, allowed: false, verdict: { kind: 'never-calibrated' } } satisfies JudgeCheck;
      // The newest matching record decides; another judge's record only serves to say why it does not apply.
      const ofKind = calibrations.filter((record) => record.kind === kind).sort((a, b) => (a.date < b.date ? 1 : a.date > b.date ? -1 : 0));
      const record = ofKind.find((r) => r.model === use.model && r.promptVersion === use.promptVersion) ?? ofKind[0];
      return judgeMayGate(record, use.model, use.promptVersion, kappaFloor);
    });
    return { field, allowed: verdicts.every((v) => v.allowed), judges: verdicts };
  });
}

/** Metric (test or floor) name → the judged field it comes from, for every metric an uncalibrated judge produced. */
export function blockedMetrics(statuses: readonly JudgeStatus[]): Map<string, JudgeUse['field']> {
  const blocked = new Map<string, JudgeUse['field']>();
  const uncalibrated = new Set(statuses.filter((status) => !status.allowed).map((status) => status.field));
  for (const { name, column } of [...ANSWER_METRICS, ...GATED_TESTS.map((test) => ({ name: test.metric, column: test.column }))]) {
    const field = judgedFieldOf(column);
    if (field !== undefined && uncalibrated.has(field)) blocked.set(name, field);
  }
  return blocked;
}
