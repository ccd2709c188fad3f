import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { floorsOrder, moreIsTighter, strictestLast, unordered } from '../../../src/core/catalog/policy-order.js';
import { resolveSettings, SETTINGS, type SettingName, type SettingText } from '../../../src/core/catalog/settings.js';
import {
  changesFingerprint,
  goldenSetChange,
  governingSettings,
  holdoutChange,
  needsApproval,
  POLICY_SETTINGS,
  policyChanges,
  type SidePolicy,
} from '../../../src/core/compare/policy.js';
import { parseFloor } from '../../../src/core/catalog/parse/floor.js';

/** One side's settings from config-file texts over the defaults, as loadSettings makes them. */
function side(values: Partial<Record<SettingName, string>> = {}): SidePolicy {
  const layer = new Map<SettingName, SettingText>(
    Object.entries(values).map(([name, text]) => [name as SettingName, { text: text!, origin: { kind: 'file', file: 'rag-gate.yml', line: 1 } }]),
  );
  const { settings } = resolveSettings([layer], (problem) => problem.message);
  const texts = Object.fromEntries((Object.keys(SETTINGS) as SettingName[]).map((name) => [name, values[name] ?? SETTINGS[name].default]));
  return { settings, texts: texts as Record<SettingName, string> };
}

const changesOf = (base: Partial<Record<SettingName, string>>, head: Partial<Record<SettingName, string>>) =>
  policyChanges(side(base), side(head)).map(({ setting, base, head, direction }) => `${setting}: ${base} → ${head}, ${direction}`);

describe('policyChanges: every way the first list of issue 36 loosens the gate is seen', () => {
  it.each([
    [{ mode: 'advisory' }, 'mode: gate → advisory, looser'],
    [{ alpha: '1e-12' }, 'alpha: 0.05 → 1e-12, looser'],
    [{ 'min-effect': '0.5' }, 'min-effect: 0 → 0.5, looser'],
    [{ 'latency-tolerance': '50%' }, 'latency-tolerance: 10% → 50%, looser'],
    [{ 'cost-tolerance': '0.2' }, 'cost-tolerance: 10% → 0.2, looser'],
    [{ 'fail-on': 'retrieval' }, 'fail-on: retrieval,end-to-end → retrieval, looser'],
    [{ 'fail-on': '' }, 'fail-on: retrieval,end-to-end → , looser'],
    [{ missing: 'exclude' }, 'missing: fail → exclude, looser'],
    [{ 'min-coverage': '0.1' }, 'min-coverage: 0.95 → 0.1, looser'],
    [{ 'min-paired': '0' }, 'min-paired: 30 → 0, looser'],
    [{ 'on-baseline-error': 'pass' }, 'on-baseline-error: fail → pass, looser'],
    [{ baseline: 'results.jsonl' }, 'baseline:  → results.jsonl, changed'],
    [{ 'baseline-artifact': 'nothing' }, 'baseline-artifact: rag-gate-results → nothing, changed'],
    [{ 'kappa-floor': '0' }, 'kappa-floor: 0.6 → 0, looser'],
    [{ 'retrieval-ok': 'hit@10' }, 'retrieval-ok: hit@5 → hit@10, changed'],
    [{ correct: 'f1:0.1' }, 'correct: contains → f1:0.1, changed'],
    [{ 'allow-ungated': 'true' }, 'allow-ungated: false → true, looser'],
    [{ golden: 'other-golden.jsonl' }, 'golden:  → other-golden.jsonl, changed'],
  ] as const)('%o', (head, change) => {
    expect(changesOf({}, head)).toEqual([change]);
    expect(needsApproval(policyChanges(side(), side(head))[0]!)).toBe(true);
  });

  it('a tightening applies at once: higher alpha, more gates, a higher floor, mode gate from advisory', () => {
    expect(
      changesOf({ mode: 'advisory', floors: 'recall@5=0.8' }, { alpha: '0.1', 'fail-on': 'retrieval,end-to-end,refusal', floors: 'recall@5=0.9' }),
    ).toEqual([
      'alpha: 0.05 → 0.1, tighter',
      'fail-on: retrieval,end-to-end → retrieval,end-to-end,refusal, tighter',
      'floors: recall@5=0.8 → recall@5=0.9, tighter',
      'mode: advisory → gate, tighter',
    ]);
  });

  it('a value written differently but equal is no change', () => {
    expect(
      changesOf(
        { alpha: '0.05', 'fail-on': 'end-to-end,retrieval', floors: 'recall@5>=0.8' },
        { alpha: '5e-2', 'fail-on': 'retrieval, end-to-end', floors: 'recall@5=0.80' },
      ),
    ).toEqual([]);
  });

  it('every setting that decides pass or fail is a policy row; those that shape output or evidence are not', () => {
    for (const name of [
      'mode',
      'alpha',
      'fail-on',
      'floors',
      'min-effect',
      'latency-tolerance',
      'tokens-tolerance',
      'cost-tolerance',
      'missing',
      'min-coverage',
      'min-paired',
      'on-baseline-error',
      'on-missing-baseline',
      'baseline',
      'baseline-artifact',
      'kappa-floor',
      'retrieval-ok',
      'correct',
      'golden',
      'holdout',
    ] as const)
      expect(POLICY_SETTINGS).toContain(name);
    for (const name of ['results', 'comment', 'trace-url', 'github-token', 'judge-model', 'extra-tests', 'comment-tag', 'config'] as const)
      expect(POLICY_SETTINGS).not.toContain(name);
  });
});

describe('governingSettings', () => {
  const sides = () => {
    const base = side({ floors: 'recall@5=0.8' });
    const head = side({ alpha: '1e-12', 'fail-on': 'retrieval,end-to-end,refusal', floors: 'recall@5=0.5' });
    return { base, head, changes: policyChanges(base, head) };
  };

  it("keeps the base's value of every unapproved loosening and takes the head's tightenings", () => {
    const { base, head, changes } = sides();
    const governing = governingSettings(base.settings, head.settings, changes, false);
    expect(governing.alpha).toBe(0.05);
    expect(governing.floors).toEqual([parseFloor('recall@5=0.8')]);
    expect([...governing['fail-on']]).toEqual(['retrieval', 'end-to-end', 'refusal']);
  });

  it('takes every head value once approved', () => {
    const { base, head, changes } = sides();
    expect(governingSettings(base.settings, head.settings, changes, true)).toBe(head.settings);
  });
});

describe('the orders', () => {
  it('strictestLast and unordered', () => {
    const order = strictestLast('pass', 'fail');
    expect([order('pass', 'fail'), order('fail', 'pass'), order('fail', 'fail'), order('fail', 'other' as 'pass')]).toEqual([
      'tighter',
      'looser',
      'same',
      'changed',
    ]);
    expect([unordered(new Map([[1, 2]]), new Map([[1, 2]])), unordered({ a: 1, b: 2 }, { b: 2, a: 1 }), unordered('x', 'y')]).toEqual([
      'same',
      'same',
      'changed',
    ]);
  });

  it('sets and floors: swapping the two sides swaps tighter and looser (property)', () => {
    const gates = fc.uniqueArray(fc.constantFrom('retrieval', 'end-to-end', 'generation', 'refusal'));
    const swap = { tighter: 'looser', looser: 'tighter', same: 'same', changed: 'changed' } as const;
    fc.assert(
      fc.property(gates, gates, (a, b) => {
        expect(moreIsTighter(new Set(b), new Set(a))).toBe(swap[moreIsTighter(new Set(a), new Set(b))]);
      }),
    );
    const floors = fc.array(
      fc.record({
        metric: fc.constantFrom('recall@5', 'mrr'),
        op: fc.constantFrom('>=' as const, '<=' as const),
        value: fc.double({ min: 0, max: 1, noNaN: true }),
      }),
      { maxLength: 3 },
    );
    fc.assert(
      fc.property(floors, floors, (a, b) => {
        expect(floorsOrder(b, a)).toBe(swap[floorsOrder(a, b)]);
      }),
    );
  });

  it('floors: a lower ceiling is tighter, a dropped floor looser, a floor on another metric a change', () => {
    const f = (...texts: string[]) => texts.map(parseFloor);
    expect(floorsOrder(f('false_refusal_rate<=0.1'), f('false_refusal_rate<=0.05'))).toBe('tighter');
    expect(floorsOrder(f('recall@5=0.8', 'mrr=0.5'), f('recall@5=0.8'))).toBe('looser');
    expect(floorsOrder(f('recall@5=0.8'), f('mrr=0.8'))).toBe('changed');
  });
});

describe('goldenSetChange and holdoutChange', () => {
  it('dropping questions from the golden set is looser, only adding them tighter, the same set no change', () => {
    expect(goldenSetChange(new Set(['a', 'b', 'c']), new Set(['a', 'd']))).toEqual({
      setting: 'golden',
      base: '3 questions',
      head: '2 questions; dropped b, c; added d',
      direction: 'looser',
    });
    expect(goldenSetChange(new Set(['a']), new Set(['a', 'b']))?.direction).toBe('tighter');
    expect(goldenSetChange(new Set(['a', 'b']), new Set(['b', 'a']))).toBeNull();
  });

  it('any holdout change needs approval; a file that is not the draw says so', () => {
    const base = { seed: 's', rotation: 0, holdout: ['a', 'b'] };
    expect(holdoutChange(base, { ...base, holdout: ['b', 'a'] }, null)).toBeNull();
    expect(holdoutChange(base, { ...base, holdout: ['a', 'b', 'c'] }, ['a', 'b', 'c'])).toEqual({
      setting: 'holdout',
      base: '2 held out',
      head: '3 held out; added c',
      direction: 'changed',
    });
    expect(holdoutChange(base, { ...base, holdout: ['a', 'c'] }, ['a', 'b'])?.head).toBe("2 held out; not rag-gate split's draw; added c; removed b");
    expect(holdoutChange(base, { ...base, rotation: 1 }, null)?.head).toBe('2 held out; seed s, rotation 1');
  });

  it('the fingerprint covers exactly the changes that need approval', () => {
    const looser = { setting: 'alpha', base: '0.05', head: '0.01', direction: 'looser' } as const;
    const tighter = { setting: 'alpha', base: '0.05', head: '0.1', direction: 'tighter' } as const;
    expect(changesFingerprint([looser])).toMatch(/^[0-9a-f]{32}$/);
    expect(changesFingerprint([looser, tighter])).toBe(changesFingerprint([looser]));
    expect(changesFingerprint([{ ...looser, head: '0.02' }])).not.toBe(changesFingerprint([looser]));
  });
});
