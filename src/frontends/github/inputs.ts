import { z } from 'zod';
import type { GateCategory } from '../../core/catalog/gates.js';
import { parseFloor } from '../../core/compare/gate.js';
import type { Floor } from '../../core/compare/types.js';
import { type CompareSettings, parseAlpha, parseCutoffs, parseFailOn, parseGraded, parseKappaFloor, parseMinEffect, parsePermutations } from '../../core/compare/settings.js';
import { SettingError } from '../../core/errors.js';
import { type CorrectnessRule, parseCorrectnessRule } from '../../core/scoring/generation/correctness.js';
import { parseRetrievalOkRule, type RetrievalOkRule } from '../../core/scoring/retrieval-ok.js';

/** Every input's default, as action.yml declares it (a test keeps the two equal). An empty input means its default. */
export const INPUT_DEFAULTS = {
  results: '',
  baseline: '',
  'baseline-artifact': 'rag-gate-results',
  'baseline-max-age-days': '30',
  'github-token': '',
  k: '1,3,5,10',
  'retrieval-ok': 'hit@5',
  correct: 'exact',
  alpha: '0.05',
  'fail-on': 'retrieval,end-to-end',
  'min-effect': '0',
  floors: '',
  graded: 'ndcg@10,recall@5,mrr,map,faithfulness,answer_relevance',
  permutations: '10000',
  comment: 'always',
  'comment-tag': 'default',
  mode: 'gate',
  'pr-number': '',
  judge: 'none',
  'judge-model': 'gpt-4o-mini',
  'judge-base-url': '',
  'judge-calibration': '',
  'judge-cache': '.rag-gate-cache',
  'kappa-floor': '0.6',
} as const;

export type InputName = keyof typeof INPUT_DEFAULTS;

/** A parser from the core as a zod transform, so its message lands on the input's name. */
function setting<T>(parse: (text: string) => T) {
  return z.string().transform((text, ctx): T => {
    try {
      return parse(text);
    } catch (error) {
      if (!(error instanceof SettingError)) throw error;
      ctx.addIssue({ code: 'custom', message: error.message });
      return z.NEVER;
    }
  });
}

function parseFloors(text: string): Floor[] {
  return text
    .split(/[\n,]/)
    .map((item) => item.trim())
    .filter(Boolean)
    .map(parseFloor);
}

function parsePositiveNumber(text: string): number {
  const value = Number(text);
  if (!Number.isFinite(value) || value <= 0) throw new SettingError(`must be a positive number, got "${text}"`);
  return value;
}

function parseOptionalPrNumber(text: string): number | undefined {
  if (text.trim() === '') return undefined;
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1) throw new SettingError(`must be a pull request number, got "${text}"`);
  return value;
}

const inputSchema = z.object({
  results: z.string().trim().min(1, 'is required: the path or glob of your results file(s)'),
  baseline: z.string().trim(),
  'baseline-artifact': z.string().trim().min(1, 'must name an artifact'),
  'baseline-max-age-days': setting(parsePositiveNumber),
  'github-token': z.string(),
  k: setting(parseCutoffs),
  'retrieval-ok': setting(parseRetrievalOkRule),
  correct: setting(parseCorrectnessRule),
  alpha: setting(parseAlpha),
  'fail-on': setting(parseFailOn),
  'min-effect': setting(parseMinEffect),
  floors: setting(parseFloors),
  graded: setting(parseGraded),
  permutations: setting(parsePermutations),
  comment: z.enum(['always', 'on-change', 'never'], { error: 'must be always, on-change or never' }),
  // No "--" and no dash at the end: the marker is an HTML comment, which cannot hold either, and would lose them.
  'comment-tag': z.string().regex(/^(?!.*--)(?!.*-$)[A-Za-z0-9._-]{1,64}$/, 'must be 1–64 letters, digits, dots, dashes or underscores, with no two dashes in a row and no dash at the end'),
  mode: z.enum(['gate', 'advisory'], { error: 'must be gate or advisory' }),
  'pr-number': setting(parseOptionalPrNumber),
  judge: z.enum(['none', 'openai'], { error: 'must be none or openai' }),
  'judge-model': z.string().trim().min(1, 'must name a model'),
  'judge-base-url': z.string().trim(),
  'judge-calibration': z.string(),
  'judge-cache': z.string().trim().min(1, 'must be a directory'),
  'kappa-floor': setting(parseKappaFloor),
});

export interface ActionInputs extends Omit<CompareSettings, 'calibrations'> {
  readonly results: string;
  readonly baseline: string | undefined;
  readonly baselineArtifact: string;
  readonly baselineMaxAgeDays: number;
  readonly githubToken: string;
  readonly comment: 'always' | 'on-change' | 'never';
  readonly commentTag: string;
  readonly mode: 'gate' | 'advisory';
  readonly prNumber: number | undefined;
  /** `openai`: judge faithfulness, answer relevance and correctness where the records lack them. */
  readonly judge: 'none' | 'openai';
  readonly judgeModel: string;
  readonly judgeBaseUrl: string | undefined;
  /** Paths of calibration records. */
  readonly judgeCalibration: readonly string[];
  /** Directory of the judge's reply cache (keep it between runs with actions/cache). */
  readonly judgeCache: string;
  readonly k: readonly number[];
  readonly retrievalOk: RetrievalOkRule;
  readonly correct: CorrectnessRule;
  readonly failOn: ReadonlySet<GateCategory>;
}

export class ActionInputError extends Error {
  override name = 'ActionInputError';
}

/** Reads and validates every input; throws ActionInputError naming each bad input and why. */
export function readInputs(getInput: (name: InputName) => string): ActionInputs {
  const raw: Record<string, string> = {};
  for (const name of Object.keys(INPUT_DEFAULTS) as InputName[]) {
    const value = getInput(name);
    raw[name] = value.trim() === '' ? INPUT_DEFAULTS[name] : value;
  }
  const parsed = inputSchema.safeParse(raw);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `input "${String(issue.path[0])}": ${issue.message}`);
    throw new ActionInputError(problems.join('\n'));
  }
  const inputs = parsed.data;
  return {
    results: inputs.results,
    baseline: inputs.baseline === '' ? undefined : inputs.baseline,
    baselineArtifact: inputs['baseline-artifact'],
    baselineMaxAgeDays: inputs['baseline-max-age-days'],
    githubToken: inputs['github-token'],
    k: inputs.k,
    retrievalOk: inputs['retrieval-ok'],
    correct: inputs.correct,
    alpha: inputs.alpha,
    failOn: inputs['fail-on'],
    minEffect: inputs['min-effect'],
    floors: inputs.floors,
    graded: inputs.graded,
    permutations: inputs.permutations,
    comment: inputs.comment,
    commentTag: inputs['comment-tag'],
    mode: inputs.mode,
    prNumber: inputs['pr-number'],
    judge: inputs.judge,
    judgeModel: inputs['judge-model'],
    judgeBaseUrl: inputs['judge-base-url'] === '' ? undefined : inputs['judge-base-url'],
    judgeCalibration: inputs['judge-calibration']
      .split(/[\n,]/)
      .map((path) => path.trim())
      .filter(Boolean),
    judgeCache: inputs['judge-cache'],
    kappaFloor: inputs['kappa-floor'],
  };
}
