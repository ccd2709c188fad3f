import { type InputProblem, InputError } from '../core/errors.js';
import type { DuplicateKeyError } from './unique-keys.js';

/** How every reader names a problem: a field path as the user writes it, a repeated key, a file it cannot read. */

/** Formats a field path the way a user writes it: `claims[2].verdict`, `relevant_ids["d17"]`. */
export function formatFieldPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else if (out === '') out = String(key);
    else if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(String(key))) out += `.${String(key)}`;
    else out += `[${JSON.stringify(String(key))}]`;
  }
  return out;
}

/** A key given twice in one object of the text that starts on `line`. */
export function duplicateKeyProblem(file: string, line: number, error: DuplicateKeyError): InputProblem {
  return { file, line: line + error.lineInText, field: formatFieldPath(error.path), message: error.message };
}

/** Turns a file-system failure into an input error a user can act on. */
export function readFailure(file: string, error: unknown): InputError {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === undefined) throw error;
  const reason =
    code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'is a directory, not a file' : code === 'EACCES' ? 'permission denied' : String(error);
  return InputError.single({ file, message: `cannot read: ${reason}` });
}
