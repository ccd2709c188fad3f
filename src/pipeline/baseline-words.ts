import { codeQuoted, inertText } from '../render/untrusted.js';

export type { BaselineProblem } from '../render/baseline-problem.js';

/**
 * How the report names where base results came from, or why there are none: the words of a front end's baseline
 * lookup, each name from a branch, an artifact or a zip quoted inert and bounded, since whoever pushed chose it.
 */

/** Longest branch or artifact name shown; a branch name comes from whoever pushed it. */
const BRANCH_MAX = 100;

/** Files named when an artifact holds no results file, each name cut past ENTRY_NAME_MAX code points: a zip can list thousands, each up to 64 KiB long. */
const ENTRIES_NAMED = 20;
const ENTRY_NAME_MAX = 200;

/** The `baseline` setting's files, named by the setting's own text. */
export function givenBaseDescription(setting: string): string {
  return codeQuoted(setting, 200);
}

function age(createdAt: string, now: Date): string {
  const hours = Math.max(0, (now.getTime() - Date.parse(createdAt)) / 3_600_000);
  if (hours < 1) return 'less than an hour old';
  if (hours < 48) return `${Math.round(hours)} hour${Math.round(hours) === 1 ? '' : 's'} old`;
  return `${Math.round(hours / 24)} days old`;
}

/** Results from a push run's artifact: "`main` at `abc1234` (the merge-base), results from run 12, 5 hours old". */
export function artifactBaseDescription(
  branch: string,
  run: { readonly headSha: string; readonly runNumber: number; readonly createdAt: string },
  mergeBase: boolean,
  now: Date,
): string {
  return `${codeQuoted(branch, BRANCH_MAX)} at ${codeQuoted(run.headSha.slice(0, 7), 7)}${mergeBase ? ' (the merge-base)' : ''}, results from run ${run.runNumber}, ${age(run.createdAt, now)}`;
}

export function noPushRunReason(branch: string, days: number): string {
  return `no successful push run of this workflow on ${codeQuoted(branch, BRANCH_MAX)} in the last ${days} days`;
}

export function noArtifactReason(branch: string, artifact: string): string {
  return `no recent push run on ${codeQuoted(branch, BRANCH_MAX)} has an unexpired artifact ${codeQuoted(artifact, BRANCH_MAX)} (first run, or the artifact expired)`;
}

/** The files an artifact holds, one a line, named inert and bounded: what was uploaded instead of results. */
export function heldFilesText(names: readonly string[]): string {
  if (names.length === 0) return 'no file at all';
  const more = names.length - ENTRIES_NAMED;
  const listed = names.slice(0, ENTRIES_NAMED).map((name) => inertText(name, ENTRY_NAME_MAX));
  return [...listed, ...(more > 0 ? [`… and ${more} more file${more === 1 ? '' : 's'}`] : [])].join('\n');
}
