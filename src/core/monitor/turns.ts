import { detectRefusal } from '../measures/refusal.js';

/** One user turn of a conversation log: the query, and the answer it got. */
export interface Turn {
  readonly session: string;
  /** When the user asked, in milliseconds since the Unix epoch (UTC). */
  readonly at: number;
  readonly query: string;
  /** Absent only when `refused` is given. */
  readonly answer?: string;
  readonly refused?: boolean;
  /** The query's embedding, when the log carries one. */
  readonly embedding?: readonly number[];
}

/** Whether the turn's answer refused: the log's `refused` field, else the text detector on the answer. */
export function isRefusal(turn: Turn): boolean {
  return turn.refused ?? detectRefusal(turn.answer ?? '');
}

/** A query and the next one of its session, asked within the rephrase window: a pair whose similarity decides. */
export interface CandidatePair {
  /** Indexes into the turns. */
  readonly first: number;
  readonly next: number;
}

/** The turns' indexes by session, each session ordered by time (turns at the same time keep the log's order). */
export function sessionsOf(turns: readonly Turn[]): Map<string, number[]> {
  const sessions = new Map<string, number[]>();
  turns.forEach((turn, index) => {
    const list = sessions.get(turn.session);
    if (list === undefined) sessions.set(turn.session, [index]);
    else list.push(index);
  });
  for (const list of sessions.values()) list.sort((a, b) => turns[a]!.at - turns[b]!.at || a - b);
  return sessions;
}

/** Each turn followed in its session by another asked at most `withinMs` later: the pairs to compare. */
export function rephraseCandidates(turns: readonly Turn[], withinMs: number): CandidatePair[] {
  const pairs: CandidatePair[] = [];
  for (const list of sessionsOf(turns).values()) {
    for (let i = 0; i + 1 < list.length; i++) {
      const first = list[i]!;
      const next = list[i + 1]!;
      if (turns[next]!.at - turns[first]!.at <= withinMs) pairs.push({ first, next });
    }
  }
  return pairs.sort((a, b) => a.first - b.first);
}
