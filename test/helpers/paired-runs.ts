/** Builds base/head result records with chosen paired outcomes, for comparison tests. */

export interface PairCounts {
  bothRight: number;
  fixed: number;
  broken: number;
  bothWrong: number;
}

export interface Question {
  id: string;
  question: string;
  relevant_ids?: string[];
  retrieved_ids?: string[];
  correct?: boolean;
  answerable?: boolean;
  refused?: boolean;
  tags?: string[];
  [field: string]: unknown;
}

/** Pairs of `correct` outcomes in the given counts, ids q-0000…; retrieval left out. */
export function correctnessPairs(counts: PairCounts): { base: Question[]; head: Question[] } {
  const base: Question[] = [];
  const head: Question[] = [];
  const kinds: [keyof PairCounts, boolean, boolean][] = [
    ['bothRight', true, true],
    ['fixed', false, true],
    ['broken', true, false],
    ['bothWrong', false, false],
  ];
  let i = 0;
  for (const [kind, before, after] of kinds) {
    for (let j = 0; j < counts[kind]; j++, i++) {
      const id = `q-${String(i).padStart(4, '0')}`;
      base.push({ id, question: `Question ${i}?`, correct: before });
      head.push({ id, question: `Question ${i}?`, correct: after });
    }
  }
  return { base, head };
}

/** A ranking that puts the gold document at rank 1 when `found`, else beyond rank 10. */
export function ranking(gold: string, found: boolean): string[] {
  const filler = Array.from({ length: 10 }, (_, i) => `${gold}-other-${i}`);
  return found ? [gold, ...filler] : [...filler, gold];
}
