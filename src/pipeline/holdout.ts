import type { SettingName, SettingOrigin, Settings } from '../core/catalog/settings.js';
import { SettingError } from '../core/errors.js';
import { evaluateHoldout, type HoldoutEvaluation } from '../core/holdout/gap.js';
import { type LedgerEntry, ledgerStatus, type LedgerStatus } from '../core/holdout/ledger.js';
import { drawSplit, holdoutFingerprint, type Split, type SplitSizes, splitSizes } from '../core/holdout/split.js';
import type { EvalConfig } from '../core/scoring/score.js';
import { readGoldenQuestions } from '../sources/golden.js';
import { holdoutJson, renderHoldoutMarkdown, renderHoldoutText, renderSplitText } from '../render/holdout.js';
import { codeQuoted } from '../render/untrusted.js';
import { appendLedger, holdoutFileExists, holdoutFileObject, readHoldoutFile, readLedger, writeHoldoutFile } from '../sources/holdout-file.js';
import { readOutcomes } from '../sources/outcomes.js';

/** Where `split` writes when no holdout file is named. */
export const DEFAULT_HOLDOUT_FILE = 'rag-gate-holdout.json';

export interface DrawnSplit {
  readonly file: string;
  readonly split: Split;
  readonly sizes: SplitSizes;
  /** Questions that kept their side, new questions assigned, and questions of the old file no longer in the golden set. */
  readonly kept: number;
  readonly added: number;
  readonly dropped: number;
  readonly rotated: boolean;
}

const isGiven = (origin: SettingOrigin) => origin.kind !== 'default';

/**
 * Draws the holdout of the golden set and writes the holdout file. An existing holdout file is extended: its
 * questions keep their side and only new questions are assigned, under the file's own seed and share; `rotate`
 * draws a new holdout (the next rotation) over every question instead.
 */
export async function splitGoldenSet(settings: Settings, origins: Readonly<Record<SettingName, SettingOrigin>>, rotate: boolean): Promise<DrawnSplit> {
  if (settings.golden === undefined) throw new SettingError('no golden set to split: give --golden FILE, or golden: in the config file');
  const file = settings.holdout ?? DEFAULT_HOLDOUT_FILE;
  const [questions, previous] = await Promise.all([
    readGoldenQuestions(settings.golden),
    holdoutFileExists(file).then((exists) => (exists ? readHoldoutFile(file) : undefined)),
  ]);
  if (rotate && previous === undefined)
    throw new SettingError(`--rotate draws a new holdout in place of ${file}, which does not exist; leave --rotate out to draw the first one`);
  const seed = settings['holdout-seed'];
  const share = settings['holdout-share'];
  if (previous !== undefined && !rotate) {
    const differs = [
      isGiven(origins['holdout-seed']) && seed !== previous.seed ? `seed "${previous.seed}"` : '',
      isGiven(origins['holdout-share']) && share !== previous.share ? `share ${previous.share}` : '',
    ].filter(Boolean);
    if (differs.length > 0)
      throw new SettingError(
        `${file} was drawn with ${differs.join(' and ')}: an existing holdout keeps its key, so that no question changes side. Use --rotate to draw a new holdout with the new settings.`,
      );
  }
  const key =
    previous === undefined
      ? { seed, rotation: 0, share }
      : rotate
        ? {
            seed: isGiven(origins['holdout-seed']) ? seed : previous.seed,
            rotation: previous.rotation + 1,
            share: isGiven(origins['holdout-share']) ? share : previous.share,
          }
        : { seed: previous.seed, rotation: previous.rotation, share: previous.share };
  const split = drawSplit(questions, key, rotate ? undefined : previous);
  const sizes = splitSizes(questions, new Set(split.holdout));
  const golden = new Set(questions.map((question) => question.id));
  const known = new Set(rotate || previous === undefined ? [] : [...previous.holdout, ...previous.development]);
  const kept = questions.filter((question) => known.has(question.id)).length;
  await writeHoldoutFile(file, split, sizes);
  return { file, split, sizes, kept, added: questions.length - kept, dropped: [...known].filter((id) => !golden.has(id)).length, rotated: rotate };
}

/** What `split` reports: the sizes per tag as text, or the holdout file's object as JSON. */
export function splitReport(drawn: DrawnSplit): { text: string; json: string } {
  return {
    text: renderSplitText(drawn.file, drawn.sizes, { ...drawn, share: drawn.split.share }),
    json: `${JSON.stringify(holdoutFileObject(drawn.split, drawn.sizes), null, 2)}\n`,
  };
}

export interface HoldoutLook {
  readonly evaluation: HoldoutEvaluation;
  readonly ledger: LedgerStatus;
  /** The entry appended to the ledger for this look. */
  readonly entry: LedgerEntry;
  readonly warnings: readonly string[];
}

/**
 * The release evaluation: scores the run, compares its holdout with its development questions, and records the
 * look in the ledger (appended, the file written whole), saying how many looks this holdout has had.
 */
export async function evaluateHoldoutFiles(
  files: readonly string[],
  options: {
    readonly holdout: string;
    readonly ledger: string;
    readonly config: EvalConfig;
    readonly graded: readonly string[];
    readonly commit: string | null;
    readonly by: string;
    readonly now: Date;
  },
): Promise<HoldoutLook> {
  const [read, split, entries] = await Promise.all([readOutcomes(files, options.config), readHoldoutFile(options.holdout), readLedger(options.ledger)]);
  const evaluation = evaluateHoldout(read.outcomes, { holdout: new Set(split.holdout), development: new Set(split.development) }, options.graded);
  const entry: LedgerEntry = {
    holdout: holdoutFingerprint(split),
    commit: options.commit,
    date: options.now.toISOString(),
    by: options.by,
    gap: evaluation.headline?.gap ?? null,
  };
  const ledger = ledgerStatus(entries, entry);
  await appendLedger(options.ledger, entries, entry);
  return { evaluation, ledger, entry, warnings: read.warnings };
}

/** What a release evaluation reports: text for the terminal or log, the JSON, and the Markdown of the job summary. */
export function holdoutReport(files: readonly string[], look: HoldoutLook): { text: string; json: string; markdown: string } {
  return {
    text: renderHoldoutText(files.join(', '), look.evaluation, look.ledger),
    json: `${JSON.stringify(holdoutJson(look), null, 2)}\n`,
    markdown: renderHoldoutMarkdown(look.evaluation, look.ledger),
  };
}

/** Where the ledger was written, and the artifact to upload it as. */
export function ledgerWrittenText(file: string, artifact: string): string {
  return `holdout ledger written: ${codeQuoted(file, 200)}; upload it as the artifact ${artifact}`;
}
