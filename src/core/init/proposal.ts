import { nearNameDistance } from '../closest.js';
import type { ResultsFormat } from '../catalog/formats.js';
import type { GateName } from '../catalog/gates.js';
import { type CorrectnessRule, judgeCorrect } from '../measures/generation/correctness.js';
import { answerTokens } from '../measures/generation/text.js';
import {
  FIELD_ALIASES,
  type FieldMap,
  FIELD_SYNONYMS,
  IGNORED_FIELDS,
  KNOWN_FIELDS,
  RECORD_FIELDS,
  type ResultRecord,
  scoreName,
  TOOL_SCORE_NAMES,
} from '../record.js';

/**
 * What `rag-gate init` proposes for a results file, as decisions with the facts behind them: the front end
 * writes them as rag-gate.yml and a workflow, and src/render words them.
 */

/** The share of answers a lexical rule must pass on the sample before init trusts it with the gate. */
export const LEXICAL_RULE_SHARE = 0.5;
/** The token F1 threshold proposed for long expected answers. */
export const F1_THRESHOLD = 0.5;
/** Expected answers of at most this many tokens (median) are short: containment reads them well. */
export const SHORT_ANSWER_TOKENS = 4;

/** Scores other tools write for end-to-end correctness (an LLM's verdict), preferred in this order. */
const CORRECTNESS_SCORES = ['factual_correctness_mode_f1', 'factual_correctness', 'answer_correctness', 'correctness'];
/** Scores other tools write for whether the gold context was retrieved, preferred in this order. */
const RECALL_SCORES = ['context_recall', 'contextual_recall', 'context_entity_recall'];

/** What the records hold, tallied over the file (pure: the pipeline reads, this counts). */
export interface RecordFacts {
  records: number;
  /** Records with gold document ids (not derived from text). */
  goldIds: number;
  /** Records whose gold came as text and was matched to the retrieved contexts by text. */
  goldByText: number;
  /** Records with gold contexts as text but no retrieved texts to match them to. */
  goldTextUnmatched: number;
  retrievedIds: number;
  retrievedContexts: number;
  /** The most documents one record retrieved. */
  maxRetrieved: number;
  retrievalOk: number;
  correct: number;
  /** Records with an answer and an expected answer, and how the lexical rules judge them. */
  answered: number;
  containsCorrect: number;
  f1Correct: number;
  expectedTokens: number[];
}

export function emptyFacts(): RecordFacts {
  return {
    records: 0,
    goldIds: 0,
    goldByText: 0,
    goldTextUnmatched: 0,
    retrievedIds: 0,
    retrievedContexts: 0,
    maxRetrieved: 0,
    retrievalOk: 0,
    correct: 0,
    answered: 0,
    containsCorrect: 0,
    f1Correct: 0,
    expectedTokens: [],
  };
}

const CONTAINS: CorrectnessRule = { kind: 'contains' };
const F1: CorrectnessRule = { kind: 'f1', threshold: F1_THRESHOLD };

/** Counts one record as read (its gold ids derived from text when `byText`). */
export function tallyRecord(facts: RecordFacts, record: ResultRecord, byText: boolean): void {
  facts.records++;
  const relevant = record.relevant_ids;
  const hasGold = relevant !== undefined && (Array.isArray(relevant) ? relevant.length > 0 : Object.keys(relevant).length > 0);
  if (byText) facts.goldByText++;
  else if (hasGold) facts.goldIds++;
  else if ((record.reference_contexts?.length ?? 0) > 0) facts.goldTextUnmatched++;
  if (record.retrieved_ids !== undefined && !byText) facts.retrievedIds++;
  if (record.retrieved_contexts !== undefined) facts.retrievedContexts++;
  facts.maxRetrieved = Math.max(facts.maxRetrieved, record.retrieved_ids?.length ?? record.retrieved_contexts?.length ?? 0);
  if (record.retrieval_ok !== undefined) facts.retrievalOk++;
  if (record.correct !== undefined) facts.correct++;
  if (record.answer !== undefined && record.expected_answer !== undefined) {
    facts.answered++;
    facts.containsCorrect += judgeCorrect(CONTAINS, record.answer, record.expected_answer);
    facts.f1Correct += judgeCorrect(F1, record.answer, record.expected_answer);
    facts.expectedTokens.push(answerTokens(record.expected_answer).length);
  }
}

/** A mapping to propose: the file's field `yours` read as rag-gate's `ours`. */
export interface FieldMapping {
  readonly ours: string;
  readonly yours: string;
  /** Another tool's name for the field, the same name spelled differently (case, separators, a slip), or the user's `--field`. */
  readonly because: 'synonym' | 'spelling' | 'given';
}

/** A field init could not place: several of the file's fields may mean the same one of ours. */
export interface FieldConflict {
  readonly ours: string;
  readonly yours: readonly string[];
}

/** Fields a near spelling is not enough for: their values have a shape a look-alike column rarely has (`score` is not `scores`). */
const NOT_BY_SPELLING: ReadonlySet<string> = new Set(['scores', 'run', 'repeat', 'judged_by', 'judge_errors']);

/** The slips a name of this length may have and still be meant: none for short names, where a slip makes another word (`rank`, `run`). */
const slipsAllowed = (known: string) => (known.length <= 5 ? 0 : known.length <= 8 ? 1 : 2);

/** The canonical field a name is a spelling of (case, separators, camelCase, a slip), or another tool's name for. */
function meantField(name: string): { ours: string; because: FieldMapping['because'] } | undefined {
  let near: string | undefined;
  let nearest = Infinity;
  for (const known of KNOWN_FIELDS) {
    const distance = nearNameDistance(name, known);
    if (distance !== undefined && distance <= slipsAllowed(known) && distance < nearest && !NOT_BY_SPELLING.has(known)) [near, nearest] = [known, distance];
  }
  if (near !== undefined) return { ours: FIELD_ALIASES.get(near) ?? near, because: 'spelling' };
  const synonym = FIELD_SYNONYMS.get(name.toLowerCase());
  if (synonym === undefined || NOT_BY_SPELLING.has(synonym)) return undefined;
  return { ours: FIELD_ALIASES.get(synonym) ?? synonym, because: 'synonym' };
}

/**
 * The `fields` mappings: the user's own (`chosen`, yours → ours) first, then one for each of the file's field names
 * that rag-gate does not read as they are and that is named like one of ours (another tool's name, or a spelling of
 * ours). A field already given, a score another tool names, or a field rag-gate reads past on purpose is left
 * alone; two of the file's fields meaning one of ours are a conflict, mapped to neither.
 */
export function proposeFields(given: ReadonlyMap<string, number>, chosen: FieldMap = new Map()): { mappings: FieldMapping[]; conflicts: FieldConflict[] } {
  const read = new Set([...given.keys()].filter((name) => KNOWN_FIELDS.has(name) && !chosen.has(name)).map((name) => FIELD_ALIASES.get(name) ?? name));
  for (const ours of chosen.values()) read.add(ours);
  const wanted = new Map<string, { yours: string; because: FieldMapping['because'] }[]>();
  for (const name of given.keys()) {
    if (chosen.has(name) || KNOWN_FIELDS.has(name) || IGNORED_FIELDS.has(name)) continue;
    const score = scoreName(name);
    if (score !== undefined && TOOL_SCORE_NAMES.has(score)) continue;
    const meant = meantField(name);
    if (meant === undefined || read.has(meant.ours) || !RECORD_FIELDS.includes(meant.ours)) continue;
    wanted.set(meant.ours, [...(wanted.get(meant.ours) ?? []), { yours: name, because: meant.because }]);
  }
  const mappings: FieldMapping[] = [...chosen].map(([yours, ours]) => ({ ours, yours, because: 'given' }));
  const conflicts: FieldConflict[] = [];
  for (const [ours, candidates] of wanted) {
    if (candidates.length === 1) mappings.push({ ours, ...candidates[0]! });
    else conflicts.push({ ours, yours: candidates.map((candidate) => candidate.yours) });
  }
  return { mappings, conflicts };
}

/** How retrieval is judged, and why. */
export type RetrievalProposal =
  /** Gold document ids (or gold texts matched by text): retrieval is ok when every gold document is among the `k` retrieved. */
  | { readonly kind: 'gold'; readonly by: 'ids' | 'text'; readonly rule: string; readonly k: number; readonly records: number }
  /** Every record says whether its retrieval was ok. */
  | { readonly kind: 'records' }
  /** No gold at all; `score` is another tool's retrieval score to gate instead, when there is one. */
  | { readonly kind: 'none'; readonly goldTextUnmatched: number; readonly score?: string };

/** How correctness is judged, and why. */
export type CorrectnessProposal =
  /** Every record says whether it is correct. */
  | { readonly kind: 'records' }
  /** A lexical rule on the answer against the expected answer, with how each rule judged the file. */
  | {
      readonly kind: 'rule';
      readonly rule: CorrectnessRule;
      readonly medianTokens: number;
      readonly answered: number;
      readonly contains: number;
      readonly f1: number;
      /** Another tool's correctness score, reported beside it. */
      readonly score?: string;
    }
  /** Another tool's correctness score gated instead: no lexical rule reads these answers well. */
  | { readonly kind: 'score'; readonly score: string; readonly medianTokens: number; readonly answered: number; readonly contains: number; readonly f1: number }
  /** Nothing to judge correctness by. */
  | { readonly kind: 'none'; readonly answered: number };

export interface InitProposal {
  readonly file: string;
  readonly format: ResultsFormat;
  readonly records: number;
  readonly mappings: readonly FieldMapping[];
  readonly conflicts: readonly FieldConflict[];
  /** The file's fields read as nothing (neither ours, a mapping nor a score). */
  readonly unread: readonly string[];
  readonly idsFromQuestion: number;
  readonly scores: readonly string[];
  readonly retrieval: RetrievalProposal;
  readonly correctness: CorrectnessProposal;
  readonly failOn: readonly GateName[];
  /** The default `min-paired`, when the file has fewer questions than it: the gate would fail on every run. */
  readonly tooFewFor?: number;
}

/** The middle value of a list of numbers (the lower of the two middles), 0 for none. */
function median(values: readonly number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)]!;
}

function retrievalProposal(facts: RecordFacts, scores: ReadonlySet<string>): RetrievalProposal {
  if (facts.records > 0 && facts.retrievalOk === facts.records) return { kind: 'records' };
  const gold = facts.goldIds + facts.goldByText;
  if (gold > 0 && (facts.retrievedIds > 0 || facts.goldByText > 0)) {
    const k = Math.max(1, facts.maxRetrieved);
    return { kind: 'gold', by: facts.goldIds >= facts.goldByText ? 'ids' : 'text', rule: `recall@${k}>=1`, k, records: gold };
  }
  const score = RECALL_SCORES.find((name) => scores.has(name));
  return { kind: 'none', goldTextUnmatched: facts.goldTextUnmatched, ...(score === undefined ? {} : { score }) };
}

function correctnessProposal(facts: RecordFacts, scores: ReadonlySet<string>): CorrectnessProposal {
  if (facts.records > 0 && facts.correct === facts.records) return { kind: 'records' };
  const score = CORRECTNESS_SCORES.find((name) => scores.has(name));
  if (facts.answered === 0)
    return score === undefined ? { kind: 'none', answered: 0 } : { kind: 'score', score, medianTokens: 0, answered: 0, contains: 0, f1: 0 };
  const medianTokens = median(facts.expectedTokens);
  const counts = { medianTokens, answered: facts.answered, contains: facts.containsCorrect, f1: facts.f1Correct };
  const rule: CorrectnessRule = medianTokens <= SHORT_ANSWER_TOKENS ? CONTAINS : F1;
  const passed = rule.kind === 'contains' ? facts.containsCorrect : facts.f1Correct;
  // A rule that fails most answers reads paraphrase as error; an LLM's score, where there is one, reads them better.
  if (passed < LEXICAL_RULE_SHARE * facts.answered && score !== undefined) return { kind: 'score', score, ...counts };
  return { kind: 'rule', rule, ...counts, ...(score === undefined ? {} : { score }) };
}

/** The proposal for a file whose records were tallied into `facts`. */
export function proposeSetup(input: {
  readonly file: string;
  readonly format: ResultsFormat;
  readonly given: ReadonlyMap<string, number>;
  /** The user's own mappings (`--field`), yours → ours. */
  readonly chosen?: FieldMap;
  readonly facts: RecordFacts;
  readonly scores: Iterable<string>;
  readonly unread: Iterable<string>;
  readonly idsFromQuestion: number;
  readonly minPaired: number;
}): InitProposal {
  const scores = [...input.scores];
  const scoreSet = new Set(scores);
  const { mappings, conflicts } = proposeFields(input.given, input.chosen);
  const retrieval = retrievalProposal(input.facts, scoreSet);
  const correctness = correctnessProposal(input.facts, scoreSet);
  const failOn: GateName[] = [];
  if (retrieval.kind !== 'none') failOn.push('retrieval');
  else if (retrieval.score !== undefined) failOn.push(`score:${retrieval.score}`);
  if (correctness.kind === 'records' || correctness.kind === 'rule') failOn.push('end-to-end');
  else if (correctness.kind === 'score') failOn.push(`score:${correctness.score}`);
  return {
    file: input.file,
    format: input.format,
    records: input.facts.records,
    mappings,
    conflicts,
    unread: [...input.unread],
    idsFromQuestion: input.idsFromQuestion,
    scores,
    retrieval,
    correctness,
    failOn,
    ...(input.facts.records < input.minPaired ? { tooFewFor: input.minPaired } : {}),
  };
}
