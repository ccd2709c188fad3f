import { ProblemCollector } from './errors.js';
import { readLines } from './lines.js';
import { readFailure } from './results.js';

/** Judgments: query id → (docno → relevance grade). */
export type Qrels = Map<string, Map<string, number>>;

/** A run: query id → docnos ranked best first (by score, ties by docno, as trec_eval orders them). */
export type Run = Map<string, string[]>;

interface Token {
  readonly text: string;
  /** 1-based character column where the token starts. */
  readonly column: number;
}

function tokenize(line: string): Token[] {
  const tokens: Token[] = [];
  for (const match of line.matchAll(/\S+/g)) tokens.push({ text: match[0], column: match.index + 1 });
  return tokens;
}

/** Reads every non-blank line of a whitespace-separated file, collecting problems instead of stopping at the first. */
async function readColumns(
  file: string,
  columns: readonly string[],
  onLine: (tokens: Token[], line: number, problems: ProblemCollector) => void,
): Promise<void> {
  const problems = new ProblemCollector();
  let lines = 0;
  try {
    for await (const { text, line } of readLines(file)) {
      const tokens = tokenize(text);
      if (tokens.length === 0) continue;
      lines++;
      if (tokens.length !== columns.length) {
        const column = tokens.length > columns.length ? tokens[columns.length]!.column : text.length + 1;
        problems.add({
          file,
          line,
          column,
          message: `expected ${columns.length} columns (${columns.join(' ')}), found ${tokens.length}`,
        });
        continue;
      }
      onLine(tokens, line, problems);
    }
  } catch (error) {
    throw readFailure(file, error);
  }
  if (lines === 0) problems.add({ file, message: `the file is empty; expected lines of "${columns.join(' ')}"` });
  problems.throwIfAny();
}

const QRELS_COLUMNS = ['qid', 'iter', 'docno', 'rel'];
const RUN_COLUMNS = ['qid', 'Q0', 'docno', 'rank', 'score', 'tag'];

/** Reads TREC qrels (`qid iter docno rel`). Grades must be integers; a docno may be judged once per query. */
export async function readQrels(file: string): Promise<Qrels> {
  const qrels: Qrels = new Map();
  await readColumns(file, QRELS_COLUMNS, (tokens, line, problems) => {
    const [qid, , docno, rel] = tokens as [Token, Token, Token, Token];
    if (!/^[+-]?\d+$/.test(rel.text)) {
      problems.add({ file, line, column: rel.column, field: 'rel', message: `relevance grade "${rel.text}" is not an integer` });
      return;
    }
    let judged = qrels.get(qid.text);
    if (judged === undefined) {
      judged = new Map();
      qrels.set(qid.text, judged);
    }
    if (judged.has(docno.text)) {
      problems.add({ file, line, column: docno.column, field: 'docno', message: `document "${docno.text}" is judged twice for query "${qid.text}"` });
      return;
    }
    judged.set(docno.text, Number(rel.text));
  });
  return qrels;
}

/** trec_eval's order: score descending, ties broken by docno in descending byte order. */
function compareRanked(a: { docno: string; score: number }, b: { docno: string; score: number }): number {
  if (a.score !== b.score) return b.score - a.score;
  return a.docno < b.docno ? 1 : a.docno > b.docno ? -1 : 0;
}

/**
 * Reads a TREC run (`qid Q0 docno rank score tag`) and ranks each query's documents as trec_eval does: the
 * rank column is ignored. Unlike trec_eval, a score that is not a finite number is an error (trec_eval reads
 * it as 0), and so is a document listed twice for one query.
 */
export async function readRun(file: string): Promise<Run> {
  const scored = new Map<string, { docno: string; score: number }[]>();
  const seen = new Map<string, Map<string, number>>();
  await readColumns(file, RUN_COLUMNS, (tokens, line, problems) => {
    const [qid, , docno, , scoreToken] = tokens as [Token, Token, Token, Token, Token, Token];
    const score = Number(scoreToken.text);
    if (!Number.isFinite(score) || scoreToken.text.trim() === '') {
      problems.add({ file, line, column: scoreToken.column, field: 'score', message: `score "${scoreToken.text}" is not a finite number` });
      return;
    }
    let docs = seen.get(qid.text);
    if (docs === undefined) {
      docs = new Map();
      seen.set(qid.text, docs);
      scored.set(qid.text, []);
    }
    const first = docs.get(docno.text);
    if (first !== undefined) {
      problems.add({
        file,
        line,
        column: docno.column,
        field: 'docno',
        message: `document "${docno.text}" is listed twice for query "${qid.text}" (first on line ${first})`,
      });
      return;
    }
    docs.set(docno.text, line);
    scored.get(qid.text)!.push({ docno: docno.text, score });
  });
  const run: Run = new Map();
  for (const [qid, docs] of scored) run.set(qid, docs.sort(compareRanked).map((d) => d.docno));
  return run;
}
