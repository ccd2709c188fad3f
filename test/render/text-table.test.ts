import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { codePoints, fixed3, textTable } from '../../src/render/text-table.js';

describe('textTable', () => {
  it('right-aligns a column of numbers: signed (a minus sign too), percentages, fractions, intervals, dashes, blanks', () => {
    const table = textTable([
      ['metric', 'delta'],
      ['ndcg@10', '\u22120.125'],
      ['mrr', '+0.5'],
      ['recall', '12%'],
      ['hits', '3/4'],
      ['ci', '[0.1, 0.2]'],
      ['map', fixed3(undefined)],
      ['p', ''],
    ]);
    expect(table.split('\n')).toEqual([
      '  metric        delta',
      '  ndcg@10      \u22120.125',
      '  mrr            +0.5',
      '  recall          12%',
      '  hits            3/4',
      '  ci       [0.1, 0.2]',
      '  map               \u2014',
      '  p',
    ]);
  });

  it('left-aligns a column with a word in it, and keeps user text on one line', () => {
    expect(
      textTable([
        ['id', 'n'],
        ['q1\n::error::x', 'many'],
        ['q2', '2'],
      ]).split('\n'),
    ).toEqual(['  id             n', '  q1 ::error::x  many', '  q2             2']);
  });
});

describe('codePoints', () => {
  it('counts as spreading the string does, lone surrogates included (property)', () => {
    const unit = fc.constantFrom('a', ' ', 'é', '\u{1F600}', '\ud83d', '\ude00', '\u200b', '\uffff');
    fc.assert(
      fc.property(fc.string({ unit, maxLength: 12 }), (value) => {
        expect(codePoints(value)).toBe([...value].length);
      }),
    );
  });
});
