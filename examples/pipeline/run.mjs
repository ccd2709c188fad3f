// Runs both configurations of the example pipeline and writes base.jsonl and head.jsonl.
//
//   node examples/pipeline/run.mjs [--out DIR]      (default: examples/, the committed copies)
//
// The output is deterministic: the same corpus and golden set always give byte-identical files.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import process from 'node:process';
import { pathToFileURL } from 'node:url';
import { CONFIGS, EXAMPLES, loadCorpus, loadGolden, runPipeline, toJsonl } from './pipeline.mjs';

/**
 * Writes `base.jsonl` and `head.jsonl` to `dir` and returns their paths; with `repeats`, each question `repeats`
 * times, answered with sampling noise (`runPipeline`).
 * @param {string} dir
 * @param {{ repeats?: number }} [options]
 */
export function writeResults(dir, options = {}) {
  const input = { docs: loadCorpus(), golden: loadGolden() };
  mkdirSync(dir, { recursive: true });
  const files = { base: join(dir, 'base.jsonl'), head: join(dir, 'head.jsonl') };
  for (const name of /** @type {const} */ (['base', 'head'])) writeFileSync(files[name], toJsonl(runPipeline(CONFIGS[name], input, options)));
  return files;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const args = process.argv.slice(2);
  const at = args.indexOf('--out');
  if (args.some((arg, i) => arg !== '--out' && i !== at + 1) || (at >= 0 && args[at + 1] === undefined)) {
    process.stderr.write('usage: node examples/pipeline/run.mjs [--out DIR]\n');
    process.exit(2);
  }
  const files = writeResults(at >= 0 ? resolve(/** @type {string} */ (args[at + 1])) : EXAMPLES);
  process.stdout.write(`wrote ${files.base}\nwrote ${files.head}\n`);
}
