import { describe, expect, it } from 'vitest';
import { SETTINGS, type Settings } from '../../src/core/catalog/settings.js';
import { compareConfig } from '../../src/core/compare/settings.js';
import { compareReport } from '../../src/pipeline/report.js';
import { loadSettings } from '../../src/pipeline/settings.js';
import { tempDir, writeJsonl } from '../helpers/files.js';
import { sketchScenario } from '../helpers/paired-runs.js';

/** The sketch's runs with graded relevance, answers and a score, so that every kind of metric has data. */
function files() {
  const { base, head } = sketchScenario();
  const dir = tempDir();
  const enrich = (run: typeof base) =>
    run.map((q, i) => ({
      ...q,
      relevant_ids: { [`doc-${i}`]: 1 + (i % 3) },
      answer: `answer ${i % 4}`,
      expected_answer: `answer ${i % 3}`,
      grounded: (i % 10) / 10,
    }));
  return { base: writeJsonl(dir, 'base.jsonl', enrich(base)), head: writeJsonl(dir, 'head.jsonl', enrich(head)) };
}

describe('a report without JSON scores only the retrieval metrics it asks for', () => {
  it('and its text and comment are those of the run that scores every metric', async () => {
    const { settings: defaults } = await loadSettings(new Map());
    const settings: Settings = {
      ...defaults,
      floors: SETTINGS.floors.parse('precision@3=0.9,ndcg_exp@5=0.2'),
      graded: SETTINGS.graded.parse('map@10,recall@5'),
    };
    const { base, head } = files();
    const report = async (reported: 'all' | 'asked') => {
      const config = compareConfig(settings, [], reported);
      const run = await compareReport({ settings, config, head: [head], held: null, place: {} }, { kind: 'found', files: [base], sha: null });
      return { config, text: run.text, comment: run.comment, verdict: run.verdict, outputs: run.outputs };
    };
    const all = await report('all');
    const asked = await report('asked');
    expect(asked.config.eval.retrievalMetrics.map((metric) => metric.name)).toEqual(['hit@5', 'map@10', 'recall@5', 'precision@3', 'ndcg_exp@5']);
    expect(all.config.eval.retrievalMetrics.length).toBeGreaterThan(30);
    expect(all.text + all.comment).toMatch(/precision@3/);
    expect({ ...asked, config: undefined }).toEqual({ ...all, config: undefined });
  });
});
