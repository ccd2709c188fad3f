/** One thing wrong with an input file, located as precisely as we can. */
export interface InputProblem {
  readonly file: string;
  readonly line?: number;
  readonly column?: number;
  /** Field path in the user's own spelling, e.g. `retrieved_ids[3]`. */
  readonly field?: string;
  readonly message: string;
}

/** How many problems an error lists; the rest are counted. */
export const MAX_LISTED_PROBLEMS = 20;

function formatProblem(problem: InputProblem): string {
  let where = problem.file;
  if (problem.line !== undefined) where += `:${problem.line}`;
  if (problem.column !== undefined) where += `:${problem.column}`;
  return problem.field === undefined ? `${where}: ${problem.message}` : `${where}: ${problem.field}: ${problem.message}`;
}

/** Bad input (a file or an option): the CLI exits 2 and the action fails naming it; nothing is written. */
export class InputError extends Error {
  constructor(
    readonly problems: readonly InputProblem[],
    readonly totalProblems = problems.length,
  ) {
    const more = totalProblems - problems.length;
    const lines = problems.map(formatProblem);
    if (more > 0) lines.push(`… and ${more} more problem${more === 1 ? '' : 's'}`);
    super(lines.join('\n'));
    this.name = 'InputError';
  }

  static single(problem: InputProblem): InputError {
    return new InputError([problem]);
  }

  /** One error for several failed reads: their input problems together, or the first failure that is not bad input. */
  static merge(failures: readonly unknown[]): Error {
    const other = failures.find((error) => !(error instanceof InputError));
    if (other !== undefined) return other instanceof Error ? other : new Error(String(other));
    const errors = failures as InputError[];
    const problems = errors.flatMap((error) => error.problems).slice(0, MAX_LISTED_PROBLEMS);
    return new InputError(
      problems,
      errors.reduce((sum, error) => sum + error.totalProblems, 0),
    );
  }
}

/** A bad option or action input value (not a file): the CLI exits 2, the action fails naming the input. */
export class SettingError extends Error {
  override name = 'SettingError';
}

/** Collects problems while a file is read to the end, so the user sees them all (up to 20) in one run. */
export class ProblemCollector {
  private readonly listed: InputProblem[] = [];
  private total = 0;

  add(problem: InputProblem): void {
    this.total++;
    if (this.listed.length < MAX_LISTED_PROBLEMS) this.listed.push(problem);
  }

  get count(): number {
    return this.total;
  }

  throwIfAny(): void {
    if (this.total > 0) throw new InputError(this.listed, this.total);
  }
}

/**
 * Awaits two reads and, when both fail on bad input, reports both files' problems together (up to the
 * usual limit), so the user does not fix one file only to meet the other's errors on the next run.
 */
export async function readBoth<A, B>(first: Promise<A>, second: Promise<B>): Promise<[A, B]> {
  const [a, b] = await Promise.allSettled([first, second]);
  if (a.status === 'fulfilled' && b.status === 'fulfilled') return [a.value, b.value];
  throw InputError.merge([a, b].flatMap((result) => (result.status === 'rejected' ? [result.reason as unknown] : [])));
}
