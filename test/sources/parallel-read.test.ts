import { statSync } from 'node:fs';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { evalConfig } from '../../src/core/compare/settings.js';
import { parseRetrievalOkRule } from '../../src/core/catalog/parse/retrieval-ok.js';
import { InputError } from '../../src/core/errors.js';
import { mergeParts, readOutcomes, readPart } from '../../src/sources/outcomes.js';
import { byteRanges, Helpers, readBothRuns } from '../../src/sources/parallel.js';
import { scratchDir } from '../helpers/cli.js';

const scratch = scratchDir();
afterAll(() => scratch.cleanup());

const config = evalConfig({
  k: [1, 5],
  'retrieval-ok': parseRetrievalOkRule('hit@5'),
  correct: { kind: 'contains' },
  'relevance-level': 1,
  'ndcg-gains': new Map(),
});

let counter = 0;
const file = (content: string) => scratch.file(`parts-${++counter}.jsonl`, content);

/** A record with something of everything a part keeps: tags, scores, an unknown field, claims, a judge, labels. */
function record(i: number, variant: number): Record<string, unknown> {
  return {
    id: `q${i}`,
    question: `question ${i}${'é'.repeat(variant % 3)}`,
    answer: variant % 5 === 0 ? "I don't know" : `answer ${i % 7}`,
    expected_answer: `answer ${i % 5}`,
    retrieved_ids: [`d${i % 4}`, `d${(i + 1) % 4}`, `d${variant % 6}`].filter((d, at, all) => all.indexOf(d) === at),
    relevant_ids: [`d${variant % 4}`],
    tags: [`t${variant % 3}`],
    ...(variant % 4 === 0 ? { [`note_${variant % 3}`]: 'x' } : {}),
    ...(variant % 3 === 0 ? { faithfulnesss: variant / 10 } : {}),
    ...(variant % 2 === 0 ? { human_label: variant % 4 === 0, judge_label: true } : {}),
    ...(variant % 7 === 0 ? { claims: [{ text: 'c', verdict: 'SUPPORTED' }] } : {}),
  };
}

/** A file's lines as text: blank lines, CRLF and a byte-order mark where asked, a final newline or not. */
function jsonLines(lines: readonly string[], options: { crlf: boolean; bom: boolean; finalNewline: boolean }): string {
  const end = options.crlf ? '\r\n' : '\n';
  return `${options.bom ? '\uFEFF' : ''}${lines.join(end)}${options.finalNewline ? end : ''}`;
}

const lineArbitrary = fc.oneof({ weight: 6, arbitrary: fc.nat(20) }, { weight: 1, arbitrary: fc.constant(-1) });

describe('a JSON Lines file read in byte ranges', () => {
  it('gives what one read of it gives: the same outcomes, warnings, fields and places, lines counted from the file start', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(lineArbitrary, { minLength: 1, maxLength: 40 }),
        fc.record({ crlf: fc.boolean(), bom: fc.boolean(), finalNewline: fc.boolean() }),
        fc.integer({ min: 1, max: 6 }),
        async (variants, options, threads) => {
          let id = 0;
          const lines = variants.map((variant) => (variant < 0 ? '' : JSON.stringify(record(id++, variant))));
          if (id === 0) lines.push(JSON.stringify(record(id++, 1)));
          const path = file(jsonLines(lines, options));
          const parts = [];
          for (const range of byteRanges(statSync(path).size, threads, 0))
            parts.push({ file: path, fileIndex: 0, range, read: await readPart({ file: path, range }, config) });
          const merged = mergeParts([path], parts);
          expect(merged).toBeDefined();
          expect(merged).toEqual(await readOutcomes([path], config));
        },
      ),
      { numRuns: 60 },
    );
  });

  it('cut at every byte, into two ranges or three: a byte-order mark, CRLF, blank lines and no final newline', async () => {
    const short = (id: string) => JSON.stringify({ id, question: 'é?' });
    const path = file(`\uFEFF${short('a')}\r\n\r\n${short('b')}\n\n\n${short('c')}\r\n${short('d')}`);
    const size = statSync(path).size;
    const whole = await readOutcomes([path], config);
    const cuts = (points: readonly number[]) => [0, ...points, size].slice(1).map((end, i) => ({ start: i === 0 ? 0 : points[i - 1]!, end }));
    for (let p = 1; p < size; p++) {
      for (const points of [[p], [p, Math.min(size - 1, p + 7)]].filter((points) => points.every((point, i) => i === 0 || point > points[i - 1]!))) {
        const parts = [];
        for (const range of cuts(points)) parts.push({ file: path, fileIndex: 0, range, read: await readPart({ file: path, range }, config) });
        expect(mergeParts([path], parts), `cut at ${points.join(', ')}`).toEqual(whole);
      }
    }
  });

  it('with shards: each file its own ranges, lines per file', async () => {
    const shard = (from: number) => file(Array.from({ length: 30 }, (_, i) => `${JSON.stringify(record(from + i, i))}\n${i % 4 === 0 ? '\n' : ''}`).join(''));
    const files = [shard(0), shard(100), shard(200)];
    const [viaParts] = await readBothRuns(files, [files[0]!], config, new Helpers(undefined, 3), undefined, 0);
    expect(viaParts).toEqual(await readOutcomes(files, config));
    expect(viaParts.places?.lines.slice(28, 33)).toEqual(Int32Array.from([36, 38, 1, 3, 4]));
  });
});

describe('a run read in parts that one pass must read', () => {
  const lines = (count: number, change: (i: number) => string | undefined = () => undefined) =>
    Array.from({ length: count }, (_, i) => change(i + 1) ?? JSON.stringify(record(i, i))).join('\n') + '\n';

  /** What each way of reading gives: the runs, or the input error's message. */
  async function bothWays(base: string, head: string) {
    const outcome = (threads: number) =>
      readBothRuns([base], [head], config, new Helpers(undefined, threads), undefined, 0).then(
        (runs) => runs,
        (error: unknown) => {
          if (!(error instanceof InputError)) throw error;
          return error.message;
        },
      );
    return { one: await outcome(1), parts: await outcome(4) };
  }

  it('names the lines of errors in later ranges as one read does, both runs together', async () => {
    const base = file(lines(200, (i) => (i === 170 ? '{"id": "q170", "question": }' : i === 190 ? '{"id": "q1", "question": "again"}' : undefined)));
    const head = file(lines(200, (i) => (i === 120 ? '{"id": "x", "question": "q", "correct": "yes"}' : undefined)));
    const { one, parts } = await bothWays(base, head);
    expect(one).toMatch(/:170: not valid JSON/);
    expect(one).toMatch(/:190: id: duplicate id "q1" \(first on line 2\)/);
    expect(one).toMatch(/:120: correct: must be true or false/);
    expect(parts).toBe(one);
  });

  it('a question in two ranges (a repeat, or a duplicate), and a score whose type changes between ranges', async () => {
    const repeats = (i: number) =>
      i === 180 ? JSON.stringify({ ...record(1, 3), run: 2 }) : i === 2 ? JSON.stringify({ ...record(1, 1), run: 1 }) : undefined;
    const runs = await bothWays(file(lines(200, repeats)), file(lines(200)));
    expect(typeof runs.one).not.toBe('string');
    expect(runs.parts).toEqual(runs.one);
    const kinds = (i: number) =>
      i === 10 ? JSON.stringify({ ...record(9, 1), grounded: 0.5 }) : i === 190 ? JSON.stringify({ ...record(189, 1), grounded: true }) : undefined;
    const errors = await bothWays(file(lines(200)), file(lines(200, kinds)));
    expect(errors.one).toMatch(/:190: grounded: is true\/false here but a number on line 10; a score keeps one type/);
    expect(errors.parts).toBe(errors.one);
  });

  it('too many field names not ours across ranges', async () => {
    const wide = (i: number) => JSON.stringify({ ...record(i - 1, 1), ...Object.fromEntries(Array.from({ length: 100 }, (_, j) => [`f${i}_${j}`, 'x'])) });
    const { one, parts } = await bothWays(file(lines(200)), file(lines(12, wide)));
    expect(one).toMatch(/:11: carries more than 1,000 distinct field names/);
    expect(parts).toBe(one);
  });
});
