import { questionId } from '../derived-ids.js';
import { byKey } from '../code-unit-order.js';
import { Random, type Seed } from '../stats/random.js';
import { isRefusal, sessionsOf, type Turn, type TurnColumns } from './turns.js';

/**
 * A row of the labelling file `monitor sample` writes: one user turn of a sampled conversation, in the golden set's
 * shape (`id`, `question`, `expected_answer` to fill, `answerable`, `tags`), with the conversation around it for the
 * reader. `id` is the question's derived id, the one a results record without an id gets.
 */
export interface LabellingRow {
  readonly id: string;
  readonly question: string;
  /** To fill in: the right answer. Left empty, the row is not promoted. */
  readonly expected_answer: '';
  /** To change to false when the corpus cannot answer it (then a refusal is the right answer). */
  readonly answerable: true;
  readonly tags: readonly string[];
  readonly session_id: string;
  /** 1-based position of the turn in its session. */
  readonly turn: number;
  readonly timestamp: string;
  /** What production answered, and the monitor's readings of it. */
  readonly answer: string | null;
  readonly refused: boolean;
  readonly rephrased: boolean;
  /** To fill in: what went wrong, for the weekly read. */
  readonly notes: '';
}

/** A conversation drawn: its session id and its turns' indexes, by time. */
export interface DrawnConversation {
  readonly session: string;
  readonly turns: readonly number[];
}

/**
 * `n` whole conversations drawn without replacement (all of them when there are fewer), uniformly with the seeded
 * generator over the sessions in id order, so the same log and seed give the same sample. Sessions in the order
 * drawn, each one's turns by time.
 */
export function drawConversations(turns: TurnColumns, n: number, seed: Seed): DrawnConversation[] {
  const { order, start } = sessionsOf(turns);
  const sessions = turns.sessionIds.map((id, s): [string, number] => [id, s]).sort(byKey);
  const random = new Random(seed);
  const count = Math.min(n, sessions.length);
  // A partial Fisher–Yates shuffle: the first `count` places are a uniform sample.
  for (let i = 0; i < count; i++) {
    const j = i + random.nextBelow(sessions.length - i);
    [sessions[i], sessions[j]] = [sessions[j]!, sessions[i]!];
  }
  return sessions.slice(0, count).map(([session, s]) => ({ session, turns: [...order.subarray(start[s]!, start[s + 1]!)] }));
}

/** The labelling rows of the drawn conversations, given each of their turns as read (`turnAt`). */
export function labellingRows(drawn: readonly DrawnConversation[], turnAt: (index: number) => Turn, rephrased: ReadonlySet<number>): LabellingRow[] {
  return drawn.flatMap(({ session, turns }) =>
    turns.map((index, position): LabellingRow => {
      const turn = turnAt(index);
      return {
        id: questionId(turn.query),
        question: turn.query,
        expected_answer: '',
        answerable: true,
        tags: ['production'],
        session_id: session,
        turn: position + 1,
        timestamp: new Date(turn.at).toISOString(),
        answer: turn.answer ?? null,
        refused: isRefusal(turn),
        rephrased: rephrased.has(index),
        notes: '',
      };
    }),
  );
}
