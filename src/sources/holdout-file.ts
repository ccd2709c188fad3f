import { readFile, stat } from 'node:fs/promises';
import { z } from 'zod';
import { InputError } from '../core/errors.js';
import type { Split, SplitSizes } from '../core/holdout/split.js';
import type { LedgerEntry } from '../core/holdout/ledger.js';
import { formatFieldPath, readFailure } from './read-problems.js';
import { readJsonDocument } from './read-file.js';
import { utf8Text } from './utf8.js';
import { writeFileAtomic } from './write.js';

/**
 * The holdout file `rag-gate split` writes and `compare`, `eval` and `holdout` read: the split's key (seed,
 * rotation, share), its two id lists, and the sizes per tag for the reader. The sizes are informative; the
 * lists decide.
 */
export const HOLDOUT_FORMAT = 'rag-gate-holdout/1';

const ids = z.array(z.string().min(1, 'must not be empty'), { error: 'must be a list of question ids' });

const holdoutFileSchema = z
  .object({
    format: z.literal(HOLDOUT_FORMAT, { error: `must be "${HOLDOUT_FORMAT}": a holdout file written by rag-gate split` }),
    seed: z.string({ error: 'must be a string' }),
    rotation: z.number().int().min(0, 'must be a whole number ≥ 0'),
    share: z.number().gt(0, 'must be between 0 and 1').lt(1, 'must be between 0 and 1'),
    holdout: ids,
    development: ids,
  })
  .superRefine((file, context) => {
    const seen = new Map<string, 'holdout' | 'development'>();
    for (const side of ['holdout', 'development'] as const) {
      file[side].forEach((id, index) => {
        const other = seen.get(id);
        if (other !== undefined)
          context.addIssue({ code: 'custom', path: [side, index], message: `"${id}" is already listed under ${other}; a question is on one side only` });
        seen.set(id, side);
      });
    }
  });

export async function readHoldoutFile(file: string): Promise<Split> {
  const { seed, rotation, share, holdout, development } = await readJsonDocument(file, holdoutFileSchema, 'a holdout file written by rag-gate split');
  return { seed, rotation, share, holdout, development };
}

/** Whether a file exists, so that `split` can extend the holdout file it wrote before. */
export async function holdoutFileExists(file: string): Promise<boolean> {
  try {
    await stat(file);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw readFailure(file, error);
  }
}

/** The holdout file's object: what `split --json` prints too. */
export function holdoutFileObject(split: Split, sizes: SplitSizes) {
  return {
    format: HOLDOUT_FORMAT,
    seed: split.seed,
    rotation: split.rotation,
    share: split.share,
    holdout: split.holdout,
    development: split.development,
    overall: sizes.overall,
    byTag: sizes.byTag,
    untagged: sizes.untagged,
  };
}

export async function writeHoldoutFile(file: string, split: Split, sizes: SplitSizes): Promise<void> {
  await writeFileAtomic(file, `${JSON.stringify(holdoutFileObject(split, sizes), null, 2)}\n`);
}

const ledgerEntrySchema = z.object({
  holdout: z.string({ error: 'must be the holdout fingerprint' }),
  commit: z.string().nullable(),
  date: z.string({ error: 'must be an ISO 8601 time' }),
  by: z.string({ error: 'must be a string' }),
  gap: z.number().nullable(),
});

/** The ledger: JSON Lines, one evaluation a line, oldest first. A ledger that does not exist yet is empty. */
export async function readLedger(file: string): Promise<LedgerEntry[]> {
  let bytes: Buffer;
  try {
    bytes = await readFile(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw readFailure(file, error);
  }
  const entries: LedgerEntry[] = [];
  const problems: { file: string; line: number; field?: string; message: string }[] = [];
  utf8Text(file, bytes)
    .split(/\r?\n/)
    .forEach((raw, index) => {
      if (raw.trim() === '') return;
      const line = index + 1;
      let value: unknown;
      try {
        value = JSON.parse(raw);
      } catch (error) {
        problems.push({ file, line, message: `not valid JSON (${error instanceof Error ? error.message : String(error)})` });
        return;
      }
      const parsed = ledgerEntrySchema.safeParse(value);
      if (parsed.success) entries.push(parsed.data);
      else for (const issue of parsed.error.issues) problems.push({ file, line, field: formatFieldPath(issue.path) || undefined, message: issue.message });
    });
  if (problems.length > 0) throw new InputError(problems.slice(0, 20), problems.length);
  return entries;
}

/** The ledger with one more entry, written whole or not at all. */
export async function appendLedger(file: string, entries: readonly LedgerEntry[], entry: LedgerEntry): Promise<void> {
  await writeFileAtomic(file, [...entries, entry].map((e) => `${JSON.stringify(e)}\n`).join(''));
}
