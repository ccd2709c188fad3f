import * as core from '@actions/core';
import { context } from '@actions/github';
import { type ActionRuntime, runAction } from './frontends/github/run.js';
import { actionSecrets, redactingRuntime } from './frontends/github/redacting-runtime.js';
import { redactor } from './core/redact.js';
import { writeFileAtomic } from './sources/write.js';
import { createGitHubApi } from './frontends/github/github.js';
import { mappedStack } from './pipeline/stack.js';

/**
 * The action, run through `@actions/core` and `@actions/github`'s context: what `dist/index.js` starts on the runner,
 * and what `npx local-action run . src/main.ts .env` imports and calls from source (it stands in for both).
 * `readerEntry` is the bundled entry file, to read the base run on a second thread; without it (from source) both
 * runs are read on this one. Never throws: a failure is the action's failure, reported through `@actions/core`.
 */
export async function run(readerEntry?: URL): Promise<void> {
  const secrets = actionSecrets(core.getInput('github-token'), process.env);
  // Everything the action sends out goes through this one runtime, Octokit's log lines included.
  const runtime: ActionRuntime = redactingRuntime(
    {
      getInput: (name) => core.getInput(name),
      env: process.env,
      context,
      createApi: (options) =>
        createGitHubApi({
          ...options,
          baseUrl: context.apiUrl || 'https://api.github.com',
          retryBaseMs: Number(process.env.RAG_GATE_RETRY_BASE_MS) || undefined,
          log: (message) => runtime.info(message),
        }),
      info: (message) => core.info(message),
      warning: (message, title) => core.warning(message, title === undefined ? undefined : { title }),
      setOutput: (name, value) => core.setOutput(name, value),
      setFailed: (message) => core.setFailed(message),
      writeSummary: async (markdown) => {
        await core.summary.addRaw(markdown, true).write();
      },
      writeReport: (file, text) => writeFileAtomic(file, text),
      now: () => new Date(),
      ...(readerEntry === undefined ? {} : { readerEntry }),
    },
    secrets,
  );
  await runAction(runtime).catch((error: unknown) => {
    // runAction reports every failure itself; this is one in that reporting (e.g. stdout gone).
    process.stderr.write(`rag-gate: internal error: ${redactor(secrets)(mappedStack(error))}\n`);
    process.exitCode = 1;
  });
}
