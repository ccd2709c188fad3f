import { z } from 'zod';
import { ProblemCollector } from '../core/errors.js';
import { readLines } from '../sources/lines.js';
import { duplicateKeyProblem, formatFieldPath, readFailure } from '../sources/read-problems.js';
import { DuplicateKeyError, parseJsonUniqueKeys } from '../sources/unique-keys.js';
import { CLAIM_VERDICTS } from './prompts.js';

const id = z.string({ error: 'is required and must be a string' }).min(1, 'must not be empty');
const required = z.string({ error: 'is required and must be a string' });

/** A claim–context pair with a human verdict (faithfulness calibration). */
const claimLabelSchema = z.object({
  id,
  claim: required,
  context: z.union([z.string(), z.array(z.string())], { error: 'is required: a string, or a list of strings (the retrieved texts)' }),
  human_verdict: z.enum(CLAIM_VERDICTS, { error: `must be one of ${CLAIM_VERDICTS.join(', ')}` }),
});
export type ClaimLabel = z.infer<typeof claimLabelSchema>;

/** An answer with a human correct / incorrect judgement (correctness calibration). */
const answerLabelSchema = z.object({
  id,
  question: required,
  answer: required,
  expected_answer: required,
  human_correct: z.boolean({ error: 'is required and must be true or false' }),
});
export type AnswerLabel = z.infer<typeof answerLabelSchema>;

export type LabelKind = 'faithfulness' | 'correctness';
export type Labels = { readonly kind: 'faithfulness'; readonly items: ClaimLabel[] } | { readonly kind: 'correctness'; readonly items: AnswerLabel[] };

const KIND_NAME: Record<LabelKind, string> = { faithfulness: 'a claim–context pair', correctness: 'an answer' };

/** Which kind of label a line holds, by its distinctive fields. */
function labelKind(raw: Record<string, unknown>): LabelKind | undefined {
  if ('human_verdict' in raw || 'claim' in raw) return 'faithfulness';
  if ('human_correct' in raw || 'expected_answer' in raw) return 'correctness';
  return undefined;
}

/**
 * Reads a JSON Lines file of human labels, all of one kind: claim–context pairs
 * `{"id", "claim", "context", "human_verdict"}` or answers `{"id", "question", "answer", "expected_answer",
 * "human_correct"}`. Problems (up to 20) are reported together as an InputError with file, line and field.
 */
export async function readLabels(file: string): Promise<Labels> {
  const problems = new ProblemCollector();
  const claims: ClaimLabel[] = [];
  const answers: AnswerLabel[] = [];
  const firstLineOfId = new Map<string, number>();
  let kind: { kind: LabelKind; line: number } | undefined;
  try {
    for await (const { text, line, notUtf8 } of readLines(file, problems)) {
      if (notUtf8 || text.trim() === '') continue;
      let raw: unknown;
      try {
        raw = parseJsonUniqueKeys(text);
      } catch (error) {
        if (error instanceof DuplicateKeyError) problems.add(duplicateKeyProblem(file, line, error));
        else
          problems.add({
            file,
            line,
            message: `not valid JSON (${error instanceof Error ? error.message : String(error)}); each line must hold one label object`,
          });
        continue;
      }
      if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
        problems.add({ file, line, message: 'a label must be a JSON object' });
        continue;
      }
      const lineKind = labelKind(raw as Record<string, unknown>);
      if (lineKind === undefined) {
        problems.add({
          file,
          line,
          message:
            'is neither a claim–context pair {"id", "claim", "context", "human_verdict"} nor an answer {"id", "question", "answer", "expected_answer", "human_correct"}',
        });
        continue;
      }
      kind ??= { kind: lineKind, line };
      if (lineKind !== kind.kind) {
        problems.add({ file, line, message: `holds ${KIND_NAME[lineKind]} but line ${kind.line} holds ${KIND_NAME[kind.kind]}; a labels file holds one kind` });
        continue;
      }
      const parsed = (lineKind === 'faithfulness' ? claimLabelSchema : answerLabelSchema).safeParse(raw);
      if (!parsed.success) {
        for (const issue of parsed.error.issues) problems.add({ file, line, field: formatFieldPath(issue.path) || undefined, message: issue.message });
        continue;
      }
      const first = firstLineOfId.get(parsed.data.id);
      if (first !== undefined) {
        problems.add({ file, line, field: 'id', message: `duplicate id "${parsed.data.id}" (first on line ${first})` });
        continue;
      }
      firstLineOfId.set(parsed.data.id, line);
      if (lineKind === 'faithfulness') claims.push(parsed.data as ClaimLabel);
      else answers.push(parsed.data as AnswerLabel);
    }
  } catch (error) {
    throw readFailure(file, error);
  }
  if (kind === undefined && problems.count === 0) problems.add({ file, message: 'the file holds no labels; expected JSON Lines, one label per line' });
  problems.throwIfAny();
  return kind?.kind === 'correctness' ? { kind: 'correctness', items: answers } : { kind: 'faithfulness', items: claims };
}
