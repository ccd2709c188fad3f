import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type CliRun, runMain, type scratchDir } from './cli.js';

/**
 * A Ragas-like export without document ids (contexts as text, ids derived from the text) before and after a
 * retrieval change that loses every gold context of a third of the questions, one of them with a hostile text.
 */

const topics = ['billing', 'refund', 'login', 'export', 'storage', 'webhook'];
const passage = (i: number) =>
  `The ${topics[i % 6]} policy, section ${i}: customers on the Team plan may request changes within ${(i % 50) + 3} days of the invoice date.`;
/** A document text with what GitHub would act on: a mention, a reference, a link, backticks and a bidi override. */
const HOSTILE = '@octocat see #12 https://evil.example `rm` \u202Eevil — the refund window closes after 30 days.';

export function textContextRuns() {
  const base: object[] = [];
  const head: object[] = [];
  for (let q = 0; q < 40; q++) {
    const gold = [q === 3 ? HOSTILE : passage(q), passage(q + 1000), passage(q + 2000)];
    const others = [passage(q + 40), passage(q + 80)];
    const right = `Within ${(q % 50) + 3} days of the invoice date.`;
    // One record gives its id: that id is shown; the others' are hashes of their questions.
    const row = (retrieved: string[], answer: string) => ({
      ...(q === 6 ? { id: 'faq-0006' } : {}),
      user_input: `How many days after the invoice can a Team customer on topic ${q} request a change?`,
      response: answer,
      reference: right,
      retrieved_contexts: retrieved,
      reference_contexts: gold,
    });
    base.push(row([...gold, ...others], right));
    head.push(q % 3 === 0 ? row([passage(q + 120), passage(q + 160), passage(q + 200), ...others], 'I do not know.') : row([...gold, ...others], right));
  }
  return { base, head };
}

/** `rag-gate compare` of the two runs, in-process, with the comment it writes. */
export async function textContextsComment(scratch: ReturnType<typeof scratchDir>): Promise<CliRun & { comment: string; file: string }> {
  const { base, head } = textContextRuns();
  const jsonl = (records: object[]) => records.map((r) => JSON.stringify(r)).join('\n') + '\n';
  const file = join(scratch.dir, 'comment.md');
  const files = ['--base', scratch.file('base.jsonl', jsonl(base)), '--head', scratch.file('head.jsonl', jsonl(head))];
  const run = await runMain(['compare', ...files, '--markdown', file]);
  return { ...run, comment: run.code === 2 ? '' : readFileSync(file, 'utf8'), file };
}
