import type { SettingName, SettingText, Settings } from '../core/catalog/settings.js';
import {
  changesFingerprint,
  goldenSetChange,
  governingSettings,
  holdoutChange,
  needsApproval,
  type PolicyChange,
  policyChanges,
} from '../core/compare/policy.js';
import { drawSplit } from '../core/holdout/split.js';
import { readGoldenIds, readGoldenQuestions } from '../sources/golden.js';
import { readHoldoutFile } from '../sources/holdout-file.js';
import { type BaseConfigFile, loadBaseSettings, type ResolvedSettings } from './settings.js';

/**
 * The base branch's versions of the head's golden set and holdout file, as local files: a path, null where the base
 * has no such file, absent where the run has none to compare.
 */
export interface BaseFiles {
  readonly golden?: string | null;
  readonly holdout?: string | null;
}

/** A run's settings held to its base branch's: the changes the head makes, and what the gate runs under. */
export interface HeldSettings {
  readonly base: ResolvedSettings;
  readonly changes: readonly PolicyChange[];
  /** The fingerprint an approval binds to; null when no change needs one. */
  readonly fingerprint: string | null;
  readonly baseFiles: BaseFiles;
}

/**
 * The base branch's settings (the same flags or inputs over the base's config file) and how the head's differ from
 * them, for every setting that decides pass or fail and for the contents of the golden set and the holdout file.
 */
export async function holdToBase(
  given: ReadonlyMap<SettingName, SettingText>,
  head: ResolvedSettings,
  baseFile: BaseConfigFile,
  baseFiles: BaseFiles = {},
): Promise<HeldSettings> {
  const base = await loadBaseSettings(given, baseFile);
  const changes = [...policyChanges(base, head), ...(await fileChanges(head.settings, baseFiles))];
  return { base, changes, fingerprint: changes.some(needsApproval) ? changesFingerprint(changes) : null, baseFiles };
}

/** How the head's golden set and holdout file differ from the base's versions of them. */
async function fileChanges(head: Settings, baseFiles: BaseFiles): Promise<PolicyChange[]> {
  const changes: PolicyChange[] = [];
  if (head.golden !== undefined && baseFiles.golden !== undefined) {
    const headIds = await readGoldenIds(head.golden);
    const change =
      baseFiles.golden === null
        ? { setting: 'golden', base: '(no file)', head: `${headIds.size} questions`, direction: 'changed' as const }
        : goldenSetChange(await readGoldenIds(baseFiles.golden), headIds);
    if (change !== null) changes.push(change);
  }
  if (head.holdout !== undefined && baseFiles.holdout !== undefined) {
    const split = await readHoldoutFile(head.holdout);
    if (baseFiles.holdout === null) {
      changes.push({ setting: 'holdout', base: '(no file)', head: `${split.holdout.length} held out`, direction: 'changed' });
    } else {
      const baseSplit = await readHoldoutFile(baseFiles.holdout);
      // What split draws for the head's golden set, keeping the base file's sides: the only holdout it writes.
      const sameKey = baseSplit.seed === split.seed && baseSplit.rotation === split.rotation;
      const drawn = head.golden === undefined ? null : drawSplit(await readGoldenQuestions(head.golden), split, sameKey ? baseSplit : undefined).holdout;
      const change = holdoutChange(baseSplit, split, drawn);
      if (change !== null) changes.push(change);
    }
  }
  return changes;
}

/**
 * The settings the gate runs under: the head's tightenings, and its other changes only once approved; until then
 * the base's golden set and holdout file stand in for the head's.
 */
export function settingsUnder(held: HeldSettings, head: Settings, approved: boolean): Settings {
  const governing: Record<string, unknown> = { ...governingSettings(held.base.settings, head, held.changes, approved) };
  if (!approved)
    for (const change of held.changes)
      if (needsApproval(change) && (change.setting === 'golden' || change.setting === 'holdout')) {
        const file = held.baseFiles[change.setting];
        if (file !== undefined) governing[change.setting] = file ?? undefined;
      }
  return governing as Settings;
}
