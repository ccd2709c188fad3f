import { pathToFileURL } from 'node:url';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveSettings } from '../../src/core/catalog/settings.js';
import { gradedTest, type PairedColumns } from '../../src/core/compare/compare.js';
import { compareConfig } from '../../src/core/compare/settings.js';
import { Helpers } from '../../src/sources/parallel.js';
import { BUNDLED_CLI } from '../helpers/bundles.js';

const config = compareConfig(resolveSettings([], (problem) => problem.message).settings, []);
const entry = pathToFileURL(BUNDLED_CLI);

/** Paired columns of n questions: values on a few levels (shared by many, as a metric's are) or of three decimals (a judge's), some missing. */
const pairedColumns = (n: number) =>
  fc
    .record({
      levels: fc.constantFrom(3, 1000),
      base: fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: n, maxLength: n }),
      head: fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: n, maxLength: n }),
      missing: fc.array(fc.boolean(), { minLength: n, maxLength: n }),
    })
    .map(({ levels, base, head, missing }): PairedColumns => {
      const level = (value: number) => Math.round(value * levels) / levels;
      return {
        base: Float64Array.from(base, (value, i) => (missing[i] ? NaN : level(value))),
        head: Float64Array.from(head, level),
      };
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
      fc.asyncProperty(fc.array(pairedColumns(150), { minLength: 1, maxLength: 5 }), async (columns) => {
        const metrics = columns.map((_, index) => `metric_${index}`);
        const shared = await helpers.gradedTests(metrics, columns, config);
        expect(shared).toEqual(metrics.map((metric, index) => gradedTest(metric, columns[index]!, config)));
      }),
      { numRuns: 15 },
    );
  }, 120_000);

  it('are null for a metric no pair carries, on any thread', async () => {
    const none: PairedColumns = { base: new Float64Array(3).fill(NaN), head: Float64Array.of(1, 0, 1) };
    const some: PairedColumns = { base: Float64Array.of(0, 1, 1), head: Float64Array.of(1, 0, 1) };
    const tests = await helpers.gradedTests(['none', 'some', 'none_too'], [none, some, none], config);
    expect(tests.map((test) => test?.n ?? null)).toEqual([null, 3, null]);
  });

  it('throw what failed on a worker (the first job goes to a worker)', async () => {
    const columns = [{ base: Float64Array.of(0, 1, 0), head: Float64Array.of(1, Infinity, 1) }];
    expect(() => gradedTest('m', columns[0]!, config)).toThrow('pair 1 has an infinite value');
    await expect(helpers.gradedTests(['m'], columns, config)).rejects.toThrow('pair 1 has an infinite value');
  });

  it('are computed on this thread once the workers are closed', async () => {
    const closing = new Helpers(entry, 2);
    closing.start(1, config.eval);
    await closing.close();
    const columns = [{ base: Float64Array.of(0, 1), head: Float64Array.of(1, 1) }];
    await expect(closing.gradedTests(['m'], columns, config)).resolves.toEqual([gradedTest('m', columns[0]!, config)]);
  });
});
