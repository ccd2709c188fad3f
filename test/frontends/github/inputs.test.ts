import { describe, expect, it } from 'vitest';
import { SettingError } from '../../../src/core/errors.js';
import { givenInputs, INPUT_NAMES, type InputName } from '../../../src/frontends/github/inputs.js';
import { loadSettings } from '../../../src/pipeline/settings.js';
import { SETTINGS } from '../../../src/core/catalog/settings.js';

/** The action's settings for these inputs, with no config file (the test's working directory has none). */
function read(inputs: Partial<Record<InputName, string>>) {
  return loadSettings(givenInputs((name) => inputs[name] ?? (name === 'results' ? 'results.jsonl' : '')));
}

async function failure(inputs: Partial<Record<InputName, string>>): Promise<string> {
  try {
    await read(inputs);
  } catch (error) {
    expect(error).toBeInstanceOf(SettingError);
    return (error as Error).message;
  }
  throw new Error(`inputs ${JSON.stringify(inputs)} were accepted`);
}

describe('the action inputs', () => {
  it.each<[InputName, string]>([
    ['alpha', '2'],
    ['k', 'a'],
    ['fail-on', 'speed'],
    ['comment', 'sometimes'],
    ['mode', 'strict'],
    ['floors', 'recal@5=0.8'],
    ['retrieval-ok', 'hits@5'],
    ['correct', 'fuzzy'],
    ['graded', 'ndcgg@10'],
    ['permutations', '5'],
    ['min-effect', '-0.1'],
    ['baseline-max-age-days', '0'],
    ['pr-number', '#12'],
    ['judge', 'anthropic'],
    ['on-missing-baseline', 'warn'],
    ['on-baseline-error', 'ignore'],
    ['api-timeout-seconds', '0'],
    ['judge-concurrency', '0'],
    ['judge-timeout-seconds', '-1'],
    ['judge-max-attempts', '2.5'],
  ])('fails on %s = %j, naming the input', async (name, value) => {
    const message = await failure({ [name]: value });
    expect(message).toMatch(new RegExp(`^input "${name}": `));
    expect(message.split('\n')).toHaveLength(1);
  });

  it('names the value in its message where the core parser does', async () => {
    expect(await failure({ alpha: '2' })).toContain('"2"');
    expect(await failure({ 'fail-on': 'speed' })).toContain('"speed"');
    expect(await failure({ floors: 'recal@5=0.8' })).toContain('recal@5');
  });

  it('lists every bad input at once, one per line, in catalog order', async () => {
    const message = await failure({ alpha: '2', mode: 'strict', comment: 'sometimes' });
    expect(message.split('\n').map((line) => line.match(/^input "([^"]+)"/)?.[1])).toEqual(['alpha', 'comment', 'mode']);
  });

  it('reads an empty input as its default, and says so', async () => {
    const { settings, origins } = await read({});
    const spelled = await read(
      Object.fromEntries(INPUT_NAMES.filter((name) => name !== 'config').map((name) => [name, name === 'results' ? 'results.jsonl' : SETTINGS[name].default])),
    );
    // Sets as arrays; the rules hold functions, compared by their JSON (name and settings).
    const plain = (value: object) => JSON.parse(JSON.stringify(value, (_key, v: unknown) => (v instanceof Set ? [...v] : v)));
    expect(plain(settings)).toEqual(plain(spelled.settings));
    expect(settings).toMatchObject({
      baseline: undefined,
      'baseline-artifact': 'rag-gate-results',
      'baseline-max-age-days': 30,
      k: [1, 3, 5, 10],
      alpha: 0.05,
      'min-effect': 0,
      floors: [],
      permutations: 10000,
      comment: 'always',
      'comment-tag': 'default',
      mode: 'gate',
      'pr-number': undefined,
      'judge-model': 'gpt-4o-mini',
      'kappa-floor': 0.6,
    });
    expect([...settings['fail-on']]).toEqual(['retrieval', 'end-to-end']);
    expect(settings.graded).toEqual(['ndcg@10', 'recall@5', 'mrr', 'map', 'faithfulness', 'answer_relevance']);
    expect(settings['retrieval-ok'].name).toBe('hit@5');
    expect(origins.alpha).toEqual({ kind: 'default' });
    expect(origins.results).toEqual({ kind: 'input' });
  });

  it('treats whitespace as empty (the runner passes unset inputs as empty strings)', async () => {
    expect((await read({ alpha: '   ', mode: '\n' })).settings).toMatchObject({ alpha: 0.05, mode: 'gate' });
  });

  it('reads good values', async () => {
    const { settings } = await read({
      baseline: 'base/*.jsonl',
      k: '10,5',
      alpha: '0.01',
      'fail-on': 'retrieval',
      floors: 'recall@5=0.8\nfalse_refusal_rate<=0.1',
      comment: 'on-change',
      'comment-tag': 'nightly.v2_x-y',
      mode: 'advisory',
      'pr-number': '17',
      'judge-calibration': 'a.json\nb.json',
    });
    expect(settings).toMatchObject({
      baseline: 'base/*.jsonl',
      k: [5, 10],
      alpha: 0.01,
      comment: 'on-change',
      'comment-tag': 'nightly.v2_x-y',
      mode: 'advisory',
      'pr-number': 17,
    });
    expect(settings.floors).toHaveLength(2);
    expect(settings['judge-calibration']).toEqual(['a.json', 'b.json']);
    expect([...settings['fail-on']]).toEqual(['retrieval']);
  });

  it.each(['a--b', 'tag-', 'x'.repeat(65), 'a/b', 'a<b'])('rejects the comment-tag %j, which cannot be a marker of its own', async (tag) => {
    expect(await failure({ 'comment-tag': tag })).toMatch(/^input "comment-tag": /);
  });
});
