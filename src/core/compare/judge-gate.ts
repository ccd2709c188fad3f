import { type CalibrationRecord, judgeMayGate } from './calibration.js';
import type { JudgeUse } from '../scoring/outcomes.js';

/** The calibration kind that vouches for each judged field; answer relevance has none, so it never gates. */
const CALIBRATION_KIND: Readonly<Record<JudgeUse['field'], CalibrationRecord['kind'] | null>> = {
  claims: 'faithfulness',
  correct: 'correctness',
  answer_relevance: null,
};

/** The metrics (test and floor names) whose values come from each judged field. */
const METRICS_OF_FIELD: Readonly<Record<JudgeUse['field'], readonly string[]>> = {
  claims: ['faithfulness'],
  correct: ['correct', 'correct_given_retrieval'],
  answer_relevance: ['answer_relevance'],
};

/** Whether the judge behind a field may fail the check, and why (shown in the report). */
export interface JudgeStatus {
  readonly field: JudgeUse['field'];
  readonly allowed: boolean;
  readonly notes: readonly string[];
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
    const kind = CALIBRATION_KIND[field];
    const verdicts = [...judges.values()].map((use) => {
      if (kind === null) {
        return { allowed: false, note: `${field} from judge ${use.model} (${use.promptVersion}) has no calibration; it is reported and never gates` };
      }
      // The newest matching record decides; another judge's record only serves to say why it does not apply.
      const ofKind = calibrations.filter((record) => record.kind === kind).sort((a, b) => (a.date < b.date ? 1 : a.date > b.date ? -1 : 0));
      const record = ofKind.find((r) => r.model === use.model && r.promptVersion === use.promptVersion) ?? ofKind[0];
      return judgeMayGate(record, use.model, use.promptVersion, kappaFloor);
    });
    return { field, allowed: verdicts.every((v) => v.allowed), notes: verdicts.map((v) => v.note) };
  });
}

/** Metric name → why it may not gate, for every metric an uncalibrated judge produced. */
export function blockedMetrics(statuses: readonly JudgeStatus[]): Map<string, string> {
  const blocked = new Map<string, string>();
  for (const status of statuses) {
    if (status.allowed) continue;
    const why = status.notes.join('; ');
    for (const metric of METRICS_OF_FIELD[status.field]) blocked.set(metric, why);
  }
  return blocked;
}
