import type { Settings } from '../core/catalog/settings.js';
import { redactor } from '../core/redact.js';
import { JudgeCache } from './cache.js';
import { DEFAULT_BACKOFF_MS, DEFAULT_BASE_URL, DEFAULT_EMBEDDING_MODEL, JudgeClient } from './client.js';
import { JudgeSetupError } from './errors.js';
import { DEFAULT_POLL_MS } from './batch.js';
import { proxyFetch } from '../net/fetch.js';

/** How to reach and use the judge; the key and (unless given) the base URL come from the environment. */
export interface JudgeSettings {
  readonly model: string;
  readonly embeddingModel?: string;
  /** Overrides OPENAI_BASE_URL. */
  readonly baseUrl?: string;
  /** Cache directory, or false for none. */
  readonly cache: string | false;
  readonly maxCalls?: number;
  readonly timeoutSeconds: number;
  readonly maxAttempts: number;
  /** HTTP requests in flight at once. */
  readonly concurrency: number;
  /** Requests and tokens per minute to pace calls to; unset: the endpoint's rate limit headers, if any. */
  readonly rpm?: number;
  readonly tpm?: number;
}

/** The judge's client settings as the catalog rows give them (the action and monitor; the CLI's judge reads its own flags). */
export function judgeSettings(settings: Settings, embeddingModel?: string): JudgeSettings {
  return {
    model: settings['judge-model'],
    ...(embeddingModel === undefined ? {} : { embeddingModel }),
    baseUrl: settings['judge-base-url'],
    cache: settings['judge-cache'],
    timeoutSeconds: settings['judge-timeout-seconds'],
    maxAttempts: settings['judge-max-attempts'],
    concurrency: settings['judge-concurrency'],
    rpm: settings['judge-rpm'],
    tpm: settings['judge-tpm'],
  };
}

/**
 * The judge client for these settings and the environment: key from OPENAI_API_KEY; base URL from the
 * settings, else OPENAI_BASE_URL, else OpenAI's; backoff base from RAG_GATE_JUDGE_BACKOFF_MS. Missing or bad
 * values throw JudgeSetupError (exit 2), before any call. A base URL with `user:password@` needs no key: they
 * are sent instead of it.
 */
export function createJudgeClient(settings: JudgeSettings, env: NodeJS.ProcessEnv = process.env): JudgeClient {
  const apiKey = env.OPENAI_API_KEY?.trim() ?? '';
  const fromEnv = env.OPENAI_BASE_URL?.trim();
  const baseUrl = settings.baseUrl ?? (fromEnv ? fromEnv : DEFAULT_BASE_URL);
  const source = settings.baseUrl !== undefined ? 'the base URL' : fromEnv ? 'OPENAI_BASE_URL' : 'the default base URL';
  const quoted = redactor([apiKey])(`"${baseUrl}"`);
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new JudgeSetupError(`${source} ${quoted} is not a URL; use for example https://api.openai.com/v1 or http://localhost:11434/v1`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new JudgeSetupError(`${source} ${quoted} must be an http or https URL`);
  if (!apiKey && url.username === '' && url.password === '') {
    throw new JudgeSetupError(
      'no API key: set OPENAI_API_KEY in the environment (in GitHub Actions, pass a secret as env OPENAI_API_KEY); for a local server that needs none, set any value',
    );
  }
  // fetch would refuse the header later, quoting the key; say here what is wrong, without quoting it.
  if (/[^\x20-\x7e]/.test(apiKey))
    throw new JudgeSetupError(
      'OPENAI_API_KEY has a character an HTTP header cannot carry (only printable ASCII); check for a pasted curly quote or line break',
    );
  const backoffText = env.RAG_GATE_JUDGE_BACKOFF_MS?.trim();
  const backoffMs = backoffText ? Number(backoffText) : DEFAULT_BACKOFF_MS;
  if (!Number.isFinite(backoffMs) || backoffMs < 0)
    throw new JudgeSetupError(`RAG_GATE_JUDGE_BACKOFF_MS must be a number of milliseconds ≥ 0, got "${backoffText}"`);
  return new JudgeClient({
    baseUrl,
    apiKey,
    model: settings.model,
    embeddingModel: settings.embeddingModel ?? DEFAULT_EMBEDDING_MODEL,
    timeoutMs: Math.round(settings.timeoutSeconds * 1000),
    maxAttempts: settings.maxAttempts,
    concurrency: settings.concurrency,
    backoffMs,
    maxCalls: settings.maxCalls,
    rpm: settings.rpm,
    tpm: settings.tpm,
    cache: settings.cache === false ? undefined : new JudgeCache(settings.cache),
    fetch: proxyFetch,
  });
}

/** A batch's first poll interval: `RAG_GATE_JUDGE_BATCH_POLL_MS` (tests), else DEFAULT_POLL_MS. */
export function batchPollMs(env: NodeJS.ProcessEnv = process.env): number {
  const text = env.RAG_GATE_JUDGE_BATCH_POLL_MS?.trim();
  const value = text ? Number(text) : DEFAULT_POLL_MS;
  if (!Number.isFinite(value) || value < 0) throw new JudgeSetupError(`RAG_GATE_JUDGE_BATCH_POLL_MS must be a number of milliseconds ≥ 0, got "${text}"`);
  return value;
}
