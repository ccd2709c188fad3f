import { stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { Command, InvalidArgumentError, Option } from 'commander';
import { InputError } from '../../core/errors.js';
import { SETTINGS } from '../../core/catalog/settings.js';
import { DEFAULT_EMBEDDING_MODEL, type JudgeClient } from '../../judge/client.js';
import { JudgeSetupError } from '../../judge/errors.js';
import { JUDGE_METRICS, type JudgeMetric } from '../../judge/metrics.js';
import { PROMPT_VERSIONS } from '../../judge/prompts.js';
import { batchNotCollectedText, batchProgressText, judgedFileText } from '../../pipeline/judge.js';
import { JUDGE_ERRORS_FIELD, type JudgeRunResult, judgeFile } from '../../judge/run.js';
import { type BatchReport, judgeFileBatch } from '../../judge/batch.js';
import { batchPollMs, createJudgeClient } from '../../judge/setup.js';
import type { CommandContext } from './context.js';
import { countingProgress } from './progress.js';
import { EXIT } from './exit.js';
import { addParsedSettingOptions, argParser } from './options.js';

const wholeNumber = (min: number, what: string) => (text: string) => {
  const value = Number(text);
  if (!/^\s*\d+\s*$/.test(text) || !Number.isSafeInteger(value) || value < min) throw new InvalidArgumentError(`must be ${what}, got "${text}"`);
  return value;
};

const share = (text: string) => {
  const value = Number(text);
  if (text.trim() === '' || !Number.isFinite(value) || value < 0 || value > 1) throw new InvalidArgumentError(`must be a share between 0 and 1, got "${text}"`);
  return value;
};

const metricsOption = (text: string): JudgeMetric[] => {
  const names = text
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  for (const name of names) {
    if (!(JUDGE_METRICS as readonly string[]).includes(name))
      throw new InvalidArgumentError(`"${name}" is not a judge metric; use a comma list of ${JUDGE_METRICS.join(', ')}`);
  }
  if (names.length === 0) throw new InvalidArgumentError(`give at least one of ${JUDGE_METRICS.join(', ')}`);
  return [...new Set(names)] as JudgeMetric[];
};

/** Options of `judge` and `calibrate` that configure the endpoint and the client. */
export interface JudgeClientCliOptions {
  model: string;
  embeddingModel?: string;
  baseUrl?: string;
  concurrency: number;
  cache: string | false;
  maxCalls?: number;
  timeoutSeconds: number;
  /** The flag `--timeout-seconds` replaced, still accepted. */
  timeoutMs?: number;
  maxAttempts: number;
  rpm?: number;
  tpm?: number;
  maxFailureShare: number;
  json?: boolean;
}

/**
 * Adds the endpoint and client options shared by `judge` and `calibrate`: the catalog's judge-* rows (the action's
 * inputs of the same names), then those only the command line has.
 */
export function addJudgeClientOptions(command: Command, name: 'judge' | 'calibrate'): Command {
  return addParsedSettingOptions(command, name)
    .addOption(new Option('--no-cache', 'do not read or write the cache'))
    .addOption(
      new Option('--timeout-ms <ms>', 'the timeout in milliseconds (before --timeout-seconds)')
        .argParser(wholeNumber(1, 'a whole number of milliseconds ≥ 1'))
        .conflicts('timeoutSeconds')
        .hideHelp(),
    )
    .addOption(
      new Option('--max-calls <n>', 'budget of HTTP requests (retries included); beyond it items are marked as judge errors').argParser(
        wholeNumber(0, 'a whole number ≥ 0'),
      ),
    )
    .addOption(new Option('--max-failure-share <share>', 'exit 1 when more than this share of items could not be judged').argParser(share).default(0.05));
}

/** The client for the command's options (see `createJudgeClient` for the environment it reads). */
export function judgeClientFromOptions(options: JudgeClientCliOptions, env: NodeJS.ProcessEnv = process.env): JudgeClient {
  const timeoutSeconds = options.timeoutMs === undefined ? options.timeoutSeconds : options.timeoutMs / 1000;
  return createJudgeClient({ ...options, timeoutSeconds }, env);
}

/** Runs a judge command; a setup problem (no key, endpoint unreachable, key rejected) prints one error and exits 2. */
export async function withJudgeSetup(context: CommandContext, run: () => Promise<number>): Promise<number> {
  try {
    return await run();
  } catch (error) {
    if (!(error instanceof JudgeSetupError)) throw error;
    context.stderr(`rag-gate: error: ${error.message}\n`);
    return EXIT.badInput;
  }
}

interface JudgeOptions extends JudgeClientCliOptions {
  results: string;
  format: ReturnType<(typeof SETTINGS)['format']['parse']>;
  field: string[];
  out: string;
  metrics: JudgeMetric[];
  overwrite?: boolean;
  mode: ReturnType<(typeof SETTINGS)['judge-mode']['parse']>;
  batch?: boolean;
  batchFallback: ReturnType<(typeof SETTINGS)['judge-batch-fallback']['parse']>;
  batchState?: string;
  batchWait: number;
  price: ReturnType<(typeof SETTINGS)['judge-price']['parse']>;
}

/** The command that collects a submitted batch: the same files and state file (and the same other options). */
function collectCommand(options: JudgeOptions, state: string): string {
  const quote = (text: string) => (/^[\w./@:=+-]+$/.test(text) ? text : `'${text.replace(/'/g, "'\\''")}'`);
  return `rag-gate judge --batch --results ${quote(options.results)} --out ${quote(options.out)} --batch-state ${quote(state)} (with the same --metrics, --model and --base-url)`;
}

async function checkOut(results: string, out: string): Promise<void> {
  if (resolve(out) === resolve(results)) {
    throw InputError.single({ file: out, message: 'is the results file itself; --out must name another file (the input is never modified)' });
  }
  const directory = dirname(resolve(out));
  const info = await stat(directory).catch(() => undefined);
  if (!info?.isDirectory()) throw InputError.single({ file: out, message: `cannot write: the directory ${directory} does not exist` });
}

export function judgeCommand(context: CommandContext, setExitCode: (code: number) => void): Command {
  const command = new Command('judge')
    .description('fill in judge metrics (claims, answer_relevance, correct) with an LLM judge on an OpenAI-compatible endpoint')
    .requiredOption('--results <file>', 'results file to judge (never modified)')
    .addOption(new Option('--format <name>', SETTINGS.format.description).argParser(argParser(SETTINGS.format.parse)).default('auto', 'auto'))
    .addOption(
      new Option('--field <ours=yours>', SETTINGS.fields.description)
        .argParser((text: string, previous: string[]) => {
          const given = [...previous, text];
          argParser(SETTINGS.fields.parse)(given.join('\n'));
          return given;
        })
        .default([], 'none'),
    )
    .requiredOption('--out <file>', 'where to write the judged copy (JSON Lines, written atomically)')
    .addOption(
      new Option('--metrics <list>', `metrics to judge: ${JUDGE_METRICS.join(', ')}`)
        .argParser(metricsOption)
        .default([...JUDGE_METRICS], JUDGE_METRICS.join(',')),
    )
    .addOption(new Option('--embedding-model <name>', 'embedding model for answer_relevance').default(DEFAULT_EMBEDDING_MODEL, DEFAULT_EMBEDDING_MODEL));
  return addJudgeClientOptions(command, 'judge')
    .option('--overwrite', 'replace judged fields the input already has (default: keep them)')
    .option('--batch', "send the requests through the provider's Batch API: --mode batch")
    .option('--json', 'print a JSON summary on stdout')
    .action(async (options: JudgeOptions) => {
      const code = await withJudgeSetup(context, async () => {
        await checkOut(options.results, options.out);
        const client = judgeClientFromOptions(options);
        const progress = countingProgress(context, 'judging');
        // OUT is written even when too many records failed: the judged ones are not lost, the failed ones are marked.
        const fields = SETTINGS.fields.parse(options.field.join('\n'));
        const run = {
          results: options.results,
          read: { format: options.format, fields },
          out: options.out,
          metrics: options.metrics,
          overwrite: options.overwrite === true,
          onProgress: progress.update,
        };
        let result: JudgeRunResult;
        let batch: BatchReport | undefined;
        if (options.batch === true || options.mode === 'batch') {
          const state = options.batchState ?? `${options.out}.batch.json`;
          const outcome = await judgeFileBatch(client, run, {
            state,
            waitMs: options.batchWait,
            fallback: options.batchFallback,
            pollMs: batchPollMs(process.env),
            onStatus: (batch) => context.stderr(batchProgressText(batch)),
          }).finally(progress.end);
          if (outcome.kind !== 'collected') {
            for (const warning of [...outcome.readWarnings, ...client.warnings]) context.stderr(`rag-gate: warning: ${warning}\n`);
            context.stderr(batchNotCollectedText(outcome, options.out, collectCommand(options, state)));
            if (options.json) context.stdout(`${JSON.stringify({ results: options.results, out: options.out, batch: outcome }, null, 2)}\n`);
            return EXIT.ok;
          }
          ({ result, batch } = outcome);
        } else {
          result = await judgeFile(client, run).finally(progress.end);
        }
        const warnings = [...result.readWarnings, ...client.warnings];
        for (const warning of warnings) context.stderr(`rag-gate: warning: ${warning}\n`);
        context.stderr(judgedFileText(client, result, options.out, options.maxFailureShare, batch && { report: batch, price: options.price }));
        const failed = result.failureShare > options.maxFailureShare;
        if (options.json) {
          context.stdout(
            `${JSON.stringify(
              {
                results: options.results,
                out: options.out,
                model: client.model,
                embeddingModel: options.metrics.includes('answer_relevance') ? client.embeddingModel : undefined,
                promptVersions: Object.fromEntries(options.metrics.map((metric) => [metric, PROMPT_VERSIONS[metric]])),
                records: result.records,
                recordsToJudge: result.recordsToJudge,
                recordsFailed: result.recordsFailed,
                failureShare: result.failureShare,
                maxFailureShare: options.maxFailureShare,
                failuresByKind: result.failuresByKind,
                metrics: result.metrics,
                stats: client.stats,
                pacing: client.pacing,
                batch,
                passed: !failed,
              },
              null,
              2,
            )}\n`,
          );
        }
        if (failed) {
          context.stderr(
            `rag-gate: error: ${result.recordsFailed} of ${result.recordsToJudge} records (${(result.failureShare * 100).toFixed(1)}%) could not be judged, ` +
              `more than the ${(options.maxFailureShare * 100).toFixed(1)}% --max-failure-share allows. ${options.out} was still written, ` +
              `with "${JUDGE_ERRORS_FIELD}" on those records so no work is lost; rerun to retry them` +
              `${options.cache === false ? '' : ' (replies already received come from the cache)'}\n`,
          );
          return EXIT.gateFailed;
        }
        return EXIT.ok;
      });
      setExitCode(code);
    });
}
