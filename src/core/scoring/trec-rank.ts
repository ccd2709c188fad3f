import { DocnoIndex } from './docno-index.js';
import { grownFloat64, grownInt32, type QueryEntries } from './query-entries.js';
import { DEFAULT_JUDGING, type JudgedRanking, type Judging, UNJUDGED, countAtLeast, judgedRanksInto } from '../measures/ranking.js';

/** Up to this many judged documents tied on one score are sorted by insertion sort; more by the built-in sort. */
const SMALL_GROUP = 16;

/** Index of the first of `sorted[0, length)` (ascending) that is not below `value`. */
function lowerBound(sorted: Float64Array, length: number, value: number): number {
  let low = 0;
  let high = length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (sorted[middle]! < value) low = middle + 1;
    else high = middle;
  }
  return low;
}

/**
 * Judges one query's run against its qrels the way trec_eval ranks it (score descending, ties by docno in
 * descending byte order) without sorting the whole run. Metrics only look at where the judged documents land:
 * every other document is UNJUDGED. A judged document's rank is the number of documents scored above it plus
 * the number that tie with it and have a greater docno. So the steps, per query of n documents of which j are
 * judged (have a line in the qrels, whatever its grade), are:
 *
 *   1. index the query's judged docnos (a small hash table, in cache);
 *   2. find the run's judged documents by their docno bytes and sort their distinct scores (j values, not n);
 *   3. place every document between those scores by binary search, counting how many lie above each and
 *      collecting the ones that tie with a judged score (n log j);
 *   4. place the documents that tie with a judged one among the judged ones of their group by docno, again by
 *      binary search (groups are usually of one or two);
 *   5. write each judged document's grade at its rank in a buffer of n grades filled with UNJUDGED.
 *
 * All buffers are reused from query to query; `judge` returns views of them, valid until the next call.
 */
export class JudgedRanker {
  private readonly judgedDocnos = new DocnoIndex();

  // Per run entry (grown to the longest query).
  /** The judgment (entry of the query's qrels) of each run entry's document, or −1 when it has none. */
  private judgmentOf: Int32Array = new Int32Array(1024);
  private grades: Float64Array = new Float64Array(1024);
  private ranks: Int32Array = new Int32Array(1024);
  private level: Int32Array = new Int32Array(1024);
  private tieRank: Int32Array = new Int32Array(1024);
  private members: Int32Array = new Int32Array(1024);

  // Per judged document (grown to the most judged documents of a query).
  private ideal: Float64Array = new Float64Array(256);
  private judged: Int32Array = new Int32Array(256);
  private levels: Float64Array = new Float64Array(256);
  private above: Int32Array = new Int32Array(257);
  private groupStart: Int32Array = new Int32Array(257);
  private groupFill: Int32Array = new Int32Array(256);
  private tied: Int32Array = new Int32Array(256);
  private tieCounts: Int32Array = new Int32Array(257);

  constructor(private readonly judging: Judging = DEFAULT_JUDGING) {}

  /** The graded ranking of `run` (undefined: the query retrieved nothing) against `judgments`. */
  judge(judgments: QueryEntries, run: QueryEntries | undefined): JudgedRanking {
    const judgedGrades = this.idealGrades(judgments);
    const n = run?.count ?? 0;
    this.grades = grownFloat64(this.grades, n);
    const grades = this.grades.subarray(0, n);
    grades.fill(UNJUDGED);
    if (run !== undefined) this.placeJudged(judgments, run, grades);
    this.ranks = grownInt32(this.ranks, n);
    const { judging } = this;
    return { grades, judgedRanks: judgedRanksInto(grades, this.ranks), judgedGrades, relevant: countAtLeast(judgedGrades, judging.relevanceLevel), judging };
  }

  /** The grades of 0 or more sorted descending (the ideal ranking). */
  private idealGrades(judgments: QueryEntries): Float64Array {
    this.ideal = grownFloat64(this.ideal, judgments.count);
    let judged = 0;
    for (let i = 0; i < judgments.count; i++) {
      const grade = judgments.values[i]!;
      if (grade >= 0) this.ideal[judged++] = grade;
    }
    return this.ideal.subarray(0, judged).sort().reverse();
  }

  private isJudged(entry: number): boolean {
    return this.judgmentOf[entry]! >= 0;
  }

  /** Steps 1–5 for a query that retrieved something. */
  private placeJudged(judgments: QueryEntries, run: QueryEntries, grades: Float64Array): void {
    const judgedCount = this.findJudged(judgments, run);
    if (judgedCount === 0) return;
    const levelCount = this.sortJudgedScores(run, judgedCount);
    this.locate(run, levelCount);
    this.rankTies(run, levelCount);
    const { judged, level, tieRank, above, judgmentOf } = this;
    for (let j = 0; j < judgedCount; j++) {
      const entry = judged[j]!;
      grades[above[level[entry]!]! + tieRank[entry]!] = judgments.values[judgmentOf[entry]!]!;
    }
  }

  /** Steps 1 and 2a: each run entry's judgment, and the run entries that have one; returns how many. */
  private findJudged(judgments: QueryEntries, run: QueryEntries): number {
    const index = this.judgedDocnos;
    index.index(judgments);
    this.judged = grownInt32(this.judged, run.count);
    this.judgmentOf = grownInt32(this.judgmentOf, run.count);
    const { judged, judgmentOf } = this;
    let count = 0;
    for (let i = 0; i < run.count; i++) {
      const judgment = index.find(run, i);
      judgmentOf[i] = judgment;
      if (judgment >= 0) judged[count++] = i;
    }
    return count;
  }

  /** Step 2b: the judged entries' distinct scores, ascending, in `levels`; returns how many. */
  private sortJudgedScores(run: QueryEntries, judgedCount: number): number {
    this.levels = grownFloat64(this.levels, judgedCount);
    const { levels, judged } = this;
    for (let j = 0; j < judgedCount; j++) levels[j] = run.values[judged[j]!]!;
    levels.subarray(0, judgedCount).sort();
    let distinct = 1;
    for (let j = 1; j < judgedCount; j++) if (levels[j] !== levels[distinct - 1]) levels[distinct++] = levels[j]!;
    return distinct;
  }

  /**
   * Step 3: for each entry, finds the first level not below its score. Leaves `above[k]` = how many entries
   * score above level k, `level[i]` = the level entry i ties with (−1 when none), and each level's tied entries
   * bucketed in `members` from `groupStart[k]`.
   */
  private locate(run: QueryEntries, levelCount: number): void {
    const n = run.count;
    this.level = grownInt32(this.level, n);
    this.members = grownInt32(this.members, n);
    this.above = grownInt32(this.above, levelCount + 1);
    this.groupStart = grownInt32(this.groupStart, levelCount + 1);
    const { levels, level, members, above, groupStart } = this;
    const scores = run.values;
    above.fill(0, 0, levelCount + 1);
    groupStart.fill(0, 0, levelCount + 1);
    for (let i = 0; i < n; i++) {
      const score = scores[i]!;
      const k = lowerBound(levels, levelCount, score);
      // Entry i scores above levels 0 … k − 1: count it at k; the sums below turn the counts into above[·].
      above[k]!++;
      if (k < levelCount && levels[k] === score) {
        level[i] = k;
        groupStart[k + 1]!++;
      } else {
        level[i] = -1;
      }
    }
    // above[k] := entries scoring above level k = those counted at k + 1 … levelCount.
    let sum = 0;
    for (let k = levelCount; k >= 0; k--) {
      const here = above[k]!;
      above[k] = sum;
      sum += here;
    }
    for (let k = 0; k < levelCount; k++) groupStart[k + 1]! += groupStart[k]!;
    this.groupFill = grownInt32(this.groupFill, levelCount);
    const fill = this.groupFill;
    fill.set(groupStart.subarray(0, levelCount));
    for (let i = 0; i < n; i++) {
      const k = level[i]!;
      if (k >= 0) members[fill[k]!++] = i;
    }
  }

  /**
   * Step 4: each judged entry's place among the entries that tie with it, that is how many of them have a greater
   * docno. Per group of ties, the judged members are sorted by docno, greatest first; then every member is placed
   * among them by binary search, and counts as one more above each judged member with a smaller docno. A group
   * of m entries, t of them judged, costs m log t comparisons, not m log m.
   */
  private rankTies(run: QueryEntries, levelCount: number): void {
    this.tieRank = grownInt32(this.tieRank, run.count);
    const { members, groupStart, tieRank } = this;
    for (let k = 0; k < levelCount; k++) {
      const start = groupStart[k]!;
      const end = groupStart[k + 1]!;
      if (end - start === 1) {
        tieRank[members[start]!] = 0;
        continue;
      }
      const judgedCount = this.sortJudgedMembers(run, start, end);
      const { tied, tieCounts } = this;
      tieCounts.fill(0, 0, judgedCount + 1);
      for (let m = start; m < end; m++) tieCounts[this.firstSmallerDocno(run, members[m]!, judgedCount)]!++;
      let greater = 0;
      for (let t = 0; t < judgedCount; t++) {
        greater += tieCounts[t]!;
        tieRank[tied[t]!] = greater;
      }
    }
  }

  /** The judged entries among members[start, end), in `tied` sorted by docno, greatest first; returns how many. */
  private sortJudgedMembers(run: QueryEntries, start: number, end: number): number {
    this.tied = grownInt32(this.tied, end - start);
    this.tieCounts = grownInt32(this.tieCounts, end - start + 1);
    const { tied, members } = this;
    let count = 0;
    for (let m = start; m < end; m++) if (this.isJudged(members[m]!)) tied[count++] = members[m]!;
    this.sortByDocnoDescending(tied, count, run);
    return count;
  }

  /** Index of the first of tied[0, count) (greatest docno first) whose docno is smaller than entry's. */
  private firstSmallerDocno(run: QueryEntries, entry: number, count: number): number {
    const { tied } = this;
    let low = 0;
    let high = count;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (run.compareDocnos(tied[middle]!, entry) < 0) high = middle;
      else low = middle + 1;
    }
    return low;
  }

  /** Sorts entries[0, count) by their docnos, greatest first (byte order, as strcmp). */
  private sortByDocnoDescending(entries: Int32Array, count: number, run: QueryEntries): void {
    if (count > SMALL_GROUP) {
      entries.subarray(0, count).sort((a, b) => run.compareDocnos(b, a));
      return;
    }
    for (let i = 1; i < count; i++) {
      const entry = entries[i]!;
      let j = i - 1;
      while (j >= 0 && run.compareDocnos(entries[j]!, entry) < 0) {
        entries[j + 1] = entries[j]!;
        j--;
      }
      entries[j + 1] = entry;
    }
  }
}
