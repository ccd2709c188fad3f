import { readFile } from 'node:fs/promises';
import { InputError, ProblemCollector } from '../core/errors.js';
import { readFailure } from './results.js';
import { utf8Text } from './utf8.js';

/**
 * The question ids of a golden set: JSON Lines or a JSON array of records with an `id` (the golden file a
 * pipeline reads), or plain text with one id per line. A number id reads as its decimal string.
 */
export async function readGoldenIds(file: string): Promise<Set<string>> {
  let bytes: Buffer;
  try {
    bytes = await readFile(file);
  } catch (error) {
    throw readFailure(file, error);
  }
  const text = utf8Text(file, bytes);
  const problems = new ProblemCollector();
  const ids = new Set<string>();
  const idOf = (value: unknown, line: number) => {
    const id = typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as { id?: unknown }).id : undefined;
    if ((typeof id === 'string' && id !== '') || (typeof id === 'number' && Number.isSafeInteger(id))) ids.add(String(id));
    else problems.add({ file, line, field: 'id', message: 'a golden record needs an id (a string or a whole number)' });
  };
  const trimmed = text.trimStart();
  if (trimmed.startsWith('[')) {
    let records: unknown;
    try {
      records = JSON.parse(text);
    } catch (error) {
      throw InputError.single({ file, message: `not valid JSON (${error instanceof Error ? error.message : String(error)})` });
    }
    (records as unknown[]).forEach((record) => idOf(record, 1));
  } else {
    const lines = text.split(/\r?\n/);
    const json = trimmed.startsWith('{');
    lines.forEach((raw, index) => {
      const line = raw.trim();
      if (line === '') return;
      if (!json) {
        ids.add(line);
        return;
      }
      try {
        idOf(JSON.parse(line), index + 1);
      } catch (error) {
        problems.add({ file, line: index + 1, message: `not valid JSON (${error instanceof Error ? error.message : String(error)})` });
      }
    });
  }
  problems.throwIfAny();
  if (ids.size === 0) throw InputError.single({ file, message: 'the golden set holds no question id' });
  return ids;
}
