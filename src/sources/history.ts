import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { InputError } from '../core/errors.js';
import type { History } from '../core/history/history.js';

/**
 * The history file (`rag-gate-history.json` in the baseline artifact, the action's `history` file, or `--history
 * FILE`), validated at the boundary: it
 * comes from an artifact, so it is untrusted like any results. Commits are hex, so they can be chart labels as
 * they are; numbers are finite.
 */
const finite = z.number().refine(Number.isFinite, 'must be a finite number');
const metricSchema = z.object({
  value: finite,
  n: z.number().int().nonnegative(),
  ci: z.tuple([finite, finite]).optional(),
});
const historySchema = z.object({
  version: z.literal(1),
  runs: z
    .array(
      z.object({
        commit: z.string().regex(/^[0-9a-f]{7,64}$/, 'must be a commit hash (hex)'),
        date: z.string().refine((date) => !Number.isNaN(Date.parse(date)), 'must be an ISO 8601 date'),
        n: z.number().int().nonnegative(),
        metrics: z.record(z.string().max(200), metricSchema),
      }),
    )
    .max(10_000),
});

/** Reads and validates a history file; throws InputError naming the file and the first bad field. */
export async function readHistory(file: string): Promise<History> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw InputError.single({ file, message: `not a readable JSON history file: ${error instanceof Error ? error.message : String(error)}` });
  }
  return parseHistory(text, file);
}

/** Validates a history's text; `file` names it in the InputError (an artifact's entry, for one read from a zip). */
export function parseHistory(text: string, file: string): History {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw InputError.single({ file, message: `not a readable JSON history file: ${error instanceof Error ? error.message : String(error)}` });
  }
  const parsed = historySchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw InputError.single({ file, field: issue.path.join('.'), message: issue.message });
  }
  return parsed.data as History;
}

/** The history as its file holds it: one run a line, so that a diff of two versions shows the runs that changed. */
export function historyJson(history: History): string {
  const runs = history.runs.map((run) => JSON.stringify(run));
  return `{"version":${history.version},"runs":[${runs.length === 0 ? '' : `\n${runs.join(',\n')}\n`}]}\n`;
}
