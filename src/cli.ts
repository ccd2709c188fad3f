#!/usr/bin/env node
// First, to run before any other module: see there.
import './pipeline/young-generation.js';
import { main } from './frontends/cli/main.js';
import { isReaderThread, serveReader } from './sources/parallel.js';

// No top-level await: the bundle is CommonJS (scripts/build.mjs).
if (isReaderThread()) {
  void serveReader();
} else {
  void main(process.argv.slice(2), {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    readerEntry: new URL(import.meta.url),
  }).then((code) => {
    process.exitCode = code;
  });
}
