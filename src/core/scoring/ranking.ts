/**
 * A ranked list judged against gold labels: everything a retrieval metric needs, and nothing else.
 * Building it once per question keeps every metric a small loop over numbers.
 */
export interface JudgedRanking {
  /** Relevance grade of the document at each rank, rank 1 first; 0 for non-relevant or unjudged documents. */
  readonly grades: ArrayLike<number>;
  /** Grades of every relevant document (grade ≥ 1), retrieved or not, sorted descending: the ideal ranking. */
  readonly idealGrades: ArrayLike<number>;
}

/** A grade counts as relevant from 1 up, as trec_eval's default relevance level. */
const RELEVANT_GRADE = 1;

export function isRelevant(grade: number): boolean {
  return grade >= RELEVANT_GRADE;
}

/** Judges `retrieved` (ranked, best first) against `relevance` (document id → grade). */
export function judgeRanking(retrieved: readonly string[], relevance: ReadonlyMap<string, number>): JudgedRanking {
  const grades = new Float64Array(retrieved.length);
  for (let i = 0; i < retrieved.length; i++) grades[i] = relevance.get(retrieved[i]!) ?? 0;
  const ideal: number[] = [];
  for (const grade of relevance.values()) if (isRelevant(grade)) ideal.push(grade);
  ideal.sort((a, b) => b - a);
  return { grades, idealGrades: Float64Array.from(ideal) };
}

/** Number of relevant documents in the gold labels (R). */
export function relevantCount(ranking: JudgedRanking): number {
  return ranking.idealGrades.length;
}

/** Number of relevant documents among the first `k` retrieved. */
export function relevantRetrieved(ranking: JudgedRanking, k: number): number {
  const depth = Math.min(k, ranking.grades.length);
  let found = 0;
  for (let i = 0; i < depth; i++) if (isRelevant(ranking.grades[i]!)) found++;
  return found;
}
