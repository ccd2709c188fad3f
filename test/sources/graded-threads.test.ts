import { pathToFileURL } from 'node:url';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveSettings } from '../../src/core/catalog/settings.js';
import { GRADED_HALVES, gradedTest } from '../../src/core/compare/compare.js';
import { compareConfig } from '../../src/core/compare/settings.js';
import { type PairedValues, pairValues } from '../../src/core/stats/paired.js';
import { Helpers } from '../../src/sources/parallel.js';
import { BUNDLED_CLI } from '../helpers/bundles.js';

const config = compareConfig(resolveSettings([], (problem) => problem.message).settings, []);
const entry = pathToFileURL(BUNDLED_CLI);

/** The pairs of n questions: values on a few levels (shared by many, as a metric's are) or of three decimals (a judge's), some missing. */
const pairs = (n: number) =>
  fc
    .record({
      levels: fc.constantFrom(3, 1000),
      base: fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: n, maxLength: n }),
      head: fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: n, maxLength: n }),
      missing: fc.array(fc.boolean(), { minLength: n, maxLength: n }),
    })
    .map(({ levels, base, head, missing }): PairedValues => {
      const level = (value: number) => Math.round(value * levels) / levels;
      return pairValues(
        Float64Array.from(base, (value, i) => (missing[i] ? NaN : level(value))),
        Float64Array.from(head, level),
      );
    });

describe('graded tests shared with worker threads', () => {
  let helpers: Helpers;
  beforeAll(() => {
    helpers = new Helpers(entry, 2);
  });
  afterAll(() => helpers.close());

  it('are the tests this thread computes alone, metric by metric', async () => {
    const readConfig = config.eval;
    expect(helpers.start(1, readConfig)).toHaveLength(1);
    await fc.assert(
      fc.asyncProperty(fc.array(pairs(150), { minLength: 1, maxLength: 5 }), async (generated) => {
        const metrics = generated.map((_, index) => `metric_${index}`);
        const shared = await helpers.gradedTests(metrics, generated, config);
        expect(shared).toEqual(metrics.map((metric, index) => gradedTest(metric, generated[index]!, config)));
      }),
      { numRuns: 15 },
    );
  }, 120_000);

  it('are null for a metric no pair carries, on any thread', async () => {
    const none = pairValues(new Float64Array(3).fill(NaN), Float64Array.of(1, 0, 1));
    const some = pairValues(Float64Array.of(0, 1, 1), Float64Array.of(1, 0, 1));
    const tests = await helpers.gradedTests(['none', 'some', 'none_too'], [none, some, none], config);
    expect(tests.map((test) => test?.n ?? null)).toEqual([null, 3, null]);
  });

  it('throw the first failure, from a worker (the interval) or this thread (the randomization test)', async () => {
    // Differences no pairing makes: an infinite one, which both halves refuse.
    const differences = Float64Array.from({ length: 150 }, (_, i) => (i === 3 ? Infinity : i % 2));
    const pair: PairedValues = { n: 150, meanBase: 0, meanHead: Infinity, differences };
    expect(() => GRADED_HALVES.interval('m', pair)).toThrow('value 3 is not finite: Infinity');
    expect(() => GRADED_HALVES.randomization('m', pair, config)).toThrow('difference 3 is not finite: Infinity');
    await expect(helpers.gradedTests(['m'], [pair], config)).rejects.toThrow(/^(value|difference) 3 is not finite: Infinity$/);
  });

  it('are computed on this thread once the workers are closed', async () => {
    const closing = new Helpers(entry, 2);
    closing.start(1, config.eval);
    await closing.close();
    const pairs = [pairValues(Float64Array.of(0, 1), Float64Array.of(1, 1))];
    await expect(closing.gradedTests(['m'], pairs, config)).resolves.toEqual([gradedTest('m', pairs[0]!, config)]);
  });
});
