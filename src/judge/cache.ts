import { createHash, randomUUID } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';

/** Bumped when the meaning of a cached value changes, so old entries are simply never found again. */
const CACHE_FORMAT = 'rag-gate-judge-cache-v1';

/** Everything a judge reply depends on. The base URL is not part of it: the model name identifies the judge. */
export interface CacheKeyParts {
  /** Which endpoint: a chat completion or an embeddings call. */
  readonly endpoint: 'chat' | 'embeddings';
  readonly model: string;
  /** The prompt version (e.g. `faithfulness-v1`) of the metric the call serves. */
  readonly promptVersion: string;
  /** Which request of that metric (e.g. `faithfulness.answer`, `faithfulness.claim`). */
  readonly task: string;
  /** The full input: the chat messages (rubric included, so an edited prompt never reuses a stale reply) or the texts embedded. */
  readonly input: unknown;
}

/**
 * The cache key: sha256 (hex) of the JSON array [CACHE_FORMAT, endpoint, model, promptVersion, task, input].
 * The array's order is fixed and the input is built by rag-gate in a fixed key order, so equal calls give
 * equal keys across runs and machines.
 */
export function cacheKey(parts: CacheKeyParts): string {
  const canonical = JSON.stringify([CACHE_FORMAT, parts.endpoint, parts.model, parts.promptVersion, parts.task, parts.input]);
  return createHash('sha256').update(canonical).digest('hex');
}

/**
 * A content-addressed store of validated judge replies: one JSON file per key under DIR/ab/abcdef….json,
 * written atomically (a uniquely named temporary file renamed into place), so concurrent writers and an
 * interrupted run never leave a half-written entry. Only validated replies are stored, never errors.
 */
export class JudgeCache {
  /** Set once when the cache cannot be written; judging goes on without it. */
  writeProblem: string | undefined;

  constructor(readonly dir: string) {}

  private path(key: string): string {
    return join(this.dir, key.slice(0, 2), `${key}.json`);
  }

  /** The stored value, or undefined when there is none or the file is unreadable (then it is a miss). */
  async get(key: string): Promise<unknown> {
    let text: string;
    try {
      text = await readFile(this.path(key), 'utf8');
    } catch {
      return undefined;
    }
    try {
      const entry = JSON.parse(text) as { key?: unknown; value?: unknown };
      return entry.key === key ? entry.value : undefined;
    } catch {
      return undefined;
    }
  }

  async put(key: string, parts: CacheKeyParts, value: unknown): Promise<void> {
    const file = this.path(key);
    const temporary = join(dirname(file), `.${key}.${randomUUID()}.tmp`);
    const entry = { key, format: CACHE_FORMAT, endpoint: parts.endpoint, model: parts.model, promptVersion: parts.promptVersion, task: parts.task, value };
    try {
      await mkdir(dirname(file), { recursive: true });
      await writeFile(temporary, `${JSON.stringify(entry)}\n`);
      await rename(temporary, file);
    } catch (error) {
      await rm(temporary, { force: true }).catch(() => undefined);
      this.writeProblem ??= `cannot write the judge cache under ${this.dir} (${error instanceof Error ? error.message : String(error)}); continuing without caching`;
    }
  }
}
