import { SettingError } from '../errors.js';
import type { JudgedRanking } from '../scoring/ranking.js';
import { averagePrecisionAt } from '../scoring/retrieval/average-precision.js';
import { hitAt } from '../scoring/retrieval/hit.js';
import { exponentialGain, linearGain, ndcgAt } from '../scoring/retrieval/ndcg.js';
import { precisionAt } from '../scoring/retrieval/precision.js';
import { rPrecision } from '../scoring/retrieval/r-precision.js';
import { recallAt } from '../scoring/retrieval/recall.js';
import { reciprocalRankAt } from '../scoring/retrieval/reciprocal-rank.js';

/** One retrieval measure family; `ndcg@10` is the family `ndcg` at cut-off 10. */
interface RetrievalFamily {
  /** Whether a name needs `@k` (`precision@k`), may have it (`ndcg`, `ndcg@10`) or must not (`r_precision`). */
  readonly cutoff: 'required' | 'optional' | 'none';
  /** A 0/1 score per question, so its mean is a proportion with a Wilson interval. */
  readonly binary: boolean;
  readonly compute: (ranking: JudgedRanking, k: number) => number;
}

/** The retrieval metric table. Every name a user can type (`--metrics`, floors, rules) is parsed against it. */
const RETRIEVAL_FAMILIES = {
  precision: { cutoff: 'required', binary: false, compute: precisionAt },
  recall: { cutoff: 'optional', binary: false, compute: recallAt },
  hit: { cutoff: 'required', binary: true, compute: hitAt },
  mrr: { cutoff: 'optional', binary: false, compute: reciprocalRankAt },
  map: { cutoff: 'optional', binary: false, compute: averagePrecisionAt },
  ndcg: { cutoff: 'optional', binary: false, compute: (r, k) => ndcgAt(r, k, linearGain) },
  ndcg_exp: {
    cutoff: 'optional',
    binary: false,

    compute: (r, k) => ndcgAt(r, k, exponentialGain),
  },
  r_precision: { cutoff: 'none', binary: false, compute: (r) => rPrecision(r) },
} as const satisfies Record<string, RetrievalFamily>;

export type RetrievalFamilyName = keyof typeof RETRIEVAL_FAMILIES;

/** A parsed retrieval metric such as `ndcg@10`: its public name, family and cut-off (Infinity = full depth). */
export interface RetrievalMetric {
  readonly name: string;
  readonly family: RetrievalFamilyName;
  readonly k: number;
  readonly binary: boolean;
  readonly compute: (ranking: JudgedRanking) => number;
}

export class MetricNameError extends SettingError {}

const FAMILY_NAMES = Object.keys(RETRIEVAL_FAMILIES) as RetrievalFamilyName[];

function isFamily(name: string): name is RetrievalFamilyName {
  return Object.hasOwn(RETRIEVAL_FAMILIES, name);
}

/** Parses `ndcg@10`, `map`, `r_precision`… into a metric; throws MetricNameError naming what is accepted. */
export function parseRetrievalMetric(text: string): RetrievalMetric {
  const name = text.trim();
  const match = /^([a-z_]+)(?:@(\d+))?$/.exec(name);
  const familyName = match?.[1] ?? '';
  if (!match || !isFamily(familyName)) {
    throw new MetricNameError(`unknown retrieval metric "${name}"; use one of ${FAMILY_NAMES.map((f) => cutoffExample(f)).join(', ')}`);
  }
  const family = RETRIEVAL_FAMILIES[familyName];
  const cut = match[2];
  if (cut === undefined && family.cutoff === 'required') {
    throw new MetricNameError(`metric "${name}" needs a cut-off, for example "${familyName}@10"`);
  }
  if (cut !== undefined && family.cutoff === 'none') {
    throw new MetricNameError(`metric "${familyName}" takes no cut-off; write "${familyName}"`);
  }
  const k = cut === undefined ? Infinity : Number(cut);
  if (k < 1) throw new MetricNameError(`metric "${name}": the cut-off must be at least 1`);
  return {
    name: cut === undefined ? familyName : `${familyName}@${k}`,
    family: familyName,
    k,
    binary: family.binary,
    compute: (ranking) => family.compute(ranking, k),
  };
}

function cutoffExample(family: RetrievalFamilyName): string {
  const { cutoff } = RETRIEVAL_FAMILIES[family];
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
