import { z } from 'zod';
import { KAPPA_FLOOR } from '../stats/kappa.js';

/**
 * The record `calibrate` writes: which judge (model and prompt version) agreed how well with human labels.
 * `kappa`, `observed` and `expected` are for the decision the metric uses: SUPPORTED or not for faithfulness,
 * CORRECT or not for correctness. `confusion` counts (human label → judge label) with every label kept.
 */
export const calibrationRecordSchema = z.object({
  model: z.string({ error: 'is required and must be a string' }).min(1, 'must not be empty'),
  promptVersion: z.string({ error: 'is required and must be a string' }).min(1, 'must not be empty'),
  kind: z.enum(['faithfulness', 'correctness'], { error: 'must be "faithfulness" or "correctness"' }),
  kappa: z.number({ error: 'must be a number or null' }).nullable(),
  observed: z.number({ error: 'must be a number' }),
  expected: z.number({ error: 'must be a number' }),
  n: z.number({ error: 'must be a number' }).int('must be a whole number').nonnegative('must not be negative'),
  date: z.string({ error: 'must be an ISO date string' }),
  confusion: z.record(z.string(), z.record(z.string(), z.number())).optional(),
  labels: z.object({ file: z.string(), sha256: z.string(), total: z.number(), failed: z.number() }).optional(),
});
export type CalibrationRecord = z.infer<typeof calibrationRecordSchema>;

/**
 * Whether metrics from this judge (model and prompt version) may fail a check: only when a calibration
 * record for the same model and prompt version shows kappa ≥ the floor. Otherwise they are reported with
 * `note` saying why the judge counts as uncalibrated, and never fail the check.
 */
export function judgeMayGate(
  record: CalibrationRecord | undefined,
  model: string,
  promptVersion: string,
  kappaFloor = KAPPA_FLOOR,
): { allowed: boolean; note: string } {
  const judge = `judge ${model} (${promptVersion})`;
  const uncalibrated = (why: string) => ({ allowed: false, note: `${judge} is uncalibrated: ${why}; its metrics are reported but do not gate` });
  if (record === undefined) return uncalibrated('no calibration record');
  if (record.model !== model) return uncalibrated(`the calibration record is for model ${record.model}`);
  if (record.promptVersion !== promptVersion) return uncalibrated(`the calibration record is for prompt ${record.promptVersion}`);
  if (record.kappa === null) return uncalibrated(`kappa is undefined on the ${record.n} labels (both raters gave every item the same label)`);
  const measured = `kappa ${record.kappa.toFixed(3)} on n = ${record.n}`;
  if (!(record.kappa >= kappaFloor)) return uncalibrated(`${measured} is below the floor ${kappaFloor}`);
  return { allowed: true, note: `${judge} is calibrated: ${measured} (floor ${kappaFloor}, ${record.date.slice(0, 10)})` };
}

