import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { SETTINGS } from '../../../src/core/catalog/settings.js';
import { F1_THRESHOLD, LEXICAL_RULE_SHARE, SHORT_ANSWER_TOKENS } from '../../../src/core/init/proposal.js';
import { ROOT } from '../../helpers/cli.js';
import { runCli, tempDir, writeJsonl } from '../../helpers/files.js';

const RAGAS_BASE = join(ROOT, 'examples/ragas/base.csv');
const RAGAS_HEAD = join(ROOT, 'examples/ragas/head.csv');
const CONFIG = 'rag-gate.yml';
const WORKFLOW = '.github/workflows/rag-gate.yml';

interface Step {
  readonly uses?: string;
  readonly run?: string;
  readonly if?: string;
  readonly with?: Record<string, string | boolean>;
}
interface Workflow {
  readonly on: { push: { branches: string[] }; pull_request: { types: string[] } };
  readonly permissions: Record<string, string>;
  readonly jobs: Record<string, { needs?: string; strategy?: { matrix: { shard: number[] } }; steps: Step[] }>;
}

const read = (dir: string, file: string) => readFileSync(join(dir, file), 'utf8');

/** The action's major tag, which the release workflow moves with each version (v0 for 0.1.0). */
const ACTION = `rag-gate/rag-gate@v${(JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version.split('.')[0]}`;

describe('rag-gate init on the shipped Ragas export', () => {
  it('writes a config of catalog keys that says why, and a workflow with the documented permissions and steps', async () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'evals'));
    const results = join(dir, 'evals/results.csv');
    copyFileSync(RAGAS_BASE, results);
    const run = await runCli(['init', '--results', results, '--dir', dir]);
    expect(run.code, run.stderr).toBe(0);

    const configText = read(dir, CONFIG);
    const config = parse(configText) as Record<string, unknown>;
    // Only keys of the settings catalog that rag-gate.yml may hold.
    for (const key of Object.keys(config)) expect(SETTINGS[key as keyof typeof SETTINGS]?.config, key).toBe(true);
    expect(config).toEqual({ correct: 'contains', 'fail-on': ['score:context_recall', 'end-to-end'] });
    // The reasons, beside the keys and in the output.
    expect(configText).toContain('#   no record carries gold documents (relevant_ids) or gold contexts (reference_contexts): rag-gate cannot measure');
    expect(configText).toContain('contains passes 38 of 40 answers and f1:0.5 passes 13');
    expect(configText).toContain('#   no record has an id: the id is derived from the question text');
    expect(run.stdout).toContain("The file's context_recall score stands in for it (gated below).");
    expect(run.stdout).toContain('median 2 words');
    expect(run.stdout).toContain('Holm-corrected) in score:context_recall or end-to-end fails the check.');
    expect(run.stdout).not.toContain('could not decide');
    expect(run.stdout).toContain('add `eval` (the eval job of the rag-gate workflow)');
    expect(run.stdout).toContain('/rag-gate.yml        @your-org/maintainers');

    const workflow = parse(read(dir, WORKFLOW)) as Workflow;
    expect(workflow.on).toEqual({ push: { branches: ['main'] }, pull_request: { types: ['opened', 'synchronize', 'reopened', 'labeled'] } });
    // The README's permissions: no statuses: write, which only a workflow_run gate needs.
    expect(workflow.permissions).toEqual({ contents: 'read', actions: 'read', 'pull-requests': 'write' });
    const steps = workflow.jobs.eval!.steps;
    expect(steps.map((step) => step.uses ?? 'run')).toEqual(['actions/checkout@v4', 'run', ACTION, 'actions/upload-artifact@v4']);
    // The placeholder fails until it is replaced: a forgotten one cannot pass as a gate.
    expect(steps[1]!.run).toBe('echo "rag-gate init left this step for your pipeline: replace it (see the comment above it)" >&2\nexit 1\n');
    expect(read(dir, WORKFLOW)).toContain('# REPLACE this step with your pipeline: it answers the golden set and writes evals/results.csv.');
    expect(steps[2]!.with).toEqual({ results: 'evals/results.csv' });
    expect(steps[3]).toEqual({
      uses: 'actions/upload-artifact@v4',
      if: "github.event_name == 'push'",
      with: { name: 'rag-gate-results', path: 'evals/results.csv\nrag-gate-history.json\n', overwrite: true },
    });
  });

  it('writes a config that compare reads back, gating both proposed gates', async () => {
    const dir = tempDir();
    expect((await runCli(['init', '--results', RAGAS_BASE, '--dir', dir])).code).toBe(0);
    const run = await runCli(['compare', '--base', RAGAS_BASE, '--head', RAGAS_HEAD, '--config', join(dir, CONFIG)]);
    expect(run.code, run.stderr).toBe(1);
    expect(run.stdout).toContain('the score context_recall (not calibrated here, gated because fail-on names it) regressed significantly');
    expect(run.stdout).toContain('end-to-end regressed significantly: correct 0.950 → 0.725');
    const printed = await runCli(['compare', '--config', join(dir, CONFIG), '--print-config']);
    expect(printed.stdout).toMatch(/fail-on\s+score:context_recall,end-to-end\s+\S+rag-gate\.yml:\d+/);
  });

  it('states the proposal rules docs/cli.md describes', () => {
    const docs = readFileSync(join(ROOT, 'docs/cli.md'), 'utf8').replace(/\s+/g, ' ');
    expect(docs).toContain(
      `\`contains\` when the expected answers are short (a median of ${SHORT_ANSWER_TOKENS} words or fewer), token F1 ≥ ${F1_THRESHOLD} when they are long`,
    );
    expect(docs).toContain(`passes fewer than half`);
    expect(LEXICAL_RULE_SHARE).toBe(0.5);
    expect(docs).toContain(`rag-gate as \`${ACTION}\``);
  });

  it('names the workflow’s results file by its name when it lies outside --dir, and says so', async () => {
    const dir = tempDir();
    const run = await runCli(['init', '--results', RAGAS_BASE, '--dir', dir]);
    expect(run.stdout).toContain(`the results file lies outside ${dir}: the workflow names it base.csv; write it there.`);
    expect((parse(read(dir, WORKFLOW)) as Workflow).jobs.eval!.steps[2]!.with).toEqual({ results: 'base.csv' });
  });
});

describe('rag-gate init proposals', () => {
  it('with gold document ids: retrieval ok when every gold document is among those retrieved', async () => {
    const dir = tempDir();
    const run = await runCli(['init', '--results', join(ROOT, 'examples/base.jsonl'), '--dir', dir]);
    expect(run.code, run.stderr).toBe(0);
    expect(parse(read(dir, CONFIG))).toEqual({ 'retrieval-ok': 'recall@4>=1', 'fail-on': ['retrieval', 'end-to-end'] });
    expect(run.stdout).toContain('180 records carry gold document ids (relevant_ids), and a record retrieves at most 4 documents');
    expect(run.stdout).toContain('every record says whether its answer is correct (correct): no rule needed.');
    const compare = await runCli([
      'compare',
      '--base',
      join(ROOT, 'examples/base.jsonl'),
      '--head',
      join(ROOT, 'examples/head.jsonl'),
      '--config',
      join(dir, CONFIG),
    ]);
    expect(compare.code, compare.stderr).toBe(1);
    expect(compare.stdout).toContain('retrieval regressed significantly: retrieval ok (recall@4>=1)');
  });

  it('maps other names to the fields rag-gate reads, and eval reads the file under them', async () => {
    const dir = tempDir();
    const records = Array.from({ length: 30 }, (_, i) => ({
      qid: `q${i}`,
      prompt: `Question ${i}?`,
      generated_answer: `The answer is ${i} units of storage`,
      gold_answer: `${i} units`,
      retrieved_ids: [`d${i}`, `d${i + 1}`, `d${i + 2}`],
      relevant_ids: [`d${i + 1}`],
    }));
    const results = writeJsonl(dir, 'dump.jsonl', records);
    const run = await runCli(['init', '--results', results, '--dir', dir]);
    expect(run.code, run.stderr).toBe(0);
    expect(parse(read(dir, CONFIG))).toEqual({
      fields: { id: 'qid', question: 'prompt', answer: 'generated_answer', expected_answer: 'gold_answer' },
      'retrieval-ok': 'recall@3>=1',
      correct: 'contains',
      'fail-on': ['retrieval', 'end-to-end'],
    });
    expect(run.stdout).toContain('"prompt" is read as question: another tool\'s name for it.');
    const evaluated = await runCli(['eval', '--results', results, '--config', join(dir, CONFIG), '--json']);
    expect(evaluated.code, evaluated.stderr).toBe(0);
    expect(evaluated.stderr).toBe('');
    expect(JSON.parse(evaluated.stdout).metrics.correct).toBe(1);
  });

  it('two fields that could be one of ours: exit 2 saying so, and --field decides', async () => {
    const dir = tempDir();
    const records = Array.from({ length: 30 }, (_, i) => ({ id: `q${i}`, prompt: `Q${i}?`, Question: `Question ${i}?`, answer: 'A.' }));
    const results = writeJsonl(dir, 'two.jsonl', records);
    const run = await runCli(['init', '--results', results, '--dir', dir]);
    expect(run.code).toBe(2);
    expect(run.stderr.split('\n').slice(0, 3)).toEqual([
      'rag-gate: error: bad input',
      `${results}: question: could not decide which of "prompt", "Question" is question: map one with --field question=YOUR_FIELD.`,
      // The reader's own hint follows: it sees one of the two.
      `${results}:1: question: is required, and all 30 records lack it but carry "Question": did you mean "question"? Rename that field, or map it with --field question=Question (fields: {question: Question} in rag-gate.yml)`,
    ]);
    expect(readdirSync(dir)).toEqual(['two.jsonl']);
    const decided = await runCli(['init', '--results', results, '--dir', dir, '--field', 'question=prompt']);
    expect(decided.code, decided.stderr).toBe(0);
    expect((parse(read(dir, CONFIG)) as { fields: unknown }).fields).toEqual({ question: 'prompt' });
    expect(decided.stdout).toContain('"prompt" is read as question: as you mapped it (--field).');
    expect(decided.stdout).toContain('not read (no field of rag-gate\'s, not a number): "Question".');
    const bad = await runCli(['init', '--results', results, '--dir', dir, '--field', 'questoin=prompt']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe('rag-gate: error: option --field: "questoin" is not a field of the results format; did you mean "question"?\n');
  });

  it('says in the file and the output what it could not decide', async () => {
    const dir = tempDir();
    const results = writeJsonl(
      dir,
      'bare.jsonl',
      Array.from({ length: 5 }, (_, i) => ({ id: `q${i}`, question: `Q${i}?`, answer: 'An answer.', note: 'x' })),
    );
    const run = await runCli(['init', '--results', results, '--dir', dir]);
    expect(run.code, run.stderr).toBe(0);
    const config = read(dir, CONFIG);
    expect(parse(config)).toEqual({ 'fail-on': [] });
    expect(config).toContain('# Retrieval (rag-gate init could not decide: see below):');
    expect(config).toContain('# Correctness (rag-gate init could not decide: see below):');
    expect(config).toContain('# Size (rag-gate init could not decide: see below):');
    expect(config).toContain('not read (no field of rag-gate\'s, not a number): "note".');
    expect(run.stdout).toContain('rag-gate init could not decide: retrieval, correctness, gates, size; the config says so in comments.');
  });
});

describe('rag-gate init writes both files or neither', () => {
  it('refuses to overwrite an existing file without --force: exit 2, naming it, nothing written', async () => {
    const dir = tempDir();
    mkdirSync(join(dir, '.github/workflows'), { recursive: true });
    writeFileSync(join(dir, WORKFLOW), 'mine\n');
    const run = await runCli(['init', '--results', RAGAS_BASE, '--dir', dir]);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      `rag-gate: error: bad input\n${join(dir, WORKFLOW)}: exists already; rag-gate init writes nothing over it without --force (nothing was written)\n`,
    );
    expect(run.stdout).toBe('');
    expect(existsSync(join(dir, CONFIG))).toBe(false);
    expect(read(dir, WORKFLOW)).toBe('mine\n');

    const forced = await runCli(['init', '--results', RAGAS_BASE, '--dir', dir, '--force']);
    expect(forced.code, forced.stderr).toBe(0);
    expect(read(dir, WORKFLOW)).toContain(`uses: ${ACTION}`);
    expect(existsSync(join(dir, CONFIG))).toBe(true);
  });

  it('--dry-run prints both files as a run writes them, and writes nothing', async () => {
    const dry = tempDir();
    const run = await runCli(['init', '--results', RAGAS_BASE, '--dir', dry, '--dry-run']);
    expect(run.code, run.stderr).toBe(0);
    expect(readdirSync(dry)).toEqual([]);
    const wet = tempDir();
    const written = await runCli(['init', '--results', RAGAS_BASE, '--dir', wet]);
    expect(run.stdout).toContain(`--- ${join(dry, CONFIG)}\n${read(wet, CONFIG)}`);
    expect(run.stdout).toContain(`--- ${join(dry, WORKFLOW)}\n${read(wet, WORKFLOW)}`);
    expect(run.stdout).toContain('Dry run: nothing written;');
    expect(written.stdout).toContain(`Wrote rag-gate.yml and .github/workflows/rag-gate.yml in ${wet}.`);
  });

  it('bad input exits 2 naming file, line and field, and writes nothing', async () => {
    const dir = tempDir();
    const missing = await runCli(['init', '--results', join(dir, 'nope.csv'), '--dir', dir]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain(`${join(dir, 'nope.csv')}: `);
    const broken = join(dir, 'broken.jsonl');
    writeFileSync(broken, '{"question": "a?"}\n{"question": 7}\n');
    const bad = await runCli(['init', '--results', broken, '--dir', dir]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe(`rag-gate: error: bad input\n${broken}:2: question: is required and must be a string\n`);
    expect(readdirSync(dir).sort()).toEqual(['broken.jsonl']);
    const shards = await runCli(['init', '--results', RAGAS_BASE, '--dir', dir, '--shards', '0']);
    expect(shards.code).toBe(2);
    expect(shards.stderr).toContain("option '--shards <n>' argument '0' is invalid. must be a whole number from 1 to 256.");
  });
});

describe('rag-gate init --shards', () => {
  it('writes a matrix of shard jobs and a gate job that gathers them, as docs/github-actions.md shows', async () => {
    const dir = tempDir();
    const run = await runCli(['init', '--results', RAGAS_BASE, '--dir', dir, '--shards', '3', '--branch', 'trunk']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('add `gate` (the gate job of the rag-gate workflow)');
    const workflow = parse(read(dir, WORKFLOW)) as Workflow;
    expect(workflow.on.push.branches).toEqual(['trunk']);
    const { eval: shardJob, gate } = workflow.jobs;
    expect(shardJob!.strategy!.matrix.shard).toEqual([1, 2, 3]);
    expect(shardJob!.steps.at(-1)).toEqual({
      uses: 'actions/upload-artifact@v4',
      with: { name: 'rag-gate-shard-${{ matrix.shard }}', path: 'shard-${{ matrix.shard }}.csv', overwrite: true },
    });
    expect(gate!.needs).toBe('eval');
    expect(gate!.steps.map((step) => step.uses)).toEqual(['actions/checkout@v4', 'actions/download-artifact@v4', ACTION, 'actions/upload-artifact@v4']);
    expect(gate!.steps[1]!.with).toEqual({ pattern: 'rag-gate-shard-*', path: 'results', 'merge-multiple': true });
    expect(gate!.steps[2]!.with).toEqual({ results: 'results/shard-*.csv' });
    expect(gate!.steps[3]).toMatchObject({ if: "github.event_name == 'push'", with: { name: 'rag-gate-results', overwrite: true } });
    expect(gate!.steps[3]!.with!.path).toBe('results/\nrag-gate-history.json\n');
  });
});
