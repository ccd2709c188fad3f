import { z } from 'zod';
import { KAPPA_FLOOR } from '../catalog/thresholds.js';

/**
 * The record `calibrate` writes: which judge (model and prompt version) agreed how well with human labels.
 * `kappa`, `observed` and `expected` are for the decision the metric uses: SUPPORTED or not for faithfulness
 * (CONTRADICTED and NOT_STATED collapsed into one "not supported"), CORRECT or not for correctness; that kappa
 * decides whether the judge may gate. `threeLabelKappa` (faithfulness only) is Cohen's kappa over the three
 * verdicts as they are, reported beside it. `confusion` counts (human label → judge label) with every label kept.
 */
export const calibrationRecordSchema = z.object({
  model: z.string({ error: 'is required and must be a string' }).min(1, 'must not be empty'),
  promptVersion: z.string({ error: 'is required and must be a string' }).min(1, 'must not be empty'),
  kind: z.enum(['faithfulness', 'correctness'], { error: 'must be "faithfulness" or "correctness"' }),
  kappa: z.number({ error: 'must be a number or null' }).nullable(),
  threeLabelKappa: z.number({ error: 'must be a number or null' }).nullable().optional(),
  observed: z.number({ error: 'must be a number' }),
  expected: z.number({ error: 'must be a number' }),
  n: z.number({ error: 'must be a number' }).int('must be a whole number').nonnegative('must not be negative'),
  date: z.string({ error: 'must be an ISO date string' }),
  confusion: z.record(z.string(), z.record(z.string(), z.number())).optional(),
  labels: z.object({ file: z.string(), sha256: z.string(), total: z.number(), failed: z.number() }).optional(),
});
export type CalibrationRecord = z.infer<typeof calibrationRecordSchema>;

/** Why a judge may or may not gate; the renderers make the words. */
export type CalibrationVerdict =
  | {
      readonly kind: 'calibrated';
      readonly kappa: number;
      /** Faithfulness records: kappa over the three verdicts, beside the supported-or-not kappa that decides. */
      readonly threeLabelKappa?: number | null;
      readonly n: number;
      readonly floor: number;
      readonly date: string;
    }
  | { readonly kind: 'no-record' }
  | { readonly kind: 'other-model'; readonly recordModel: string }
  | { readonly kind: 'other-prompt'; readonly recordPrompt: string }
  | { readonly kind: 'kappa-undefined'; readonly n: number }
  | { readonly kind: 'below-floor'; readonly kappa: number; readonly n: number; readonly floor: number }
  /** Answer relevance has no calibration path: reported, never gating. */
  | { readonly kind: 'never-calibrated' };

/** One judge (model and prompt version) that filled a field, and whether its metrics may fail a check. */
export interface JudgeCheck {
  readonly model: string;
  readonly promptVersion: string;
  readonly allowed: boolean;
  readonly verdict: CalibrationVerdict;
}

/**
 * Whether metrics from this judge (model and prompt version) may fail a check: only when a calibration record for
 * the same model and prompt version shows kappa ≥ the floor. Otherwise they are reported and never fail the check.
 */
export function judgeMayGate(record: CalibrationRecord | undefined, model: string, promptVersion: string, kappaFloor = KAPPA_FLOOR): JudgeCheck {
  const check = (verdict: CalibrationVerdict): JudgeCheck => ({ model, promptVersion, allowed: verdict.kind === 'calibrated', verdict });
  if (record === undefined) return check({ kind: 'no-record' });
  if (record.model !== model) return check({ kind: 'other-model', recordModel: record.model });
  if (record.promptVersion !== promptVersion) return check({ kind: 'other-prompt', recordPrompt: record.promptVersion });
  if (record.kappa === null) return check({ kind: 'kappa-undefined', n: record.n });
  if (!(record.kappa >= kappaFloor)) return check({ kind: 'below-floor', kappa: record.kappa, n: record.n, floor: kappaFloor });
  const threeLabel = record.threeLabelKappa === undefined ? {} : { threeLabelKappa: record.threeLabelKappa };
  return check({ kind: 'calibrated', kappa: record.kappa, ...threeLabel, n: record.n, floor: kappaFloor, date: record.date.slice(0, 10) });
}
