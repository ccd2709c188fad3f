import { mkdir } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { JUDGE_METRICS } from '../judge/metrics.js';
import { judgeFile } from '../judge/run.js';
import { clientWarnings, createJudgeClient } from '../judge/setup.js';
import type { ActionInputs } from './inputs.js';

/** A share of records the judge may fail on before the run counts as broken (as `rag-gate judge`'s default). */
const MAX_FAILURE_SHARE = 0.05;

class JudgeRunError extends Error {
  override name = 'JudgeRunError';
}

/**
 * Judges the fields the records lack (faithfulness, answer relevance, correctness) with the OpenAI-compatible
 * endpoint, writing judged copies under `directory` and returning their paths in the same order. Fields a record
 * already has are kept, so a base whose results were judged before costs nothing; the on-disk cache (keep it with
 * actions/cache) makes a rerun free. Throws JudgeRunError when more than 5% of records could not be judged.
 */
export async function judgeFiles(
  files: readonly string[],
  inputs: ActionInputs,
  directory: string,
  env: Readonly<Record<string, string | undefined>>,
  log: (message: string) => void,
  warn: (message: string) => void,
): Promise<string[]> {
  const client = createJudgeClient(
    { model: inputs.judgeModel, baseUrl: inputs.judgeBaseUrl, cache: inputs.judgeCache, timeoutMs: 60_000, maxAttempts: 4 },
    env as NodeJS.ProcessEnv,
  );
  await mkdir(directory, { recursive: true });
  const judged: string[] = [];
  for (const [index, file] of files.entries()) {
    const out = join(directory, `${index}-${basename(file)}`);
    const result = await judgeFile(client, { results: file, out, metrics: JUDGE_METRICS, overwrite: false, concurrency: 8 });
    log(`judged ${file}: ${result.recordsToJudge} records needed the judge, ${result.recordsFailed} failed`);
    if (result.failureShare > MAX_FAILURE_SHARE) {
      throw new JudgeRunError(
        `the judge failed on ${result.recordsFailed} of ${result.recordsToJudge} records of ${file} (${(result.failureShare * 100).toFixed(1)}%, more than ${MAX_FAILURE_SHARE * 100}%); see judge_errors in ${out}`,
      );
    }
    judged.push(out);
  }
  const { calls, cacheHits } = client.stats;
  log(`judge: ${calls} calls, ${cacheHits} cache hits`);
  for (const message of clientWarnings(client)) warn(message);
  return judged;
}
