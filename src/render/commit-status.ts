import type { Comparison } from '../core/compare/types.js';
import { baselineProblemBrief } from './baseline-problem.js';
import { reasonText } from './gate-words.js';
import type { NoComparison } from './head-only.js';
import { verdictWords } from './markdown.js';

/** What a commit status reports: a comparison, why nothing was compared, or a run that stopped on an error. */
export type StatusSubject =
  | { readonly kind: 'compared'; readonly comparison: Comparison; readonly retrievalOk: string; readonly advisory: boolean }
  | { readonly kind: 'not-compared'; readonly cause: NoComparison }
  | { readonly kind: 'stopped'; readonly badInput: boolean };

/** GitHub refuses a status description longer than this. */
export const STATUS_DESCRIPTION_MAX = 140;

/** Cut to the limit in UTF-16 code units (which also bounds characters), never inside a surrogate pair. */
function fit(words: string): string {
  if (words.length <= STATUS_DESCRIPTION_MAX) return words;
  let cut = words.slice(0, STATUS_DESCRIPTION_MAX - 1);
  if (/[\uD800-\uDBFF]$/.test(cut)) cut = cut.slice(0, -1);
  return `${cut.trimEnd()}…`;
}

/** A commit status's description: the verdict or its cause in a few words; the link leads to the run. */
export function commitStatusDescription(subject: StatusSubject): string {
  switch (subject.kind) {
    case 'compared': {
      const { comparison, retrievalOk } = subject;
      if (comparison.verdict !== 'fail') return fit(verdictWords(comparison, retrievalOk));
      const reasons = comparison.reasons.map((reason) => reasonText(reason, { retrievalOk, judges: comparison.judges })).join('; ');
      return fit(subject.advisory ? `advisory, passes: ${reasons}` : reasons);
    }
    case 'not-compared': {
      const { cause } = subject;
      if (cause.kind === 'no-baseline') return fit(`no baseline: ${cause.reason.replaceAll('`', '')}`);
      return fit(cause.fails ? baselineProblemBrief(cause.problem) : `${baselineProblemBrief(cause.problem)} (on-baseline-error: pass)`);
    }
    case 'stopped':
      return subject.badInput ? 'bad input: see the job log' : 'rag-gate stopped on an error: see the job log';
  }
}
