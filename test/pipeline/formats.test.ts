import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { evalJson, type EvalJson, ROOT } from '../helpers/cli.js';
import { tempDir, writeJsonl } from '../helpers/files.js';

/**
 * Each exported format against the canonical JSON Lines a user would have written by hand for the same questions:
 * `eval --json` must give the same numbers. The canonical files use rag-gate's own field names, and `scores` for
 * the other tool's columns.
 */

const fixture = (name: string) => join(ROOT, 'test', 'fixtures', 'results', name);

/** Everything but how the file was read: the metrics with their n, counts and intervals, the decomposition, tags. */
function numbers(json: EvalJson) {
  return { questions: json.questions, details: json.details, excluded: json.excluded, decomposition: json.decomposition, byTag: json.byTag };
}

async function sameNumbers(file: string, canonical: readonly object[]) {
  const [read, expected] = await Promise.all([evalJson(file), evalJson(writeJsonl(tempDir(), 'canonical.jsonl', canonical))]);
  expect(numbers(read)).toEqual(numbers(expected));
  return { read, expected };
}

const eiffel = {
  completed: 'When was the Eiffel Tower completed?',
  tall: 'How tall is the Eiffel Tower?',
  built: "The Eiffel Tower was completed in March 1889 for the World's Fair.",
  company: "Gustave Eiffel's company designed and built the tower.",
  height: 'The tower is 330 metres (1,083 ft) tall,\nabout the height of an 81-storey building.',
  nickname: 'Its nickname is "La dame de fer".',
  paris: 'Paris is the capital of France.',
  tallAnswer: 'About 330 metres,\nroughly an 81-storey building.',
};

describe('each format gives the numbers of the canonical JSON Lines', () => {
  it("Ragas' EvaluationResult.to_pandas().to_csv(): Python list cells, an index column, a NaN score as an empty cell", async () => {
    const { read } = await sameNumbers(fixture('ragas.csv'), [
      {
        question: eiffel.completed,
        retrieved_contexts: [eiffel.built, eiffel.company],
        reference_contexts: [eiffel.built],
        answer: 'It was completed in 1889.',
        expected_answer: '1889',
        scores: { faithfulness: 1, answer_relevancy: 0.9731, context_precision: 0.9999999999, context_recall: 1, factual_correctness_mode_f1: 1 },
      },
      {
        question: eiffel.tall,
        retrieved_contexts: [eiffel.height, eiffel.nickname, eiffel.paris],
        reference_contexts: [eiffel.height],
        answer: eiffel.tallAnswer,
        expected_answer: '330 metres',
        scores: { faithfulness: 1, answer_relevancy: 0.8813, context_precision: 0.9999999999, context_recall: 1, factual_correctness_mode_f1: 0.67 },
      },
      {
        question: 'What is the tower\'s nickname, "La dame de fer", in English?',
        retrieved_contexts: [eiffel.nickname, 'Café owners near the Champ de Mars call it \\ la Tour \\.'],
        reference_contexts: [eiffel.nickname],
        answer: '"The Iron Lady"',
        expected_answer: 'The Iron Lady',
        scores: { faithfulness: 0.5, context_precision: 0.9999999999, context_recall: 1, factual_correctness_mode_f1: 1 },
      },
      {
        question: "Who designed the Statue of Liberty's frame?",
        retrieved_contexts: [],
        reference_contexts: ["Gustave Eiffel's company built the statue's internal frame."],
        answer: "I don't know.",
        expected_answer: "Gustave Eiffel's company",
        scores: { faithfulness: 0, answer_relevancy: 0, context_precision: 0, context_recall: 0, factual_correctness_mode_f1: 0 },
      },
    ]);
    expect(read.details['score:answer_relevancy']!.n).toBe(3);
    expect(read.metrics['recall@5']).toBe(0.75);
    expect(read.scoring[0]).toBe('read as CSV with a header row (comma- or semicolon-separated), as spreadsheets and pandas to_csv() write it');
    expect(read.provenance).toMatchObject({ idsFromQuestion: 4, retrievalByText: 4, formats: ['csv'] });
  });

  it('Ragas JSON Lines (EvaluationResult.to_pandas().to_json(orient="records", lines=True)): null for a missing score', async () => {
    const dir = tempDir();
    const ragas = writeJsonl(dir, 'ragas.jsonl', [
      {
        user_input: eiffel.completed,
        retrieved_contexts: [eiffel.built, eiffel.company],
        reference_contexts: [eiffel.built],
        response: 'It was completed in 1889.',
        reference: '1889',
        faithfulness: 1,
        answer_relevancy: null,
        'factual_correctness(mode=f1)': 1,
      },
      {
        user_input: eiffel.tall,
        retrieved_contexts: [eiffel.height, eiffel.nickname],
        reference_contexts: [eiffel.height],
        response: eiffel.tallAnswer,
        reference: '330 metres',
        faithfulness: 0.5,
        answer_relevancy: 0.8813,
        'factual_correctness(mode=f1)': 0.67,
      },
    ]);
    await sameNumbers(ragas, [
      {
        question: eiffel.completed,
        retrieved_contexts: [eiffel.built, eiffel.company],
        reference_contexts: [eiffel.built],
        answer: 'It was completed in 1889.',
        expected_answer: '1889',
        scores: { faithfulness: 1, factual_correctness_mode_f1: 1 },
      },
      {
        question: eiffel.tall,
        retrieved_contexts: [eiffel.height, eiffel.nickname],
        reference_contexts: [eiffel.height],
        answer: eiffel.tallAnswer,
        expected_answer: '330 metres',
        scores: { faithfulness: 0.5, answer_relevancy: 0.8813, factual_correctness_mode_f1: 0.67 },
      },
    ]);
  });

  it("DeepEval's test-run JSON: test cases, retrieval and ideal context, every metric's score and success", async () => {
    const { read } = await sameNumbers(fixture('deepeval-test-run.json'), [
      {
        question: eiffel.completed,
        answer: 'It was completed in 1889.',
        expected_answer: '1889',
        reference_contexts: [eiffel.built],
        retrieved_contexts: [eiffel.built, eiffel.company],
        scores: {
          answer_relevancy: 1,
          answer_relevancy_success: true,
          faithfulness: 1,
          faithfulness_success: true,
          contextual_precision: 1,
          contextual_precision_success: true,
          contextual_recall: 1,
          contextual_recall_success: true,
          correctness: 0.9,
          correctness_success: true,
        },
      },
      {
        question: eiffel.tall,
        answer: eiffel.tallAnswer,
        expected_answer: '330 metres',
        reference_contexts: [eiffel.height.replace('\n', ' ')],
        retrieved_contexts: [eiffel.height.replace('\n', ' '), eiffel.nickname, eiffel.paris],
        scores: {
          answer_relevancy: 0.8333333333333334,
          answer_relevancy_success: true,
          faithfulness: 1,
          faithfulness_success: true,
          contextual_precision: 1,
          contextual_precision_success: true,
          contextual_recall: 1,
          contextual_recall_success: true,
          correctness: 0.8,
          correctness_success: true,
        },
      },
      {
        question: "What is the tower's nickname in English?",
        answer: '“The Iron Lady”, or La dame de fer.',
        expected_answer: 'The Iron Lady',
        reference_contexts: [eiffel.nickname],
        retrieved_contexts: [eiffel.nickname, 'Café owners near the Champ de Mars call it la Tour.'],
        scores: {
          answer_relevancy: 1,
          answer_relevancy_success: true,
          faithfulness: 0.5,
          faithfulness_success: false,
          contextual_precision: 1,
          contextual_precision_success: true,
          correctness: 0.2,
          correctness_success: false,
        },
      },
    ]);
    expect(read.details['score:contextual_recall']!.n).toBe(2);
    expect(read.details['score:faithfulness_success']).toMatchObject({ count: 2, n: 3 });
    expect(read.provenance.formats).toEqual(['deepeval']);
  });

  it('a LangChain-style dump (the older Ragas columns question, contexts, answer, ground_truth) with text contexts', async () => {
    const dir = tempDir();
    const dump = writeJsonl(dir, 'langchain.jsonl', [
      { question: eiffel.completed, contexts: [eiffel.built, eiffel.company], answer: 'It was completed in 1889.', ground_truth: '1889' },
      { question: eiffel.tall, contexts: [eiffel.height], answer: 'It is 300 metres.', ground_truth: '330 metres' },
    ]);
    const { read } = await sameNumbers(dump, [
      { question: eiffel.completed, retrieved_contexts: [eiffel.built, eiffel.company], answer: 'It was completed in 1889.', expected_answer: '1889' },
      { question: eiffel.tall, retrieved_contexts: [eiffel.height], answer: 'It is 300 metres.', expected_answer: '330 metres' },
    ]);
    expect(read.details.correct).toMatchObject({ count: 1, n: 2 });
  });

  it('the older Ragas CSV with numpy-printed list cells', async () => {
    await sameNumbers(fixture('ragas-0.1.csv'), [
      {
        question: eiffel.completed,
        retrieved_contexts: [eiffel.built, eiffel.company],
        answer: 'It was completed in 1889.',
        expected_answer: '1889',
        scores: { faithfulness: 1, answer_relevancy: 0.9731 },
      },
      {
        question: eiffel.tall,
        retrieved_contexts: [eiffel.height, eiffel.nickname, eiffel.paris],
        answer: eiffel.tallAnswer,
        expected_answer: '330 metres',
        scores: { faithfulness: 1, answer_relevancy: 0.8813 },
      },
    ]);
  });

  it('a plain CSV with rag-gate field names and JSON list cells, from a spreadsheet or pandas', async () => {
    const { read } = await sameNumbers(fixture('plain.csv'), [
      {
        id: 'q1',
        question: eiffel.completed,
        retrieved_ids: ['eiffel-1889', 'eiffel-company'],
        relevant_ids: ['eiffel-1889'],
        answer: 'It was completed in 1889.',
        expected_answer: '1889',
        tags: ['history'],
      },
      {
        id: 'q2',
        question: eiffel.tall,
        retrieved_ids: ['eiffel-height', 'eiffel-nickname', 'paris'],
        relevant_ids: ['eiffel-height'],
        answer: eiffel.tallAnswer,
        expected_answer: '330 metres',
        tags: ['numbers', 'history'],
      },
      {
        id: 'q3',
        question: 'What is the tower\'s nickname, "La dame de fer", in English?',
        retrieved_ids: ['eiffel-nickname', 'cafe'],
        relevant_ids: ['eiffel-nickname'],
        answer: '"The Iron Lady"',
        expected_answer: 'The Iron Lady',
      },
    ]);
    expect(read.provenance.idsFromQuestion).toBe(0);
  });

  it('detection follows the content when the extension says nothing, and --format overrides it', async () => {
    const dir = tempDir();
    const noExtension = join(dir, 'results');
    copyFileSync(fixture('plain.csv'), noExtension);
    expect((await evalJson(noExtension)).provenance.formats).toEqual(['csv']);
    const tsvAsCsv = join(dir, 'results.txt');
    copyFileSync(fixture('plain.csv'), tsvAsCsv);
    expect((await evalJson(tsvAsCsv, ['--format', 'csv'])).questions).toBe(3);
  });
});
