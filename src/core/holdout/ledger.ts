/**
 * The holdout ledger: one entry per release evaluation of a holdout. A holdout is clean only while it has been
 * looked at for at most one commit; every look for another commit lets what was learnt from it leak into the
 * pipeline. Re-running the evaluation of the same commit (a re-run job) is not a new look.
 */

export interface LedgerEntry {
  /** The holdout's fingerprint (`holdoutFingerprint`): its key and questions. */
  readonly holdout: string;
  /** The commit evaluated; null when unknown, and then every such entry counts as a look of its own. */
  readonly commit: string | null;
  /** When, as an ISO 8601 time. */
  readonly date: string;
  /** Who or what looked: a workflow run, a user. */
  readonly by: string;
  /** The headline gap (development − holdout), when there was one. */
  readonly gap: number | null;
}

export interface LedgerStatus {
  /** Distinct looks at this holdout, this one included. */
  readonly looks: number;
  /** The earlier entries for this holdout, oldest first. */
  readonly earlier: readonly LedgerEntry[];
  /** At most one look: still a clean holdout. */
  readonly clean: boolean;
}

/** The ledger's verdict on `current`, an evaluation about to be recorded, given the entries already there. */
export function ledgerStatus(entries: readonly LedgerEntry[], current: Pick<LedgerEntry, 'holdout' | 'commit'>): LedgerStatus {
  const earlier = entries.filter((entry) => entry.holdout === current.holdout);
  const looks = new Set<string>();
  let anonymous = 0;
  for (const entry of [...earlier, current]) {
    if (entry.commit === null) anonymous++;
    else looks.add(entry.commit);
  }
  const count = looks.size + anonymous;
  return { looks: count, earlier, clean: count <= 1 };
}
