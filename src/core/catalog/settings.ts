import { SettingError } from '../errors.js';
import { type Floor, parseFloor } from './parse/floor.js';
import { parseCorrectnessRule } from '../measures/generation/correctness.js';
import { parseContextMatchRule } from '../derived-ids.js';
import { parseRetrievalOkRule } from './parse/retrieval-ok.js';
import { EMBEDDING_THRESHOLD, KAPPA_FLOOR, LEXICAL_THRESHOLD } from './thresholds.js';
import { DEFAULT_FAIL_ON, GATE_CATEGORIES, type GateName, isScoreGate } from './gates.js';
import { type FieldMap, RECORD_FIELDS, scoreName } from '../record.js';
import { closestName } from '../closest.js';
import { RESULTS_FORMATS, RESULTS_FORMATS_READ } from './formats.js';
import { scoreNameOf } from './scores.js';
import { GRADED_ANSWER_METRICS } from './metrics.js';
import { parseRetrievalMetric } from './retrieval-metrics.js';
import { floorsOrder, higherIsTighter, lowerIsTighter, moreIsTighter, type PolicyDirection, strictestLast, unordered } from './policy-order.js';
import { LOG_FIELDS, type LogField } from './log-fields.js';
import { parseDuration, parseTimestamp } from './parse/time.js';
import { grouped } from '../grouped.js';

/**
 * The catalog of settings: one row per setting, from which the CLI's options, the action's inputs (action.yml),
 * the keys of `rag-gate.yml`, `--print-config` and the README's table derive. A value always arrives as text
 * (a flag, an input, or a config value turned into text) and the row's parser makes it typed or throws
 * SettingError, whose message the front end prefixes with where the text came from.
 */

/** The CLI commands that take settings (`trec`, `judge` and `calibrate` take only the rows that name them, from flags alone). */
export type SettingCommand = 'eval' | 'compare' | 'trec' | 'split' | 'holdout' | 'monitor' | 'judge' | 'calibrate';

export interface SettingRow<T> {
  /** The input's name in action.yml and the key in rag-gate.yml. */
  readonly name: string;
  readonly description: string;
  /** The default as text ('' for none), parsed like any other value. */
  readonly default: string;
  readonly parse: (text: string) => T;
  /** The CLI's spelling per command that takes it, e.g. `--retrieval-ok <rule>`; absent: not a CLI option. */
  readonly cli?: { readonly flags: { readonly [C in SettingCommand]?: string }; readonly repeatable?: boolean };
  /** An action input (true), with the runner's own default expression where there is one. */
  readonly action: boolean | { readonly runnerDefault: string };
  /** May be set in rag-gate.yml (secrets and per-event values may not). */
  readonly config: boolean;
  /**
   * Decides pass or fail, so a pull request's value is held to its base branch's: how the two compare. Absent:
   * the setting shapes evidence or output, not the gate. (A method, so that the catalog's rows of every type fit
   * `SettingRow<unknown>`.)
   */
  policy?(base: T, head: T): PolicyDirection;
}

export function splitList(text: string): string[] {
  return text
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
}

/** Items of a comma- or newline-separated list. */
function splitLines(text: string): string[] {
  return text
    .split(/[\n,]/)
    .map((item) => item.trim())
    .filter(Boolean);
}

/**
 * Cut-offs a run may ask for: trec_eval's longest list has 9. Each cut-off is a column of every @k metric, so
 * thousands of them took gigabytes before the first record was read.
 */
export const MAX_CUTOFFS = 100;

/** `1,3,5,10`: distinct positive integers, ascending. */
export function parseCutoffs(text: string): number[] {
  const items = splitList(text);
  if (items.length > MAX_CUTOFFS) throw new SettingError(`lists ${grouped(items.length)} cut-offs, more than the ${MAX_CUTOFFS} a run may ask for`);
  const cutoffs = items.map(Number);
  if (items.length === 0 || cutoffs.some((k) => !Number.isInteger(k) || k < 1)) {
    throw new SettingError(`"${text}" is not a comma list of positive whole numbers such as 1,3,5,10`);
  }
  return [...new Set(cutoffs)].sort((a, b) => a - b);
}

function parseAlpha(text: string): number {
  const value = Number(text);
  if (text.trim() === '' || !Number.isFinite(value) || value <= 0 || value >= 1)
    throw new SettingError(`alpha must be a number between 0 and 1, got "${text}"`);
  return value;
}

export function parseKappaFloor(text: string): number {
  const value = Number(text);
  if (text.trim() === '' || !Number.isFinite(value) || value < 0 || value > 1)
    throw new SettingError(`the kappa floor must be a number between 0 and 1, got "${text}"`);
  return value;
}

function parseMinEffect(text: string): number {
  const value = Number(text);
  if (text.trim() === '' || !Number.isFinite(value) || value < 0) throw new SettingError(`the minimum effect must be a number ≥ 0, got "${text}"`);
  return value;
}

/** A tolerated rise: `10%` or `0.1`, 0 or more. */
function parseTolerance(text: string): number {
  const trimmed = text.trim();
  const percent = trimmed.endsWith('%');
  const value = Number(percent ? trimmed.slice(0, -1) : trimmed) / (percent ? 100 : 1);
  if (trimmed === '' || trimmed === '%' || !Number.isFinite(value) || value < 0)
    throw new SettingError(`a tolerance must be a share such as 10% or 0.1, 0 or more, got "${text}"`);
  return value;
}

/** The setting of a usage gate's tolerance: a significant rise up to it only warns. */
function toleranceRow(gate: string, what: string) {
  return {
    name: `${gate}-tolerance`,
    description: `the rise of ${what} the ${gate} gate tolerates, as a share of base (10% or 0.1): a significant rise up to it only warns, beyond it fails when fail-on names ${gate}`,
    default: '10%',
    parse: parseTolerance,
    cli: compareOnly(`--${gate}-tolerance <share>`),
    action: true,
    config: true,
    policy: lowerIsTighter,
  } as const;
}

function parsePermutations(text: string): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value < 100) throw new SettingError(`permutations must be a whole number of at least 100, got "${text}"`);
  return value;
}

/** The report-only classical tests on a graded metric: the paired t-test and the Wilcoxon signed-rank test. */
const EXTRA_TESTS = ['t', 'wilcoxon'] as const;
export type ExtraTest = (typeof EXTRA_TESTS)[number];

/** `t,wilcoxon`: classical paired tests reported beside the randomization tests; empty means none. */
function parseExtraTests(text: string): ReadonlySet<ExtraTest> {
  const tests = splitList(text);
  for (const test of tests)
    if (!(EXTRA_TESTS as readonly string[]).includes(test)) throw new SettingError(`"${test}" is not a test; use a comma list of t, wilcoxon`);
  return new Set(tests as ExtraTest[]);
}

/** `retrieval,end-to-end,score:faithfulness`: gates that fail the check on a significant drop; empty means none. */
function parseFailOn(text: string): ReadonlySet<GateName> {
  const gates = splitList(text);
  for (const gate of gates) {
    if (isScoreGate(gate)) {
      const name = scoreNameOf(gate);
      if (scoreName(name) !== name) {
        throw new SettingError(
          `"${gate}" does not name a score as rag-gate spells them (lower case letters, digits and single underscores)${scoreName(name) === undefined ? '' : `; write score:${scoreName(name)}`}`,
        );
      }
    } else if (!(GATE_CATEGORIES as readonly string[]).includes(gate))
      throw new SettingError(`"${gate}" is not a gate; use a comma list of ${GATE_CATEGORIES.join(', ')}, or score:NAME for a score in the results`);
  }
  return new Set(gates as GateName[]);
}

/** Graded metrics for randomization tests: retrieval metric names or graded answer metrics. */
function parseGraded(text: string): string[] {
  const graded: ReadonlySet<string> = new Set(GRADED_ANSWER_METRICS);
  return [...new Set(splitList(text).map((name) => (graded.has(name) ? name : parseRetrievalMetric(name).name)))];
}

function parseFloors(text: string): Floor[] {
  return splitLines(text).map(parseFloor);
}

function parsePositiveNumber(text: string): number {
  const value = Number(text);
  if (!Number.isFinite(value) || value <= 0) throw new SettingError(`must be a positive number, got "${text}"`);
  return value;
}

/** A rate limit per minute, or undefined for none given ('': taken from the endpoint's headers, if it sends them). */
function parseOptionalPerMinute(text: string): number | undefined {
  if (text.trim() === '') return undefined;
  const value = Number(text);
  if (!Number.isSafeInteger(value) || value < 1) throw new SettingError(`must be a whole number ≥ 1 per minute, got "${text}"`);
  return value;
}

/** A whole number ≥ 1 (calls in flight, attempts per call). */
function parseWholeAtLeastOne(text: string): number {
  const value = Number(text);
  if (text.trim() === '' || !Number.isSafeInteger(value) || value < 1) throw new SettingError(`must be a whole number ≥ 1, got "${text}"`);
  return value;
}

function parseOptionalPrNumber(text: string): number | undefined {
  if (text.trim() === '') return undefined;
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1) throw new SettingError(`must be a pull request number, got "${text}"`);
  return value;
}

function oneOf<const T extends string>(...values: T[]) {
  return (text: string): T => {
    const value = text.trim();
    if (!(values as string[]).includes(value)) throw new SettingError(`must be ${values.slice(0, -1).join(', ')} or ${values.at(-1)}, got "${text}"`);
    return value as T;
  };
}

function nonEmpty(what: string) {
  return (text: string): string => {
    const value = text.trim();
    if (value === '') throw new SettingError(`must name ${what}`);
    return value;
  };
}

function parseShare(text: string): number {
  const value = Number(text);
  if (text.trim() === '' || !Number.isFinite(value) || value < 0 || value > 1) throw new SettingError(`must be a share between 0 and 1, got "${text}"`);
  return value;
}

function parseCount(text: string): number {
  const value = Number(text);
  if (text.trim() === '' || !Number.isInteger(value) || value < 0) throw new SettingError(`must be a whole number ≥ 0, got "${text}"`);
  return value;
}

/**
 * Input in all (base and head) from which `compare` reads on more than one thread: below it a worker, which loads
 * the bundle again and reads with code not yet compiled, costs more than it saves (src/sources/parallel.ts).
 */
export const THREADS_MIN_INPUT_MIB = 96;

/** `auto` (one thread per available core) or a whole number of threads, 1 to 256. */
function parseThreads(text: string): number | 'auto' {
  if (text.trim() === 'auto') return 'auto';
  const value = Number(text);
  if (text.trim() === '' || !Number.isInteger(value) || value < 1 || value > 256) {
    throw new SettingError(`threads must be auto or a whole number from 1 to 256, got "${text}"`);
  }
  return value;
}

/** A whole number ≥ 1: the grade from which a document counts as relevant. */
export function parseRelevanceLevel(text: string): number {
  const value = Number(text);
  if (text.trim() === '' || !Number.isInteger(value) || value < 1)
    throw new SettingError(`the relevance level must be a whole number of at least 1, got "${text}"`);
  return value;
}

/** `0=0,1=1,2=3,3=7`: a gain per grade (grades whole numbers ≥ 0, each once; gains any finite number); empty means none. */
export function parseNdcgGains(text: string): ReadonlyMap<number, number> {
  const gains = new Map<number, number>();
  for (const item of splitList(text)) {
    const match = /^(\d+)\s*=\s*(\S+)$/.exec(item);
    const grade = Number(match?.[1]);
    const gain = Number(match?.[2]);
    if (!match || !Number.isSafeInteger(grade) || !Number.isFinite(gain)) {
      throw new SettingError(`"${item}" is not grade=gain with a whole grade ≥ 0 and a number, as in 0=0,1=1,2=3,3=7`);
    }
    if (gains.has(grade)) throw new SettingError(`grade ${grade} has two gains`);
    gains.set(grade, gain);
  }
  return gains;
}

function parseHoldoutShare(text: string): number {
  const value = Number(text);
  if (text.trim() === '' || !Number.isFinite(value) || value <= 0 || value >= 1)
    throw new SettingError(`the holdout share must be a number between 0 and 1 (exclusive), such as 0.3, got "${text}"`);
  return value;
}

function parseBoolean(text: string): boolean {
  const value = text.trim().toLowerCase();
  if (value === 'true') return true;
  if (value === 'false') return false;
  throw new SettingError(`must be true or false, got "${text}"`);
}

/** `question=prompt,expected_answer=gold` (ours=yours): the user's field name → ours. */
function parseFieldMap(text: string): FieldMap {
  const map = new Map<string, string>();
  const ours = new Set<string>();
  for (const item of splitLines(text)) {
    const match = /^([^=\s]+)\s*=\s*(\S.*)$/.exec(item);
    if (!match) throw new SettingError(`"${item}" must be ours=yours, such as question=prompt`);
    const [, canonical = '', yours = ''] = match;
    if (!RECORD_FIELDS.includes(canonical)) {
      const hint = closestName(canonical, RECORD_FIELDS);
      throw new SettingError(`"${canonical}" is not a field of the results format${hint === undefined ? '' : `; did you mean "${hint}"?`}`);
    }
    if (ours.has(canonical)) throw new SettingError(`"${canonical}" is mapped twice`);
    if (map.has(yours.trim())) throw new SettingError(`"${yours.trim()}" is mapped to both ${map.get(yours.trim())} and ${canonical}`);
    ours.add(canonical);
    map.set(yours.trim(), canonical);
  }
  return map;
}

/** `session_id=conversation,user_query=input.value` (ours=yours): the log's field name → ours. */
function parseLogFieldMap(text: string): ReadonlyMap<string, LogField> {
  const map = new Map<string, LogField>();
  for (const item of splitLines(text)) {
    const match = /^([^=\s]+)\s*=\s*(\S.*)$/.exec(item);
    if (!match) throw new SettingError(`"${item}" must be ours=yours, such as user_query=input.value`);
    const [, canonical = '', yours = ''] = match;
    if (!(LOG_FIELDS as readonly string[]).includes(canonical)) {
      const hint = closestName(canonical, LOG_FIELDS);
      throw new SettingError(
        `"${canonical}" is not a field of the log format (${LOG_FIELDS.join(', ')})${hint === undefined ? '' : `; did you mean "${hint}"?`}`,
      );
    }
    if ([...map.values()].includes(canonical as LogField)) throw new SettingError(`"${canonical}" is mapped twice`);
    if (map.has(yours.trim())) throw new SettingError(`"${yours.trim()}" is mapped to both ${map.get(yours.trim())} and ${canonical}`);
    map.set(yours.trim(), canonical as LogField);
  }
  return map;
}

/** Deploy times, comma- or newline-separated, each ISO 8601 with a time zone or epoch seconds/milliseconds; empty means none. */
function parseDeploys(text: string): number[] {
  return splitLines(text).map((item) => {
    const at = parseTimestamp(/^\d+$/.test(item) ? Number(item) : item);
    if (at === undefined) throw new SettingError(`"${item}" is not a time: use ISO 8601 with a time zone, such as 2026-03-08T00:00:00Z, or epoch seconds`);
    return at;
  });
}

/** A similarity threshold in [0, 1], or undefined for the measure's own. */
function parseOptionalThreshold(text: string): number | undefined {
  if (text.trim() === '') return undefined;
  const value = Number(text);
  if (!Number.isFinite(value) || value < 0 || value > 1) throw new SettingError(`must be a similarity between 0 and 1, got "${text}"`);
  return value;
}

/** A GitHub label: 1–50 characters, no comma (GitHub's own limits). */
function parseLabel(text: string): string {
  const label = text.trim();
  if (label === '' || Array.from(label).length > 50 || label.includes(','))
    throw new SettingError(`must be a label of 1–50 characters without a comma, got "${text}"`);
  return label;
}

/** `policy,gold`: what `--approve` approves; empty means nothing. */
function parseApprovals(text: string): ReadonlySet<'policy' | 'gold'> {
  const items = splitList(text);
  for (const item of items) if (item !== 'policy' && item !== 'gold') throw new SettingError(`"${item}" cannot be approved; use policy, gold or both`);
  return new Set(items as ('policy' | 'gold')[]);
}

/** `https://…/{id}`: a link per question, its id where `{id}` is; empty means none. */
function parseTraceUrl(text: string): string | undefined {
  const template = text.trim();
  if (template === '') return undefined;
  if (!/^https?:\/\/\S+$/i.test(template)) throw new SettingError(`must be an http(s) URL without spaces, got "${text}"`);
  if (!template.includes('{id}'))
    throw new SettingError(`must hold {id} where the question's id goes, such as https://traces.example.com/runs/{id}; got "${text}"`);
  return template;
}

/** An optional path or URL: empty means none. */
const optionalText = (text: string): string | undefined => (text.trim() === '' ? undefined : text.trim());

/** A judge model's price in US dollars per million tokens: synchronous input and output, and through a provider's batch API. */
export interface Price {
  readonly input: number;
  readonly output: number;
  readonly batchInput: number;
  readonly batchOutput: number;
}

/**
 * `0.15/0.60` (input/output, US dollars per million tokens; the batch price half of it, as OpenAI's) or
 * `0.15/0.60/0.075/0.30` (the batch prices given too); empty means the model's price from rag-gate's list.
 */
function parsePrice(text: string): Price | undefined {
  if (text.trim() === '') return undefined;
  const parts = text.split('/').map((part) => part.trim());
  const values = parts.map(Number);
  if ((parts.length !== 2 && parts.length !== 4) || parts.some((part, i) => part === '' || !Number.isFinite(values[i]) || values[i]! < 0))
    throw new SettingError(`"${text}" is not a price such as 0.15/0.60 (input/output, dollars per million tokens) or 0.15/0.60/0.075/0.30 (and the batch's)`);
  const [input, output, batchInput = input! / 2, batchOutput = output! / 2] = values;
  return { input: input!, output: output!, batchInput, batchOutput };
}

/** `30m`, `2h`, `90s`, or minutes as a plain number; `0` (do not wait) too. */
function parseBatchWait(text: string): number {
  const value = text.trim();
  if (/^\d+(\.\d+)?$/.test(value)) return Number(value) * 60_000;
  return parseDuration(value);
}

// No "--" and no dash at the end: the marker is an HTML comment, which cannot hold either, and would lose them.
const COMMENT_TAG = /^(?!.*--)(?!.*-$)[A-Za-z0-9._-]{1,64}$/;

function parseCommentTag(text: string): string {
  const tag = text.trim();
  if (!COMMENT_TAG.test(tag))
    throw new SettingError('must be 1–64 letters, digits, dots, dashes or underscores, with no two dashes in a row and no dash at the end');
  return tag;
}

/** A scoring setting: eval, compare and the holdout evaluation score runs alike. */
const scoring = (flag: string) => ({ flags: { eval: flag, compare: flag, holdout: flag } });
/** A retrieval-judging setting: every command that scores retrieval, trec included. */
const everyCommand = (flag: string) => ({ flags: { eval: flag, compare: flag, holdout: flag, trec: flag } });
/** The settings that select the config file's section: every command that reads it. */
const everywhere = (flag: string) => ({ flags: { eval: flag, compare: flag, split: flag, holdout: flag, monitor: flag } });
const monitorOnly = (flag: string) => ({ flags: { monitor: flag } });
const compareOnly = (flag: string) => ({ flags: { compare: flag } });
/** A setting of the judge's client: the commands that call the judge. */
const judgeCommands = (flag: string) => ({ flags: { judge: flag, calibrate: flag } });
/** A setting of the judge's client that monitor's embeddings endpoint shares. */
const judgeAndMonitor = (flag: string) => ({ flags: { judge: flag, calibrate: flag, monitor: flag } });
/** A setting of `judge` alone (its batch mode). */
const judgeOnly = (flag: string) => ({ flags: { judge: flag } });

export const SETTINGS = {
  config: {
    name: 'config',
    description: "the settings file (YAML), read when it exists; its keys are these settings' names",
    default: 'rag-gate.yml',
    parse: nonEmpty('a file'),
    cli: everywhere('--config <file>'),
    action: true,
    config: false,
  },
  'comment-tag': {
    name: 'comment-tag',
    description:
      'which gate this is, so several gates in one repository each keep their own: selects its section of the config file, and in the action keys its sticky comment, commit status and monitoring issue',
    default: 'default',
    parse: parseCommentTag,
    cli: everywhere('--comment-tag <tag>'),
    action: true,
    config: false,
  },
  results: {
    name: 'results',
    description: `path or glob of the head results (${RESULTS_FORMATS_READ}, one record per question); several files are shards of one run, merged, and an id in two shards is an error`,
    default: '',
    parse: optionalText,
    cli: { flags: { eval: '--results <glob>', compare: '--head <glob>', holdout: '--results <glob>' } },
    action: true,
    config: true,
  },
  baseline: {
    name: 'baseline',
    description:
      "path or glob of the base branch's results; in the action, empty means the baseline-artifact of the newest successful push run of this workflow on the pull request's base branch",
    default: '',
    parse: optionalText,
    cli: compareOnly('--base <glob>'),
    action: true,
    config: true,
    policy: unordered,
  },
  golden: {
    name: 'golden',
    description:
      "the golden set (a JSON Lines or JSON file of records with an id, or a text file of ids, one per line): split divides its questions; a comparison reads the head's, where a base question no longer in it was removed on purpose and is left out, and one still in it but missing from the head results counts as failed",
    default: '',
    parse: optionalText,
    cli: { flags: { compare: '--golden <file>', split: '--golden <file>' } },
    action: true,
    config: true,
    policy: unordered,
  },
  holdout: {
    name: 'holdout',
    description:
      'the holdout file written by rag-gate split: eval and compare (pull requests) leave its holdout questions out and count them; the holdout evaluation (mode release, rag-gate holdout) compares them with the development questions; split writes it (there, empty means rag-gate-holdout.json)',
    default: '',
    parse: optionalText,
    cli: { flags: { eval: '--holdout <file>', compare: '--holdout <file>', holdout: '--holdout <file>', split: '--out <file>' } },
    action: true,
    config: true,
    policy: unordered,
  },
  'holdout-share': {
    name: 'holdout-share',
    description: 'the share of the golden set split holds out, stratified by tag',
    default: '0.3',
    parse: parseHoldoutShare,
    cli: { flags: { split: '--holdout <share>' } },
    action: false,
    config: true,
  },
  'holdout-seed': {
    name: 'holdout-seed',
    description: "the key of split's hash of question ids: the same seed and ids give the same split on every machine",
    default: 'rag-gate',
    parse: nonEmpty('a seed'),
    cli: { flags: { split: '--seed <seed>' } },
    action: false,
    config: true,
  },
  'holdout-ledger': {
    name: 'holdout-ledger',
    description:
      'the ledger of holdout evaluations (JSON Lines), read and appended to by each holdout evaluation; a holdout looked at for more than one commit is flagged. In the action, when the file does not exist, the newest holdout-ledger-artifact of the repository is read',
    default: 'rag-gate-holdout-ledger.jsonl',
    parse: nonEmpty('a file'),
    cli: { flags: { holdout: '--ledger <file>' } },
    action: true,
    config: true,
  },
  'holdout-ledger-artifact': {
    name: 'holdout-ledger-artifact',
    description: "name of the artifact that keeps the holdout ledger between release runs (upload the holdout-ledger output's file under it)",
    default: 'rag-gate-holdout-ledger',
    parse: nonEmpty('an artifact'),
    action: true,
    config: true,
  },
  missing: {
    name: 'missing',
    description:
      'what a base question missing from the head results counts as: fail (failed in head for every gated test) or exclude (left out of the tests, listed)',
    default: 'fail',
    parse: oneOf('fail', 'exclude'),
    cli: compareOnly('--missing <how>'),
    action: true,
    config: true,
    policy: strictestLast('exclude', 'fail'),
  },
  'min-paired': {
    name: 'min-paired',
    description: 'the gate fails when fewer questions than this are paired (in both runs, with the same gold labels)',
    default: '30',
    parse: parseCount,
    cli: compareOnly('--min-paired <n>'),
    action: true,
    config: true,
    policy: higherIsTighter,
  },
  'min-coverage': {
    name: 'min-coverage',
    description: "the gate fails when less than this share of the base's questions is compared (paired, or counted as failed when missing)",
    default: '0.95',
    parse: parseShare,
    cli: compareOnly('--min-coverage <share>'),
    action: true,
    config: true,
    policy: higherIsTighter,
  },
  'allow-ungated': {
    name: 'allow-ungated',
    description: 'pass when no gated test has data and no floor is set (a report only); otherwise that is an error naming the fields that are missing',
    default: 'false',
    parse: parseBoolean,
    cli: compareOnly('--allow-ungated'),
    action: true,
    config: true,
    policy: strictestLast(true, false),
  },
  threads: {
    name: 'threads',
    description: `threads that read and score the base and head results at once, each JSON Lines file split across them, from ${THREADS_MIN_INPUT_MIB} MiB of input in all (below it a second thread costs more than it saves): auto (one per available core) or a number; 1 reads both on one thread`,
    default: 'auto',
    parse: parseThreads,
    cli: compareOnly('--threads <n>'),
    action: true,
    config: true,
  },
  k: {
    name: 'k',
    description: 'cut-offs for the @k metrics',
    default: '1,3,5,10',
    parse: parseCutoffs,
    cli: scoring('--k <list>'),
    action: true,
    config: true,
    policy: unordered,
  },
  'relevance-level': {
    name: 'relevance-level',
    description:
      'the grade from which a judged document counts as relevant, for every retrieval metric but ndcg, ndcg_exp, judged and num_ret (trec_eval -l, ir_measures rel=)',
    default: '1',
    parse: parseRelevanceLevel,
    cli: everyCommand('--relevance-level <grade>'),
    action: true,
    config: true,
    policy: unordered,
  },
  'ndcg-gains': {
    name: 'ndcg-gains',
    description:
      "the gain of each grade in ndcg and ndcg@k, as grade=gain pairs such as 0=0,1=1,2=5 (trec_eval's ndcg.1=1,2=5); an unlisted grade gains its own value; empty: gain = grade",
    default: '',
    parse: parseNdcgGains,
    cli: everyCommand('--ndcg-gains <list>'),
    action: true,
    config: true,
    policy: unordered,
  },
  'retrieval-ok': {
    name: 'retrieval-ok',
    description: 'when retrieval succeeded for a record without retrieval_ok: hit@k, or METRIC>=x such as recall@5>=0.8',
    default: 'hit@5',
    parse: parseRetrievalOkRule,
    cli: scoring('--retrieval-ok <rule>'),
    action: true,
    config: true,
    policy: unordered,
  },
  correct: {
    name: 'correct',
    description:
      'how to judge answers without a correct field: contains (the normalised expected answer appears in the normalised answer, as whole words), exact (normalised exact match) or f1:T (token F1 at least T); under each, an answer that lacks or changes a number of the expected answer is wrong',
    default: 'contains',
    parse: parseCorrectnessRule,
    cli: scoring('--correct <rule>'),
    action: true,
    config: true,
    policy: unordered,
  },
  format: {
    name: 'format',
    description: `the results files' format: auto (by extension and content, the default), or one of ${RESULTS_FORMATS.map((f) => f.name).join(', ')}`,
    default: 'auto',
    parse: oneOf('auto', ...RESULTS_FORMATS.map((f) => f.name)),
    cli: scoring('--format <name>'),
    action: true,
    config: true,
  },
  fields: {
    name: 'fields',
    description:
      "your results' field names for rag-gate's, as ours=yours, comma- or newline-separated: question=prompt,expected_answer=gold (in rag-gate.yml also a mapping such as {question: prompt})",
    default: '',
    parse: parseFieldMap,
    cli: { flags: { eval: '--field <ours=yours>', compare: '--field <ours=yours>', holdout: '--field <ours=yours>' }, repeatable: true },
    action: true,
    config: true,
  },
  'context-match': {
    name: 'context-match',
    description:
      "when a retrieved context given as text counts as a reference (gold) context: exact (the same text after Unicode NFC and white space collapsed, case kept) or overlap:T (at least a share T of the reference text's normalised tokens are in the retrieved text)",
    default: 'exact',
    parse: parseContextMatchRule,
    cli: scoring('--context-match <rule>'),
    action: true,
    config: true,
    policy: unordered,
  },
  alpha: {
    name: 'alpha',
    description:
      'significance level of the paired tests, after Holm correction across the gated tests; in monitor, of the one-sided test of a rise in each rate, after Holm correction across the two rates',
    default: '0.05',
    parse: parseAlpha,
    cli: { flags: { compare: '--alpha <p>', monitor: '--alpha <p>' } },
    action: true,
    config: true,
    policy: higherIsTighter,
  },
  'fail-on': {
    name: 'fail-on',
    description: `gates that fail the check on a significant drop (latency, tokens, cost: a significant rise beyond their tolerance), comma-separated from ${GATE_CATEGORIES.join(', ')}, and score:NAME for a score another tool wrote in the results (not calibrated here: naming it is your choice to gate on it)`,
    default: DEFAULT_FAIL_ON.join(','),
    parse: parseFailOn,
    cli: compareOnly('--fail-on <list>'),
    action: true,
    config: true,
    policy: moreIsTighter,
  },
  'min-effect': {
    name: 'min-effect',
    description: 'a significant drop smaller than this (absolute, e.g. 0.02) only warns',
    default: '0',
    parse: parseMinEffect,
    cli: compareOnly('--min-effect <drop>'),
    action: true,
    config: true,
    policy: lowerIsTighter,
  },
  'latency-tolerance': toleranceRow('latency', 'the geometric-mean latency'),
  'tokens-tolerance': toleranceRow('tokens', 'the mean tokens a question'),
  'cost-tolerance': toleranceRow('cost', 'the mean cost a question'),
  floors: {
    name: 'floors',
    description:
      'absolute bounds on head metrics, comma- or newline-separated: recall@5=0.8 (head at least 0.8) or false_refusal_rate<=0.1 (a ceiling; budgets such as latency_p95<=2500 or cost_per_question<=0.002)',
    default: '',
    parse: parseFloors,
    cli: { ...compareOnly('--floor <metric=value>'), repeatable: true },
    action: true,
    config: true,
    policy: floorsOrder,
  },
  graded: {
    name: 'graded',
    description: 'graded metrics that get a paired randomization test, comma-separated',
    default: ['ndcg@10', 'recall@5', 'mrr', 'map', 'faithfulness', 'answer_relevance'].join(','),
    parse: parseGraded,
    cli: { flags: { compare: '--graded <list>', holdout: '--graded <list>' } },
    action: true,
    config: true,
  },
  permutations: {
    name: 'permutations',
    description: 'permutations per randomization test',
    default: '10000',
    parse: parsePermutations,
    cli: compareOnly('--permutations <n>'),
    action: true,
    config: true,
    policy: higherIsTighter,
  },
  'mcnemar-small-sample': {
    name: 'mcnemar-small-sample',
    description:
      "McNemar's test below 25 discordant pairs: exact (the two-sided exact binomial test) or mid-p (its mid-p version, less conservative); from 25 on χ² with continuity correction decides either way",
    default: 'exact',
    parse: oneOf('exact', 'mid-p'),
    cli: compareOnly('--mcnemar-small-sample <test>'),
    action: true,
    config: true,
    policy: strictestLast('exact', 'mid-p'),
  },
  'extra-tests': {
    name: 'extra-tests',
    description:
      "classical paired tests reported beside each graded metric's randomization test, never gating, comma-separated: t (paired t-test) and wilcoxon (Wilcoxon signed-rank), as scipy.stats computes them",
    default: '',
    parse: parseExtraTests,
    cli: compareOnly('--extra-tests <list>'),
    action: true,
    config: true,
  },
  'judge-calibration': {
    name: 'judge-calibration',
    description:
      'calibration records written by rag-gate calibrate, comma- or newline-separated; judged metrics gate only when their judge (model and prompt version) is calibrated',
    default: '',
    parse: splitLines,
    cli: { ...compareOnly('--judge-calibration <file>'), repeatable: true },
    action: true,
    config: true,
    policy: unordered,
  },
  'kappa-floor': {
    name: 'kappa-floor',
    description: "lowest judge–human Cohen's kappa at which judged metrics may gate",
    default: String(KAPPA_FLOOR),
    parse: parseKappaFloor,
    cli: compareOnly('--kappa-floor <kappa>'),
    action: true,
    config: true,
    policy: higherIsTighter,
  },
  'baseline-artifact': {
    name: 'baseline-artifact',
    description: "name of the artifact that holds the base branch's results",
    default: 'rag-gate-results',
    parse: nonEmpty('an artifact'),
    action: true,
    config: true,
    policy: unordered,
  },
  'baseline-max-age-days': {
    name: 'baseline-max-age-days',
    description: 'ignore base-branch runs older than this many days',
    default: '30',
    parse: parsePositiveNumber,
    action: true,
    config: true,
    policy: higherIsTighter,
  },
  history: {
    name: 'history',
    description:
      "the base branch's run history (JSON). On push the action appends this run to the history in the newest baseline-artifact of the branch (or to this file when it exists) and writes it here, to upload with the results; on a pull request it reads this file when it exists, else the baseline artifact's file of the same name, for the comment's trend",
    default: 'rag-gate-history.json',
    parse: nonEmpty('a file'),
    action: true,
    config: true,
  },
  'on-missing-baseline': {
    name: 'on-missing-baseline',
    description:
      'what a pull request gets when its base branch has no results yet (the first run, no successful push run, an expired artifact): pass reports the head results with a neutral pass; fail fails the check',
    default: 'pass',
    parse: oneOf('pass', 'fail'),
    action: true,
    config: true,
    policy: strictestLast('pass', 'fail'),
  },
  'on-baseline-error': {
    name: 'on-baseline-error',
    description:
      "what happens when the base branch's results exist but cannot be read (a missing actions: read permission, GitHub failing or not answering after the retries, an artifact that is not a valid zip or holds invalid results): fail fails the check naming the run, the artifact and the fix; pass warns and passes neutral",
    default: 'fail',
    parse: oneOf('fail', 'pass'),
    action: true,
    config: true,
    policy: strictestLast('pass', 'fail'),
  },
  'api-timeout-seconds': {
    name: 'api-timeout-seconds',
    description:
      'seconds each GitHub API request may take, an artifact download included, before it fails; a request that times out is retried like a server error',
    default: '30',
    parse: parsePositiveNumber,
    action: true,
    config: true,
  },
  'github-token': {
    name: 'github-token',
    description:
      'token for reading workflow runs and artifacts and for writing the pull request comment and, on events other than pull_request, the commit status',
    default: '',
    parse: (text: string) => text,
    action: { runnerDefault: '${{ github.token }}' },
    config: false,
  },
  comment: {
    name: 'comment',
    description:
      'when to post the sticky pull request comment: always, on-change (a first comment only once something changed, or to say there is no baseline; an existing comment is kept current) or never',
    default: 'always',
    parse: oneOf('always', 'on-change', 'never'),
    action: true,
    config: true,
  },
  'trace-url': {
    name: 'trace-url',
    description:
      "a link from each question the comment lists to its trace, with {id} where the question's id goes (URL-encoded), such as https://traces.example.com/runs/{id}; a record's own trace_url is linked instead where it has one",
    default: '',
    parse: parseTraceUrl,
    cli: compareOnly('--trace-url <template>'),
    action: true,
    config: true,
  },
  mode: {
    name: 'mode',
    description:
      'gate fails the job when the gate fails; advisory only reports; release evaluates the holdout against the development questions once, before a release, and records it in the holdout ledger; monitor reads production logs (the logs input) on a schedule, writes the rates to the job summary, and opens, updates or closes the monitoring issue',
    default: 'gate',
    parse: oneOf('gate', 'advisory', 'release', 'monitor'),
    action: true,
    config: true,
    policy: strictestLast('advisory', 'gate'),
  },
  'pr-number': {
    name: 'pr-number',
    description: 'the pull request to comment on, for workflow_run events where GitHub cannot tell',
    default: '',
    parse: parseOptionalPrNumber,
    action: true,
    config: false,
  },
  'approve-label': {
    name: 'approve-label',
    description:
      "the label that approves a pull request's changes to its own gate (settings that decide pass or fail, taken from the base branch's config file) when a user with write access applies it after the comment showed those changes",
    default: 'rag-gate: approve',
    parse: parseLabel,
    action: true,
    config: false,
  },
  'base-config': {
    name: 'base-config',
    description:
      "the base branch's config file (e.g. from git show origin/main:rag-gate.yml): the settings that decide pass or fail are taken from it, and this run's own changes to them need --approve policy",
    default: '',
    parse: optionalText,
    cli: compareOnly('--base-config <file>'),
    action: false,
    config: false,
  },
  approve: {
    name: 'approve',
    description:
      "with --base-config, approves this run's changes: policy (the settings, golden set and holdout file that decide pass or fail), gold (the gold of questions whose change moves a gated outcome), or both",
    default: '',
    parse: parseApprovals,
    cli: compareOnly('--approve <what>'),
    action: false,
    config: false,
  },
  judge: {
    name: 'judge',
    description:
      'none, or openai to judge faithfulness, answer relevance and correctness where the records lack them, with any OpenAI-compatible endpoint (key from the OPENAI_API_KEY environment variable)',
    default: 'none',
    parse: oneOf('none', 'openai'),
    action: true,
    config: true,
  },
  'judge-model': {
    name: 'judge-model',
    description: "the judge's chat model",
    default: 'gpt-4o-mini',
    parse: nonEmpty('a model'),
    cli: judgeCommands('--model <name>'),
    action: true,
    config: true,
  },
  'judge-base-url': {
    name: 'judge-base-url',
    description: "the judge endpoint's base URL (also monitor's embeddings endpoint); empty means OPENAI_BASE_URL, else OpenAI's",
    default: '',
    parse: optionalText,
    cli: judgeAndMonitor('--base-url <url>'),
    action: true,
    config: true,
  },
  'judge-cache': {
    name: 'judge-cache',
    description:
      "directory of the judge's reply cache; keep it between runs with actions/cache so a rerun makes no calls (judge and calibrate: --no-cache for none)",
    default: '.rag-gate-cache',
    parse: nonEmpty('a directory'),
    cli: judgeAndMonitor('--cache <dir>'),
    action: true,
    config: true,
  },
  'judge-rpm': {
    name: 'judge-rpm',
    description:
      "requests per minute the judge paces its calls to (and the most the rate learnt from 429s may reach); empty means the endpoint's x-ratelimit-limit-requests header, per model, when it sends one, else a rate learnt from its 429s",
    default: '',
    parse: parseOptionalPerMinute,
    cli: judgeAndMonitor('--rpm <n>'),
    action: true,
    config: true,
  },
  'judge-tpm': {
    name: 'judge-tpm',
    description:
      "tokens per minute the judge paces its calls to; empty means the endpoint's x-ratelimit-limit-tokens header, per model, when it sends one, else no pacing",
    default: '',
    parse: parseOptionalPerMinute,
    cli: judgeAndMonitor('--tpm <n>'),
    action: true,
    config: true,
  },
  'judge-concurrency': {
    name: 'judge-concurrency',
    description: "the judge's HTTP requests in flight at once; throughput is at most this ÷ the endpoint's latency (8 at 0.5 s ≈ 960 requests a minute)",
    default: '8',
    parse: parseWholeAtLeastOne,
    cli: judgeAndMonitor('--concurrency <n>'),
    action: true,
    config: true,
  },
  'judge-timeout-seconds': {
    name: 'judge-timeout-seconds',
    description: 'seconds each judge request may take, its reply included, before it is abandoned and retried as a timeout',
    default: '60',
    parse: parsePositiveNumber,
    cli: judgeAndMonitor('--timeout-seconds <s>'),
    action: true,
    config: true,
  },
  'judge-max-attempts': {
    name: 'judge-max-attempts',
    description:
      'attempts per judge call, the first included: 408, 409, 5xx, timeouts, broken connections and invalid replies are retried with backoff; a 429 waits without using one up',
    default: '4',
    parse: parseWholeAtLeastOne,
    cli: judgeAndMonitor('--max-attempts <n>'),
    action: true,
    config: true,
  },
  'judge-mode': {
    name: 'judge-mode',
    description:
      "sync sends each judge request as it goes; batch sends them all through the provider's Batch API (OpenAI's files and batches, half the price, no rate limits, results within 24 h) and collects them (CLI: --batch is --mode batch)",
    default: 'sync',
    parse: oneOf('sync', 'batch'),
    cli: judgeOnly('--mode <mode>'),
    action: true,
    config: true,
  },
  'judge-batch-fallback': {
    name: 'judge-batch-fallback',
    description:
      'in batch mode, what happens to the requests a batch did not answer (failed, expired, cancelled): sync judges them with ordinary requests; none leaves their records unjudged, marked with judge_errors',
    default: 'sync',
    parse: oneOf('sync', 'none'),
    cli: judgeOnly('--batch-fallback <how>'),
    action: true,
    config: true,
  },
  'judge-batch-state': {
    name: 'judge-batch-state',
    description:
      "in batch mode, the file that records the batch (its id, the input's hash, each request's custom_id), from which a later run collects it; empty means OUT.batch.json beside --out (the action: one file per results file under the judge cache's batches/ folder; set, a folder for them)",
    default: '',
    parse: optionalText,
    cli: judgeOnly('--batch-state <file>'),
    action: true,
    config: true,
  },
  'judge-batch-wait': {
    name: 'judge-batch-wait',
    description:
      'in batch mode, how long a run waits for the batch to finish (30m, 2h, or minutes); 0 submits and exits, for a later run with the same state file to collect',
    default: '30m',
    parse: parseBatchWait,
    cli: judgeOnly('--batch-wait <time>'),
    action: true,
    config: true,
  },
  'judge-price': {
    name: 'judge-price',
    description:
      "the judge model's price for the summary's cost, in dollars per million tokens: input/output (0.15/0.60; the batch price half of it) or with the batch's (0.15/0.60/0.075/0.30); empty means rag-gate's list of OpenAI's prices",
    default: '',
    parse: parsePrice,
    cli: judgeOnly('--price <in/out>'),
    action: true,
    config: true,
  },
  logs: {
    name: 'logs',
    description:
      'production conversation logs for monitor: paths or globs, comma- or newline-separated (JSON Lines, one turn per line: session_id, timestamp, user_query, answer, optional refused and embedding; or OTLP JSON span exports)',
    default: '',
    parse: splitLines,
    cli: { flags: { monitor: '--logs <files...>' }, repeatable: true },
    action: true,
    config: true,
  },
  'log-fields': {
    name: 'log-fields',
    description: `your log's field names for rag-gate's (${LOG_FIELDS.join(', ')}), as ours=yours, comma- or newline-separated: user_query=input.value,session_id=conversation`,
    default: '',
    parse: parseLogFieldMap,
    cli: { ...monitorOnly('--log-field <ours=yours>'), repeatable: true },
    action: true,
    config: true,
  },
  window: {
    name: 'window',
    description:
      "the length of the monitor's windows, aligned to the Unix epoch (UTC): 1d is calendar days in UTC; such as 6h, 1d, 1w (ignored when deploys are given)",
    default: '1d',
    parse: parseDuration,
    cli: monitorOnly('--window <length>'),
    action: true,
    config: true,
  },
  deploys: {
    name: 'deploys',
    description:
      'deploy times that cut the log into windows instead of fixed lengths (before the first, between two, after the last), comma- or newline-separated: ISO 8601 with a time zone or epoch seconds',
    default: '',
    parse: parseDeploys,
    cli: { ...monitorOnly('--deploy <time>'), repeatable: true },
    action: true,
    config: true,
  },
  'rephrase-within': {
    name: 'rephrase-within',
    description: "how soon the session's next query must follow a query to count as its rephrase, such as 60s or 2m",
    default: '60s',
    parse: parseDuration,
    cli: monitorOnly('--rephrase-within <length>'),
    action: true,
    config: true,
  },
  similarity: {
    name: 'similarity',
    description:
      "how two queries' similarity is measured: auto (the log's embeddings when every turn has one, else lexical), lexical (cosine of character trigrams of the content words), embeddings (the log's, required on every turn) or openai (embeddings from the OpenAI-compatible endpoint: base-url, embedding-model, OPENAI_API_KEY; cached and paced as the judge)",
    default: 'auto',
    parse: oneOf('auto', 'lexical', 'embeddings', 'openai'),
    cli: monitorOnly('--similarity <measure>'),
    action: true,
    config: true,
  },
  'rephrase-similarity': {
    name: 'rephrase-similarity',
    description: `the similarity from which the next query is a rephrase; empty means the measure's own: ${LEXICAL_THRESHOLD} lexical (calibrated on the shipped labelled pairs), ${EMBEDDING_THRESHOLD} for embeddings`,
    default: '',
    parse: parseOptionalThreshold,
    cli: monitorOnly('--rephrase-similarity <threshold>'),
    action: true,
    config: true,
  },
  'embedding-model': {
    name: 'embedding-model',
    description: 'the embedding model monitor asks the endpoint for, with similarity openai',
    default: 'text-embedding-3-small',
    parse: nonEmpty('a model'),
    cli: monitorOnly('--embedding-model <name>'),
    action: true,
    config: true,
  },
  'max-rephrase-rate': {
    name: 'max-rephrase-rate',
    description:
      'the rephrase rate above which a significant rise alerts (a rise that stays below it does not); the current window above it is reported as elevated',
    default: '0.1',
    parse: parseShare,
    cli: monitorOnly('--max-rephrase-rate <share>'),
    action: true,
    config: true,
  },
  'max-refusal-rate': {
    name: 'max-refusal-rate',
    description:
      'the refusal rate above which a significant rise alerts (a rise that stays below it does not); the current window above it is reported as elevated',
    default: '0.15',
    parse: parseShare,
    cli: monitorOnly('--max-refusal-rate <share>'),
    action: true,
    config: true,
  },
  'monitor-issue-label': {
    name: 'monitor-issue-label',
    description:
      "mode monitor: the label of the one open issue the monitor opens on an alert, updates while a rate stays above its ceiling, and closes when the rates recover; one per comment tag (the tag is in the issue's hidden marker)",
    default: 'rag-gate-monitor',
    parse: parseLabel,
    action: true,
    config: true,
  },
} as const satisfies Record<string, SettingRow<unknown>>;

export type SettingName = keyof typeof SETTINGS;

/** Every setting's parsed value. */
export type Settings = { readonly [K in SettingName]: ReturnType<(typeof SETTINGS)[K]['parse']> };

export const SETTING_ROWS: readonly SettingRow<unknown>[] = Object.values(SETTINGS);

/** Where a setting's value came from, for `--print-config` and error messages. */
export type SettingOrigin =
  | { readonly kind: 'flag'; readonly flag: string }
  | { readonly kind: 'input' }
  | { readonly kind: 'file'; readonly file: string; readonly line: number; readonly section?: string }
  | { readonly kind: 'default' };

/** A value as text with its origin, before parsing. */
export interface SettingText {
  readonly text: string;
  readonly origin: SettingOrigin;
}

/** A problem with one setting's value, located by its origin. */
export interface SettingProblem {
  readonly setting: SettingName;
  readonly origin: SettingOrigin;
  readonly message: string;
}

export class SettingsError extends SettingError {
  constructor(
    readonly problems: readonly SettingProblem[],
    describe: (problem: SettingProblem) => string,
  ) {
    super(problems.map(describe).join('\n'));
  }
}

/**
 * Merges the layers (earlier wins: flags or inputs, then the config file's section, then its top level) over
 * the defaults and parses every value. Returns each value with its origin; throws SettingsError listing every bad
 * value, described by `describe`.
 */
export function resolveSettings(
  layers: readonly ReadonlyMap<SettingName, SettingText>[],
  describe: (problem: SettingProblem) => string,
): { settings: Settings; origins: Readonly<Record<SettingName, SettingOrigin>> } {
  const settings: Record<string, unknown> = {};
  const origins: Record<string, SettingOrigin> = {};
  const problems: SettingProblem[] = [];
  for (const name of Object.keys(SETTINGS) as SettingName[]) {
    const given = layers.map((layer) => layer.get(name)).find((value) => value !== undefined);
    const { text, origin } = given ?? { text: SETTINGS[name].default, origin: { kind: 'default' } as const };
    origins[name] = origin;
    try {
      settings[name] = SETTINGS[name].parse(text);
    } catch (error) {
      if (!(error instanceof SettingError)) throw error;
      problems.push({ setting: name, origin, message: error.message });
    }
  }
  if (problems.length > 0) throw new SettingsError(problems, describe);
  return { settings: settings as Settings, origins: origins as Record<SettingName, SettingOrigin> };
}

/** The CLI settings of a command, in catalog order. */
export function cliSettings(command: SettingCommand): SettingName[] {
  return (Object.keys(SETTINGS) as SettingName[]).filter((name) => {
    const row: SettingRow<unknown> = SETTINGS[name];
    return row.cli?.flags[command] !== undefined;
  });
}
