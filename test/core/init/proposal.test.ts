import { describe, expect, it } from 'vitest';
import { emptyFacts, proposeFields, proposeSetup, type RecordFacts, tallyRecord } from '../../../src/core/init/proposal.js';
import type { ResultRecord } from '../../../src/core/record.js';

const given = (...names: string[]) => new Map(names.map((name) => [name, 1]));

describe('proposeFields', () => {
  it("maps other tools' names and spellings of rag-gate's fields, saying which", () => {
    expect(proposeFields(given('prompt', 'gold_answer', 'qid', 'Retrieved-IDs')).mappings).toEqual([
      { ours: 'question', yours: 'prompt', because: 'synonym' },
      { ours: 'expected_answer', yours: 'gold_answer', because: 'synonym' },
      { ours: 'id', yours: 'qid', because: 'synonym' },
      { ours: 'retrieved_ids', yours: 'Retrieved-IDs', because: 'spelling' },
    ]);
    // camelCase of another tool's name: user_input is Ragas' question.
    expect(proposeFields(given('userInput')).mappings).toEqual([{ ours: 'question', yours: 'userInput', because: 'spelling' }]);
  });

  it('leaves alone what is read already: its own names, aliases, tool scores and fields read past on purpose', () => {
    expect(proposeFields(given('question', 'user_input', 'answer_relevancy', 'faithfulness', 'rubrics', 'latency_ms'))).toEqual({
      mappings: [],
      conflicts: [],
    });
    // `query` means question, but the file gives question already.
    expect(proposeFields(given('question', 'query')).mappings).toEqual([]);
  });

  it('maps no short name by a slip, and no look-alike of a structured field', () => {
    expect(proposeFields(given('question', 'rank', 'score', 'ids', 'tag')).mappings).toEqual([]);
    // A longer name takes one slip: `anwser` is answer.
    expect(proposeFields(given('question', 'anwser')).mappings).toEqual([{ ours: 'answer', yours: 'anwser', because: 'spelling' }]);
  });

  it("the user's own mappings come first and settle what they name", () => {
    expect(proposeFields(given('prompt', 'Question', 'gold_answer'), new Map([['Question', 'question']]))).toEqual({
      mappings: [
        { ours: 'question', yours: 'Question', because: 'given' },
        { ours: 'expected_answer', yours: 'gold_answer', because: 'synonym' },
      ],
      conflicts: [],
    });
  });

  it('two fields meaning one of ours are a conflict, mapped to neither', () => {
    expect(proposeFields(given('prompt', 'Question'))).toEqual({ mappings: [], conflicts: [{ ours: 'question', yours: ['prompt', 'Question'] }] });
  });
});

const record = (fields: Partial<ResultRecord>): ResultRecord => ({ id: 'q', question: 'Q?', ...fields });

function facts(records: readonly ResultRecord[], byText = false): RecordFacts {
  const tally = emptyFacts();
  for (const one of records) tallyRecord(tally, one, byText);
  return tally;
}

const setup = (tally: RecordFacts, scores: string[] = []) =>
  proposeSetup({ file: 'r.jsonl', format: 'jsonl', given: new Map(), facts: tally, scores, unread: [], idsFromQuestion: 0, minPaired: 30 });

describe('tallyRecord', () => {
  it('counts gold, retrieval and how each lexical rule judges the answers', () => {
    const tally = facts([
      record({ retrieved_ids: ['a', 'b', 'c'], relevant_ids: ['b'], answer: 'It costs 5 dollars.', expected_answer: '5 dollars' }),
      record({ retrieved_ids: ['a'], relevant_ids: [], answer: 'It costs 6 dollars.', expected_answer: '5 dollars' }),
      record({
        retrieved_contexts: ['x'],
        reference_contexts: ['y'],
        answer: 'The fee is five dollars a month',
        expected_answer: 'a fee of five dollars a month',
      }),
    ]);
    expect(tally).toEqual({
      ...emptyFacts(),
      records: 3,
      goldIds: 1,
      goldTextUnmatched: 1,
      retrievedIds: 2,
      retrievedContexts: 1,
      maxRetrieved: 3,
      answered: 3,
      containsCorrect: 1,
      // "fee five dollars month" in both: F1 of the third is 4/5 + 4/5 … ≥ 0.5; the first: 2 of 4 tokens, F1 2/3.
      f1Correct: 2,
      expectedTokens: [2, 2, 5],
    });
  });
});

describe('proposeSetup', () => {
  it('with gold ids: recall@k>=1 over the most documents retrieved, and the retrieval gate', () => {
    const proposal = setup(
      facts([record({ retrieved_ids: ['a', 'b', 'c', 'd'], relevant_ids: ['a'] }), record({ retrieved_ids: ['a'], relevant_ids: ['a'] })]),
    );
    expect(proposal.retrieval).toEqual({ kind: 'gold', by: 'ids', rule: 'recall@4>=1', k: 4, records: 2 });
    expect(proposal.failOn).toEqual(['retrieval']);
    expect(proposal.correctness).toEqual({ kind: 'none', answered: 0 });
    expect(proposal.tooFewFor).toBe(30);
  });

  it('with gold texts matched by text: the same rule, said to be by text', () => {
    const proposal = setup(facts([record({ retrieved_ids: ['text-1', 'text-2'], relevant_ids: ['text-2'], retrieved_contexts: ['x', 'y'] })], true));
    expect(proposal.retrieval).toEqual({ kind: 'gold', by: 'text', rule: 'recall@2>=1', k: 2, records: 1 });
  });

  it("without gold: no retrieval gate, another tool's recall score in its place when there is one", () => {
    const tally = facts([record({ retrieved_contexts: ['x'] })]);
    expect(setup(tally, ['faithfulness', 'context_recall']).retrieval).toEqual({ kind: 'none', goldTextUnmatched: 0, score: 'context_recall' });
    expect(setup(tally, ['faithfulness', 'context_recall']).failOn).toEqual(['score:context_recall']);
    expect(setup(tally, ['faithfulness']).retrieval).toEqual({ kind: 'none', goldTextUnmatched: 0 });
    expect(setup(tally, ['faithfulness']).failOn).toEqual([]);
  });

  it('records that carry their own verdicts need no rule', () => {
    const proposal = setup(facts([record({ retrieval_ok: true, correct: false }), record({ retrieval_ok: false, correct: true })]));
    expect(proposal.retrieval).toEqual({ kind: 'records' });
    expect(proposal.correctness).toEqual({ kind: 'records' });
    expect(proposal.failOn).toEqual(['retrieval', 'end-to-end']);
  });

  it('short expected answers: contains; long ones: token F1; an LLM correctness score when no lexical rule passes half', () => {
    const short = facts([record({ answer: 'At 9 a.m.', expected_answer: '9 a.m.' }), record({ answer: 'Never.', expected_answer: 'never' })]);
    expect(setup(short, ['factual_correctness_mode_f1']).correctness).toEqual({
      kind: 'rule',
      rule: { kind: 'contains' },
      // "9 am" and "never": the lower middle of 2 and 1 tokens.
      medianTokens: 1,
      answered: 2,
      contains: 2,
      f1: 2,
      score: 'factual_correctness_mode_f1',
    });
    const long = facts([
      record({ answer: 'Books can be renewed twice, online.', expected_answer: 'Books can be renewed twice, online or at the desk.' }),
      record({ answer: 'Study rooms are booked online.', expected_answer: 'Study rooms are booked online up to 14 days ahead.' }),
    ]);
    const lexical = setup(long);
    expect(lexical.correctness).toMatchObject({ kind: 'rule', rule: { kind: 'f1', threshold: 0.5 }, contains: 0 });
    expect(lexical.failOn).toEqual(['end-to-end']);
    // The second answer lacks the expected answer's 14: wrong under every rule; the first passes F1 (6 of 8 tokens).
    expect(lexical.correctness).toMatchObject({ f1: 1 });
    const scored = setup(
      facts(Array.from({ length: 2 }, () => record({ answer: 'No.', expected_answer: 'Books can be renewed twice, online or at the desk.' }))),
      ['answer_correctness'],
    );
    // Neither rule passes an answer: the LLM's score is gated instead of a rule that fails everything.
    expect(scored.correctness).toMatchObject({ kind: 'score', score: 'answer_correctness', answered: 2, f1: 0 });
    expect(scored.failOn).toEqual(['score:answer_correctness']);
  });

  it('says nothing of size when the file has min-paired questions', () => {
    const tally = facts(Array.from({ length: 30 }, () => record({})));
    expect(setup(tally).tooFewFor).toBeUndefined();
  });
});
