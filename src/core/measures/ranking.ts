/**
 * How grades are read: from which grade a document counts as relevant, and what each grade is worth to `ndcg`.
 * Both are settings (`relevance-level`, `ndcg-gains`), fixed for a whole evaluation.
 */
export interface Judging {
  /** A document is relevant from this grade up (trec_eval `-l`, ir_measures `rel=`); at least 1. */
  readonly relevanceLevel: number;
  /** `ndcg`'s gain per grade (trec_eval `ndcg.1=3,2=9`); a grade 0 or more that is not listed gains its own value. */
  readonly ndcgGains: ReadonlyMap<number, number>;
}

export const DEFAULT_JUDGING: Judging = { relevanceLevel: 1, ndcgGains: new Map() };

/**
 * The grade at a rank whose document has no judgment in the qrels (trec_eval's "not in the pool"). A negative
 * grade in the qrels stays as given: in the pool but not judged, as trec_eval reads it. Both are below every grade
 * that counts, and `grade >= 0` tells a judged document.
 */
export const UNJUDGED = -Infinity;

/**
 * A ranked list judged against gold labels: everything a retrieval metric needs, and nothing else.
 * Building it once per question keeps every metric a small loop over numbers.
 */
export interface JudgedRanking {
  /** Grade of the document at each rank, rank 1 first: its judgment, or UNJUDGED. */
  readonly grades: ArrayLike<number>;
  /**
   * The ranks with a judgment (0 for rank 1), ascending: most of a ranking is unjudged, and a metric that adds up
   * what judged documents bring visits only these, in the same order as over every rank, so its sums are the same.
   */
  readonly judgedRanks: ArrayLike<number>;
  /** Every judgment's grade that is 0 or more, retrieved or not, sorted descending: the ideal ranking. */
  readonly judgedGrades: ArrayLike<number>;
  /** Judgments at or above the relevance level (R). */
  readonly relevant: number;
  readonly judging: Judging;
}

/** One of 32 bits for a document id, from its last code unit: ids whose bits differ are different ids. */
const lastUnitBit = (id: string): number => 1 << (id.charCodeAt(id.length - 1) & 31);

/**
 * Judges `retrieved` (ranked, best first) against `relevance` (document id → grade). An id whose last code unit's bit
 * no judged id has is unjudged without a look-up: most of a ranking is, and a look-up hashes the whole id.
 * `into`, when it is long enough, holds the ranking's grades (until the caller's next use of it) instead of a new array:
 * one of a hundred grades is memory outside the heap, which costs more to make and to free than to judge it.
 */
export function judgeRanking(
  retrieved: readonly string[],
  relevance: ReadonlyMap<string, number>,
  judging: Judging = DEFAULT_JUDGING,
  into?: Float64Array,
): JudgedRanking {
  let judgedBits = 0;
  for (const id of relevance.keys()) judgedBits |= lastUnitBit(id);
  const grades = into !== undefined && into.length >= retrieved.length ? into.subarray(0, retrieved.length) : new Float64Array(retrieved.length);
  const judgedRanks: number[] = [];
  for (let i = 0; i < retrieved.length; i++) {
    const id = retrieved[i]!;
    const grade = (judgedBits & lastUnitBit(id)) === 0 ? UNJUDGED : (relevance.get(id) ?? UNJUDGED);
    grades[i] = grade;
    if (grade !== UNJUDGED) judgedRanks.push(i);
  }
  const judged: number[] = [];
  for (const grade of relevance.values()) if (grade >= 0) judged.push(grade);
  const judgedGrades = descending(judged);
  return { grades, judgedRanks, judgedGrades, relevant: countAtLeast(judgedGrades, judging.relevanceLevel), judging };
}

/** Whether some grade of `relevance` makes its document relevant: whether the judged ranking has any relevant. */
export function hasRelevant(relevance: ReadonlyMap<string, number>, judging: Judging): boolean {
  for (const grade of relevance.values()) if (grade >= 0 && grade >= judging.relevanceLevel) return true;
  return false;
}

/** The longest list `descending` sorts itself. */
const INSERTION_SORT_MAX = 16;

/** Whether grade `a` comes before `b` in `Float64Array.from([a, b]).sort().reverse()`: the larger, and 0 before -0. */
const comesFirst = (a: number, b: number): boolean => a > b || (a === 0 && b === 0 && 1 / a > 1 / b);

/**
 * `Float64Array.from(grades).sort().reverse()` (grades without NaN): a short list (a record's few judgments) sorted by
 * insertion, which allocates nothing where the typed array's sort allocates its work arrays on every call.
 */
function descending(grades: number[]): Float64Array {
  if (grades.length > INSERTION_SORT_MAX) return Float64Array.from(grades).sort().reverse();
  const sorted = new Float64Array(grades.length);
  for (let i = 0; i < grades.length; i++) {
    const grade = grades[i]!;
    let j = i;
    for (; j > 0 && comesFirst(grade, sorted[j - 1]!); j--) sorted[j] = sorted[j - 1]!;
    sorted[j] = grade;
  }
  return sorted;
}

/** How many of `descending` are at least `level`. */
export function countAtLeast(descending: ArrayLike<number>, level: number): number {
  let count = 0;
  while (count < descending.length && descending[count]! >= level) count++;
  return count;
}

/** Number of relevant documents in the gold labels (R). */
export function relevantCount(ranking: JudgedRanking): number {
  return ranking.relevant;
}

/** Whether the document at rank `i + 1` is relevant. */
export function isRelevantAt(ranking: JudgedRanking, i: number): boolean {
  return ranking.grades[i]! >= ranking.judging.relevanceLevel;
}

/** Number of relevant documents among the first `k` retrieved. */
export function relevantRetrieved(ranking: JudgedRanking, k: number): number {
  const { grades, judgedRanks } = ranking;
  const level = ranking.judging.relevanceLevel;
  let found = 0;
  for (let j = 0; j < judgedRanks.length && judgedRanks[j]! < k; j++) if (grades[judgedRanks[j]!]! >= level) found++;
  return found;
}

/** The ranks with a judgment among `grades` (`JudgedRanking.judgedRanks`), written into `into`, at least as long. */
export function judgedRanksInto(grades: ArrayLike<number>, into: Int32Array): Int32Array {
  let count = 0;
  for (let i = 0; i < grades.length; i++) if (grades[i] !== UNJUDGED) into[count++] = i;
  return into.subarray(0, count);
}
