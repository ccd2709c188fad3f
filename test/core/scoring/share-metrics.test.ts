import { describe, expect, it } from 'vitest';
import { LONG_ANSWER_RATIO, LOW_UTILISATION } from '../../../src/core/catalog/metrics.js';
import { evalConfig } from '../../../src/core/compare/settings.js';
import { parseRetrievalOkRule } from '../../../src/core/catalog/parse/retrieval-ok.js';
import { summarizeRun } from '../../../src/core/scoring/summary.js';
import { questionOutcomes } from '../../helpers/outcomes.js';

const config = evalConfig({ k: [5], 'retrieval-ok': parseRetrievalOkRule('hit@5'), correct: { kind: 'exact' }, 'relevance-level': 1, 'ndcg-gains': new Map() });

describe('share metrics: the thresholds themselves do not count', () => {
  it('long_answer_rate counts length ratios strictly above 2.5, among answers that have one', () => {
    expect(LONG_ANSWER_RATIO).toBe(2.5);
    const outcomes = questionOutcomes({ ids: ['a', 'b', 'c', 'd', 'e'], columns: new Map([['length_ratio', new Float64Array([2.5, 2.6, 1, NaN, 0])]]) });
    // Above 2.5: b only; of the 4 carrying a ratio.
    expect(summarizeRun(outcomes, config).metrics.long_answer_rate).toMatchObject({ value: 0.25, n: 4, count: 1 });
  });

  it('low_utilisation_rate counts utilisation strictly below 0.4, among answers that have one', () => {
    expect(LOW_UTILISATION).toBe(0.4);
    const outcomes = questionOutcomes({ ids: ['a', 'b', 'c', 'd'], columns: new Map([['context_utilisation', new Float64Array([0.4, 0.39, 1, NaN])]]) });
    // Below 0.4: b only; of the 3 carrying a utilisation.
    expect(summarizeRun(outcomes, config).metrics.low_utilisation_rate).toMatchObject({ value: 1 / 3, n: 3, count: 1 });
  });
});
