#!/usr/bin/env node
import { main } from './frontends/cli/main.js';
import { isReaderThread, serveReader } from './sources/parallel.js';

if (isReaderThread()) {
  await serveReader();
} else {
  process.exitCode = await main(process.argv.slice(2), {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    readerEntry: new URL(import.meta.url),
  });
}
