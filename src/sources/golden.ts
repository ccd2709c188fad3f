import { InputError, ProblemCollector } from '../core/errors.js';
import type { GoldenQuestion } from '../core/holdout/split.js';
import { readTextFile } from './read-file.js';

/** A golden question with the line it was read from (1 for every record of a JSON array). */
interface LocatedQuestion extends GoldenQuestion {
  readonly line: number;
}

/**
 * The questions of a golden set: JSON Lines or a JSON array of records with an `id` and optional `tags` (the
 * golden file a pipeline reads), or plain text with one id per line (no tags). A number id reads as its decimal
 * string. Throws InputError naming each bad line.
 */
async function readGoldenRecords(file: string): Promise<LocatedQuestion[]> {
  const text = await readTextFile(file);
  const problems = new ProblemCollector();
  const questions: LocatedQuestion[] = [];
  const questionOf = (value: unknown, line: number) => {
    const record = typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as { id?: unknown; tags?: unknown }) : {};
    const { id, tags } = record;
    if (!((typeof id === 'string' && id !== '') || (typeof id === 'number' && Number.isSafeInteger(id)))) {
      problems.add({ file, line, field: 'id', message: 'a golden record needs an id (a string or a whole number)' });
      return;
    }
    if (tags !== undefined && !(Array.isArray(tags) && tags.every((tag) => typeof tag === 'string'))) {
      problems.add({ file, line, field: 'tags', message: 'must be a list of strings' });
      return;
    }
    questions.push({ id: String(id), tags: (tags as string[] | undefined) ?? [], line });
  };
  const trimmed = text.trimStart();
  if (trimmed.startsWith('[')) {
    let records: unknown;
    try {
      records = JSON.parse(text);
    } catch (error) {
      throw InputError.single({ file, message: `not valid JSON (${error instanceof Error ? error.message : String(error)})` });
    }
    (records as unknown[]).forEach((record) => questionOf(record, 1));
  } else {
    const lines = text.split(/\r?\n/);
    const json = trimmed.startsWith('{');
    lines.forEach((raw, index) => {
      const line = raw.trim();
      if (line === '') return;
      if (!json) {
        questions.push({ id: line, tags: [], line: index + 1 });
        return;
      }
      try {
        questionOf(JSON.parse(line), index + 1);
      } catch (error) {
        problems.add({ file, line: index + 1, message: `not valid JSON (${error instanceof Error ? error.message : String(error)})` });
      }
    });
  }
  problems.throwIfAny();
  if (questions.length === 0) throw InputError.single({ file, message: 'the golden set holds no question id' });
  return questions;
}

/** The question ids of a golden set. */
export async function readGoldenIds(file: string): Promise<Set<string>> {
  return new Set((await readGoldenRecords(file)).map((question) => question.id));
}

/** The questions of a golden set with their tags, in file order; an id given twice is an error naming both lines. */
export async function readGoldenQuestions(file: string): Promise<GoldenQuestion[]> {
  const questions = await readGoldenRecords(file);
  const problems = new ProblemCollector();
  const firstLine = new Map<string, number>();
  for (const { id, line } of questions) {
    const first = firstLine.get(id);
    if (first === undefined) firstLine.set(id, line);
    else problems.add({ file, line, field: 'id', message: `"${id}" is also the id on line ${first}; every question needs its own id` });
  }
  problems.throwIfAny();
  return questions.map(({ id, tags }) => ({ id, tags }));
}
