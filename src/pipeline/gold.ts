import { GATED_TESTS } from '../core/catalog/gates.js';
import type { GoldChange, NotRescorable } from '../core/compare/types.js';
import { rowsIn } from '../core/compare/pairing.js';
import { column, type GoldLabels, goldLabelsOf, type QuestionOutcomes, withoutQuestions, withRowsOf } from '../core/scoring/outcomes.js';
import type { EvalConfig } from '../core/scoring/score.js';
import { rescoreUnderHeadLabels } from '../sources/outcomes.js';

/** Asked, once the gold changes that change a gated outcome are known, whether they are approved. */
export type GoldApproval = (changes: readonly GoldChange[]) => Promise<boolean>;

/** The two runs ready to pair, with how the questions whose gold changed were scored. */
export interface SettledGold {
  readonly base: QuestionOutcomes;
  readonly head: QuestionOutcomes;
  readonly rescored: readonly string[];
  readonly notRescorable: ReadonlyMap<string, NotRescorable>;
  readonly changes: readonly GoldChange[];
}

const GATED_COLUMNS = [...new Set(GATED_TESTS.map((test) => test.column))];

/** Whether two rows agree on every gated outcome (NaN, no outcome, equal to NaN). */
function sameGatedOutcomes(a: QuestionOutcomes, rowA: number, b: QuestionOutcomes, rowB: number): boolean {
  return GATED_COLUMNS.every((name) => {
    const x = column(a, name)[rowA]!;
    const y = column(b, name)[rowB]!;
    return x === y || (Number.isNaN(x) && Number.isNaN(y));
  });
}

const only = (run: QuestionOutcomes, ids: ReadonlySet<string>) => withoutQuestions(run, new Set(run.ids.filter((id) => !ids.has(id)))).outcomes;

/**
 * Settles the questions whose gold the head changed. Each is scored under both golds in both runs; a change under
 * which no gated outcome moves is scored under the head's gold, as is every change once approved (`approve`
 * absent: the head is trusted, as in a local run). Otherwise the head is scored under the base's gold, and a head
 * record that cannot be (it states `correct` while the expected answer changed) leaves the head, so that it counts
 * as missing: failed.
 */
export async function settleGold(
  files: { readonly base: readonly string[]; readonly head: readonly string[] },
  base: QuestionOutcomes,
  head: QuestionOutcomes,
  config: EvalConfig,
  approve?: GoldApproval,
): Promise<SettledGold> {
  const headRowOfBase = rowsIn(base.ids, head.ids);
  const baseRowOf = new Map<string, number>();
  const headRowOf = new Map<string, number>();
  const headLabels = new Map<string, { key: string; labels: GoldLabels }>();
  const baseLabels = new Map<string, { key: string; labels: GoldLabels }>();
  base.ids.forEach((id, row) => {
    const headRow = headRowOfBase[row]!;
    if (headRow < 0 || head.goldKeys[headRow] === base.goldKeys[row]) return;
    baseRowOf.set(id, row);
    headRowOf.set(id, headRow);
    headLabels.set(id, { key: head.goldKeys[headRow]!, labels: goldLabelsOf(head.goldKeys[headRow]!) });
    baseLabels.set(id, { key: base.goldKeys[row]!, labels: goldLabelsOf(base.goldKeys[row]!) });
  });
  if (headLabels.size === 0) return { base, head, rescored: [], notRescorable: new Map(), changes: [] };

  const [baseUnderHead, headUnderBase] = await Promise.all([
    rescoreUnderHeadLabels(files.base, headLabels, config),
    rescoreUnderHeadLabels(files.head, baseLabels, config),
  ]);
  const rowIn = (run: QuestionOutcomes) => new Map(run.ids.map((id, row) => [id, row]));
  const [baseUnderHeadRow, headUnderBaseRow] = [rowIn(baseUnderHead.outcomes), rowIn(headUnderBase.outcomes)];
  const moves = (id: string) => {
    const [b, h] = [baseUnderHeadRow.get(id), headUnderBaseRow.get(id)];
    return (
      b === undefined ||
      h === undefined ||
      !sameGatedOutcomes(base, baseRowOf.get(id)!, baseUnderHead.outcomes, b) ||
      !sameGatedOutcomes(head, headRowOf.get(id)!, headUnderBase.outcomes, h)
    );
  };
  const ids = [...headLabels.keys()];
  const moving = new Set(ids.filter(moves));
  const change = (id: string, scoredUnder: GoldChange['scoredUnder']): GoldChange => ({
    id,
    base: baseLabels.get(id)!.labels,
    head: headLabels.get(id)!.labels,
    changesOutcome: moving.has(id),
    scoredUnder,
  });
  const approved = moving.size === 0 || approve === undefined || (await approve(ids.filter((id) => moving.has(id)).map((id) => change(id, 'base'))));
  // Under the head's gold: the base re-scored as the head labels it (a record that cannot be stays unpaired).
  const underHead = new Set(approved ? ids : ids.filter((id) => !moving.has(id)));
  const rescoredBase = only(baseUnderHead.outcomes, underHead);
  const notRescorable = new Map([...baseUnderHead.notRescorable].filter(([id]) => underHead.has(id)));
  if (approved)
    return { base: withRowsOf(base, rescoredBase), head, rescored: [...rescoredBase.ids], notRescorable, changes: ids.map((id) => change(id, 'head')) };
  const lost = new Set([...moving].filter((id) => headUnderBase.notRescorable.has(id)));
  const underBase = new Set([...moving].filter((id) => !lost.has(id)));
  return {
    base: withRowsOf(base, rescoredBase),
    head: withoutQuestions(withRowsOf(head, only(headUnderBase.outcomes, underBase)), lost).outcomes,
    rescored: [...rescoredBase.ids],
    notRescorable,
    changes: ids.map((id) => change(id, underHead.has(id) ? 'head' : lost.has(id) ? 'lost' : 'base')),
  };
}
