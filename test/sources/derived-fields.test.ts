import { afterAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { InputError } from '../../src/core/errors.js';
import { readResults, type ReadOptions } from '../../src/sources/results.js';
import { type Derivation, type ResultRecord, scoreName } from '../../src/core/record.js';
import { contextId, parseContextMatchRule, questionId, referenceIds, tokenOverlap } from '../../src/core/derived-ids.js';
import { jsonl, scratchDir } from '../helpers/cli.js';

const scratch = scratchDir();
afterAll(() => scratch.cleanup());

let counter = 0;
const file = (content: string) => scratch.file(`derived-${++counter}.jsonl`, content);

async function read(content: string, options: ReadOptions = {}) {
  const records: { record: ResultRecord; derivation: Derivation }[] = [];
  const summary = await readResults(file(content), (record, _line, _text, derivation) => records.push({ record, derivation }), options);
  return { records, summary };
}

async function problems(content: string) {
  try {
    await readResults(file(content), () => {});
  } catch (error) {
    if (error instanceof InputError) return error.problems.map(({ line, field, message }) => ({ line, field, message }));
    throw error;
  }
  throw new Error('accepted');
}

describe('ids', () => {
  it('a record without an id gets a hash of its normalised question, the same for the same text however spaced', async () => {
    const { records, summary } = await read(jsonl([{ question: 'What is  the refund\u00a0window?' }, { id: 'q2', question: 'b' }]));
    expect(records[0]!.record.id).toBe(questionId('What is the refund window?'));
    expect(records[0]!.record.id).toMatch(/^q-[0-9a-f]{16}$/);
    expect(records[0]!.derivation.idFromQuestion).toBe(true);
    expect(records[1]!.record.id).toBe('q2');
    expect(summary.idsFromQuestion).toBe(1);
  });

  it('the derived id is pinned: SHA-256 of the NFC text, not of its spelling', () => {
    // `printf Café | sha256sum` (coreutils) starts 73473dcc12b76308.
    expect(questionId('Cafe\u0301')).toBe(questionId('Café'));
    expect(questionId('Café')).toBe('q-73473dcc12b76308');
    expect(questionId('café')).not.toBe(questionId('Café'));
  });

  it('two records with the same question text and no id are an error naming both lines', async () => {
    expect(await problems(jsonl([{ question: 'Refund window?' }, { question: 'x' }, { question: 'Refund  window?' }]))).toEqual([
      {
        line: 3,
        field: 'question',
        message: 'the same question as line 1 (records without an id are told apart by their question text); give each an id, or remove the repeat',
      },
    ]);
  });

  it('whole-number ids are read as their decimal string, and 1 with "1" is the same id twice', async () => {
    const { records } = await read(jsonl([{ id: 1, question: 'a', retrieved_ids: [10, 'd2'], relevant_ids: [10] }]));
    expect(records[0]!.record.id).toBe('1');
    expect(records[0]!.record.retrieved_ids).toEqual(['10', 'd2']);
    expect(records[0]!.record.relevant_ids).toEqual(['10']);
    expect(
      await problems(
        jsonl([
          { id: 1, question: 'a' },
          { id: '1', question: 'b' },
        ]),
      ),
    ).toEqual([{ line: 2, field: 'id', message: 'duplicate id "1" (first on line 1)' }]);
  });
});

describe('contexts as text', () => {
  const retrieved = ['The refund window is 30 days.', 'Invoices are monthly.', 'Refunds go to the original card.'];

  it('exact match: retrieved texts get text ids and the reference texts the ids of the retrieved texts they equal', async () => {
    const { records, summary } = await read(
      jsonl([{ question: 'a', retrieved_contexts: retrieved, reference_contexts: ['Refunds go to the  original card.', 'Not retrieved.'] }]),
    );
    const { record, derivation } = records[0]!;
    expect(record.retrieved_ids).toEqual(retrieved.map(contextId));
    expect(record.relevant_ids).toEqual([contextId(retrieved[2]!), contextId('Not retrieved.')]);
    expect(derivation.retrievalByText).toBe(true);
    expect(summary.retrievalByText).toBe(1);
  });

  it('with retrieved ids given, the reference texts take those ids', async () => {
    const { records } = await read(
      jsonl([{ question: 'a', retrieved_ids: ['d1', 'd2', 'd3'], retrieved_contexts: retrieved, reference_contexts: ['The refund window is 30 days.'] }]),
    );
    expect(records[0]!.record.retrieved_ids).toEqual(['d1', 'd2', 'd3']);
    expect(records[0]!.record.relevant_ids).toEqual(['d1']);
  });

  it('relevant_ids, when given, win over reference_contexts: nothing is matched by text', async () => {
    const { records, summary } = await read(
      jsonl([{ question: 'a', retrieved_ids: ['d1'], retrieved_contexts: ['x'], relevant_ids: ['d9'], reference_contexts: ['x'] }]),
    );
    expect(records[0]!.record.relevant_ids).toEqual(['d9']);
    expect(summary.retrievalByText).toBe(0);
  });

  it('overlap:T matches a retrieved context holding at least a share T of the reference tokens', async () => {
    const content = jsonl([{ question: 'a', retrieved_contexts: retrieved, reference_contexts: ['Refunds go to the card.'] }]);
    // Reference tokens (SQuAD-normalised): refunds go to card (4); the third retrieved text holds all four.
    const loose = await read(content, { contextMatch: parseContextMatchRule('overlap:0.75') });
    expect(loose.records[0]!.record.relevant_ids).toEqual([contextId(retrieved[2]!)]);
    const exact = await read(content);
    expect(exact.records[0]!.record.relevant_ids).toEqual([contextId('Refunds go to the card.')]);
  });

  it('token overlap counts tokens with multiplicity against the reference', () => {
    const counts = (tokens: string[]) => new Map(tokens.map((t) => [t, tokens.filter((u) => u === t).length]));
    expect(tokenOverlap(counts(['a', 'b']), counts(['a', 'a', 'b', 'c']))).toBe(0.5);
    expect(tokenOverlap(counts(['a', 'a', 'b', 'c', 'd']), counts(['a', 'a', 'b', 'c']))).toBe(1);
    expect(tokenOverlap(counts(['a']), new Map())).toBe(0);
  });

  it('each reference context is claimed once, by the best-overlapping retrieved context in rank order', () => {
    const rule = parseContextMatchRule('overlap:0.5');
    // Both retrieved texts overlap the first reference fully; the second retrieved one must not count it again.
    expect(referenceIds(['r1', 'r2'], ['alpha beta', 'alpha beta gamma'], ['alpha beta', 'gamma delta'], rule)).toEqual(['r1', 'r2']);
    expect(referenceIds(['r1', 'r2'], ['alpha beta', 'alpha beta'], ['alpha beta'], rule)).toEqual(['r1']);
    // The same reference text twice is one relevant document.
    expect(referenceIds(['r1'], ['zeta'], ['alpha', 'alpha '], { kind: 'exact' })).toEqual([contextId('alpha')]);
  });

  it('property: exact matching by text gives every retrieval metric the ids matching by id gives', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(
          fc.string({ minLength: 1 }).filter((t) => t.trim() !== ''),
          { minLength: 1, maxLength: 8, selector: (t) => t.replace(/\s+/gu, ' ').trim().normalize('NFC') },
        ),
        fc.array(fc.nat(7)),
        (texts, picks) => {
          const ids = texts.map((_, i) => `d${i}`);
          const gold = [...new Set(picks.filter((i) => i < texts.length))];
          const byText = referenceIds(
            ids,
            texts,
            gold.map((i) => texts[i]!),
            { kind: 'exact' },
          );
          expect(byText).toEqual(gold.map((i) => ids[i]));
        },
      ),
    );
  });
});

describe('scores other tools computed', () => {
  it('unknown numeric and true/false fields, and the scores object, are scores; text fields stay unknown', async () => {
    const { records, summary } = await read(
      jsonl([
        { id: 'q1', question: 'a', faithfulness: 0.8, 'factual_correctness(mode=f1)': 0.5, passed: true, scores: { tone: 3 }, note: 'x' },
        { id: 'q2', question: 'b', faithfulness: 0.6 },
      ]),
    );
    expect(records[0]!.record.scores).toEqual({ tone: 3, faithfulness: 0.8, factual_correctness_mode_f1: 0.5, passed: true });
    expect(records[1]!.record.scores).toEqual({ faithfulness: 0.6 });
    expect([...summary.scores]).toEqual([
      ['tone', 'number'],
      ['faithfulness', 'number'],
      ['factual_correctness_mode_f1', 'number'],
      ['passed', 'boolean'],
    ]);
    expect([...summary.unknownFields]).toEqual([['note', 1]]);
  });

  it('score names are spelled as identifiers, so none is active markdown; two spellings of one name are an error', async () => {
    expect(scoreName('Answer Relevancy')).toBe('answer_relevancy');
    expect(scoreName('@team www.example.com #12 _x_')).toBe('team_www_example_com_12_x');
    expect(scoreName('Größe')).toBe('gro_e');
    expect(scoreName('分数')).toBeUndefined();
    expect(scoreName('a'.repeat(70))).toHaveLength(64);
    expect(await problems(jsonl([{ id: 'q1', question: 'a', 'Tone ': 1, scores: { tone: 2 } }]))).toEqual([
      { line: 1, field: 'scores["Tone "]', message: 'is the score tone, as "tone" is; keep one' },
    ]);
  });

  it('null is an absent field, as pandas writes a missing value', async () => {
    const { records } = await read(jsonl([{ id: 'q1', question: 'a', answer: null, faithfulness: null }]));
    expect(records[0]!.record).toEqual({ id: 'q1', question: 'a' });
  });

  it('a score that is a number in one record and true/false in another is an error naming both lines', async () => {
    expect(
      await problems(
        jsonl([
          { id: 'q1', question: 'a', passed: 1 },
          { id: 'q2', question: 'b', passed: false },
        ]),
      ),
    ).toEqual([{ line: 2, field: 'passed', message: 'is true/false here but a number on line 1; a score keeps one type' }]);
  });

  it('a score given both as a field and in scores is an error', async () => {
    expect(await problems(jsonl([{ id: 'q1', question: 'a', tone: 1, scores: { tone: 2 } }]))).toEqual([
      { line: 1, field: 'tone', message: 'is also given in scores; keep one' },
    ]);
  });

  it('Ragas fields rag-gate does not use are noted, not called typos; a score named like a field says so', async () => {
    const path = file(jsonl([{ id: 'q1', question: 'a', rubrics: { score1: 'bad' }, answer_relevence: 0.5 }]));
    const summary = await readResults(path, () => {});
    expect(summary.warnings).toEqual([
      `${path}: field "rubrics" in 1 record is not used (Ragas' rubrics steer its LLM metrics; rag-gate reads the scores they produced)`,
      `${path}: "answer_relevence" is read as a score, not as the field "answer_relevance"; rename it if you meant the field`,
    ]);
  });
});
