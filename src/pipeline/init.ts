import { basename, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { SETTINGS } from '../core/catalog/settings.js';
import { InputError } from '../core/errors.js';
import { emptyFacts, type InitProposal, proposeFields, proposeSetup, type RecordFacts, tallyRecord } from '../core/init/proposal.js';
import type { FieldMap } from '../core/record.js';
import {
  INIT_CONFIG_FILE,
  INIT_WORKFLOW_FILE,
  initConfigText,
  initConflictError,
  initExistsError,
  initReportText,
  initWorkflowText,
  type InitLayout,
} from '../render/init.js';
import { type ReadSummary, readResults } from '../sources/results.js';

export { initExistsError };

export interface InitRequest {
  readonly results: string;
  /** The user's own mappings (`--field`), yours → ours. */
  readonly fields: FieldMap;
  readonly dir: string;
  readonly shards: number;
  readonly branch: string;
  readonly action: string;
  readonly command: string;
  readonly dryRun: boolean;
}

/** What init writes (paths under the request's dir) and what it prints. */
export interface InitPlan {
  readonly proposal: InitProposal;
  readonly files: readonly { readonly path: string; readonly text: string }[];
  readonly text: string;
}

interface Read {
  readonly summary: ReadSummary;
  readonly facts: RecordFacts;
}

async function readTallied(file: string, fields: FieldMap, given?: Map<string, number>): Promise<Read> {
  const facts = emptyFacts();
  const summary = await readResults(file, (record, _line, _text, derivation) => tallyRecord(facts, record, derivation.retrievalByText), {
    fields,
    ...(given === undefined ? {} : { givenFields: given }),
  });
  return { summary, facts };
}

/**
 * Reads the results file with the existing reader (its format detected as eval detects it), proposes field
 * mappings from the names it gives, reads it again under them when there are any, and proposes the rest from what
 * the records hold. Bad input is the reader's error, naming file, line and field.
 */
export async function initPlan(request: InitRequest): Promise<InitPlan> {
  const given = new Map<string, number>();
  let first: Read | InputError;
  try {
    first = await readTallied(request.results, request.fields, given);
  } catch (error) {
    // Unmapped fields may be all that is wrong (a `prompt` column for `question`): mapped, the file may read.
    if (!(error instanceof InputError) || given.size === 0) throw error;
    first = error;
  }
  const { mappings, conflicts } = proposeFields(given, request.fields);
  const proposed = mappings.filter((mapping) => mapping.because !== 'given');
  if (first instanceof InputError && proposed.length === 0) throw conflicts.length > 0 ? initConflictError(request.results, conflicts, first) : first;
  const read =
    proposed.length === 0 && !(first instanceof InputError)
      ? first
      : await readTallied(request.results, new Map(mappings.map((mapping) => [mapping.yours, mapping.ours])));
  const proposal = proposeSetup({
    file: request.results,
    format: read.summary.format,
    given,
    chosen: request.fields,
    facts: read.facts,
    scores: read.summary.scores.keys(),
    unread: read.summary.unknownFields.keys(),
    idsFromQuestion: read.summary.idsFromQuestion,
    minPaired: SETTINGS['min-paired'].parse(SETTINGS['min-paired'].default),
  });
  const layout = workflowLayout(request);
  return {
    proposal,
    files: [
      { path: join(request.dir, INIT_CONFIG_FILE), text: initConfigText(proposal, layout) },
      { path: join(request.dir, INIT_WORKFLOW_FILE), text: initWorkflowText(layout) },
    ],
    text: initReportText(proposal, layout, { dir: request.dir, dryRun: request.dryRun }),
  };
}

/** The results path as the workflow names it: relative to the repository root (--dir), or its name when it lies outside. */
function workflowLayout(request: InitRequest): InitLayout {
  const path = relative(resolve(request.dir), resolve(request.results));
  const outside = path === '' || path.startsWith('..') || isAbsolute(path);
  return {
    results: outside ? basename(request.results) : path.split(sep).join('/'),
    resultsMoved: outside,
    branch: request.branch,
    shards: request.shards,
    action: request.action,
    command: request.command,
  };
}
