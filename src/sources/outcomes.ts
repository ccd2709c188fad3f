import { type EvalConfig } from '../core/scoring/score.js';
import { OutcomeBuilder, type QuestionOutcomes } from '../core/scoring/outcomes.js';
import type { ReadProgress } from './lines.js';
import { readResults } from './results.js';

/**
 * Reads and scores a results file, or several shards of one run (merged in order; an id in two shards is an
 * error). Throws InputError (file, line, field) on bad input.
 */
export async function readOutcomes(
  files: string | readonly string[],
  config: EvalConfig,
  onProgress?: ReadProgress,
): Promise<{ outcomes: QuestionOutcomes; warnings: readonly string[] }> {
  const builder = new OutcomeBuilder(config);
  const seenIds = new Map<string, { file: string; line: number }>();
  const warnings: string[] = [];
  for (const file of typeof files === 'string' ? [files] : files) {
    const read = await readResults(file, (record) => builder.add(record), seenIds, onProgress);
    warnings.push(...read.warnings);
  }
  return { outcomes: builder.build(), warnings };
}
