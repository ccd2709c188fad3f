import { readFile } from 'node:fs/promises';
import type { z } from 'zod';
import { InputError } from '../core/errors.js';
import { duplicateKeyProblem, formatFieldPath, readFailure } from './read-problems.js';
import { DuplicateKeyError, parseJsonUniqueKeys } from './unique-keys.js';
import { utf8Text } from './utf8.js';

/** A file's bytes; a file that cannot be read is an InputError naming it. */
export async function readFileBytes(file: string): Promise<Buffer> {
  try {
    return await readFile(file);
  } catch (error) {
    throw readFailure(file, error);
  }
}

/** A file's text, without a byte-order mark; bytes that are not UTF-8 are an InputError naming each line. */
export async function readTextFile(file: string): Promise<string> {
  return utf8Text(file, await readFileBytes(file));
}

/**
 * The one JSON document of a file rag-gate writes, checked against `schema`. `expected` says what the file should
 * be ("a holdout file written by rag-gate split") in the message for text that is not JSON. Every problem is an
 * InputError naming the file and, where there is one, the field.
 */
export async function readJsonDocument<T>(file: string, schema: z.ZodType<T>, expected: string): Promise<T> {
  let raw: unknown;
  try {
    raw = parseJsonUniqueKeys(await readTextFile(file));
  } catch (error) {
    if (error instanceof InputError) throw error;
    if (error instanceof DuplicateKeyError) throw InputError.single(duplicateKeyProblem(file, 1, error));
    throw InputError.single({ file, message: `not valid JSON (${error instanceof Error ? error.message : String(error)}); expected ${expected}` });
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    throw new InputError(parsed.error.issues.slice(0, 20).map((issue) => ({ file, field: formatFieldPath(issue.path) || undefined, message: issue.message })));
  }
  return parsed.data;
}
