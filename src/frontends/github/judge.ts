import { mkdir } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { type BatchReport, judgeFileBatch } from '../../judge/batch.js';
import type { JudgeClient } from '../../judge/client.js';
import { JUDGE_METRICS } from '../../judge/metrics.js';
import { type JudgeRunResult, judgeFile } from '../../judge/run.js';
import { batchPollMs, createJudgeClient, judgeSettings } from '../../judge/setup.js';
import { batchNotCollectedText, batchSummaryLines, judgeUsageLine } from '../../pipeline/judge.js';
import type { Settings } from '../../core/catalog/settings.js';
import type { ActionRuntime } from './runtime.js';

/** A share of records the judge may fail on before the run counts as broken (as `rag-gate judge`'s default). */
const MAX_FAILURE_SHARE = 0.05;

class JudgeRunError extends Error {
  override name = 'JudgeRunError';
}

/** In batch mode, a batch submitted or not finished within `judge-batch-wait`: this run stops, a later one collects it. */
export class JudgeBatchNotCollected extends Error {
  override name = 'JudgeBatchNotCollected';
}

/**
 * The judge of one action run: one client (one cache, one call count) for the head and the base files. It judges
 * the fields the records lack (faithfulness, answer relevance, correctness), so a base judged before costs nothing,
 * and the on-disk cache (keep it with actions/cache) makes a rerun free.
 */
export class ActionJudge {
  private readonly client: JudgeClient;
  private readonly batches: BatchReport[] = [];
  private readonly pollMs: number;

  constructor(
    private readonly settings: Settings,
    env: Readonly<Record<string, string | undefined>>,
  ) {
    this.client = createJudgeClient(judgeSettings(settings), env as NodeJS.ProcessEnv);
    this.pollMs = batchPollMs(env as NodeJS.ProcessEnv);
  }

  /**
   * One file judged: synchronously, or through the batch API (`judge-mode: batch`) with a state file per results file
   * under `judge-batch-state` (default the cache's batches/ folder, which actions/cache keeps for the next run).
   */
  private async judgeOne(file: string, out: string, stateName: string): Promise<JudgeRunResult> {
    const run = { results: file, out, metrics: JUDGE_METRICS, overwrite: false };
    if (this.settings['judge-mode'] !== 'batch') return judgeFile(this.client, run);
    const folder = this.settings['judge-batch-state'] ?? join(this.settings['judge-cache'], 'batches');
    await mkdir(folder, { recursive: true });
    const outcome = await judgeFileBatch(this.client, run, {
      state: join(folder, stateName),
      waitMs: this.settings['judge-batch-wait'],
      fallback: this.settings['judge-batch-fallback'],
      pollMs: this.pollMs,
    });
    if (outcome.kind !== 'collected') {
      throw new JudgeBatchNotCollected(
        batchNotCollectedText(outcome, out, 'rerun the workflow with the same judge cache (actions/cache) and judge-batch-state'),
      );
    }
    this.batches.push(outcome.batch);
    return outcome.result;
  }

  /**
   * Writes judged copies of `files` under `directory` and returns their paths in the same order. Throws
   * JudgeRunError when more than 5% of a file's records could not be judged.
   */
  async judgeFiles(files: readonly string[], directory: string, side: 'head' | 'base', log: (message: string) => void): Promise<string[]> {
    await mkdir(directory, { recursive: true });
    const judged: string[] = [];
    for (const [index, file] of files.entries()) {
      const out = join(directory, `${index}-${basename(file)}`);
      const result = await this.judgeOne(file, out, `${side}-${index}-${basename(file)}.batch.json`);
      log(`judged ${file}: ${result.recordsToJudge} records needed the judge, ${result.recordsFailed} failed`);
      if (result.failureShare > MAX_FAILURE_SHARE) {
        throw new JudgeRunError(
          `the judge failed on ${result.recordsFailed} of ${result.recordsToJudge} records of ${file} (${(result.failureShare * 100).toFixed(1)}%, more than ${MAX_FAILURE_SHARE * 100}%); see judge_errors in ${out}`,
        );
      }
      judged.push(out);
    }
    return judged;
  }

  /** The run's calls and cache hits, and what the client warned about (a JSON-mode fallback, an unwritable cache). */
  report(log: (message: string) => void, warn: (message: string) => void): void {
    log(judgeUsageLine(this.client));
    for (const batch of this.batches) for (const line of batchSummaryLines(this.client, batch, this.settings['judge-price'])) log(line.trim());
    for (const message of this.client.warnings) warn(message);
  }
}

/** The run's judge, when `judge` is openai: head and base judged into `reportDir`/judged, its report in the log. */
export interface RunJudge {
  /** The files to read for `side`: judged copies, or the files themselves without a judge. */
  files(files: readonly string[], side: 'head' | 'base'): Promise<readonly string[]>;
  report(): void;
}

export function runJudge(runtime: ActionRuntime, settings: Settings, reportDir: string): RunJudge {
  const judge = settings.judge === 'openai' ? new ActionJudge(settings, runtime.env) : null;
  const log = (message: string) => runtime.info(message);
  return {
    files: async (files, side) => (judge === null ? files : judge.judgeFiles(files, join(reportDir, 'judged', side), side, log)),
    report: () => judge?.report(log, (message) => runtime.warning(`judge: ${message}`)),
  };
}
