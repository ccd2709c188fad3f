// First, to run before any other module: see there.
import './pipeline/young-generation.js';
import { run } from './main.js';
import { isReaderThread, serveReader } from './sources/parallel.js';

// The base run is read on a thread started from this same file; such a thread only reads. No top-level await: the
// bundle is CommonJS (scripts/build.mjs).
if (isReaderThread()) void serveReader();
else void run(new URL(import.meta.url));
