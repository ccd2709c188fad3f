/**
 * Embeddings of several answers in one request. OpenAI's /embeddings takes a list of inputs, so answer relevance
 * need not make one request per answer: the texts of the answers of one run are queued and sent together, at most
 * EMBEDDING_BATCH_ANSWERS answers and EMBEDDING_BATCH_TOKENS estimated tokens a request.
 *
 * When to send is decided by counting, not by a timer, so the number of requests is the same on every machine: a
 * batch goes as soon as it is full, and the last, partial one once every member of the run has either queued its
 * texts or no longer needs to (its value came from the cache, its chat call failed). A member settles before it
 * waits for anything, so no member waits on a batch that waits on it.
 */

/**
 * Answers whose texts go in one embeddings request, at most (answer relevance sends 4 an answer; OpenAI takes 2,048
 * inputs). Bounded by the reply: 64 vectors of 3,072 dimensions written with 17 significant digits are 4.3 MB,
 * well under the MAX_REPLY_BYTES rag-gate reads.
 */
export const EMBEDDING_BATCH_ANSWERS = 16;
/** Estimated tokens in one embeddings request, at most (OpenAI takes 300,000); a larger answer goes alone. */
export const EMBEDDING_BATCH_TOKENS = 100_000;

/** One request for the texts of several answers: each answer's vectors in its texts' order, or why it failed. */
export type SendGroups = (groups: readonly (readonly string[])[]) => Promise<readonly (number[][] | Error)[]>;

/** One answer's part in a batch: it queues its texts (`embed`) or says it has none to queue (`settle`), once. */
export interface BatchMember {
  embed(texts: readonly string[]): Promise<number[][]>;
  /** Idempotent: it has nothing (more) to queue. */
  settle(): void;
}

interface Queued {
  readonly texts: readonly string[];
  readonly resolve: (vectors: number[][]) => void;
  readonly reject: (error: unknown) => void;
}

export class EmbeddingBatch {
  private queued: Queued[] = [];
  private queuedTokens = 0;
  private members = 0;
  private settled = 0;
  private closed = false;

  constructor(
    private readonly send: SendGroups,
    private readonly tokensOf: (texts: readonly string[]) => number,
    /** Answers a request may carry now (the client lowers it to 1 when an endpoint refuses lists). */
    private readonly answersPerRequest: () => number,
  ) {}

  /** A new member; the batch's last request waits for every member to settle, and for `close`. */
  member(): BatchMember {
    this.members++;
    let done = false;
    const settle = () => {
      if (done) return false;
      done = true;
      this.settled++;
      return true;
    };
    return {
      embed: (texts) => {
        if (!settle()) throw new Error('a batch member queues its texts once');
        const vectors = this.enqueue(texts);
        this.sendIfComplete();
        return vectors;
      },
      settle: () => {
        if (settle()) this.sendIfComplete();
      },
    };
  }

  /** No more members will join. */
  close(): void {
    this.closed = true;
    this.sendIfComplete();
  }

  private enqueue(texts: readonly string[]): Promise<number[][]> {
    const tokens = this.tokensOf(texts);
    if (this.queued.length > 0 && this.queuedTokens + tokens > EMBEDDING_BATCH_TOKENS) this.sendQueued();
    const vectors = new Promise<number[][]>((resolve, reject) => this.queued.push({ texts, resolve, reject }));
    this.queuedTokens += tokens;
    if (this.queued.length >= Math.min(EMBEDDING_BATCH_ANSWERS, this.answersPerRequest())) this.sendQueued();
    return vectors;
  }

  private sendIfComplete(): void {
    if (this.closed && this.settled === this.members && this.queued.length > 0) this.sendQueued();
  }

  private sendQueued(): void {
    const batch = this.queued;
    this.queued = [];
    this.queuedTokens = 0;
    this.send(batch.map((item) => item.texts)).then(
      (results) =>
        batch.forEach((item, i) => {
          const result = results[i]!;
          if (result instanceof Error) item.reject(result);
          else item.resolve(result);
        }),
      (error: unknown) => batch.forEach((item) => item.reject(error)),
    );
  }
}
