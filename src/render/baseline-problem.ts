import type { Link, RootContent } from 'mdast';
import { annotated, paragraph, text, inert } from './mdast.js';

/**
 * Why base-branch results that exist could not be read, as the action found out; the words are made here. A run
 * is always named, with its URL: the run whose workflow was searched, or the run whose artifact failed.
 */
export interface BaselineProblem {
  /**
   * forbidden: GitHub refused (403) for want of `actions: read`; timeout: no answer within `api-timeout-seconds`;
   * api-failed: any other API failure after the retries; corrupt-artifact: not a zip rag-gate will unpack;
   * no-results-file: a zip without a results file (the detail lists what it holds); invalid-results: its results
   * files fail the validation every results file gets.
   */
  readonly kind: 'forbidden' | 'timeout' | 'api-failed' | 'corrupt-artifact' | 'no-results-file' | 'invalid-results';
  /** What the action was doing when it failed. */
  readonly step: 'find-workflow' | 'list-runs' | 'list-artifacts' | 'download' | 'unpack' | 'read-results';
  readonly run: { readonly id: number; readonly url: string };
  readonly artifact: string;
  readonly baseRef: string;
  /** GitHub's HTTP status, when it answered. */
  readonly status?: number;
  readonly timeoutSeconds?: number;
  /** The failure's own words (an API error body, the unzip library's message, the results' problems): untrusted. */
  readonly detail: string;
}

function stepWords(problem: BaselineProblem): string {
  const { run, artifact, baseRef } = problem;
  switch (problem.step) {
    case 'find-workflow':
      return `look up the workflow of run ${run.id}, whose push runs hold artifact \`${artifact}\``;
    case 'list-runs':
      return `list the successful push runs on \`${baseRef}\` of the workflow of run ${run.id}, which hold artifact \`${artifact}\``;
    case 'list-artifacts':
      return `list the artifacts of run ${run.id}, looking for \`${artifact}\``;
    case 'download':
      return `download artifact \`${artifact}\` of run ${run.id}`;
    case 'unpack':
      return `unpack artifact \`${artifact}\` of run ${run.id}`;
    case 'read-results':
      return `read the results in artifact \`${artifact}\` of run ${run.id}`;
  }
}

/** What went wrong, in one sentence of our own words (`backtick` spans are code). */
function whatWords(problem: BaselineProblem): string {
  const step = stepWords(problem);
  switch (problem.kind) {
    case 'forbidden':
      return `GitHub refused (403) to ${step}: the token may not read Actions`;
    case 'timeout':
      return `GitHub did not answer within ${problem.timeoutSeconds} s (\`api-timeout-seconds\`) when asked to ${step}, retries included`;
    case 'api-failed':
      return `GitHub failed to ${step}${problem.status === undefined ? ', with no answer' : ` (HTTP ${problem.status})`}, retries included`;
    case 'corrupt-artifact':
      return `artifact \`${problem.artifact}\` of run ${problem.run.id} is not a zip archive rag-gate will unpack`;
    case 'no-results-file':
      return `artifact \`${problem.artifact}\` of run ${problem.run.id} holds no results file (no .jsonl, .ndjson or .json file but the run history)`;
    case 'invalid-results':
      return `the results in artifact \`${problem.artifact}\` of run ${problem.run.id} do not validate`;
  }
}

/** How to fix it: the permission line to add, or what to re-run. */
function fixWords(problem: BaselineProblem): string {
  switch (problem.kind) {
    case 'forbidden':
      return 'add `actions: read` under `permissions:` in the workflow (or job) that runs rag-gate';
    case 'timeout':
      return 're-run this job, or raise `api-timeout-seconds` if GitHub is merely slow (a large artifact)';
    case 'api-failed':
      return 're-run this job';
    case 'corrupt-artifact':
      return `re-run the base branch's workflow (run ${problem.run.id}) so that it uploads the artifact again`;
    case 'no-results-file':
      return `in the base branch's workflow, upload the results file under the artifact name \`${problem.artifact}\` (actions/upload-artifact with \`name: ${problem.artifact}\` and \`path:\` the results file), then re-run it (run ${problem.run.id})`;
    case 'invalid-results':
      return `fix the results the base branch writes and re-run its workflow (run ${problem.run.id}); base results get the same checks as yours`;
  }
}

const plain = (words: string) => words.replaceAll('`', '');

const detailLabel = (problem: BaselineProblem) =>
  problem.kind === 'invalid-results' ? 'Problems:' : problem.kind === 'no-results-file' ? 'It holds:' : 'Detail:';

/** The problem for the log, the failed check and the report JSON: what, the run, the fix, then the detail. */
export function baselineProblemText(problem: BaselineProblem): string {
  return `could not read the base branch's results: ${plain(whatWords(problem))} (run ${problem.run.url}). Fix: ${plain(fixWords(problem))}.\n${detailLabel(problem)} ${problem.detail}`;
}

/** The problem in a few words, for a commit status's description. */
export function baselineProblemBrief(problem: BaselineProblem): string {
  switch (problem.kind) {
    case 'forbidden':
      return 'could not read the baseline: the token needs actions: read';
    case 'timeout':
      return 'could not read the baseline: GitHub did not answer in time';
    case 'api-failed':
      return `could not read the baseline: GitHub failed${problem.status === undefined ? '' : ` (HTTP ${problem.status})`}`;
    case 'corrupt-artifact':
      return `could not read the baseline: artifact ${problem.artifact} of run ${problem.run.id} is not a valid zip`;
    case 'no-results-file':
      return `could not read the baseline: artifact ${problem.artifact} of run ${problem.run.id} holds no results file`;
    case 'invalid-results':
      return `could not read the baseline: the results in artifact ${problem.artifact} of run ${problem.run.id} do not validate`;
  }
}

/** Problems of the detail shown in the comment; the log and the report JSON have them all. */
const DETAIL_LINES_SHOWN = 5;
const DETAIL_LINE_MAX_CHARS = 300;

/** The problem for the comment: what and where in our words, the detail only in code spans, then the fix. */
export function baselineProblemContent(problem: BaselineProblem): RootContent[] {
  const lines = problem.detail.split('\n').filter((line) => line.trim() !== '');
  const shown = lines
    .slice(0, DETAIL_LINES_SHOWN)
    .flatMap((line, index) => [...(index > 0 ? [{ type: 'break' as const }] : []), inert(line, DETAIL_LINE_MAX_CHARS)]);
  const more = lines.length - DETAIL_LINES_SHOWN;
  const what = whatWords(problem);
  // Our own URL of the run, as a link: in text, GitHub's autolinking is escaped away.
  const run: Link = { type: 'link', url: problem.run.url, children: [text(`run ${problem.run.id}`)] };
  return [
    paragraph(...annotated(`${what.charAt(0).toUpperCase()}${what.slice(1)}`), text(' ('), run, text(').')),
    paragraph(text(`${detailLabel(problem)} `), ...shown, ...(more > 0 ? [text(` … and ${more} more in the job log`)] : [])),
    paragraph(...annotated(`Fix: ${fixWords(problem)}.`)),
  ];
}
