import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { InputError } from '../../src/core/errors.js';
import { type CandidatePair, rephraseCandidates } from '../../src/core/monitor/turns.js';
import { cosine } from '../../src/core/stats/cosine.js';
import { logEmbeddingCosines } from '../../src/pipeline/monitor.js';
import { type ReadLogs, readLogs } from '../../src/sources/logs.js';
import { jsonl, parseJsonOutput, runMain, scratchDir } from '../helpers/cli.js';

/**
 * The log's own embeddings are not kept from the first read (issue 40): the pairs' turns are read again, in batches
 * capped by their lines' bytes. Held here to the definition that kept every turn's embedding, errors and all.
 */
const scratch = scratchDir();
afterAll(() => scratch.cleanup());

const START = Date.parse('2026-03-01T09:00:00Z');
const WITHIN_MS = 60_000;

interface GenTurn {
  readonly session: string;
  readonly seconds: number;
  readonly embedding?: readonly number[];
}

/** The cosines as the monitor took them when it kept every embedding (its code before issue 40's change). */
function keptCosines(read: ReadLogs, embeddings: readonly (readonly number[] | undefined)[], pairs: readonly CandidatePair[]): number[] {
  const located = (index: number, message: string) => ({ ...read.location(index), field: 'embedding', message });
  const without = embeddings.flatMap((embedding, index) => (embedding === undefined ? [index] : []));
  if (without.length > 0)
    throw new InputError(
      without.slice(0, 20).map((index) => located(index, 'is required with similarity embeddings')),
      without.length,
    );
  return pairs.map(({ first, next }) => {
    const a = embeddings[first]!;
    const b = embeddings[next]!;
    if (a.length !== b.length)
      throw InputError.single(located(next, `has ${b.length} dimensions, but the session's previous turn (line ${read.location(first).line}) has ${a.length}`));
    const value = cosine(a, b);
    if (!Number.isFinite(value)) throw InputError.single(located(Number.isFinite(cosine(a, a)) ? next : first, 'is all zeros: it has no direction'));
    return value;
  });
}

const record = (turn: GenTurn) => ({
  session_id: turn.session,
  timestamp: new Date(START + turn.seconds * 1000).toISOString(),
  user_query: `query at ${turn.seconds}`,
  answer: 'Open Settings.',
  ...(turn.embedding === undefined ? {} : { embedding: turn.embedding }),
});

/** An OTLP export line of these turns, one span each (and a span without a query, passed over). */
function otlpLine(turns: readonly GenTurn[]): string {
  const attribute = (key: string, value: unknown) => ({
    key,
    value:
      typeof value === 'string'
        ? { stringValue: value }
        : { arrayValue: { values: (value as number[]).map((x) => (Number.isInteger(x) ? { intValue: String(x) } : { doubleValue: x })) } },
  });
  const span = (turn: GenTurn) => ({
    startTimeUnixNano: `${START + turn.seconds * 1000}000000`,
    attributes: [
      attribute('session.id', turn.session),
      attribute('gen_ai.prompt', `query at ${turn.seconds}`),
      attribute('gen_ai.completion', 'Open Settings.'),
      ...(turn.embedding === undefined ? [] : [attribute('embedding', turn.embedding)]),
    ],
  });
  const spans = turns.map(span);
  spans.splice(1, 0, { startTimeUnixNano: `${START}000000`, attributes: [attribute('db.system', 'qdrant')] });
  return JSON.stringify({ resourceSpans: [{ scopeSpans: [{ spans }] }] });
}

const component = fc.oneof(fc.integer({ min: -3, max: 3 }), fc.double({ min: -2, max: 2, noNaN: true }));
const genTurn = (dims: fc.Arbitrary<number>) =>
  fc.record({
    session: fc.constantFrom('s1', 's2', 's3'),
    seconds: fc.integer({ min: 0, max: 150 }),
    embedding: fc.oneof(
      { weight: 40, arbitrary: dims.chain((n) => fc.array(component, { minLength: n, maxLength: n })) },
      { weight: 1, arbitrary: dims.map((n): number[] | undefined => Array.from({ length: n }, () => 0)) },
      { weight: 1, arbitrary: fc.constant(undefined) },
    ),
  });

/** Each file: lines of one JSON Lines turn or one OTLP line of several. */
const genFile = (dims: fc.Arbitrary<number>) =>
  fc.array(
    fc.oneof({ weight: 3, arbitrary: genTurn(dims).map((turn) => [turn]) }, { weight: 1, arbitrary: fc.array(genTurn(dims), { minLength: 1, maxLength: 4 }) }),
    { minLength: 1, maxLength: 6 },
  );

let written = 0;
async function readGenerated(files: readonly (readonly (readonly GenTurn[])[])[]) {
  const paths = files.map((lines) =>
    scratch.file(`log-${written++}.jsonl`, lines.map((turns) => (turns.length === 1 ? JSON.stringify(record(turns[0]!)) : otlpLine(turns))).join('\n') + '\n'),
  );
  const read = await readLogs(paths, new Map());
  const embeddings = files.flat(2).map((turn) => turn.embedding);
  return { read, embeddings, pairs: rephraseCandidates(read.turns, WITHIN_MS) };
}

const outcome = async (compute: () => number[] | Promise<number[]>) => {
  try {
    return { cosines: await compute() };
  } catch (error) {
    if (!(error instanceof InputError)) throw error;
    return { error: error.message };
  }
};

describe('the log embeddings read again for the pairs', () => {
  it('give the cosines (and the errors) of the embeddings kept whole, whatever the batch budget', async () => {
    const dims = fc.oneof({ weight: 19, arbitrary: fc.constant(3) }, { weight: 1, arbitrary: fc.integer({ min: 1, max: 4 }) });
    const seen = { batched: 0, shared: 0, errors: 0, cosines: 0 };
    await fc.assert(
      fc.asyncProperty(fc.array(genFile(dims), { minLength: 1, maxLength: 2 }), fc.option(fc.integer({ min: 1, max: 3_000 })), async (files, budget) => {
        const { read, embeddings, pairs } = await readGenerated(files);
        const expected = await outcome(() => keptCosines(read, embeddings, pairs));
        const actual = await outcome(() => logEmbeddingCosines(read, pairs, budget ?? undefined));
        expect(actual).toEqual(expected);
        if ('error' in expected) seen.errors++;
        else if (pairs.length > 0) seen.cosines++;
        if (embeddings.every((embedding) => embedding !== undefined)) {
          // The batches take the pairs in order, each at least one.
          const ends: number[] = [];
          for await (const { start, end } of read.pairEmbeddings(pairs, budget ?? undefined)) {
            expect([start, end > start]).toEqual([ends.at(-1) ?? 0, true]);
            ends.push(end);
          }
          expect(ends.at(-1) ?? 0).toBe(pairs.length);
          if (ends.length > 1) seen.batched++;
        }
        if (pairs.some((pair) => pairs.some((other) => other.next === pair.first))) seen.shared++;
      }),
      { numRuns: 300 },
    );
    // The runs did force many batches, pairs sharing a turn, errors and cosines.
    expect(Math.min(seen.batched, seen.shared, seen.errors, seen.cosines), JSON.stringify(seen)).toBeGreaterThan(20);
  });
});

describe('a bad embedding, read again in a batch of its own, is reported as when every embedding was kept', () => {
  const turn = (session: string, seconds: number, embedding?: number[]) => record({ session, seconds, ...(embedding === undefined ? {} : { embedding }) });
  /** Four turns of two sessions: pairs (line 1, line 3) and (line 2, line 4), in that order. */
  const log = (name: string, embeddings: (number[] | undefined)[]) =>
    scratch.file(name, jsonl([turn('s1', 0, embeddings[0]), turn('s2', 0, embeddings[1]), turn('s1', 10, embeddings[2]), turn('s2', 20, embeddings[3])]));

  async function fails(file: string, similarity = 'auto'): Promise<string> {
    const run = await runMain(['monitor', '--logs', file, '--json', '--similarity', similarity]);
    expect(run.stdout).toBe('');
    expect(run.code).toBe(2);
    const read = await readLogs([file], new Map());
    const pairs = rephraseCandidates(read.turns, WITHIN_MS);
    expect(pairs).toEqual([
      { first: 0, next: 2 },
      { first: 1, next: 3 },
    ]);
    // One byte a batch: each pair is read again on its own.
    const batched = await logEmbeddingCosines(read, pairs, 1).then(
      () => '',
      (error: unknown) => (error instanceof InputError ? error.message : String(error)),
    );
    expect(run.stderr).toBe(`rag-gate: error: bad input\n${batched}\n`);
    return batched;
  }

  it('a dimension that differs from the session previous turn: the later turn, naming the earlier line', async () => {
    const file = log('dimensions.jsonl', [
      [1, 0, 0],
      [1, 1, 1],
      [0.5, 0.5, 0],
      [1, 1],
    ]);
    expect(await fails(file)).toBe(`${file}:4: embedding: has 2 dimensions, but the session's previous turn (line 2) has 3`);
  });

  it('all zeros: the next turn when it is, else the first', async () => {
    const next = log('zeros-next.jsonl', [
      [1, 0],
      [1, 1],
      [0.5, 0.5],
      [0, 0],
    ]);
    expect(await fails(next)).toBe(`${next}:4: embedding: is all zeros: it has no direction`);
    const first = log('zeros-first.jsonl', [
      [1, 0],
      [0, 0],
      [0.5, 0.5],
      [1, 1],
    ]);
    expect(await fails(first)).toBe(`${first}:2: embedding: is all zeros: it has no direction`);
  });

  it("the first pair at fault in the pairs' order, whichever batch it is read in", async () => {
    const file = log('two-faults.jsonl', [[1, 0], [1, 1], [0, 0], [1]]);
    expect(await fails(file)).toBe(`${file}:3: embedding: is all zeros: it has no direction`);
  });

  it('a turn without one, with similarity embeddings; auto falls back to lexical', async () => {
    const file = log('missing.jsonl', [[1, 0], [1, 1], undefined, [1, 1]]);
    expect(await fails(file, 'embeddings')).toBe(`${file}:3: embedding: is required with similarity embeddings`);
    const auto = await runMain(['monitor', '--logs', file, '--json']);
    expect(auto.code).toBe(0);
    expect(parseJsonOutput<{ similarity: { measure: string } }>(auto.stdout).similarity.measure).toBe('lexical');
  });
});
