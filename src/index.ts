// First, to run before any other module: see there.
import './pipeline/young-generation.js';
import * as core from '@actions/core';
import { context } from '@actions/github';
import { type ActionRuntime, runAction } from './frontends/github/run.js';
import { actionSecrets, redactingRuntime } from './frontends/github/redacting-runtime.js';
import { redactor } from './core/redact.js';
import { writeFileAtomic } from './sources/write.js';
import { createGitHubApi } from './frontends/github/github.js';
import { isReaderThread, serveReader } from './sources/parallel.js';
import { mappedStack } from './pipeline/stack.js';

// The base run is read on a thread started from this same file; such a thread only reads. No top-level await: the
// bundle is CommonJS (scripts/build.mjs).
if (isReaderThread()) void serveReader();
else {
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
      readerEntry: new URL(import.meta.url),
    },
    secrets,
  );
  void runAction(runtime).catch((error: unknown) => {
    // runAction reports every failure itself; this is one in that reporting (e.g. stdout gone).
    process.stderr.write(`rag-gate: internal error: ${redactor(secrets)(mappedStack(error))}\n`);
    process.exitCode = 1;
  });
}
