import { rename, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { InputError } from '../core/errors.js';

/**
 * Writes a whole file or nothing: a temporary file beside the target, renamed into place. A failure is an
 * InputError naming the target (a missing folder, no permission), never a half-written file.
 */
export async function writeFileAtomic(file: string, content: string): Promise<void> {
  const temporary = join(dirname(file), `.${basename(file)}.${process.pid}.tmp`);
  try {
    await writeFile(temporary, content);
    await rename(temporary, file);
  } catch (error) {
    await rm(temporary, { force: true });
    const code = (error as NodeJS.ErrnoException).code;
    const reason =
      code === 'ENOENT' ? 'its folder does not exist' : code === 'EACCES' ? 'permission denied' : code === 'EISDIR' ? 'it is a directory' : String(error);
    throw InputError.single({ file, message: `cannot write: ${reason}` });
  }
}
