import { describe, expect, it } from 'vitest';
import { evidenceIds, type SideRecord, withEvidence } from '../../../src/core/compare/evidence.js';
import type { Comparison } from '../../../src/core/compare/types.js';

/** A comparison listing only the ids of its regressions, retrieval regressions and fixes (all evidence reads). */
function listing(regressions: string[], retrievalRegressions: string[], fixed: string[]): Comparison {
  const items = (ids: string[]) => ids.map((id) => ({ id }));
  return { verdict: 'pass', regressions: items(regressions), retrievalRegressions: items(retrievalRegressions), fixed: items(fixed) } as unknown as Comparison;
}

describe('evidenceIds', () => {
  it('takes regressions, then retrieval regressions, then fixes, each id once, up to max', () => {
    const comparison = listing(['r1', 'r2'], ['r2', 'q1'], ['f1', 'f2']);
    expect([...evidenceIds(comparison, 10)]).toEqual(['r1', 'r2', 'q1', 'f1', 'f2']);
    expect([...evidenceIds(comparison, 5)]).toEqual(['r1', 'r2', 'q1', 'f1', 'f2']);
    expect([...evidenceIds(comparison, 4)]).toEqual(['r1', 'r2', 'q1', 'f1']);
    expect([...evidenceIds(comparison, 2)]).toEqual(['r1', 'r2']);
    expect([...evidenceIds(comparison, 1)]).toEqual(['r1']);
    expect([...evidenceIds(comparison, 0)]).toEqual([]);
  });
});

describe('withEvidence', () => {
  const full = (tag: string): SideRecord => ({ answer: `${tag} answer`, top: [`${tag}-d1`, `${tag}-d2`], traceUrl: `https://trace/${tag}` });

  it("attaches each side's answer, top documents and trace, and the head's expected answer before the base's", () => {
    const base = new Map<string, SideRecord>([['a', { ...full('base'), expectedAnswer: 'old gold' }]]);
    const head = new Map<string, SideRecord>([['a', { ...full('head'), expectedAnswer: 'new gold' }]]);
    const result = withEvidence(listing(['a'], [], []), base, head);
    expect(result.regressions).toStrictEqual([
      {
        id: 'a',
        evidence: {
          expectedAnswer: 'new gold',
          base: { answer: 'base answer', top: ['base-d1', 'base-d2'], traceUrl: 'https://trace/base' },
          head: { answer: 'head answer', top: ['head-d1', 'head-d2'], traceUrl: 'https://trace/head' },
        },
      },
    ]);
  });

  it('a question on one side only gets that side, and the expected answer of whichever side has one', () => {
    const base = new Map<string, SideRecord>([
      ['only-base', { ...full('base'), expectedAnswer: 'base gold' }],
      ['base-gold', { answer: 'x', expectedAnswer: 'kept from base' }],
    ]);
    const head = new Map<string, SideRecord>([
      ['only-head', full('head')],
      ['base-gold', { answer: 'y' }],
    ]);
    const result = withEvidence(listing([], ['only-base'], ['only-head', 'base-gold']), base, head);
    expect(result.retrievalRegressions).toStrictEqual([
      {
        id: 'only-base',
        evidence: { expectedAnswer: 'base gold', base: { answer: 'base answer', top: ['base-d1', 'base-d2'], traceUrl: 'https://trace/base' } },
      },
    ]);
    expect(result.fixed).toStrictEqual([
      // No expected answer on either side: the key is absent, not undefined.
      { id: 'only-head', evidence: { head: { answer: 'head answer', top: ['head-d1', 'head-d2'], traceUrl: 'https://trace/head' } } },
      { id: 'base-gold', evidence: { expectedAnswer: 'kept from base', base: { answer: 'x' }, head: { answer: 'y' } } },
    ]);
  });

  it('leaves out what a side lacks, and gives no evidence to a question neither side has', () => {
    const base = new Map<string, SideRecord>([['a', {}]]);
    const head = new Map<string, SideRecord>([['a', { top: [] }]]);
    const result = withEvidence(listing(['a', 'gone'], [], []), base, head);
    expect(result.regressions).toStrictEqual([{ id: 'a', evidence: { base: {}, head: { top: [] } } }, { id: 'gone' }]);
    expect(Object.keys(result.regressions[1]!)).toEqual(['id']);
  });

  it('keeps the rest of the comparison as it was', () => {
    const comparison = listing([], [], []);
    const result = withEvidence(comparison, new Map(), new Map());
    expect(result).toStrictEqual(comparison);
    expect(result).not.toBe(comparison);
  });
});
