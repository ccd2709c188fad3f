import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { SettingName, SettingText } from '../../src/core/catalog/settings.js';
import { InputError, SettingError } from '../../src/core/errors.js';
import { loadSettings } from '../../src/pipeline/settings.js';
import { tempDir } from '../helpers/files.js';

/** A config file with this text, and the settings for flags `given` (as text) over it. */
async function withConfig(yaml: string, given: Partial<Record<SettingName, string>> = {}) {
  const file = join(tempDir(), 'rag-gate.yml');
  writeFileSync(file, yaml);
  const layer = new Map<SettingName, SettingText>([['config', { text: file, origin: { kind: 'flag', flag: '--config' } }]]);
  for (const [name, text] of Object.entries(given)) layer.set(name as SettingName, { text: text!, origin: { kind: 'flag', flag: `--${name}` } });
  return { file, ...(await loadSettings(layer)) };
}

async function problem(yaml: string, given: Partial<Record<SettingName, string>> = {}): Promise<string> {
  try {
    await withConfig(yaml, given);
  } catch (error) {
    expect(error instanceof InputError || error instanceof SettingError).toBe(true);
    return (error as Error).message;
  }
  throw new Error('the config was accepted');
}

describe('rag-gate.yml', () => {
  it('sets values under the catalog names; flags win over the file, the file over the default', async () => {
    const { file, settings, origins, texts } = await withConfig(
      [
        'retrieval-ok: recall@5>=1',
        'alpha: 0.01',
        'fail-on: [retrieval, generation]',
        'floors:',
        '  - recall@5=0.8',
        '  - false_refusal_rate<=0.1',
        'k: 1,5',
      ].join('\n'),
      { alpha: '0.02' },
    );
    expect(settings['retrieval-ok'].name).toBe('recall@5>=1');
    expect(origins['retrieval-ok']).toEqual({ kind: 'file', file, line: 1 });
    expect(settings.alpha).toBe(0.02);
    expect(origins.alpha).toEqual({ kind: 'flag', flag: '--alpha' });
    expect([...settings['fail-on']]).toEqual(['retrieval', 'generation']);
    expect(settings.floors.map((f) => f.metric)).toEqual(['recall@5', 'false_refusal_rate']);
    expect(texts.floors).toBe('recall@5=0.8\nfalse_refusal_rate<=0.1');
    expect(settings.k).toEqual([1, 5]);
    expect(settings.permutations).toBe(10_000);
    expect(origins.permutations).toEqual({ kind: 'default' });
  });

  it('selects the section of the comment tag, over the top level', async () => {
    const yaml = ['alpha: 0.01', 'k: 1,5', 'gates:', '  search:', '    k: 10', '    results: search/*.jsonl', '  answers:', '    alpha: 0.1'].join('\n');
    const search = await withConfig(yaml, { 'comment-tag': 'search' });
    expect(search.settings).toMatchObject({ k: [10], alpha: 0.01, results: 'search/*.jsonl' });
    expect(search.origins.k).toEqual({ kind: 'file', file: search.file, line: 5, section: 'search' });
    const answers = await withConfig(yaml, { 'comment-tag': 'answers' });
    expect(answers.settings).toMatchObject({ k: [1, 5], alpha: 0.1, results: undefined });
  });

  it('refuses a run whose comment tag has no section, rather than gate on the top level alone', async () => {
    const message = await problem(['k: 1', 'gates:', '  search:', '    k: 10'].join('\n'));
    expect(message).toMatch(/rag-gate\.yml:2: gates: has no section "default" \(the comment tag of this run\); it has "search"/);
  });

  it('names file, line and key of a bad value', async () => {
    const message = await problem(['k: 1', '', 'alpha: 2'].join('\n'));
    expect(message).toMatch(/rag-gate\.yml:3: alpha: alpha must be a number between 0 and 1, got "2"$/);
  });

  it("reads the judge's client settings, and names file, line and key of a bad one", async () => {
    const { settings } = await withConfig(['judge-concurrency: 3', 'judge-timeout-seconds: 2.5', 'judge-max-attempts: 6'].join('\n'));
    expect([settings['judge-concurrency'], settings['judge-timeout-seconds'], settings['judge-max-attempts']]).toEqual([3, 2.5, 6]);
    const message = await problem(['judge-concurrency: 4', 'judge-max-attempts: 0'].join('\n'));
    expect(message).toMatch(/rag-gate\.yml:2: judge-max-attempts: must be a whole number ≥ 1, got "0"$/);
  });

  it('names an unknown key, with the setting it probably meant', async () => {
    const message = await problem(['alpha: 0.05', 'retreival-ok: hit@5'].join('\n'));
    expect(message).toMatch(/rag-gate\.yml:2: retreival-ok: is not a setting; did you mean "retrieval-ok"\?/);
  });

  it('refuses settings that do not belong in a file', async () => {
    expect(await problem('github-token: abc')).toMatch(/rag-gate\.yml:1: github-token: cannot be set in .*rag-gate\.yml/);
  });

  it('lists every problem at once', async () => {
    const message = await problem(['nope: 1', 'alpha: {a: 1}', 'k: [1, [2]]'].join('\n'));
    expect(message.split('\n').length).toBeGreaterThanOrEqual(2);
    expect(message).toMatch(/rag-gate\.yml:2: alpha: must be a text, a number/);
  });

  it('reports YAML syntax errors with their line', async () => {
    expect(await problem(['alpha: 0.05', 'k: [1, 2'].join('\n'))).toMatch(/rag-gate\.yml:\d+: not valid YAML/);
  });

  it('must be a map', async () => {
    expect(await problem('- a\n- b\n')).toMatch(/rag-gate\.yml:1: must be a map of settings/);
  });

  it('reads an empty file as no settings', async () => {
    expect((await withConfig('# nothing yet\n')).origins.alpha).toEqual({ kind: 'default' });
  });

  it('must exist when named, and need not when it is the default', async () => {
    const layer = new Map<SettingName, SettingText>([['config', { text: join(tempDir(), 'missing.yml'), origin: { kind: 'flag', flag: '--config' } }]]);
    await expect(loadSettings(layer)).rejects.toThrow(/missing\.yml: cannot read: no such file/);
    // The working directory of the tests has no rag-gate.yml.
    expect((await loadSettings(new Map())).origins.k).toEqual({ kind: 'default' });
  });
});

describe('trace-url', () => {
  it('takes an http(s) template with {id}, and names what is wrong with any other', async () => {
    const { settings } = await withConfig('trace-url: https://smith.example/o/p/r/{id}?tab=trace\n');
    expect(settings['trace-url']).toBe('https://smith.example/o/p/r/{id}?tab=trace');
    expect((await withConfig('')).settings['trace-url']).toBeUndefined();
    expect(await problem('trace-url: https://smith.example/runs\n')).toMatch(/trace-url.*must hold \{id\}/s);
    expect(await problem('trace-url: javascript:alert({id})\n')).toMatch(/trace-url.*must be an http\(s\) URL/s);
  });
});
