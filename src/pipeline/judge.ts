import type { CalibrationResult } from '../judge/calibration.js';
import type { JudgeClient } from '../judge/client.js';
import type { JudgeRunResult } from '../judge/run.js';
import { formatPacing, renderCalibration, renderJudgeSummary } from '../render/judge-report.js';

/** The words of the judge's runs, for both front ends: what a judged file, a calibration and a run's calls came to. */

/** After `judge`: per metric, what was judged, kept, skipped and failed, the calls and tokens, and the pacing. */
export function judgedFileText(client: JudgeClient, result: JudgeRunResult, out: string, maxFailureShare: number): string {
  return renderJudgeSummary(result, client.stats, out, maxFailureShare, client.pacing);
}

/** After `calibrate`: the agreement with the human labels, and whether it clears the kappa floor. */
export function calibrationText(client: JudgeClient, result: CalibrationResult, kappaFloor: number): string {
  return renderCalibration(result, client.stats, kappaFloor);
}

/** One line for the action's log: the run's calls, cache hits and rate limits, and the pacing in force. */
export function judgeUsageLine(client: JudgeClient): string {
  const { calls, cacheHits, rateLimited } = client.stats;
  return `judge: ${calls} calls, ${cacheHits} cache hits, ${rateLimited} rate limited (429); ${formatPacing(client.pacing)}`;
}
