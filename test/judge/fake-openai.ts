import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, vi } from 'vitest';
import { scratchDir } from '../helpers/cli.js';
import { type FakeOpenAI, startFakeOpenAI } from './openai-endpoint.js';

export * from './openai-endpoint.js';

/**
 * The setup every judge test file shares: one fake endpoint for the file, reset before each test, a key and a
 * fast backoff in the environment, and fresh file names in a scratch directory. Call it at the top of the file.
 */
export function useFakeJudge(): { readonly server: FakeOpenAI; path(name: string): string } {
  const scratch = scratchDir();
  let server: FakeOpenAI | undefined;
  let counter = 0;
  beforeAll(async () => {
    server = await startFakeOpenAI();
  });
  afterAll(async () => {
    await server?.close();
    scratch.cleanup();
  });
  beforeEach(() => {
    server?.reset();
    vi.stubEnv('OPENAI_API_KEY', 'sk-test-key');
    vi.stubEnv('OPENAI_BASE_URL', undefined);
    vi.stubEnv('RAG_GATE_JUDGE_BACKOFF_MS', '5');
  });
  afterEach(() => {
    vi.unstubAllEnvs();
  });
  return {
    get server() {
      if (server === undefined) throw new Error('useFakeJudge: the server starts in beforeAll');
      return server;
    },
    path(name) {
      counter++;
      return join(scratch.dir, `${counter}-${name}`);
    },
  };
}
