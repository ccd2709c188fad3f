import type { RootContent } from 'mdast';
import type { ChangeApproval, GoldChange, PolicyChange } from '../core/compare/types.js';
import type { GoldLabels } from '../core/scoring/outcomes.js';
import { inert, paragraph, strong, table, text } from './mdast.js';
import { inertText } from './untrusted.js';
import { policySide } from './gate-words.js';
import { needsApproval } from '../core/compare/policy.js';

/** A pull request's changes to its own gate, whether they were approved, and how an approval is given. */
export interface GateChangesView {
  readonly changes: readonly PolicyChange[];
  readonly approval: ChangeApproval;
  /** The action's label, or the CLI's flag. */
  readonly approveWith: { readonly kind: 'label'; readonly label: string } | { readonly kind: 'flag' };
}

/** Longest setting value shown: the values come from the pull request's config file. */
const VALUE_MAX_CHARS = 80;

const EFFECT: Readonly<Record<PolicyChange['direction'], string>> = {
  tighter: 'tighter: applies',
  looser: 'looser: needs approval',
  changed: 'changed: needs approval',
};

const anyNeedsApproval = (view: GateChangesView) => view.changes.some(needsApproval);

/** Who approved or tried to, in plain words: "octocat (write) at 2026-11-20T10:00:00Z". */
function approverWords(by: { login: string; permission?: string; at?: string }): string {
  return `${inertText(by.login, 40)}${by.permission === undefined ? '' : ` (${by.permission})`}${by.at === undefined ? '' : ` at ${by.at}`}`;
}

/** How an approval is given: the action's label, or the CLI's flag. */
export type ApproveWith = GateChangesView['approveWith'];

/** What the approval says, or what it takes, as one sentence; `what` names the CLI flag's value. */
export function approvalWords(approval: ChangeApproval, approveWith: ApproveWith, what: 'policy' | 'gold' = 'policy'): string {
  const how = approveWith.kind === 'label' ? `the label "${approveWith.label}"` : `--approve ${what}`;
  const applies = what === 'policy' ? "the base branch's values apply and this check fails" : "these questions are scored under the base branch's gold";
  const until = `until ${approveWith.kind === 'label' ? `a maintainer with write access applies ${how}` : `it is run with ${how}`}, ${applies}`;
  switch (approval.kind) {
    case 'approved':
      return `Approved by ${approveWith.kind === 'label' ? `${approverWords(approval.by)} with ${how}` : how}: the pull request's ${what === 'policy' ? 'values apply' : 'gold applies'}.`;
    case 'none':
      return `Not approved: ${until}.`;
    case 'not-trusted':
      return `Not approved: ${how} was applied by ${approverWords(approval.by)}, and an approval takes write access or more; ${until}.`;
    case 'stale':
      return `Not approved: ${how} was applied by ${approverWords(approval.by)}, before this comment showed these changes (a later push changed them); remove the label and apply it again to approve them.`;
    case 'no-comment':
      return `Not approved: an approval needs the sticky comment that shows what it approves, and comments are off (comment: never); ${until}.`;
  }
}

/** The section at the top of the comment: every change with its effect, and the approval. */
export function gateChangesSection(view: GateChangesView): RootContent[] {
  if (view.changes.length === 0) return [];
  const rows = view.changes.map((change) => [
    text(change.setting),
    inert(policySide(change.base), VALUE_MAX_CHARS),
    inert(policySide(change.head), VALUE_MAX_CHARS),
    text(EFFECT[change.direction]),
  ]);
  return [
    paragraph(strong(text('This pull request changes the gate.'))),
    table([text('setting'), text('base branch'), text('this pull request'), text('effect')], rows),
    paragraph(text(anyNeedsApproval(view) ? approvalWords(view.approval, view.approveWith) : 'Tightenings apply at once.')),
  ];
}

/** The same for the terminal and the Actions log. */
export function gateChangesText(view: GateChangesView): string {
  if (view.changes.length === 0) return '';
  const lines = view.changes.map(
    (change) =>
      `  ${change.setting}: ${inertText(policySide(change.base), VALUE_MAX_CHARS)} → ${inertText(policySide(change.head), VALUE_MAX_CHARS)} (${EFFECT[change.direction]})`,
  );
  return `This pull request changes the gate:\n${lines.join('\n')}\n${anyNeedsApproval(view) ? approvalWords(view.approval, view.approveWith) : 'Tightenings apply at once.'}\n`;
}

/** The gold changes' approval, when one was asked for, and how one is given. */
export interface GoldApprovalView {
  readonly approval: ChangeApproval;
  readonly approveWith: ApproveWith;
}

/** Gold changes listed in the comment; the rest are in the JSON. */
const GOLD_ROWS = 20;
const GOLD_MAX_CHARS = 120;

/** A question's gold in words: its relevant documents (with grades above 1), expected answer, and answerability. */
export function goldWords(gold: GoldLabels): string {
  const relevant = Object.entries(gold.relevant_ids).map(([id, grade]) => (grade === 1 ? id : `${id} (${grade})`));
  return [
    ...(relevant.length > 0 ? [`relevant ${relevant.join(', ')}`] : []),
    ...(gold.expected_answer === undefined ? [] : [`expected "${gold.expected_answer}"`]),
    ...(gold.answerable === false ? ['unanswerable'] : []),
  ].join('; ');
}

const SCORED: Readonly<Record<GoldChange['scoredUnder'], string>> = {
  head: "the pull request's gold",
  base: "the base's gold",
  lost: "failed: cannot be re-scored under the base's gold",
};

const scoredWords = (change: GoldChange) => (change.changesOutcome ? SCORED[change.scoredUnder] : `${SCORED[change.scoredUnder]} (no gated outcome changes)`);

/** The comment's section on questions whose gold the pull request changed. */
export function goldChangesSection(changes: readonly GoldChange[], approval: GoldApprovalView | undefined): RootContent[] {
  if (changes.length === 0) return [];
  const rows = changes
    .slice(0, GOLD_ROWS)
    .map((change) => [
      inert(change.id, 80),
      inert(goldWords(change.base), GOLD_MAX_CHARS),
      inert(goldWords(change.head), GOLD_MAX_CHARS),
      text(scoredWords(change)),
    ]);
  const more = changes.length - GOLD_ROWS;
  const moving = changes.some((change) => change.changesOutcome);
  return [
    paragraph(strong(text(`The pull request changes the gold of ${changes.length} question${changes.length === 1 ? '' : 's'}.`))),
    table([text('question'), text('base gold'), text('pull request gold'), text('scored under')], rows),
    ...(more > 0 ? [paragraph(text(`… and ${more} more; see the full JSON (goldChanges).`))] : []),
    ...(moving && approval !== undefined ? [paragraph(text(approvalWords(approval.approval, approval.approveWith, 'gold')))] : []),
  ];
}

/** The same for the terminal and the Actions log. */
export function goldChangesText(changes: readonly GoldChange[], approval: GoldApprovalView | undefined): string {
  if (changes.length === 0) return '';
  const lines = changes
    .slice(0, GOLD_ROWS)
    .map(
      (change) =>
        `  ${inertText(change.id, 80)}: ${inertText(goldWords(change.base), GOLD_MAX_CHARS)} → ${inertText(goldWords(change.head), GOLD_MAX_CHARS)} (scored under ${scoredWords(change)})`,
    );
  if (changes.length > GOLD_ROWS) lines.push(`  … and ${changes.length - GOLD_ROWS} more`);
  const moving = changes.some((change) => change.changesOutcome);
  return `The pull request changes the gold of ${changes.length} question${changes.length === 1 ? '' : 's'}:\n${lines.join('\n')}\n${moving && approval !== undefined ? `${approvalWords(approval.approval, approval.approveWith, 'gold')}\n` : ''}`;
}
