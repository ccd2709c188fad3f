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

/**
 * The comment sketch's scenario: 170 answerable questions, hit@5 2 fixed / 16 broken, correct 6 fixed / 15
 * broken; 11 regressions lost the gold document, 4 got a worse answer with the same retrieval, 5 lost the gold
 * document but were still answered right; 30 unanswerable questions refused 27 times in both runs.
 */
export function sketchScenario(): { base: Question[]; head: Question[] } {
  const base: Question[] = [];
  const head: Question[] = [];
  let n = 0;
  const add = (count: number, retrieval: [boolean, boolean], correct: [boolean, boolean], tags: string[]) => {
    for (let j = 0; j < count; j++, n++) {
      const id = `q-${String(n).padStart(4, '0')}`;
      const gold = `doc-${n}`;
      const common = { id, question: `Question ${n}?`, relevant_ids: [gold], tags };
      base.push({ ...common, retrieved_ids: ranking(gold, retrieval[0]), correct: correct[0] });
      head.push({ ...common, retrieved_ids: ranking(gold, retrieval[1]), correct: correct[1] });
    }
  };
  add(11, [true, false], [true, false], ['synthesis']); // lost the gold document, and the answer
  add(5, [true, false], [true, true], ['synthesis']); // lost it, rescued by the model
  add(4, [true, true], [true, false], ['factual']); // same retrieval, worse answer
  add(2, [false, true], [false, true], ['synthesis']); // retrieval fixed the answer
  add(4, [true, true], [false, true], ['factual']); // generation fixed the answer
  add(100, [true, true], [true, true], ['factual']);
  add(26, [true, true], [false, false], ['factual']);
  add(13, [false, false], [false, false], ['synthesis']);
  add(5, [true, true], [true, true], ['synthesis']);
  for (let j = 0; j < 30; j++, n++) {
    const id = `q-${String(n).padStart(4, '0')}`;
    const common = { id, question: `Unanswerable ${n}?`, relevant_ids: [], answerable: false, retrieved_ids: ['x1', 'x2'], tags: ['unanswerable'] };
    base.push({ ...common, refused: j < 27 });
    head.push({ ...common, refused: j < 27 });
  }
  return { base, head };
}
