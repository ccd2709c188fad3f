import { detectRefusal } from '../measures/refusal.js';
import { grownBytes, grownFloat64, grownInt32 } from '../scoring/query-entries.js';

/** One user turn of a conversation log: the query, and the answer it got. */
export interface Turn {
  readonly session: string;
  /** When the user asked, in milliseconds since the Unix epoch (UTC). */
  readonly at: number;
  readonly query: string;
  /** Absent only when `refused` is given. */
  readonly answer?: string;
  readonly refused?: boolean;
  /** The query's embedding, when the log carries one (TurnColumns keeps only whether it does). */
  readonly embedding?: readonly number[];
}

/** Whether the turn's answer refused: the log's `refused` field, else the text detector on the answer. */
export function isRefusal(turn: Turn): boolean {
  return turn.refused ?? detectRefusal(turn.answer ?? '');
}

/**
 * What the monitor keeps of the log's turns, as columns in the log's order: a million turns of answers are most
 * of a log's bytes and none of its report, so each answer is read into its refusal and let go. Nor are the
 * embeddings kept (12 KiB a turn at 1,536 dimensions): the pairs' turns are read again for them.
 */
export interface TurnColumns {
  readonly size: number;
  /** The sessions' ids, in order of first appearance. */
  readonly sessionIds: readonly string[];
  /** Each turn's session: an index into sessionIds. */
  readonly session: Int32Array;
  readonly at: Float64Array;
  readonly query: readonly string[];
  /** 1 where the turn refused (isRefusal). */
  readonly refused: Uint8Array;
  /** Turns whose refusal came from the text detector (no `refused` field). */
  readonly refusalsDetected: number;
  /** Turns without an embedding: how many, and the first few (indexes). */
  readonly withoutEmbedding: { readonly count: number; readonly first: readonly number[] };
}

/** Turns without an embedding named by index: as many as an error lists. */
const WITHOUT_EMBEDDING_LISTED = 20;

/** Builds TurnColumns one turn at a time, so that no Turn outlives its line. */
export class TurnColumnsBuilder {
  private size = 0;
  private readonly sessionIndex = new Map<string, number>();
  private readonly sessionIds: string[] = [];
  private session: Int32Array = new Int32Array(1024);
  private at: Float64Array = new Float64Array(1024);
  private refused: Uint8Array = new Uint8Array(1024);
  private readonly query: string[] = [];
  private refusalsDetected = 0;
  private withoutEmbedding = 0;
  private readonly firstWithoutEmbedding: number[] = [];

  add(turn: Turn): void {
    const index = this.size++;
    let session = this.sessionIndex.get(turn.session);
    if (session === undefined) {
      session = this.sessionIds.length;
      this.sessionIndex.set(turn.session, session);
      this.sessionIds.push(turn.session);
    }
    this.session = grownInt32(this.session, this.size);
    this.at = grownFloat64(this.at, this.size);
    this.refused = grownBytes(this.refused, this.size);
    this.session[index] = session;
    this.at[index] = turn.at;
    this.refused[index] = isRefusal(turn) ? 1 : 0;
    this.query.push(turn.query);
    if (turn.refused === undefined) this.refusalsDetected++;
    if (turn.embedding === undefined) {
      this.withoutEmbedding++;
      if (this.firstWithoutEmbedding.length < WITHOUT_EMBEDDING_LISTED) this.firstWithoutEmbedding.push(index);
    }
  }

  build(): TurnColumns {
    return {
      size: this.size,
      sessionIds: this.sessionIds,
      session: this.session.subarray(0, this.size),
      at: this.at.subarray(0, this.size),
      query: this.query,
      refused: this.refused.subarray(0, this.size),
      refusalsDetected: this.refusalsDetected,
      withoutEmbedding: { count: this.withoutEmbedding, first: this.firstWithoutEmbedding },
    };
  }
}

/** The columns of these turns. */
export function turnColumns(turns: readonly Turn[]): TurnColumns {
  const builder = new TurnColumnsBuilder();
  for (const turn of turns) builder.add(turn);
  return builder.build();
}

/** A query and the next one of its session, asked within the rephrase window: a pair whose similarity decides. */
export interface CandidatePair {
  /** Indexes into the turns. */
  readonly first: number;
  readonly next: number;
}

/**
 * The turns' indexes by session, each session ordered by time (turns at the same time keep the log's order):
 * session s's turns are `order[start[s]]` up to (not including) `order[start[s + 1]]`.
 */
export function sessionsOf(turns: TurnColumns): { readonly order: Int32Array; readonly start: Int32Array } {
  const sessions = turns.sessionIds.length;
  const start = new Int32Array(sessions + 1);
  for (let i = 0; i < turns.size; i++) start[turns.session[i]! + 1]!++;
  for (let s = 0; s < sessions; s++) start[s + 1]! += start[s]!;
  const order = new Int32Array(turns.size);
  const filled = start.slice(0, sessions);
  for (let i = 0; i < turns.size; i++) order[filled[turns.session[i]!]!++] = i;
  const { at } = turns;
  for (let s = 0; s < sessions; s++) {
    const from = start[s]!;
    const to = start[s + 1]!;
    let sorted = true;
    for (let k = from + 1; k < to && sorted; k++) sorted = at[order[k - 1]!]! <= at[order[k]!]!;
    // Indexes ascend within a session: a stable order by time is the order by time, then index.
    if (!sorted) order.subarray(from, to).sort((a, b) => at[a]! - at[b]! || a - b);
  }
  return { order, start };
}

/** Each turn followed in its session by another asked at most `withinMs` later: the pairs to compare. */
export function rephraseCandidates(turns: TurnColumns, withinMs: number): CandidatePair[] {
  const { order, start } = sessionsOf(turns);
  const pairs: CandidatePair[] = [];
  for (let s = 0; s + 1 < start.length; s++) {
    for (let k = start[s]!; k + 1 < start[s + 1]!; k++) {
      const first = order[k]!;
      const next = order[k + 1]!;
      if (turns.at[next]! - turns.at[first]! <= withinMs) pairs.push({ first, next });
    }
  }
  return pairs.sort((a, b) => a.first - b.first);
}
