import { describe, expect, it } from 'vitest';
import { type CalibrationRecord } from '../../../src/core/compare/calibration.js';
import { compareConfig, evalConfig, type ScoringSettings } from '../../../src/core/compare/settings.js';
import { resolveSettings, type SettingName, type SettingText } from '../../../src/core/catalog/settings.js';

/** The settings with these values given as flags, the rest at their defaults. */
function settingsWith(values: Partial<Record<SettingName, string>>) {
  const layer = new Map<SettingName, SettingText>(
    Object.entries(values).map(([name, text]) => [name as SettingName, { text: text!, origin: { kind: 'flag', flag: `--${name}` } }]),
  );
  return resolveSettings([layer], (problem) => problem.message).settings;
}

/** The required scoring settings only, as the callers that score one run pass them. */
function scoring(retrievalOk: string, k = '5'): ScoringSettings {
  const settings = settingsWith({ 'retrieval-ok': retrievalOk, k });
  return {
    k: settings.k,
    'retrieval-ok': settings['retrieval-ok'],
    correct: settings.correct,
    'relevance-level': settings['relevance-level'],
    'ndcg-gains': settings['ndcg-gains'],
  };
}

const DEFAULT_AT_5 = ['precision@5', 'recall@5', 'hit@5', 'mrr@5', 'ndcg@5', 'ndcg_exp@5', 'map@5', 'mrr', 'map', 'ndcg', 'ndcg_exp', 'r_precision'];

const names = (settings: ScoringSettings, extra?: string[]) => evalConfig(settings, extra).retrievalMetrics.map((metric) => metric.name);

describe('evalConfig', () => {
  it("computes the default retrieval metrics, and the retrieval-ok rule's metric once", () => {
    expect(names(scoring('hit@5'))).toEqual(DEFAULT_AT_5);
    expect(names(scoring('recall@5>=0.8'))).toEqual(DEFAULT_AT_5);
    expect(names(scoring('hit@3'))).toEqual([...DEFAULT_AT_5, 'hit@3']);
  });

  it('adds each extra retrieval metric once, and no answer metric or score', () => {
    expect(names(scoring('hit@3'), ['ndcg@10', 'correct', 'faithfulness', 'score:tone', 'ndcg@10', 'hit@3', 'recall@5'])).toEqual([
      ...DEFAULT_AT_5,
      'hit@3',
      'ndcg@10',
    ]);
  });

  it('context match, field names and format default to exact, none and auto when not given', () => {
    const settings = scoring('hit@5');
    const config = evalConfig(settings);
    expect(config.contextMatch).toEqual({ kind: 'exact' });
    expect(config.fields).toEqual(new Map());
    expect(config.format).toBe('auto');
    expect(config.retrievalOk).toBe(settings['retrieval-ok']);
    expect(config.correctness).toEqual({ kind: 'contains' });
    expect(config.judging).toEqual({ relevanceLevel: 1, ndcgGains: new Map() });
  });

  it('keeps the context match, field names and format given', () => {
    const given = settingsWith({ 'context-match': 'overlap:0.5', fields: 'question=prompt', format: 'csv', 'relevance-level': '2' });
    const config = evalConfig(given);
    expect(config.contextMatch).toEqual({ kind: 'overlap', threshold: 0.5 });
    // Keyed by the user's name, as records are read.
    expect(config.fields).toEqual(new Map([['prompt', 'question']]));
    expect(config.format).toBe('csv');
    expect(config.judging.relevanceLevel).toBe(2);
  });
});

describe('compareConfig', () => {
  it('carries every comparison setting, and computes the metrics its floors and graded tests name', () => {
    const settings = settingsWith({
      k: '5',
      missing: 'exclude',
      'min-paired': '7',
      'min-coverage': '0.5',
      alpha: '0.01',
      'fail-on': 'retrieval',
      'min-effect': '0.03',
      'latency-tolerance': '15%',
      'tokens-tolerance': '0.05',
      'cost-tolerance': '0',
      floors: 'recall@20>=0.5',
      permutations: '2000',
      graded: 'ndcg@15,faithfulness',
      'mcnemar-small-sample': 'mid-p',
      'extra-tests': 't',
      'kappa-floor': '0.7',
    });
    const calibrations = [{ model: 'm' } as CalibrationRecord];
    // The metrics' compute functions are made afresh for each config, so the scoring part is checked by its names.
    const { eval: scoringConfig, ...config } = compareConfig(settings, calibrations);
    expect(config).toEqual({
      missing: 'exclude',
      minPaired: 7,
      minCoverage: 0.5,
      alpha: 0.01,
      failOn: new Set(['retrieval']),
      namedGates: new Set(['retrieval']),
      minEffect: 0.03,
      tolerances: { latency: 0.15, tokens: 0.05, cost: 0 },
      floors: [{ metric: 'recall@20', op: '>=', value: 0.5 }],
      permutations: 2000,
      gradedMetrics: ['ndcg@15', 'faithfulness'],
      mcnemarSmallSample: 'mid-p',
      extraTests: new Set(['t']),
      calibrations,
      kappaFloor: 0.7,
    });
    expect(scoringConfig.retrievalMetrics.map((metric) => metric.name)).toEqual([...DEFAULT_AT_5, 'ndcg@15', 'recall@20']);
    expect(scoringConfig.retrievalOk).toBe(settings['retrieval-ok']);
  });

  it('names the gates of a fail-on other than the default, in any order; the default names none', () => {
    const named = (failOn?: string) => compareConfig(settingsWith(failOn === undefined ? {} : { 'fail-on': failOn }), []).namedGates;
    expect(named()).toEqual(new Set());
    expect(named('end-to-end,retrieval')).toEqual(new Set());
    expect(named('retrieval')).toEqual(new Set(['retrieval']));
    expect(named('retrieval,end-to-end,refusal')).toEqual(new Set(['retrieval', 'end-to-end', 'refusal']));
  });
});

describe('the usage gates’ tolerances', () => {
  it('read a share as 10% or 0.1, and refuse a negative or missing one', () => {
    const tolerances = (text: string) => compareConfig(settingsWith({ 'latency-tolerance': text }), []).tolerances.latency;
    expect(tolerances('10%')).toBeCloseTo(0.1, 12);
    expect(tolerances(' 2.5% ')).toBeCloseTo(0.025, 12);
    expect(tolerances('0.3')).toBe(0.3);
    expect(tolerances('0')).toBe(0);
    expect(compareConfig(settingsWith({}), []).tolerances).toEqual({ latency: 0.1, tokens: 0.1, cost: 0.1 });
    for (const bad of ['-5%', '%', 'fast', '', 'Infinity'])
      expect(() => settingsWith({ 'cost-tolerance': bad })).toThrow(`a tolerance must be a share such as 10% or 0.1, 0 or more, got "${bad}"`);
  });

  it('let fail-on name latency, tokens and cost', () => {
    expect([...compareConfig(settingsWith({ 'fail-on': 'latency,tokens,cost' }), []).failOn]).toEqual(['latency', 'tokens', 'cost']);
  });
});
