import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { evalConfig } from '../../src/core/compare/settings.js';
import { OutcomeBuilder } from '../../src/core/scoring/outcomes.js';
import { parseRetrievalOkRule } from '../../src/core/catalog/parse/retrieval-ok.js';
import { runCli, tempDir, writeJsonl } from '../helpers/files.js';

/**
 * One refusal detector for result records and log turns: a record without `refused` but with an answer gets the
 * detector's verdict, counted and stated; a record with `refused` keeps it.
 */

const DETECTOR_LINE =
  /^refused: the text refusal detector \(an empty answer, or a refusal phrase such as "I don't know" .* first 300 characters\) \(read for (\d+) questions? without a refused field\)$/;

/**
 * 20 answerable questions (2 answered with a refusal) and 20 unanswerable ones (the first 12 refused). `withField`
 * writes `refused` as the detector would read it, except that the first unanswerable refusal is marked not refused.
 */
function records(withField: boolean): object[] {
  return Array.from({ length: 40 }, (_, i) => {
    const answerable = i < 20;
    const refuses = answerable ? i < 2 : i < 32;
    const answer = refuses ? (i % 2 === 0 ? "I don't know." : 'The documentation does not mention this.') : `The answer is ${i}.`;
    return {
      id: `q${i}`,
      question: `question ${i}?`,
      answer,
      expected_answer: `The answer is ${i}.`,
      answerable,
      ...(withField ? { refused: refuses && i !== 20 } : {}),
    };
  });
}

const config = evalConfig({ k: [5], 'retrieval-ok': parseRetrievalOkRule('hit@5'), correct: { kind: 'exact' }, 'relevance-level': 1, 'ndcg-gains': new Map() });

describe('the refused column of a result record', () => {
  it("is the record's field when it has one, else the detector's verdict on the answer, else absent", () => {
    const builder = new OutcomeBuilder(config);
    builder.add({ id: 'a', question: 'a?', answer: "I don't know.", refused: false });
    builder.add({ id: 'b', question: 'b?', answer: 'Paris.', refused: true });
    builder.add({ id: 'c', question: 'c?', answer: "I don't know." });
    builder.add({ id: 'd', question: 'd?', answer: 'Paris.' });
    builder.add({ id: 'e', question: 'e?', answer: '' });
    builder.add({ id: 'f', question: 'f?' });
    const outcomes = builder.build();
    expect([...outcomes.columns.get('refused')!]).toEqual([0, 1, 1, 0, 1, NaN]);
    expect(outcomes.refusedByDetector).toBe(3);
  });
});

describe('eval on records without refused', () => {
  it('computes the refusal metrics with the detector, and says so in text and JSON', async () => {
    const file = writeJsonl(tempDir(), 'results.jsonl', records(false));
    const json = JSON.parse((await runCli(['eval', '--results', file, '--json'])).stdout);
    expect(json.details.refusal_rate_unanswerable).toMatchObject({ value: 12 / 20, n: 20, count: 12 });
    expect(json.details.false_refusal_rate).toMatchObject({ value: 2 / 20, n: 20, count: 2 });
    expect(json.provenance.refusedByDetector).toBe(40);
    const line = json.scoring.find((l: string) => l.startsWith('refused:'));
    expect(line).toMatch(DETECTOR_LINE);
    expect(line.match(DETECTOR_LINE)[1]).toBe('40');
    const text = (await runCli(['eval', '--results', file])).stdout;
    expect(text).toContain(line);
  });

  it('keeps the field where records carry it, and states no detector', async () => {
    const file = writeJsonl(tempDir(), 'results.jsonl', records(true));
    const json = JSON.parse((await runCli(['eval', '--results', file, '--json'])).stdout);
    // The field's 11, not the detector's 12: the record marked not refused stays so.
    expect(json.details.refusal_rate_unanswerable).toMatchObject({ value: 11 / 20, count: 11 });
    expect(json.provenance.refusedByDetector).toBe(0);
    expect(json.scoring.some((l: string) => l.startsWith('refused:'))).toBe(false);
  });
});

describe('compare, when base and head read refusals differently', () => {
  it('warns in text, JSON and the comment, and states the detector in the scoring lines', async () => {
    const dir = tempDir();
    const base = writeJsonl(dir, 'base.jsonl', records(true));
    const head = writeJsonl(dir, 'head.jsonl', records(false));
    const markdown = join(dir, 'comment.md');
    const run = await runCli(['compare', '--base', base, '--head', head, '--json', '--markdown', markdown]);
    const json = JSON.parse(run.stdout);
    expect(json.provenance.base.refusedByDetector).toBe(0);
    expect(json.provenance.head.refusedByDetector).toBe(40);
    const warning = json.warnings.find((w: { kind: string }) => w.kind === 'refusal-source-differs');
    expect(warning).toMatchObject({ base: 0, head: 40 });
    expect(warning.message).toBe(
      "refusals were read differently: base from its refused field, head by the text refusal detector for 40 questions without one; a change in refusal metrics may be the detector's rather than the pipeline's: give both runs a refused field, or neither",
    );
    const comment = readFileSync(markdown, 'utf8');
    expect(comment).toContain('refusals were read differently: base from its refused field, head by the text refusal detector');
    expect(comment).toMatch(/refused: the text refusal detector .* \(read for 40 questions without a refused field\)/);
    const text = (await runCli(['compare', '--base', base, '--head', head])).stdout;
    expect(text).toContain(warning.message);
    expect(text.split('\n').some((line) => DETECTOR_LINE.test(line.trim()))).toBe(true);

    const reversed = JSON.parse((await runCli(['compare', '--base', head, '--head', base, '--json'])).stdout);
    expect(reversed.warnings.find((w: { kind: string }) => w.kind === 'refusal-source-differs').message).toContain(
      'base by the text refusal detector for 40 questions',
    );
  });

  it('does not warn when both runs read refusals the same way', async () => {
    const dir = tempDir();
    const base = writeJsonl(dir, 'base.jsonl', records(false));
    const head = writeJsonl(dir, 'head.jsonl', records(false));
    const json = JSON.parse((await runCli(['compare', '--base', base, '--head', head, '--json'])).stdout);
    expect(json.warnings.some((w: { kind: string }) => w.kind === 'refusal-source-differs')).toBe(false);
  });
});

describe('the examples, whose records all carry refused', () => {
  const read = (name: string) =>
    readFileSync(join('examples', name), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { answer: string; refused: boolean; answerable?: boolean });

  // The demo test pins their comment byte for byte; here their refusal numbers are the fields' counts, detector unused.
  it('keep their refusal numbers: the counts of their refused fields', async () => {
    const base = read('base.jsonl');
    const head = read('head.jsonl');
    const json = JSON.parse((await runCli(['compare', '--base', 'examples/base.jsonl', '--head', 'examples/head.jsonl', '--json'])).stdout);
    expect(json.provenance.base.refusedByDetector).toBe(0);
    expect(json.provenance.head.refusedByDetector).toBe(0);
    expect(json.warnings.some((w: { kind: string }) => w.kind === 'refusal-source-differs')).toBe(false);
    for (const [name, records, side] of [
      ['base.jsonl', base, 'base'],
      ['head.jsonl', head, 'head'],
    ] as const) {
      const unanswerable = records.filter((record) => record.answerable === false);
      const answerable = records.filter((record) => record.answerable !== false);
      const refusedUnanswerable = unanswerable.filter((r) => r.refused).length;
      const details = JSON.parse((await runCli(['eval', '--results', join('examples', name), '--json'])).stdout).details;
      expect(details.refusal_rate_unanswerable).toMatchObject({ n: unanswerable.length, count: refusedUnanswerable });
      expect(details.false_refusal_rate).toMatchObject({ n: answerable.length, count: answerable.filter((r) => r.refused).length });
      const test = json.tests.find((t: { metric: string }) => t.metric === 'refusal');
      expect(test[side]).toBeCloseTo(refusedUnanswerable / unanswerable.length, 12);
    }
  });
});
