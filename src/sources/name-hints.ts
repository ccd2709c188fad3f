import { nearNameDistance } from '../core/closest.js';
import { type InputProblem, MAX_LISTED_PROBLEMS, InputError, ProblemCollector } from '../core/errors.js';
import { CATALOG_METRICS } from '../core/catalog/metrics.js';
import { FIELD_ALIASES, type FieldMap, TOOL_SCORE_NAMES } from '../core/record.js';

/** The known name nearest to `name` other than `name` itself, if one is near. */
function nearest(name: string, known: Iterable<string>): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of known) {
    const d = nearNameDistance(name, candidate);
    if (d !== undefined && candidate !== name && d < bestDistance) [best, bestDistance] = [candidate, d];
  }
  return best;
}

/** The score names rag-gate or another tool gives a meaning: a score a slip away from one is probably it. */
const KNOWN_SCORE_NAMES: ReadonlySet<string> = new Set([...TOOL_SCORE_NAMES, ...CATALOG_METRICS.map((metric) => metric.name)]);

/** The known metric or tool score a score's name is probably a misspelling of (`faithfullness`), if any. */
export function nearScoreName(score: string): string | undefined {
  return KNOWN_SCORE_NAMES.has(score) ? undefined : nearest(score, KNOWN_SCORE_NAMES);
}

/** A problem with its place among the file's problems, so that lists kept apart can be merged in order. */
interface Placed {
  readonly at: number;
  readonly problem: InputProblem;
}

/** A required field some records lack: how many, and the fields near its name that every one of them carries. */
interface Missing {
  count: number;
  readonly line: number;
  readonly listed: Placed[];
  /** The user's field → the name (the field or one of its spellings) it is near. */
  readonly near: Map<string, string>;
}

/** YAML's plain scalar when the name is one, quoted otherwise. */
const yamlName = (name: string) => (/^[A-Za-z_][\w-]*$/.test(name) ? name : JSON.stringify(name));

/**
 * The problems of one results file. A required field that every record lacks while each carries a field near its
 * name (`Question`, `user_inptu`, `userInput`) is one problem naming the fix, rather than the same problem on every
 * record; every other problem is listed as it comes.
 */
export class ResultsProblems extends ProblemCollector {
  private placed = 0;
  private records = 0;
  /** The first problems that are not a missing required field: those stay listed whatever collapses. */
  private readonly others: Placed[] = [];
  private readonly missing = new Map<string, Missing>();

  constructor(
    private readonly file: string,
    private readonly fields: FieldMap,
  ) {
    super();
  }

  override add(problem: InputProblem): void {
    this.keep(this.others, problem);
    super.add(problem);
  }

  /** Counts a record read as an object: a field missing from fewer than all of them is a problem on each. */
  countRecord(): void {
    this.records++;
  }

  /**
   * Required field `field` is missing from the record at `line`, whose fields not read as ours are `unread`: the
   * problem is added (and listed unless the field collapses into one hint at the end).
   */
  addMissing(field: string, problem: InputProblem, line: number, unread: readonly string[]): void {
    const near = this.nearFields(field, unread);
    let missing = this.missing.get(field);
    if (missing === undefined) this.missing.set(field, (missing = { count: 0, line, listed: [], near }));
    else for (const key of missing.near.keys()) if (!near.has(key)) missing.near.delete(key);
    missing.count++;
    this.keep(missing.listed, problem);
    super.add(problem);
  }

  override throwIfAny(): void {
    const hints = [...this.missing].flatMap(([field, missing]) => {
      const [given, meant] = missing.near.entries().next().value ?? [];
      return missing.count === this.records && given !== undefined && meant !== undefined ? [{ field, missing, given, meant }] : [];
    });
    if (hints.length === 0) return super.throwIfAny();
    const collapsed = new Set(hints.map((hint) => hint.field));
    const rest = [...this.others, ...[...this.missing].flatMap(([field, missing]) => (collapsed.has(field) ? [] : missing.listed))];
    rest.sort((a, b) => a.at - b.at);
    const problems = hints.map(({ field, missing, given, meant }): InputProblem => {
      const which = missing.count === 1 ? 'the one record lacks it but carries' : `all ${missing.count} records lack it but carry`;
      const read = meant === field ? '' : ` (read as ${field})`;
      return {
        file: this.file,
        line: missing.line,
        field,
        message: `is required, and ${which} "${given}": did you mean "${meant}"${read}? Rename that field, or map it with --field ${field}=${given} (fields: {${field}: ${yamlName(given)}} in rag-gate.yml)`,
      };
    });
    const total = this.count - hints.reduce((sum, hint) => sum + hint.missing.count, 0) + hints.length;
    throw new InputError([...problems, ...rest.map((entry) => entry.problem)].slice(0, MAX_LISTED_PROBLEMS), total);
  }

  /** Keeps the first problems of a kind, as many as an error lists. */
  private keep(list: Placed[], problem: InputProblem): void {
    if (list.length < MAX_LISTED_PROBLEMS) list.push({ at: this.placed, problem });
    this.placed++;
  }

  /** The user's fields near `field` or one of its other spellings (another tool's name, the user's own mapping). */
  private nearFields(field: string, unread: readonly string[]): Map<string, string> {
    const spellings = [field];
    for (const [name, canonical] of [...this.fields, ...FIELD_ALIASES]) if (canonical === field) spellings.push(name);
    const near = new Map<string, string>();
    for (const key of unread) {
      const meant = nearest(key, spellings);
      if (meant !== undefined) near.set(key, meant);
    }
    return near;
  }
}
