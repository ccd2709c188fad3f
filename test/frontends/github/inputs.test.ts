import { describe, expect, it } from 'vitest';
import { ActionInputError, INPUT_DEFAULTS, type InputName, readInputs } from '../../../src/frontends/github/inputs.js';

function read(inputs: Partial<Record<InputName, string>>) {
  return readInputs((name) => inputs[name] ?? (name === 'results' ? 'results.jsonl' : ''));
}

function failure(inputs: Partial<Record<InputName, string>>): string {
  try {
    read(inputs);
  } catch (error) {
    expect(error).toBeInstanceOf(ActionInputError);
    return (error as Error).message;
  }
  throw new Error(`inputs ${JSON.stringify(inputs)} were accepted`);
}

describe('readInputs', () => {
  it.each<[InputName, string]>([
    ['alpha', '2'],
    ['k', 'a'],
    ['fail-on', 'speed'],
    ['comment', 'sometimes'],
    ['mode', 'strict'],
    ['floors', 'recal@5=0.8'],
    ['comment-tag', 'two words'],
    ['retrieval-ok', 'hits@5'],
    ['correct', 'fuzzy'],
    ['graded', 'ndcgg@10'],
    ['permutations', '5'],
    ['min-effect', '-0.1'],
    ['baseline-max-age-days', '0'],
    ['pr-number', '#12'],
  ])('fails on %s = %j, naming the input', (name, value) => {
    const message = failure({ [name]: value });
    expect(message).toMatch(new RegExp(`^input "${name}": `));
    expect(message.split('\n')).toHaveLength(1);
  });

  it('names the value in its message where the core parser does', () => {
    expect(failure({ alpha: '2' })).toContain('"2"');
    expect(failure({ 'fail-on': 'speed' })).toContain('"speed"');
    expect(failure({ floors: 'recal@5=0.8' })).toContain('recal@5');
  });

  it('lists every bad input at once, one per line', () => {
    const message = failure({ alpha: '2', mode: 'strict', comment: 'sometimes' });
    expect(message.split('\n').map((line) => line.match(/^input "([^"]+)"/)?.[1])).toEqual(['alpha', 'comment', 'mode']);
  });

  it('requires results', () => {
    expect(failure({ results: '  ' })).toMatch(/^input "results": is required/);
  });

  it('reads an empty input as its default', () => {
    const empty = read({});
    const spelled = read({ ...INPUT_DEFAULTS, results: 'results.jsonl' });
    // Sets as arrays; the rules hold functions, compared by their JSON (name and settings).
    const plain = (inputs: object) => JSON.parse(JSON.stringify(inputs, (_key, value: unknown) => (value instanceof Set ? [...value] : value)));
    expect(plain(empty)).toEqual(plain(spelled));
    expect(empty).toMatchObject({
      baseline: undefined,
      baselineArtifact: 'rag-gate-results',
      baselineMaxAgeDays: 30,
      k: [1, 3, 5, 10],
      alpha: 0.05,
      minEffect: 0,
      floors: [],
      permutations: 10000,
      comment: 'always',
      commentTag: 'default',
      mode: 'gate',
      prNumber: undefined,
    });
    expect([...empty.failOn]).toEqual(['retrieval', 'end-to-end']);
    expect(empty.graded).toEqual(['ndcg@10', 'recall@5', 'mrr', 'map', 'faithfulness', 'answer_relevance']);
    expect(empty.retrievalOk.name).toBe('hit@5');
  });

  it('treats whitespace as empty (the runner passes unset inputs as empty strings)', () => {
    expect(read({ alpha: '   ', mode: '\n' })).toMatchObject({ alpha: 0.05, mode: 'gate' });
  });

  it('reads good values', () => {
    const inputs = read({
      baseline: 'base/*.jsonl',
      k: '10,5',
      alpha: '0.01',
      'fail-on': 'retrieval',
      floors: 'recall@5=0.8\nfalse_refusal_rate<=0.1',
      comment: 'on-change',
      'comment-tag': 'nightly.v2_x-y',
      mode: 'advisory',
      'pr-number': '17',
    });
    expect(inputs).toMatchObject({ baseline: 'base/*.jsonl', k: [5, 10], alpha: 0.01, comment: 'on-change', commentTag: 'nightly.v2_x-y', mode: 'advisory', prNumber: 17 });
    expect(inputs.floors).toHaveLength(2);
    expect([...inputs.failOn]).toEqual(['retrieval']);
  });

  it.each(['a--b', 'tag-', 'x'.repeat(65), 'a/b', 'a<b'])('rejects the comment-tag %j, which cannot be a marker of its own', (tag) => {
    expect(failure({ 'comment-tag': tag })).toMatch(/^input "comment-tag": /);
  });
});
