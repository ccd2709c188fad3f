import { createHash } from 'node:crypto';
import pLimit from 'p-limit';
import { readFileBytes, readJsonDocument } from '../sources/read-file.js';
import { type CalibrationRecord, calibrationRecordSchema } from '../core/compare/calibration.js';
import { type Agreement, cohensKappa } from '../core/stats/kappa.js';
import type { JudgeClient } from './client.js';
import { type JudgeErrorKind, JudgeCallError } from './errors.js';
import type { LabelKind, Labels } from './labels.js';
import { judgeClaimVerdict, judgeCorrect } from './metrics.js';
import { CLAIM_VERDICTS, CORRECTNESS_VERDICTS, PROMPT_VERSIONS, joinContexts } from './prompts.js';

/** Reads and checks a calibration record written by `calibrate`. */
export async function readCalibrationRecord(file: string): Promise<CalibrationRecord> {
  return readJsonDocument(file, calibrationRecordSchema, 'a calibration record written by rag-gate calibrate');
}

export interface CalibrationFailure {
  readonly id: string;
  readonly kind: JudgeErrorKind;
  readonly message: string;
}

export interface CalibrationResult {
  readonly kind: LabelKind;
  readonly record: CalibrationRecord;
  /** Agreement on the decision the metric uses (SUPPORTED or not; CORRECT or not). */
  readonly agreement: Agreement | null;
  /** Faithfulness only: agreement on all three verdicts. */
  readonly threeWay: Agreement | null;
  /** Human label → judge label counts, every label value listed in a fixed order. */
  readonly confusion: Record<string, Record<string, number>>;
  readonly labelValues: readonly string[];
  readonly total: number;
  /** Labels the judge could not rate: left out of kappa and listed. */
  readonly failures: readonly CalibrationFailure[];
}

const SUPPORTED = 'SUPPORTED';
const NOT_SUPPORTED = 'NOT_SUPPORTED';

/**
 * Runs the judge over human labels and measures agreement with Cohen's kappa. Claim–context pairs are judged
 * one call each with the faithfulness rubric (verdict only); answers with the correctness prompt.
 */
export async function calibrate(
  client: JudgeClient,
  labels: Labels,
  options: { labelsFile: string; date?: Date; onProgress?: (done: number, total: number) => void },
): Promise<CalibrationResult> {
  const limit = pLimit(client.concurrency);
  const failures: CalibrationFailure[] = [];
  let done = 0;
  const rate = async <T>(id: string, judge: () => Promise<T>): Promise<T | undefined> => {
    try {
      return await judge();
    } catch (error) {
      if (!(error instanceof JudgeCallError)) throw error;
      failures.push({ id, kind: error.kind, message: error.message });
      return undefined;
    } finally {
      options.onProgress?.(++done, labels.items.length);
    }
  };

  let pairs: [string, string][];
  let labelValues: readonly string[];
  let binary: [string, string][];
  if (labels.kind === 'faithfulness') {
    labelValues = CLAIM_VERDICTS;
    const verdicts = await Promise.all(
      labels.items.map((item) =>
        limit(() => rate(item.id, () => judgeClaimVerdict(client, item.claim, typeof item.context === 'string' ? item.context : joinContexts(item.context)))),
      ),
    );
    pairs = [];
    labels.items.forEach((item, i) => {
      const verdict = verdicts[i];
      if (verdict !== undefined) pairs.push([item.human_verdict, verdict]);
    });
    const collapse = (verdict: string) => (verdict === SUPPORTED ? SUPPORTED : NOT_SUPPORTED);
    binary = pairs.map(([human, judge]) => [collapse(human), collapse(judge)]);
  } else {
    labelValues = CORRECTNESS_VERDICTS;
    const verdicts = await Promise.all(
      labels.items.map((item) => limit(() => rate(item.id, () => judgeCorrect(client, item.question, item.answer, item.expected_answer)))),
    );
    pairs = [];
    labels.items.forEach((item, i) => {
      const correct = verdicts[i];
      if (correct !== undefined) pairs.push([item.human_correct ? 'CORRECT' : 'INCORRECT', correct ? 'CORRECT' : 'INCORRECT']);
    });
    binary = pairs;
  }

  const agreement = cohensKappa(binary);
  const full = cohensKappa(pairs);
  const confusion: Record<string, Record<string, number>> = {};
  for (const human of labelValues) {
    confusion[human] = {};
    for (const judge of labelValues) confusion[human]![judge] = full?.confusion[human]?.[judge] ?? 0;
  }
  const sha256 = createHash('sha256')
    .update(await readFileBytes(options.labelsFile))
    .digest('hex');
  failures.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const record: CalibrationRecord = {
    model: client.model,
    promptVersion: labels.kind === 'faithfulness' ? PROMPT_VERSIONS.faithfulness : PROMPT_VERSIONS.correctness,
    kind: labels.kind,
    kappa: agreement?.kappa ?? null,
    ...(labels.kind === 'faithfulness' ? { threeLabelKappa: full?.kappa ?? null } : {}),
    observed: agreement?.observed ?? 0,
    expected: agreement?.expected ?? 0,
    n: agreement?.n ?? 0,
    date: (options.date ?? new Date()).toISOString(),
    confusion,
    labels: { file: options.labelsFile, sha256, total: labels.items.length, failed: failures.length },
  };
  return {
    kind: labels.kind,
    record,
    agreement,
    threeWay: labels.kind === 'faithfulness' ? full : null,
    confusion,
    labelValues,
    total: labels.items.length,
    failures,
  };
}
