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
}

/** The retrieval metric table. Every name a user can type (`--metrics`, floors, rules) is parsed against it. */
const RETRIEVAL_FAMILIES = {
  precision: { cutoff: 'required', binary: false, compute: precisionAt },
  recall: { cutoff: 'optional', binary: false, compute: recallAt },
  hit: { cutoff: 'required', binary: true, compute: hitAt },
  mrr: { cutoff: 'optional', binary: false, compute: reciprocalRankAt },
  map: { cutoff: 'optional', binary: false, compute: averagePrecisionAt },
  ndcg: { cutoff: 'optional', binary: false, compute: tableNdcgAt },
  ndcg_exp: { cutoff: 'optional', binary: false, compute: (r, k) => ndcgAt(r, k, exponentialGain) },
  r_precision: { cutoff: 'none', binary: false, compute: (r) => rPrecision(r) },
  bpref: { cutoff: 'none', binary: false, compute: (r) => bpref(r) },
  infap: { cutoff: 'none', binary: false, compute: (r) => inferredAveragePrecision(r) },
  judged: { cutoff: 'required', binary: false, compute: judgedAt },
  iprec: { cutoff: 'recall-level', binary: false, compute: interpolatedPrecisionAt },
  '11pt_avg': { cutoff: 'none', binary: false, compute: (r) => elevenPointAverage(r) },
  set_precision: { cutoff: 'none', binary: false, compute: (r) => setPrecision(r) },
  set_f1: { cutoff: 'none', binary: false, compute: (r) => setF1(r) },
  num_ret: { cutoff: 'none', binary: false, total: true, compute: (r) => retrievedCount(r) },
  num_rel: { cutoff: 'none', binary: false, total: true, compute: (r) => relevantJudgedCount(r) },
  num_rel_ret: { cutoff: 'none', binary: false, total: true, compute: (r) => relevantRetrievedCount(r) },
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

function cutoffExample(family: RetrievalFamilyName): string {
  const { cutoff }: RetrievalFamily = RETRIEVAL_FAMILIES[family];
  if (cutoff === 'recall-level') return `${family}@r`;
  return cutoff === 'required' ? `${family}@k` : cutoff === 'optional' ? `${family}[@k]` : family;
}

/** Every metric at every cut-off in `ks`, then the full-depth ones: the default report. */
export function defaultRetrievalMetrics(ks: readonly number[]): RetrievalMetric[] {
  const names: string[] = [];
  for (const family of ['precision', 'recall', 'hit', 'mrr', 'ndcg', 'ndcg_exp', 'map'] as const) {
    for (const k of ks) names.push(`${family}@${k}`);
  }
  names.push('mrr', 'map', 'ndcg', 'ndcg_exp', 'r_precision');
  return names.map(parseRetrievalMetric);
}
