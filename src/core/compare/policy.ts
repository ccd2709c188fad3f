import { SETTINGS, type SettingName, type SettingRow, type Settings } from '../catalog/settings.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import { byCodeUnits } from '../code-unit-order.js';
import type { Comparison, GoldChange, PolicyChange } from './types.js';

export type { PolicyChange } from './types.js';

/** The settings of one side with each value's text as given. */
export interface SidePolicy {
  readonly settings: Settings;
  readonly texts: Readonly<Record<SettingName, string>>;
}

/** The policy rows of the settings catalog, in catalog order. */
export const POLICY_SETTINGS: readonly SettingName[] = (Object.keys(SETTINGS) as SettingName[]).filter(
  (name) => (SETTINGS[name] as SettingRow<unknown>).policy !== undefined,
);

/** Whether a change must be approved before it applies: every change but a tightening. */
export function needsApproval(change: PolicyChange): boolean {
  return change.direction !== 'tighter';
}

/** The policy settings whose head value differs from the base's, each with how it moves the gate. */
export function policyChanges(base: SidePolicy, head: SidePolicy): PolicyChange[] {
  const changes: PolicyChange[] = [];
  for (const setting of POLICY_SETTINGS) {
    const order = (SETTINGS[setting] as SettingRow<unknown>).policy!;
    const direction = order(base.settings[setting], head.settings[setting]);
    if (direction !== 'same') changes.push({ setting, base: base.texts[setting], head: head.texts[setting], direction });
  }
  return changes;
}

/**
 * The settings the gate runs under: the head's, except that a change needing approval keeps the base's value
 * until it is approved. Tightenings apply at once.
 */
export function governingSettings(base: Settings, head: Settings, changes: readonly PolicyChange[], approved: boolean): Settings {
  if (approved) return head;
  const governing: Record<string, unknown> = { ...head };
  for (const change of changes) if (needsApproval(change)) governing[change.setting] = base[change.setting as SettingName];
  return governing as Settings;
}

/**
 * What an approval approves: the changes that need one, as a hex fingerprint. The same changes give the same
 * fingerprint on every push; any other change gives another, which needs a new approval.
 */
export function changesFingerprint(changes: readonly PolicyChange[]): string {
  const approvable = changes.filter(needsApproval).map(({ setting, base, head }) => [setting, base, head]);
  return bytesToHex(sha256(utf8ToBytes(JSON.stringify(approvable)))).slice(0, 32);
}

/** What an approval of gold changes approves: each question's base and head gold, as a hex fingerprint. */
export function goldFingerprint(changes: readonly GoldChange[]): string {
  return bytesToHex(sha256(utf8ToBytes(JSON.stringify(changes.map(({ id, base, head }) => [id, base, head]))))).slice(0, 32);
}

/** The comparison with the gate's verdict when changes that need approval have none: it fails, saying which. */
export function withPolicyVerdict(comparison: Comparison, changes: readonly PolicyChange[], approved: boolean): Comparison {
  const unapproved = approved ? [] : changes.filter(needsApproval);
  if (unapproved.length === 0) return comparison;
  return { ...comparison, verdict: 'fail', reasons: [{ kind: 'gate-changed-unapproved', changes: unapproved }, ...comparison.reasons] };
}

/** Ids as one line: "q-1, q-2". Every id is kept: the line is what an approval's fingerprint covers. */
const idList = (ids: readonly string[]) => ids.join(', ');

/**
 * A golden set's change: questions dropped from it leave the comparison on purpose, so dropping any needs approval;
 * only adding questions is a tightening. Null when both hold the same questions.
 */
export function goldenSetChange(base: ReadonlySet<string>, head: ReadonlySet<string>): PolicyChange | null {
  const dropped = [...base].filter((id) => !head.has(id)).sort(byCodeUnits);
  const added = [...head].filter((id) => !base.has(id)).sort(byCodeUnits);
  if (dropped.length === 0 && added.length === 0) return null;
  const parts = [
    `${head.size} questions`,
    ...(dropped.length > 0 ? [`dropped ${idList(dropped)}`] : []),
    ...(added.length > 0 ? [`added ${idList(added)}`] : []),
  ];
  return { setting: 'golden', base: `${base.size} questions`, head: parts.join('; '), direction: dropped.length > 0 ? 'looser' : 'tighter' };
}

/** The two sides of a holdout file that decide: its key and its holdout ids. */
export interface HoldoutSide {
  readonly seed: string;
  readonly rotation: number;
  readonly holdout: readonly string[];
}

/**
 * A holdout file's change: a question put into the holdout leaves every pull request's comparison, and one taken
 * out exposes the holdout, so any change needs approval. `drawn` is what `rag-gate split` draws for the head's
 * golden set from the base's file (null when unknown): a head file that differs from it was edited by hand.
 */
export function holdoutChange(base: HoldoutSide, head: HoldoutSide, drawn: readonly string[] | null): PolicyChange | null {
  const baseIds = new Set(base.holdout);
  const headIds = new Set(head.holdout);
  const added = head.holdout.filter((id) => !baseIds.has(id)).sort(byCodeUnits);
  const removed = base.holdout.filter((id) => !headIds.has(id)).sort(byCodeUnits);
  const rekeyed = base.seed !== head.seed || base.rotation !== head.rotation;
  if (added.length === 0 && removed.length === 0 && !rekeyed) return null;
  const byHand = drawn !== null && (drawn.length !== headIds.size || drawn.some((id) => !headIds.has(id)));
  const parts = [
    `${head.holdout.length} held out`,
    ...(rekeyed ? [`seed ${head.seed}, rotation ${head.rotation}`] : []),
    ...(byHand ? ["not rag-gate split's draw"] : []),
    ...(added.length > 0 ? [`added ${idList(added)}`] : []),
    ...(removed.length > 0 ? [`removed ${idList(removed)}`] : []),
  ];
  return { setting: 'holdout', base: `${base.holdout.length} held out`, head: parts.join('; '), direction: 'changed' };
}
