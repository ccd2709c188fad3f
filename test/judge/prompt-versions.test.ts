import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  claimVerdictRequest,
  correctnessRequest,
  faithfulnessRequest,
  PROMPT_VERSIONS,
  relevanceQuestionsRequest,
  type StructuredRequest,
} from '../../src/judge/prompts.js';

/** Everything a prompt version stands for: the messages and reply schemas of every request of that metric. */
function fingerprint(requests: readonly StructuredRequest<unknown>[]): string {
  const prompts = requests.map(({ task, schemaName, jsonSchema, messages }) => ({ task, schemaName, jsonSchema, messages }));
  return createHash('sha256').update(JSON.stringify(prompts)).digest('hex').slice(0, 16);
}

const PROMPTS = {
  // Calibration measures the claim-level request; the judge fills `claims` with the answer-level one. Both
  // carry the faithfulness version, so both are pinned to it.
  faithfulness: () => fingerprint([faithfulnessRequest('Q', 'A', ['C1', 'C2']), claimVerdictRequest('CLAIM', 'CONTEXT')]),
  answer_relevance: () => fingerprint([relevanceQuestionsRequest('A')]),
  correctness: () => fingerprint([correctnessRequest('Q', 'A', 'REF')]),
};

/**
 * The fingerprint each prompt version was released with. A calibration record and every cached reply name a
 * version: when a prompt's wording or schema changes, its version must change too, or an old calibration would
 * let a judge it never measured block merges. Bump the version in src/judge/prompts.ts, then update this table.
 */
const RELEASED: Record<string, string> = {
  'faithfulness-v1': 'fea3d0363f24317d',
  'answer-relevance-v1': '56b04080c455904c',
  'correctness-v1': '89a36574e88a1b1d',
};

describe('prompt versions', () => {
  it.each(Object.entries(PROMPTS))('%s: the prompts match the fingerprint released under their version', (metric, print) => {
    const version = PROMPT_VERSIONS[metric as keyof typeof PROMPT_VERSIONS];
    expect(print(), `the ${metric} prompts changed under ${version}: bump PROMPT_VERSIONS.${metric} and record the new fingerprint`).toBe(RELEASED[version]);
  });
});
