import type { Decomposition, DecompositionWarning } from '../core/scoring/decomposition.js';
import type { RunSummary } from '../core/scoring/summary.js';
import { plural } from './format.js';

/** A count of questions; a sum of pass rates (repeated runs) to one decimal. */
const questions = (count: number) => (Number.isInteger(count) ? plural(count, 'question') : `${count.toFixed(1)} questions`);

/** What a decomposition warning means for the reader, in plain words. */
export function decompositionWarningText(warning: DecompositionWarning): string {
  switch (warning.kind) {
    case 'right-without-retrieval':
      return (
        `retrieval and generation do not separate cleanly here: more answers were right with retrieval failed ` +
        `(${questions(warning.rightWithoutRetrieval)}) than wrong with retrieval ok (${questions(warning.wrongWithRetrieval)}), ` +
        'so the model often answers without the gold document (from its own knowledge, or another passage that holds the fact). ' +
        `Read g_good and g_bad apart: e2e / r (${warning.productModelG.toFixed(3)}) is above 1 and says nothing about generation here.`
      );
    case 'small-split':
      return `g_${warning.split} rests on only ${plural(warning.n, 'question')}: read it as a rough figure.`;
  }
}

/** A decomposition's warnings in words. */
export const decompositionWarnings = (decomposition: Decomposition): string[] => decomposition.warnings.map(decompositionWarningText);

/** A run's warnings in words: its decomposition's first, then the summary's own. */
export const runWarnings = (summary: RunSummary): string[] => [...decompositionWarnings(summary.decomposition), ...summary.warnings];

/** A decomposition as the JSON reports write it: its warnings in words. */
export const decompositionJson = (decomposition: Decomposition) => ({ ...decomposition, warnings: decompositionWarnings(decomposition) });
