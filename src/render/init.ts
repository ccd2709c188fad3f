import { RESULTS_FORMATS } from '../core/catalog/formats.js';
import type { SettingName } from '../core/catalog/settings.js';
import { type InputProblem, InputError } from '../core/errors.js';
import type { CorrectnessProposal, FieldConflict, FieldMapping, InitProposal, RetrievalProposal } from '../core/init/proposal.js';
import { F1_THRESHOLD, LEXICAL_RULE_SHARE, SHORT_ANSWER_TOKENS } from '../core/init/proposal.js';
import { formatCorrectnessRule } from '../core/measures/generation/correctness.js';
import { inertText } from './untrusted.js';

/** Where init writes, and what the workflow runs. */
export interface InitLayout {
  /** The results file as the workflow names it (relative to the repository root). */
  readonly results: string;
  /** Whether `results` had to be shortened to the file's name (the file lies outside --dir). */
  readonly resultsMoved: boolean;
  readonly branch: string;
  /** Shards of the pipeline run, each a job of a matrix; 1 for one job. */
  readonly shards: number;
  /** The action as a workflow step names it: `rag-gate/rag-gate@v0`. */
  readonly action: string;
  /** The command that wrote the files, for their first line. */
  readonly command: string;
}

/** The config file and the workflow, relative to --dir. */
export const INIT_CONFIG_FILE = 'rag-gate.yml';
export const INIT_WORKFLOW_FILE = '.github/workflows/rag-gate.yml';

/** A field name or path from the user's file, inert in a comment or a line of the report. */
const shown = (name: string) => inertText(name, 120);

/** A YAML scalar: plain when it is plainly one, double-quoted (JSON's escapes are YAML's) otherwise. */
const yamlScalar = (value: string) => (/^[A-Za-z0-9_./][\w./@=>:*-]*$/.test(value) && !/: |:$/.test(value) ? value : JSON.stringify(value));

/** `a`, `a or b`, `a, b or c`. */
const orList = (items: readonly string[]) => items.join(', ').replace(/, ([^,]*)$/, ' or $1');

const plural = (count: number, one: string, many = `${one}s`) => `${count} ${count === 1 ? one : many}`;

/** The lines saying why, for the config file (as comments) and the terminal alike. */
interface Decision {
  readonly topic: string;
  readonly why: readonly string[];
  /** The config lines it sets; none when it leaves the default. */
  readonly yaml: readonly string[];
  /** Whether init could not decide it: said in the file and the output. */
  readonly undecided?: boolean;
}

const BECAUSE: Readonly<Record<FieldMapping['because'], string>> = {
  synonym: "another tool's name for it",
  spelling: 'the same name, spelled differently',
  given: 'as you mapped it (--field)',
};

function fieldsDecision(proposal: InitProposal): Decision {
  const why: string[] = [];
  if (proposal.mappings.length === 0) why.push("every field rag-gate reads is under a name it knows (its own or another tool's): no mapping needed.");
  for (const mapping of proposal.mappings) {
    why.push(`"${shown(mapping.yours)}" is read as ${mapping.ours}: ${BECAUSE[mapping.because]}.`);
  }
  for (const conflict of proposal.conflicts) {
    why.push(conflictMessage(conflict));
  }
  if (proposal.unread.length > 0) why.push(`not read (no field of rag-gate's, not a number): ${proposal.unread.map((name) => `"${shown(name)}"`).join(', ')}.`);
  const yaml = proposal.mappings.length === 0 ? [] : ['fields:', ...proposal.mappings.map((mapping) => `  ${mapping.ours}: ${yamlScalar(mapping.yours)}`)];
  return { topic: 'Fields', why, yaml, ...(proposal.conflicts.length > 0 ? { undecided: true } : {}) };
}

function idsDecision(proposal: InitProposal): Decision | undefined {
  if (proposal.idsFromQuestion === 0) return undefined;
  return {
    topic: 'Ids',
    why: [
      `${proposal.idsFromQuestion === proposal.records ? 'no record has' : `${plural(proposal.idsFromQuestion, 'record')} of ${proposal.records} lack`} an id: the id is derived from the question text, so base and head pair by question.`,
      'A question reworded between runs is then a new question (the old one counts as missing and failed). Add an id column if your pipeline has one.',
    ],
    yaml: [],
  };
}

function retrievalDecision(retrieval: RetrievalProposal): Decision {
  switch (retrieval.kind) {
    case 'records':
      return { topic: 'Retrieval', why: ['every record says whether its retrieval was ok (retrieval_ok): the rule below applies to none of them.'], yaml: [] };
    case 'gold': {
      const gold = retrieval.by === 'ids' ? 'gold document ids (relevant_ids)' : 'gold contexts as text, matched to the retrieved texts by text';
      return {
        topic: 'Retrieval',
        why: [
          `${plural(retrieval.records, 'record')} ${retrieval.records === 1 ? 'carries' : 'carry'} ${gold}, and a record retrieves at most ${plural(retrieval.k, 'document')}:`,
          `retrieval counts as ok when every gold document is among them (the generator sees them all).`,
          ...(retrieval.by === 'text'
            ? ['Texts match when equal after white space is collapsed; if your chunks differ from the gold texts, try context-match: overlap:0.8.']
            : []),
        ],
        yaml: [`retrieval-ok: ${retrieval.rule}`],
      };
    }
    case 'none': {
      const why = [
        retrieval.goldTextUnmatched > 0
          ? `${plural(retrieval.goldTextUnmatched, 'record')} give gold contexts as text but no retrieved texts to match them with: rag-gate cannot measure retrieval.`
          : 'no record carries gold documents (relevant_ids) or gold contexts (reference_contexts): rag-gate cannot measure retrieval itself, so the retrieval gate is left out.',
      ];
      if (retrieval.score !== undefined) {
        why.push(`The file's ${retrieval.score} score stands in for it (gated below). It is your tool's score, often an LLM's verdict, not calibrated here.`);
      } else why.push("Nor is there a retrieval score (such as Ragas' context_recall) to gate instead: retrieval is not gated.");
      why.push('To measure retrieval, add the gold contexts to each record: reference_contexts (Ragas) or relevant_ids.');
      return { topic: 'Retrieval', why, yaml: [], ...(retrieval.score === undefined ? { undecided: true } : {}) };
    }
  }
}

function lexicalCounts(correctness: { answered: number; contains: number; f1: number }): string {
  return `on this file, contains passes ${correctness.contains} of ${correctness.answered} answers and f1:${F1_THRESHOLD} passes ${correctness.f1}`;
}

function correctnessDecision(correctness: CorrectnessProposal): Decision {
  switch (correctness.kind) {
    case 'records':
      return { topic: 'Correctness', why: ['every record says whether its answer is correct (correct): no rule needed.'], yaml: [] };
    case 'rule': {
      const short = correctness.rule.kind === 'contains';
      const passed = short ? correctness.contains : correctness.f1;
      const why = [
        short
          ? `expected answers are short (median ${plural(correctness.medianTokens, 'word')}, ${SHORT_ANSWER_TOKENS} or fewer count as short): an answer is correct when it contains the expected answer as whole words.`
          : `expected answers are long (median ${plural(correctness.medianTokens, 'word')}): containment would fail paraphrases, so an answer is correct when its token F1 against the expected answer is at least ${F1_THRESHOLD}, a lexical proxy: read a few verdicts before you trust it.`,
        `Under either rule an answer that lacks or changes a number of the expected answer is wrong; ${lexicalCounts(correctness)}.`,
      ];
      if (passed < LEXICAL_RULE_SHARE * correctness.answered) {
        why.push(`That is under half of the answers: check the rule against a few of them, or give each record a correct field.`);
      }
      if (correctness.score !== undefined) {
        why.push(`The file's ${correctness.score} score (an LLM's verdict, not calibrated here) is reported beside it, not gated.`);
      }
      return { topic: 'Correctness', why, yaml: [`correct: ${formatCorrectnessRule(correctness.rule)}`] };
    }
    case 'score':
      return {
        topic: 'Correctness',
        why: [
          correctness.answered === 0
            ? 'no record has both an answer and an expected answer, so no lexical rule applies:'
            : `no lexical rule reads these answers well (${lexicalCounts(correctness)}):`,
          `the file's ${correctness.score} score is gated instead (an LLM's verdict, not calibrated here: gating it is your choice).`,
        ],
        yaml: [],
      };
    case 'none':
      return {
        topic: 'Correctness',
        why: ['no record has both an answer and an expected answer, nor a correct field or a correctness score: end-to-end correctness is not gated.'],
        yaml: [],
        undecided: true,
      };
  }
}

function gatesDecision(proposal: InitProposal): Decision {
  const scores = proposal.failOn.filter((gate) => gate.startsWith('score:'));
  const reported = proposal.scores.filter((name) => !scores.includes(`score:${name}`));
  const why =
    proposal.failOn.length === 0
      ? ['nothing above can be gated: every comparison would stop with an error until the records carry gold documents, answers or scores.']
      : [
          `a significant drop (McNemar or a paired randomization test, Holm-corrected) in ${orList(proposal.failOn)} fails the check.`,
          ...(scores.length > 0 ? ["A score gate is your tool's number, not calibrated here: naming it is the choice to gate on it."] : []),
          ...(reported.length > 0 ? [`Reported, not gated: ${reported.map((name) => `score:${name}`).join(', ')}.`] : []),
        ];
  const yaml = proposal.failOn.length === 0 ? ['fail-on: []'] : ['fail-on:', ...proposal.failOn.map((gate) => `  - ${yamlScalar(gate)}`)];
  return { topic: 'Gates', why, yaml, ...(proposal.failOn.length === 0 ? { undecided: true } : {}) };
}

function sizeDecision(proposal: InitProposal): Decision | undefined {
  if (proposal.tooFewFor === undefined) return undefined;
  return {
    topic: 'Size',
    why: [
      `the file has ${plural(proposal.records, 'question')}, fewer than min-paired (${proposal.tooFewFor}): every comparison would fail for too few paired questions.`,
      'Add questions to the golden set (the tests cannot tell a change from noise on a few), or lower min-paired knowingly.',
    ],
    yaml: [],
    undecided: true,
  };
}

function decisions(proposal: InitProposal): Decision[] {
  return [
    fieldsDecision(proposal),
    idsDecision(proposal),
    retrievalDecision(proposal.retrieval),
    correctnessDecision(proposal.correctness),
    gatesDecision(proposal),
    sizeDecision(proposal),
  ].filter((decision): decision is Decision => decision !== undefined);
}

/** The settings the config file sets, so a test can hold them to the catalog's names. */
export const INIT_CONFIG_KEYS = ['fields', 'retrieval-ok', 'correct', 'fail-on'] as const satisfies readonly SettingName[];

const formatLabel = (proposal: InitProposal) => RESULTS_FORMATS.find((format) => format.name === proposal.format)!.label;

/** A line cut at spaces into lines of at most `width` characters (a longer word stays whole). */
function wrapped(line: string, width: number): string[] {
  const out: string[] = [];
  let current = '';
  for (const word of line.split(' ')) {
    if (current !== '' && current.length + 1 + word.length > width) {
      out.push(current);
      current = word;
    } else current = current === '' ? word : `${current} ${word}`;
  }
  return [...out, current];
}

/** rag-gate.yml: each decision's reasons as comments above the keys it sets. */
export function initConfigText(proposal: InitProposal, layout: InitLayout): string {
  const lines = [
    `# rag-gate.yml, written by \`${shown(layout.command)}\``,
    `# from ${plural(proposal.records, 'record')} of ${shown(proposal.file)} (${formatLabel(proposal)}). Keys are the settings of`,
    "# docs/github-actions.md#inputs; on a pull request the base branch's copy of this file decides.",
  ];
  for (const decision of decisions(proposal)) {
    lines.push('', `# ${decision.topic}${decision.undecided ? ' (rag-gate init could not decide: see below)' : ''}:`);
    for (const line of decision.why) lines.push(...wrapped(line, 110).map((part) => `#   ${part}`));
    lines.push(...decision.yaml);
  }
  return `${lines.join('\n')}\n`;
}

const PERMISSIONS = [
  'permissions:',
  "  contents: read         # the base branch's rag-gate.yml, golden set and holdout file",
  "  actions: read          # find the base branch's run and download its artifact",
  '  pull-requests: write   # the sticky comment',
  "  # No statuses: write: on push and pull_request the job's own check carries the verdict.",
];

function triggers(layout: InitLayout): string[] {
  return [
    'on:',
    '  push:',
    `    branches: [${yamlScalar(layout.branch)}]   # its runs upload the baseline that pull requests compare with`,
    '  pull_request:',
    "    types: [opened, synchronize, reopened, labeled]   # labeled: a maintainer's approval re-runs the gate",
  ];
}

/** The workflow: the pipeline (a placeholder step), rag-gate, and on push the baseline upload; sharded, a matrix and a gate job. */
export function initWorkflowText(layout: InitLayout): string {
  const head = [
    `# ${INIT_WORKFLOW_FILE}, written by \`${shown(layout.command)}\`. Replace the marked step with your pipeline.`,
    'name: rag-gate',
    ...triggers(layout),
    '',
    ...PERMISSIONS,
    '',
    'jobs:',
  ];
  // The step fails until it is replaced, so a forgotten placeholder cannot pass as a gate; the path stays out of the shell.
  const placeholder = (writes: string, extra = '') => [
    `      # REPLACE this step with your pipeline${extra}: it answers the golden set and writes ${shown(writes)}.`,
    '      - name: Your pipeline (replace this step)',
    '        run: |',
    '          echo "rag-gate init left this step for your pipeline: replace it (see the comment above it)" >&2',
    '          exit 1',
  ];
  if (layout.shards <= 1) {
    const results = yamlScalar(layout.results);
    return `${[
      ...head,
      '  eval:',
      '    runs-on: ubuntu-latest',
      '    steps:',
      '      - uses: actions/checkout@v4',
      ...placeholder(layout.results),
      `      - uses: ${layout.action}`,
      '        with:',
      `          results: ${results}`,
      '      - uses: actions/upload-artifact@v4   # the baseline for later pull requests',
      "        if: github.event_name == 'push'",
      '        with:',
      '          name: rag-gate-results',
      '          path: |',
      `            ${layout.results}`,
      '            rag-gate-history.json',
      '          overwrite: true   # a re-run of the push job would otherwise fail: the run has this artifact already (409)',
    ].join('\n')}\n`;
  }
  const extension = /\.[A-Za-z0-9]+$/.exec(layout.results)?.[0] ?? '.jsonl';
  const shard = `shard-\${{ matrix.shard }}${extension}`;
  return `${[
    ...head,
    '  eval:',
    '    runs-on: ubuntu-latest',
    '    strategy:',
    '      matrix:',
    `        shard: [${Array.from({ length: layout.shards }, (_, i) => i + 1).join(', ')}]`,
    '    steps:',
    '      - uses: actions/checkout@v4',
    ...placeholder(shard, ` for shard \${{ matrix.shard }} of ${layout.shards}`),
    '      - uses: actions/upload-artifact@v4',
    '        with:',
    '          name: rag-gate-shard-${{ matrix.shard }}',
    `          path: ${shard}`,
    '          overwrite: true',
    '  gate:   # gathers the shards, gates, and on push uploads them together as the baseline',
    '    needs: eval',
    '    runs-on: ubuntu-latest',
    '    steps:',
    '      - uses: actions/checkout@v4     # for rag-gate.yml',
    '      - uses: actions/download-artifact@v4',
    '        with:',
    '          pattern: rag-gate-shard-*',
    '          path: results',
    `          merge-multiple: true        # every shard-N${extension} in results/`,
    `      - uses: ${layout.action}`,
    '        with:',
    `          results: results/shard-*${extension}`,
    '      - uses: actions/upload-artifact@v4',
    "        if: github.event_name == 'push'",
    '        with:',
    '          name: rag-gate-results',
    '          path: |',
    '            results/',
    '            rag-gate-history.json',
    `          overwrite: true             # the artifact holds results/shard-N${extension} and rag-gate-history.json`,
  ].join('\n')}\n`;
}

/** What init found and decided, what it wrote (or would write) and what to do next. */
export function initReportText(proposal: InitProposal, layout: InitLayout, written: { readonly dir: string; readonly dryRun: boolean }): string {
  const lines = [`rag-gate init: ${shown(proposal.file)}: ${plural(proposal.records, 'record')}, read as ${formatLabel(proposal)}`];
  const all = decisions(proposal);
  for (const decision of all) {
    lines.push(`  ${decision.topic.toLowerCase()}${decision.undecided ? ' (not decided)' : ''}: ${decision.why.join(' ')}`);
    if (decision.yaml.length > 0) lines.push(...decision.yaml.map((line) => `      ${line}`));
  }
  const undecided = all.filter((decision) => decision.undecided).map((decision) => decision.topic.toLowerCase());
  if (undecided.length > 0) lines.push(`  rag-gate init could not decide: ${undecided.join(', ')}; the config says so in comments.`);
  if (layout.resultsMoved) {
    lines.push(`  the results file lies outside ${shown(written.dir)}: the workflow names it ${shown(layout.results)}; write it there.`);
  }
  lines.push(
    '',
    written.dryRun
      ? `Dry run: nothing written; ${INIT_CONFIG_FILE} and ${INIT_WORKFLOW_FILE} are printed below.`
      : `Wrote ${INIT_CONFIG_FILE} and ${INIT_WORKFLOW_FILE} in ${shown(written.dir)}.`,
  );
  const check = layout.shards > 1 ? 'gate' : 'eval';
  lines.push(
    '',
    'Next steps',
    `  1. Replace the marked step of ${INIT_WORKFLOW_FILE} with your pipeline, writing ${shown(layout.shards > 1 ? `shard-N files` : layout.results)}.`,
    `  2. Try the config on two runs of your own: npx rag-gate compare --base BASE --head HEAD --config ${INIT_CONFIG_FILE}`,
    `  3. Commit both files and push to ${shown(layout.branch)}: that run uploads the first baseline (until one exists, a pull request passes as neutral).`,
    `  4. Make the check required: in ${shown(layout.branch)}'s branch protection rule (or ruleset), Require status checks to pass, add \`${check}\` (the ${check} job of the rag-gate workflow).`,
    '  5. The base branch sets the gate, so protect what it trusts with code owners and "Require review from Code Owners":',
    '       # .github/CODEOWNERS',
    '       /.github/workflows/  @your-org/maintainers',
    `       /${INIT_CONFIG_FILE}        @your-org/maintainers`,
    '       /golden.jsonl        @your-org/maintainers   # your golden set, wherever it is',
    '     and name the golden set in rag-gate.yml (golden: golden.jsonl), so questions dropped from it are seen; for releases,',
    '     hold out a share of it that pull requests never see: rag-gate split --golden golden.jsonl (docs/holdout.md).',
  );
  return `${lines.join('\n')}\n`;
}

/** The files that exist already: nothing is written without --force. */
export function initExistsError(files: readonly string[]): InputError {
  return new InputError(files.map((file) => ({ file, message: 'exists already; rag-gate init writes nothing over it without --force (nothing was written)' })));
}

const conflictMessage = (conflict: FieldConflict) =>
  `could not decide which of ${conflict.yours.map((name) => `"${shown(name)}"`).join(', ')} is ${conflict.ours}: map one with --field ${conflict.ours}=YOUR_FIELD.`;

/** A file that does not read because init could not decide between its fields: those first, then the reader's problems. */
export function initConflictError(file: string, conflicts: readonly FieldConflict[], read: InputError): InputError {
  const problems: InputProblem[] = conflicts.map((conflict) => ({ file, field: conflict.ours, message: conflictMessage(conflict) }));
  return new InputError([...problems, ...read.problems], problems.length + read.totalProblems);
}
