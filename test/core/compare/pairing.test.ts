import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InputError } from '../../../src/core/errors.js';
import { gather, type CoverageRules, pairQuestions, rowsIn } from '../../../src/core/compare/pairing.js';
import type { QuestionOutcomes } from '../../../src/core/scoring/outcomes.js';

/** A run of these ids with these gold keys (same key = same gold labels); pairing reads nothing else. */
function run(ids: string[], goldKeys: string[] = ids.map(() => 'gold')): QuestionOutcomes {
  return { ids, goldKeys } as unknown as QuestionOutcomes;
}

const FILES = { base: 'base.jsonl', head: 'head.jsonl' };

function pair(base: QuestionOutcomes, head: QuestionOutcomes, rules: CoverageRules) {
  const pairing = pairQuestions(base, head, FILES, rules);
  return { ...pairing, baseRows: [...pairing.baseRows], headRows: [...pairing.headRows], missingRows: [...pairing.missingRows] };
}

describe('pairQuestions', () => {
  it('pairs shared ids in head order, and sorts the rest into added, labels changed, missing', () => {
    const base = run(['a', 'b', 'c', 'd'], ['ga', 'gb', 'gc', 'gd']);
    const head = run(['x', 'c', 'b', 'a'], ['gx', 'gc', 'gb-new', 'ga']);
    expect(pair(base, head, { missing: 'fail' })).toEqual({
      baseRows: [2, 0],
      headRows: [1, 3],
      missingRows: [3],
      added: ['x'],
      removed: [],
      excluded: [],
      labelsChanged: ['b'],
    });
    expect(pair(base, head, { missing: 'exclude' })).toMatchObject({ missingRows: [], excluded: ['d'], removed: [] });
  });

  it("a base question outside the head's golden set was removed on purpose; one still in it is missing", () => {
    const base = run(['a', 'b', 'c', 'd']);
    const head = run(['a']);
    const golden = new Set(['a', 'b']);
    expect(pair(base, head, { missing: 'fail', golden })).toMatchObject({ baseRows: [0], missingRows: [1], removed: ['c', 'd'], excluded: [] });
    expect(pair(base, head, { missing: 'exclude', golden })).toMatchObject({ missingRows: [], removed: ['c', 'd'], excluded: ['b'] });
    // Without a golden set nothing counts as removed.
    expect(pair(base, head, { missing: 'fail' })).toMatchObject({ missingRows: [1, 2, 3], removed: [] });
  });

  it('nothing to compare is an input error on the head file naming why', () => {
    const nothingShared = () => pairQuestions(run(['a']), run(['b']), FILES, { missing: 'fail' });
    expect(nothingShared).toThrow(InputError);
    expect(nothingShared).toThrow('head.jsonl: nothing to compare with base.jsonl: no question id appears in both files');
    expect(() => pairQuestions(run(['a', 'b'], ['1', '2']), run(['a', 'b'], ['3', '4']), FILES, { missing: 'fail' })).toThrow(
      'head.jsonl: nothing to compare with base.jsonl: the 2 shared question ids all have different gold labels',
    );
  });
});

describe('gather', () => {
  it('reads the column at the rows, in row order', () => {
    expect([...gather(Float64Array.from([10, 11, 12, 13]), Int32Array.from([3, 0, 3]))]).toEqual([13, 10, 13]);
    expect(gather(Float64Array.from([1]), new Int32Array(0))).toEqual(new Float64Array(0));
  });
});

describe('rowsIn', () => {
  /** The definition: each id's row in `other` through a map of all of `other`. */
  const byMap = (ids: readonly string[], other: readonly string[]) => {
    const rowOf = new Map(other.map((id, row) => [id, row]));
    return ids.map((id) => rowOf.get(id) ?? -1);
  };
  /** Two lists of distinct ids from one pool, each the pool's first ids in its order and then a shuffled few of the rest. */
  const lists = fc.uniqueArray(fc.string({ maxLength: 3 }), { maxLength: 40 }).chain((pool) => {
    const list = fc.nat({ max: pool.length }).chain((aligned) => fc.shuffledSubarray(pool.slice(aligned)).map((rest) => [...pool.slice(0, aligned), ...rest]));
    return fc.tuple(list, list);
  });

  it('finds the row of each id as a map of every id does, whatever the two orders', () => {
    fc.assert(
      fc.property(lists, ([ids, other]) => {
        expect([...rowsIn(ids, other)]).toEqual(byMap(ids, other));
      }),
      { numRuns: 500 },
    );
  });

  it('matches lists in one order without a map, and finds moved, added and missing ids', () => {
    expect([...rowsIn(['a', 'b', 'c'], ['a', 'b', 'c'])]).toEqual([0, 1, 2]);
    expect([...rowsIn(['a', 'b'], ['a', 'b', 'c'])]).toEqual([0, 1]);
    expect([...rowsIn(['a', 'b', 'c'], ['a', 'b'])]).toEqual([0, 1, -1]);
    expect([...rowsIn(['a', 'x', 'b', 'c'], ['a', 'b', 'c', 'y'])]).toEqual([0, -1, 1, 2]);
    expect([...rowsIn(['c', 'b', 'a'], ['a', 'b', 'c'])]).toEqual([2, 1, 0]);
    expect([...rowsIn([], ['a'])]).toEqual([]);
  });
});
