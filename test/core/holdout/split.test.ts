import { createHmac } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { drawSplit, type GoldenQuestion, holdoutFingerprint, holdoutHash, splitSizes } from '../../../src/core/holdout/split.js';

const KEY = { seed: 'rag-gate', rotation: 0, share: 0.3 };

/** `count` questions; question i carries tags[i % tags.length] (an empty list: untagged). */
function golden(prefix: string, count: number, tags: readonly (readonly string[])[] = [[]]): GoldenQuestion[] {
  return Array.from({ length: count }, (_, i) => ({ id: `${prefix}${i}`, tags: tags[i % tags.length]! }));
}

describe('holdoutHash', () => {
  it('is the first 48 bits of HMAC-SHA256(seed ␀ rotation, id), the same as node:crypto computes', () => {
    fc.assert(
      fc.property(fc.string(), fc.nat(5), fc.string({ minLength: 1 }), (seed, rotation, id) => {
        const digest = createHmac('sha256', `${seed}\u0000${rotation}`).update(id, 'utf8').digest();
        expect(holdoutHash({ seed, rotation }, id)).toBe(digest.readUIntBE(0, 6) / 2 ** 48);
      }),
    );
  });

  it('pins one value, so that a change of the hash (which would move questions) cannot pass unnoticed', () => {
    const digest = createHmac('sha256', 'rag-gate\u00000').update('q1').digest();
    expect(holdoutHash({ seed: 'rag-gate', rotation: 0 }, 'q1')).toBe(digest.readUIntBE(0, 6) / 2 ** 48);
    expect(holdoutHash({ seed: 'rag-gate', rotation: 0 }, 'q1')).not.toBe(holdoutHash({ seed: 'rag-gate', rotation: 1 }, 'q1'));
  });
});

describe('drawSplit', () => {
  it('gives the same split for the same ids and key, whatever their order in the golden set', () => {
    const questions = golden('q', 500, [['billing'], ['auth'], []]);
    const a = drawSplit(questions, KEY);
    const b = drawSplit([...questions].reverse(), KEY);
    expect(new Set(b.holdout)).toEqual(new Set(a.holdout));
    expect(a.holdout.length + a.development.length).toBe(500);
  });

  it('holds out 30% ± 2 points overall, and in every tag of at least 50 questions within two questions of 30%', () => {
    fc.assert(
      fc.property(fc.string(), fc.integer({ min: 1, max: 6 }), fc.integer({ min: 200, max: 1200 }), (seed, tagCount, count) => {
        // Tags of unequal sizes, some questions with two tags, some without.
        const tags: string[][] = [[]];
        for (let t = 0; t < tagCount; t++) tags.push([`t${t}`], [`t${t}`, `t${(t + 1) % tagCount}`]);
        const questions = golden('q', count, tags);
        const split = drawSplit(questions, { ...KEY, seed });
        const sizes = splitSizes(questions, new Set(split.holdout));
        expect(Math.abs(sizes.overall.share - 0.3)).toBeLessThanOrEqual(0.02);
        // Overlapping tags pull against each other: 1.6 questions off was the worst of 1,500 random sets.
        for (const size of Object.values(sizes.byTag)) if (size.questions >= 50) expect(Math.abs(size.share - 0.3) * size.questions).toBeLessThanOrEqual(2);
      }),
      { numRuns: 40 },
    );
  });

  it('moves no existing question when 50 questions are added, and keeps the shares', () => {
    const tags = [['billing'], ['auth'], ['billing', 'auth'], []];
    const before = golden('q', 400, tags);
    const first = drawSplit(before, KEY);
    const after = [...before, ...golden('new', 50, tags)];
    const second = drawSplit(after, KEY, first);
    const held = new Set(second.holdout);
    for (const id of first.holdout) expect(held.has(id)).toBe(true);
    for (const id of first.development) expect(held.has(id)).toBe(false);
    const sizes = splitSizes(after, held);
    expect(Math.abs(sizes.overall.share - 0.3)).toBeLessThanOrEqual(0.02);
    for (const size of Object.values(sizes.byTag)) expect(Math.abs(size.share - 0.3)).toBeLessThanOrEqual(0.02);
  });

  it('never moves an existing question, whatever is added (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 300 }), fc.integer({ min: 0, max: 100 }), fc.string(), (old, added, seed) => {
        const before = golden('q', old, [['a'], ['b'], []]);
        const first = drawSplit(before, { ...KEY, seed });
        const second = drawSplit([...before, ...golden('n', added, [['a'], ['c']])], { ...KEY, seed }, first);
        expect(second.holdout.filter((id) => id.startsWith('q'))).toEqual(first.holdout);
      }),
      { numRuns: 50 },
    );
  });

  it('drops questions no longer in the golden set, and a new rotation draws a different holdout', () => {
    const questions = golden('q', 300);
    const first = drawSplit(questions, KEY);
    const fewer = drawSplit(questions.slice(100), KEY, first);
    expect(fewer.holdout).toEqual(first.holdout.filter((id) => Number(id.slice(1)) >= 100));
    const rotated = drawSplit(questions, { ...KEY, rotation: 1 });
    expect(rotated.holdout).not.toEqual(first.holdout);
    expect(rotated.holdout.length).toBe(first.holdout.length);
  });
});

describe('holdoutFingerprint', () => {
  it('changes when the holdout gains a question or is drawn anew, not when its order changes', () => {
    const split = { seed: 's', rotation: 0, holdout: ['a', 'b'] };
    expect(holdoutFingerprint(split)).toBe(holdoutFingerprint({ ...split, holdout: ['b', 'a'] }));
    expect(holdoutFingerprint(split)).not.toBe(holdoutFingerprint({ ...split, holdout: ['a', 'b', 'c'] }));
    expect(holdoutFingerprint(split)).not.toBe(holdoutFingerprint({ ...split, rotation: 1 }));
  });
});
