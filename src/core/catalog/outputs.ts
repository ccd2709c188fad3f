/**
 * The catalog of the action's outputs: one row per output, from which action.yml's `outputs:` and the README's
 * table derive, and through which every run sets them. Each mode's hand-written list of outputs lost one in a
 * merge twice; here a run gives exactly the outputs whose rows name it (the types check it), and everyOutput fills
 * in the rest from `otherwise`, so every run sets every output once.
 */

/**
 * The kinds of run that set outputs: `gate` is mode gate or advisory on any event but a push to a branch; `push`
 * is the same on a push to a branch, which keeps the run history and never comments; then mode release and mode
 * monitor.
 */
export const OUTPUT_RUNS = ['gate', 'push', 'release', 'monitor'] as const;
export type OutputRun = (typeof OUTPUT_RUNS)[number];

export interface OutputRow {
  readonly description: string;
  /** The runs that give this output a value. */
  readonly setBy: readonly OutputRun[];
  /** The value in every other run; absent: empty. A count or a yes/no has a plain answer there instead. */
  readonly otherwise?: string;
}

const COMPARISONS = ['gate', 'push'] as const;

const ROWS = {
  verdict: {
    description:
      'the verdict: pass, fail, or neutral (no baseline was found: head results only; and always in modes release and monitor); also fail when the baseline exists but cannot be read, when none exists and on-missing-baseline is fail, or when the pull request changes its own gate without approval',
    setBy: OUTPUT_RUNS,
  },
  'p-value': { description: 'the smallest Holm-adjusted p-value among the gated tests (empty without a baseline)', setBy: COMPARISONS },
  fixed: {
    description:
      'questions wrong in base and right in head: the discordant count of end-to-end correctness (of retrieval success when the results carry no correctness); empty without a baseline',
    setBy: COMPARISONS,
  },
  broken: { description: 'questions right in base and wrong in head (the same test as fixed); empty without a baseline', setBy: COMPARISONS },
  regressions: {
    description: 'number of regressed questions (right in base, wrong in head); 0 without a baseline or when the results carry no end-to-end correctness',
    setBy: COMPARISONS,
    otherwise: '0',
  },
  'report-json': { description: "path of the full report in JSON (under RUNNER_TEMP): the comparison, or the mode's own report", setBy: OUTPUT_RUNS },
  'report-markdown': { description: "path of the report in Markdown: the comment body, or the mode's job summary", setBy: OUTPUT_RUNS },
  'baseline-found': { description: 'whether base results were found and compared: true or false', setBy: COMPARISONS, otherwise: 'false' },
  'baseline-sha': { description: 'commit of the base results, when known', setBy: COMPARISONS },
  'comment-url': { description: 'URL of the pull request comment, when one was written', setBy: ['gate'] },
  history: {
    description: "path of the updated run history (the history input's file), to upload with the results as the baseline-artifact",
    setBy: ['push'],
  },
  'holdout-gap': {
    description: 'the headline gap, development − holdout (end-to-end correctness, else retrieval success), as a share (0.05 is 5 points)',
    setBy: ['release'],
  },
  'holdout-looks': {
    description: 'how many times (for how many commits) the holdout has been evaluated since it was drawn, this look included',
    setBy: ['release'],
  },
  'holdout-ledger': { description: 'path of the updated holdout ledger, to upload as the holdout-ledger-artifact', setBy: ['release'] },
  'monitor-alert': {
    description: 'whether a rate of the current window rose significantly above its ceiling: true or false',
    setBy: ['monitor'],
  },
  'monitor-issue': { description: 'URL of the monitoring issue this run opened, updated or closed, if any', setBy: ['monitor'] },
} as const satisfies Record<string, OutputRow>;

export type OutputName = keyof typeof ROWS;

export const OUTPUTS: Readonly<Record<OutputName, OutputRow>> = ROWS;

/** The outputs in catalog order: the order action.yml declares them and a run sets them. */
export const OUTPUT_NAMES = Object.keys(ROWS) as OutputName[];

/** The outputs a run gives values for. */
type OwnedBy<R extends OutputRun> = { [N in OutputName]: R extends (typeof ROWS)[N]['setBy'][number] ? N : never }[OutputName];

/** A run's values: every output it owns, and none it does not. */
export type OutputValues<R extends OutputRun> = { readonly [N in OwnedBy<R>]: string } & { readonly [N in Exclude<OutputName, OwnedBy<R>>]?: never };

/** Every output with its value in this run, in catalog order: the run's own values, the others' `otherwise`. */
export function everyOutput<R extends OutputRun>(run: R, values: OutputValues<R>): [OutputName, string][] {
  const given: Partial<Record<OutputName, string>> = values;
  return OUTPUT_NAMES.map((name) => [name, OUTPUTS[name].setBy.includes(run) ? (given[name] ?? '') : (OUTPUTS[name].otherwise ?? '')]);
}
