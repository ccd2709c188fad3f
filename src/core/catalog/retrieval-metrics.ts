import { SettingError } from '../errors.js';
import type { JudgedRanking } from '../measures/ranking.js';
import { averagePrecisionAt } from '../measures/retrieval/average-precision.js';
import { bpref } from '../measures/retrieval/bpref.js';
import { relevantJudgedCount, relevantRetrievedCount, retrievedCount } from '../measures/retrieval/counts.js';
import { hitAt } from '../measures/retrieval/hit.js';
import { inferredAveragePrecision } from '../measures/retrieval/inferred-ap.js';
import { elevenPointAverage, interpolatedPrecisionAt } from '../measures/retrieval/interpolated-precision.js';
import { judgedAt } from '../measures/retrieval/judged.js';
import { exponentialGain, ndcgAt, tableNdcgAt } from '../measures/retrieval/ndcg.js';
import { precisionAt } from '../measures/retrieval/precision.js';
import { rPrecision } from '../measures/retrieval/r-precision.js';
import { recallAt } from '../measures/retrieval/recall.js';
import { reciprocalRankAt } from '../measures/retrieval/reciprocal-rank.js';
import { setF1, setPrecision } from '../measures/retrieval/set.js';

/** One retrieval measure family; `ndcg@10` is the family `ndcg` at cut-off 10. */
interface RetrievalFamily {
  /**
   * What may follow `@`: a cut-off that a name needs (`precision@k`), may have (`ndcg`, `ndcg@10`) or must not
   * (`r_precision`), or a recall level between 0 and 1 that it needs (`iprec@0.5`).
   */
  readonly cutoff: 'required' | 'optional' | 'none' | 'recall-level';
  /** A 0/1 score per question, so its mean is a proportion with a Wilson interval. */
  readonly binary: boolean;
  /** A count whose total over queries `trec` reports, as trec_eval does, rather than its mean. */
  readonly total?: true;
  /** `k` is the cut-off (Infinity when absent) or the recall level. */
  readonly compute: (ranking: JudgedRanking, k: number) => number;
  /** What it measures, for the docs' table (markdown). */
  readonly definition: string;
  /** trec_eval's measure that gives the same number, or what stands in for one (markdown). */
  readonly trecEval: string;
}

/** The retrieval metric table. Every name a user can type (`--metrics`, floors, rules) is parsed against it. */
const RETRIEVAL_FAMILIES = {
  precision: {
    cutoff: 'required',
    binary: false,
    compute: precisionAt,
    definition: 'relevant in the top k / k; divides by k even when fewer than k were retrieved',
    trecEval: '`P_k`',
  },
  recall: {
    cutoff: 'optional',
    binary: false,
    compute: recallAt,
    definition: 'relevant in the top k (all retrieved, without k) / all relevant, retrieved or not',
    trecEval: '`recall_k`; without k `set_recall`',
  },
  hit: { cutoff: 'required', binary: true, compute: hitAt, definition: '1 if a relevant document is in the top k', trecEval: '`success_k`' },
  mrr: {
    cutoff: 'optional',
    binary: false,
    compute: reciprocalRankAt,
    definition: '1 / rank of the first relevant document if it is in the top k (anywhere, without k), else 0',
    trecEval: '`recip_rank`, with `-M k` for a cut-off',
  },
  map: {
    cutoff: 'optional',
    binary: false,
    compute: averagePrecisionAt,
    definition: 'sum of precision at the rank of each relevant document within the top k / all relevant',
    trecEval: '`map_cut_k`; without k `map`',
  },
  ndcg: {
    cutoff: 'optional',
    binary: false,
    compute: tableNdcgAt,
    definition:
      'DCG with gain = grade (or the `ndcg-gains` table) and discount 1/log2(rank + 1), over the DCG of the ideal ranking of all judged documents, both cut at k',
    trecEval: '`ndcg_cut_k` (with a gain table: `ndcg_cut_k` on qrels whose grades are rewritten to the gains); without k `ndcg`',
  },
  ndcg_exp: {
    cutoff: 'optional',
    binary: false,
    compute: (r, k) => ndcgAt(r, k, exponentialGain),
    definition: 'as `ndcg` with gain 2^grade − 1',
    trecEval: '`ndcg_cut_k` on qrels whose grades are rewritten to 2^grade − 1 (`ndcg_cut` takes no gains); without k `ndcg` with gains `0=0,1=1,2=3,3=7,…`',
  },
  r_precision: {
    cutoff: 'none',
    binary: false,
    compute: (r) => rPrecision(r),
    definition: 'relevant in the top R / R, where R is the number of relevant documents; divides by R even when fewer were retrieved',
    trecEval: '`Rprec`',
  },
  bpref: {
    cutoff: 'none',
    binary: false,
    compute: (r) => bpref(r),
    definition:
      'for each relevant document retrieved, 1 − (judged non-relevant ranked above it, at most R) / min(judged non-relevant, R), summed, / R; unjudged documents are skipped',
    trecEval: '`bpref`',
  },
  infap: {
    cutoff: 'none',
    binary: false,
    compute: (r) => inferredAveragePrecision(r),
    definition:
      'average precision inferred from a sampled pool: a negative grade marks a pooled document that was not sampled; equals `map` on complete judgments',
    trecEval: '`infAP`',
  },
  judged: {
    cutoff: 'required',
    binary: false,
    compute: judgedAt,
    definition:
      'share of the top k (of all retrieved, when fewer) that have a line in the qrels, whatever the grade: low values say the qrels are too sparse to trust the other numbers',
    trecEval: "none (ir_measures `Judged@k`, ranked with trec_eval's ties)",
  },
  iprec: {
    cutoff: 'recall-level',
    binary: false,
    compute: interpolatedPrecisionAt,
    definition: 'interpolated precision at recall level r (0 ≤ r ≤ 1): the best precision at or below the rank where round(r·R) relevant documents are in',
    trecEval: '`iprec_at_recall_r`',
  },
  '11pt_avg': {
    cutoff: 'none',
    binary: false,
    compute: (r) => elevenPointAverage(r),
    definition: '`iprec` averaged over r = 0.0, 0.1, … 1.0',
    trecEval: '`11pt_avg`',
  },
  set_precision: {
    cutoff: 'none',
    binary: false,
    compute: (r) => setPrecision(r),
    definition: 'relevant retrieved / retrieved',
    trecEval: '`set_P`',
  },
  set_f1: {
    cutoff: 'none',
    binary: false,
    compute: (r) => setF1(r),
    definition: '2·P·R / (P + R) of `set_precision` and `recall`',
    trecEval: '`set_F` (β = 1)',
  },
  num_ret: {
    cutoff: 'none',
    binary: false,
    total: true,
    compute: (r) => retrievedCount(r),
    definition: 'documents retrieved; `trec` reports the total over queries, `eval` the mean per question',
    trecEval: '`num_ret`',
  },
  num_rel: {
    cutoff: 'none',
    binary: false,
    total: true,
    compute: (r) => relevantJudgedCount(r),
    definition: 'relevant documents judged (retrieved or not); `trec` reports the total over queries, `eval` the mean per question',
    trecEval: '`num_rel`',
  },
  num_rel_ret: {
    cutoff: 'none',
    binary: false,
    total: true,
    compute: (r) => relevantRetrievedCount(r),
    definition: 'relevant documents retrieved; `trec` reports the total over queries, `eval` the mean per question',
    trecEval: '`num_rel_ret`',
  },
} as const satisfies Record<string, RetrievalFamily>;

export type RetrievalFamilyName = keyof typeof RETRIEVAL_FAMILIES;

/** A parsed retrieval metric such as `ndcg@10`: its public name, family and cut-off (Infinity = full depth) or recall level. */
export interface RetrievalMetric {
  readonly name: string;
  readonly family: RetrievalFamilyName;
  readonly k: number;
  readonly binary: boolean;
  /** `trec` reports its total over queries (a count), not its mean. */
  readonly total: boolean;
  readonly compute: (ranking: JudgedRanking) => number;
}

export class MetricNameError extends SettingError {}

const FAMILY_NAMES = Object.keys(RETRIEVAL_FAMILIES) as RetrievalFamilyName[];

function isFamily(name: string): name is RetrievalFamilyName {
  return Object.hasOwn(RETRIEVAL_FAMILIES, name);
}

/** Parses `ndcg@10`, `map`, `r_precision`, `iprec@0.5`… into a metric; throws MetricNameError naming what is accepted. */
export function parseRetrievalMetric(text: string): RetrievalMetric {
  const name = text.trim();
  const match = /^([a-z0-9_]+)(?:@(\d+(?:\.\d+)?))?$/.exec(name);
  const familyName = match?.[1] ?? '';
  if (!match || !isFamily(familyName)) {
    throw new MetricNameError(`unknown retrieval metric "${name}"; use one of ${FAMILY_NAMES.map((f) => cutoffExample(f)).join(', ')}`);
  }
  const family: RetrievalFamily = RETRIEVAL_FAMILIES[familyName];
  const parameter = match[2];
  const k = parameter === undefined ? Infinity : Number(parameter);
  if (family.cutoff === 'recall-level') {
    // No level given leaves k at ∞.
    if (k > 1) throw new MetricNameError(`metric "${name}" needs a recall level from 0 to 1, for example "${familyName}@0.5"`);
  } else if (parameter === undefined) {
    if (family.cutoff === 'required') throw new MetricNameError(`metric "${name}" needs a cut-off, for example "${familyName}@10"`);
  } else {
    if (family.cutoff === 'none') throw new MetricNameError(`metric "${familyName}" takes no cut-off; write "${familyName}"`);
    if (!Number.isInteger(k) || k < 1) throw new MetricNameError(`metric "${name}": the cut-off must be a whole number of at least 1`);
  }
  return {
    name: parameter === undefined ? familyName : `${familyName}@${k}`,
    family: familyName,
    k,
    binary: family.binary,
    total: family.total === true,
    compute: (ranking) => family.compute(ranking, k),
  };
}

/** Every family as the docs' table shows it: its name with what may follow `@`, its definition and trec_eval's measure. */
export const RETRIEVAL_METRIC_ROWS: readonly { readonly name: string; readonly definition: string; readonly trecEval: string }[] = FAMILY_NAMES.map(
  (family) => ({ name: cutoffExample(family), definition: RETRIEVAL_FAMILIES[family].definition, trecEval: RETRIEVAL_FAMILIES[family].trecEval }),
);

function cutoffExample(family: RetrievalFamilyName): string {
  const { cutoff }: RetrievalFamily = RETRIEVAL_FAMILIES[family];
  if (cutoff === 'recall-level') return `${family}@r`;
  return cutoff === 'required' ? `${family}@k` : cutoff === 'optional' ? `${family}[@k]` : family;
}

/** The default report's families: these at each cut-off, then these at full depth. */
export const DEFAULT_RETRIEVAL_FAMILIES = {
  atEachCutoff: ['precision', 'recall', 'hit', 'mrr', 'ndcg', 'ndcg_exp', 'map'],
  atFullDepth: ['mrr', 'map', 'ndcg', 'ndcg_exp', 'r_precision'],
} as const satisfies Record<string, readonly RetrievalFamilyName[]>;

/** Every default family at every cut-off in `ks`, then the full-depth ones: the default report. */
export function defaultRetrievalMetrics(ks: readonly number[]): RetrievalMetric[] {
  const names: string[] = [];
  for (const family of DEFAULT_RETRIEVAL_FAMILIES.atEachCutoff) {
    for (const k of ks) names.push(`${family}@${k}`);
  }
  names.push(...DEFAULT_RETRIEVAL_FAMILIES.atFullDepth);
  return names.map(parseRetrievalMetric);
}
