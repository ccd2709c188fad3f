#!/usr/bin/env node
// First, to run before any other module: see there.
import './pipeline/young-generation.js';
import { main } from './frontends/cli/main.js';
import { isReaderThread, serveReader } from './sources/parallel.js';

/**
 * A reader that stops reading (`rag-gate compare … | head`) closes the pipe: the rest of the output has nowhere to
 * go, which is not the run's failure. The stream stops taking writes and the run ends with its own exit code, the
 * gate's verdict; any other write error still ends the process as unhandled.
 */
function stopAtClosedPipe(stream: NodeJS.WriteStream): void {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
    stream.destroy();
  });
}

function writeOpen(stream: NodeJS.WriteStream, text: string): void {
  if (!stream.destroyed) stream.write(text);
}

// No top-level await: the bundle is CommonJS (scripts/build.mjs).
if (isReaderThread()) {
  void serveReader();
} else {
  stopAtClosedPipe(process.stdout);
  stopAtClosedPipe(process.stderr);
  void main(process.argv.slice(2), {
    stdout: (text) => writeOpen(process.stdout, text),
    stderr: (text) => writeOpen(process.stderr, text),
    readerEntry: new URL(import.meta.url),
  }).then((code) => {
    process.exitCode = code;
  });
}
