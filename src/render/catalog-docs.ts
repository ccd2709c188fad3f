import { RESULTS_FORMATS } from '../core/catalog/formats.js';
import { IGNORED_FIELDS } from '../core/record.js';
import { RECORD_FIELD_ROWS } from '../core/catalog/record-fields.js';
import { RETRIEVAL_METRIC_ROWS } from '../core/catalog/retrieval-metrics.js';
import { stringify } from 'yaml';
import { GATED_TESTS, USAGE_GATES } from '../core/catalog/gates.js';
import { OUTPUT_NAMES, OUTPUT_RUNS, OUTPUTS, type OutputRun } from '../core/catalog/outputs.js';
import { ANSWER_METRICS, USAGE_MEASURES, USAGE_QUANTILES, usageMeanMetric, usageQuantileMetric, usageTotalMetric } from '../core/catalog/metrics.js';
import { SETTINGS, type SettingName, type SettingRow } from '../core/catalog/settings.js';

/**
 * The documents derived from the catalogs: action.yml's `inputs:` and `outputs:`, and the docs' tables of
 * settings, outputs, metrics, gates, record fields and results formats. `npm run docs` writes them; a test fails when they drift from the catalogs.
 */

const ROWS = Object.entries(SETTINGS) as [SettingName, SettingRow<unknown>][];

const sentence = (text: string) => `${text.charAt(0).toUpperCase()}${text.slice(1)}.`;

/** The `inputs:` block of action.yml. No input has a default but the token: an input left out lets the config file speak. */
export function actionInputsYaml(): string {
  const inputs: Record<string, object> = {};
  for (const [name, row] of ROWS) {
    if (row.action === false) continue;
    const fallback = row.default === '' ? '' : ` Default: ${row.default}.`;
    inputs[name] =
      typeof row.action === 'object'
        ? { description: sentence(row.description), required: false, default: row.action.runnerDefault }
        : { description: `${sentence(row.description)}${fallback}`, required: false };
  }
  return stringify({ inputs }, { lineWidth: 0 });
}

/** The runs an output is set in, in words; the two kinds of comparison run together are mode gate or advisory. */
function runsText(runs: readonly OutputRun[]): string {
  const words: Record<OutputRun, string> = {
    gate: 'mode gate or advisory, not on a push to a branch',
    push: 'mode gate or advisory on a push to a branch',
    release: 'mode release',
    monitor: 'mode monitor',
  };
  const both = runs.includes('gate') && runs.includes('push');
  const named = both
    ? ['mode gate or advisory', ...runs.filter((run) => run !== 'gate' && run !== 'push').map((run) => words[run])]
    : runs.map((run) => words[run]);
  return named.join(', ');
}

/** The `outputs:` block of action.yml: each output's meaning, and for one that some runs leave alone, which runs set it. */
export function actionOutputsYaml(): string {
  const outputs: Record<string, object> = {};
  for (const name of OUTPUT_NAMES) {
    const row = OUTPUTS[name];
    const where = row.setBy.length === OUTPUT_RUNS.length ? '' : ` Set only by ${runsText(row.setBy)}; ${row.otherwise ?? 'empty'} otherwise.`;
    outputs[name] = { description: `${sentence(row.description)}${where}` };
  }
  return stringify({ outputs }, { lineWidth: 0 });
}

const code = (text: string) => (text === '' ? '' : `\`${text.replaceAll('|', '\\|')}\``);

/** The docs' table: every setting with its action input, CLI option, config key, default, and whether the base branch's value governs. */
export function settingsTable(): string {
  const lines = ['| setting | action input | CLI option | in rag-gate.yml | default | base branch decides | meaning |', '|---|---|---|---|---|---|---|'];
  for (const [name, row] of ROWS) {
    const commandsOf = new Map<string, string[]>();
    for (const [command, flag] of Object.entries(row.cli?.flags ?? {}))
      commandsOf.set(flag.split(' ')[0]!, [...(commandsOf.get(flag.split(' ')[0]!) ?? []), command]);
    const flags = [...commandsOf].map(([flag, commands]) => `${code(flag)} (${commands.join(', ')})`);
    const fallback = typeof row.action === 'object' ? code(row.action.runnerDefault) : code(row.default);
    lines.push(
      `| \`${name}\` | ${row.action === false ? '' : 'yes'} | ${flags.join(', ')} | ${row.config ? 'yes' : ''} | ${fallback} | ${row.policy === undefined ? '' : 'yes'} | ${row.description.replaceAll('|', '\\|')} |`,
    );
  }
  return `${lines.join('\n')}\n`;
}

/** The docs' table of outputs: which runs set each one (a blank cell: empty there), and what it means. */
export function outputsTable(): string {
  const lines = ['| output | mode gate, advisory | on push to a branch | mode release | mode monitor | meaning |', '|---|---|---|---|---|---|'];
  for (const name of OUTPUT_NAMES) {
    const row = OUTPUTS[name];
    const cells = OUTPUT_RUNS.map((run) => (row.setBy.includes(run) ? 'yes' : code(row.otherwise ?? '')));
    lines.push(`| \`${name}\` | ${cells.join(' | ')} | ${row.description.replaceAll('|', '\\|')} |`);
  }
  return `${lines.join('\n')}\n`;
}

/** The docs' table of answer metrics. */
export function answerMetricsTable(): string {
  const lines = ['| metric | definition | better | graded test |', '|---|---|---|---|'];
  for (const metric of ANSWER_METRICS) {
    lines.push(
      `| \`${metric.name}\` | ${metric.definition.replaceAll('|', '\\|')} | ${metric.better === 'neither' ? '' : metric.better} | ${metric.graded ? 'yes' : ''} |`,
    );
  }
  return `${lines.join('\n')}\n`;
}

/** The docs' table of gates. */
export function gatesTable(): string {
  const lines = ['| gate | test | fails the check when | on by default |', '|---|---|---|---|'];
  for (const test of GATED_TESTS) lines.push(`| \`${test.gate}\` | \`${test.metric}\` (McNemar) | ${test.definition} | ${test.onByDefault ? 'yes' : ''} |`);
  for (const row of USAGE_GATES) lines.push(`| \`${row.gate}\` | \`${row.column}\` (paired randomization) | ${row.definition} | |`);
  return `${lines.join('\n')}\n`;
}

/** The docs' table of what a question cost: each usage measure, the fields it reads, its scale and its metrics. */
export function usageMetricsTable(): string {
  const lines = ['| measure | compared on | metrics |', '|---|---|---|'];
  for (const measure of USAGE_MEASURES) {
    const total = usageTotalMetric(measure);
    const names = [...USAGE_QUANTILES.map((q) => usageQuantileMetric(measure, q)), usageMeanMetric(measure), ...(total === undefined ? [] : [total])];
    lines.push(
      `| ${measure.definition} | ${measure.scale === 'log' ? 'log scale (ratios)' : 'its own scale (amounts)'} | ${names.map((name) => `\`${name}\``).join(', ')} |`,
    );
  }
  return `${lines.join('\n')}\n`;
}

const cell = (text: string) => text.replaceAll('|', '\\|');

/** The docs' table of retrieval metrics: one row per family, named with what may follow `@`. */
export function retrievalMetricsTable(): string {
  const lines = ['| metric | definition | trec_eval |', '|---|---|---|'];
  for (const row of RETRIEVAL_METRIC_ROWS) lines.push(`| \`${row.name}\` | ${cell(row.definition)} | ${cell(row.trecEval)} |`);
  return `${lines.join('\n')}\n`;
}

/** The docs' table of a result record's fields: type, the other tools' names read as the field, meaning. */
export function recordFieldsTable(): string {
  const lines = ['| field | type | also read from | meaning |', '|---|---|---|---|'];
  for (const [field, row] of Object.entries(RECORD_FIELD_ROWS)) {
    const aliases = row.aliases.map((alias) => `\`${alias}\``).join(', ');
    lines.push(`| \`${field}\` | ${cell(row.type)} | ${aliases} | ${cell(row.meaning)} |`);
  }
  return `${lines.join('\n')}\n`;
}

/** The docs' table of other tools' fields read past on purpose, and why. */
export function ignoredFieldsTable(): string {
  const lines = ['| read past, with a note | why |', '|---|---|'];
  for (const [field, why] of IGNORED_FIELDS) lines.push(`| \`${field}\` | ${cell(why.replaceAll('`', ''))} |`);
  return `${lines.join('\n')}\n`;
}

/** The docs' list of results formats. */
export function resultsFormatsTable(): string {
  const lines = ['| `--format` | what it reads |', '|---|---|', '| `auto` (default) | each file by its extension (`.csv`, `.tsv`) and its content |'];
  for (const format of RESULTS_FORMATS) lines.push(`| \`${format.name}\` | ${format.description} |`);
  return `${lines.join('\n')}\n`;
}

/** Every README section made from a catalog, by marker name. */
export const README_TABLES: Readonly<Record<string, () => string>> = {
  settings: settingsTable,
  outputs: outputsTable,
  'answer-metrics': answerMetricsTable,
  'usage-metrics': usageMetricsTable,
  gates: gatesTable,
  'retrieval-metrics': retrievalMetricsTable,
  'record-fields': recordFieldsTable,
  'ignored-fields': ignoredFieldsTable,
  'results-formats': resultsFormatsTable,
};

/** A page with every catalog table whose markers it holds made anew; pages without markers come back as they are. */
export function withCatalogTables(page: string): string {
  return Object.entries(README_TABLES).reduce(
    (out, [name, table]) => (out.includes(`<!-- ${name}:start -->`) ? replaceBetweenMarkers(out, name, table()) : out),
    page,
  );
}

export function replaceBetweenMarkers(document: string, name: string, body: string): string {
  const start = `<!-- ${name}:start -->\n`;
  const end = `<!-- ${name}:end -->`;
  const from = document.indexOf(start);
  const to = document.indexOf(end);
  if (from < 0 || to < from) throw new Error(`no ${start.trim()} … ${end} in the document`);
  return `${document.slice(0, from + start.length)}${body}${document.slice(to)}`;
}

/** action.yml with its `inputs:` block made anew from the catalog. */
export function actionYmlWithInputs(actionYml: string): string {
  const from = actionYml.indexOf('\ninputs:\n');
  const to = actionYml.indexOf('\noutputs:\n');
  if (from < 0 || to < from) throw new Error('action.yml has no inputs: block before outputs:');
  return `${actionYml.slice(0, from + 1)}${actionInputsYaml()}${actionYml.slice(to)}`;
}

/** action.yml with its `outputs:` block made anew from the catalog. */
export function actionYmlWithOutputs(actionYml: string): string {
  const from = actionYml.indexOf('\noutputs:\n');
  const to = actionYml.indexOf('\nruns:\n');
  if (from < 0 || to < from) throw new Error('action.yml has no outputs: block before runs:');
  return `${actionYml.slice(0, from + 1)}${actionOutputsYaml()}${actionYml.slice(to)}`;
}
