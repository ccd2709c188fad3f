import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { uniform53 } from '../../../src/core/stats/multinomial.js';
import { Random } from '../../../src/core/stats/random.js';
import { jsonl, runBin, runMain, scratchDir } from '../../helpers/cli.js';

/**
 * `compare` and `eval` on results that carry what each question cost: 60 questions, each with a true latency,
 * tokens and cost, every run's value that times log-normal noise of 20%; head's latency 1.3× base's.
 */

const scratch = scratchDir();
afterAll(() => scratch.cleanup());

type Row = Record<string, unknown>;
const QUESTIONS = 60;

function normal(random: Random): number {
  return Math.sqrt(-2 * Math.log(1 - uniform53(random))) * Math.cos(2 * Math.PI * uniform53(random));
}

/** One run's records: latency `latencyFactor` times the truth, tokens and cost as they are, each with noise. */
function records(seed: string, latencyFactor: number, run?: number): Row[] {
  const truth = new Random('truth');
  const random = new Random(seed);
  return Array.from({ length: QUESTIONS }, (_, i) => {
    const latency = 300 * 10 ** uniform53(truth);
    const tokens = 500 * 10 ** uniform53(truth);
    const noise = () => Math.exp(0.2 * normal(random));
    return {
      id: `q${i}`,
      question: `What is fact ${i}?`,
      correct: true,
      latency_ms: +(latency * latencyFactor * noise()).toFixed(1),
      prompt_tokens: Math.round(tokens * 0.8 * noise()),
      completion_tokens: Math.round(tokens * 0.2),
      cost_usd: +(tokens * 2e-6 * noise()).toFixed(7),
      ...(run === undefined ? {} : { run }),
    };
  });
}

const strip = (rows: readonly Row[]) => rows.map(({ latency_ms: _l, prompt_tokens: _p, completion_tokens: _c, cost_usd: _u, ...row }) => row);

let counter = 0;
function files(base: readonly Row[], head: readonly Row[]) {
  counter++;
  return {
    base: scratch.file(`base-${counter}.jsonl`, jsonl(base)),
    head: scratch.file(`head-${counter}.jsonl`, jsonl(head)),
    markdown: `${scratch.dir}/comment-${counter}.md`,
  };
}

describe('compare --fail-on latency', () => {
  it('exits 1 on a head 1.3× slower on every question, naming the ratio and p', () => {
    const given = files(records('base', 1), records('head', 1.3));
    const run = runBin(['compare', '--base', given.base, '--head', given.head, '--fail-on', 'latency', '--markdown', given.markdown]);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(
      /latency rose significantly beyond its tolerance: geometric-mean ratio ×1\.\d\d \(95% CI ×1\.\d\d to ×1\.\d\d\), tolerance 10%, p = [\d.e-]+, Holm-adjusted [\d.e-]+ < α 0\.05/,
    );
    const comment = readFileSync(given.markdown, 'utf8');
    expect(comment).toContain('### ❌ rag-gate: latency rose significantly beyond tolerance');
    expect(comment).toMatch(/\*\*Latency p95 [\d.]+ s → [\d.]+ s\*\*: geometric-mean ratio ×1\.\d\d \(95% CI/);
    // The row in the tests table, flagged as every failing gate's is; the questions that rose most, folded.
    expect(comment).toMatch(/\| latency p95 .* \| ❌ gate \|/);
    expect(comment).toContain('<details><summary>Questions whose latency rose most</summary>');
    // Tokens and cost did not move: the one line says so, with each dollar amount in a code span.
    expect(comment).toMatch(/\nTokens [\d,]+ → [\d,]+ a question, cost `\$[\d.]+` → `\$[\d.]+` a question: no significant change\.\n/);
  });

  it('exits 0 on the same pair at 1.0×, with one line under the verdict and no row', async () => {
    const given = files(records('base', 1), records('head', 1));
    const run = await runMain(['compare', '--base', given.base, '--head', given.head, '--fail-on', 'latency,cost,tokens', '--markdown', given.markdown]);
    expect(run.code).toBe(0);
    const comment = readFileSync(given.markdown, 'utf8');
    expect(comment).toMatch(
      /\nLatency p95 [\d.]+ s → [\d.]+ s, tokens [\d,]+ → [\d,]+ a question, cost `\$[\d.]+` → `\$[\d.]+` a question: no significant change\.\n/,
    );
    expect(comment).not.toMatch(/\| latency p95/);
    expect(comment).not.toContain('rose most');
  });

  it('only warns on a significant rise within latency-tolerance', async () => {
    const given = files(records('base', 1), records('head', 1.3));
    const run = await runMain([
      'compare',
      '--base',
      given.base,
      '--head',
      given.head,
      '--fail-on',
      'latency',
      '--latency-tolerance',
      '50%',
      '--markdown',
      given.markdown,
    ]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/latency rose significantly but within its tolerance, so it only warns: geometric-mean ratio ×1\.\d\d/);
    const comment = readFileSync(given.markdown, 'utf8');
    expect(comment).toContain('### ✅ rag-gate: no regression beyond the tolerance');
    expect(comment).toContain('The rise is within the 50% tolerance, so it only warns.');
    expect(comment).toMatch(/\| latency p95 .* \| ⚠️ gate, within the 50% tolerance \|/);
  });

  it('is bad input (exit 2) when neither run carries a latency, and fails when only the head lost it', async () => {
    const plain = files(strip(records('base', 1)), strip(records('head', 1)));
    const none = await runMain(['compare', '--base', plain.base, '--head', plain.head, '--fail-on', 'latency']);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('fail-on names latency, but neither run carries what it needs: latency (latency_ms)');
    const lost = files(records('base', 1), strip(records('head', 1)));
    const run = await runMain(['compare', '--base', lost.base, '--head', lost.head, '--fail-on', 'latency', '--json']);
    expect(run.code).toBe(1);
    expect(JSON.parse(run.stdout).reasons).toEqual([expect.objectContaining({ kind: 'gate-data-lost', gate: 'latency', columns: ['latency_ms'] })]);
  });

  it('changes nothing for results without what a question cost', async () => {
    const given = files(strip(records('base', 1)), strip(records('head', 1)));
    const run = await runMain(['compare', '--base', given.base, '--head', given.head, '--json', '--markdown', given.markdown]);
    expect(run.code).toBe(0);
    const json = JSON.parse(run.stdout);
    expect(json.tests.map((t: { kind: string }) => t.kind)).toEqual(['mcnemar']);
    expect(Object.keys(json.head.metrics).filter((name) => /latency|tokens|cost/.test(name))).toEqual([]);
    expect(readFileSync(given.markdown, 'utf8')).not.toMatch(/latency|tokens|cost/i);
  });
});

describe('with repeats', () => {
  it('estimates the noise floor from each question’s runs', async () => {
    const base = [1, 2, 3].flatMap((run) => records(`base-${run}`, 1, run));
    const head = [1, 2, 3].flatMap((run) => records(`head-${run}`, 1.3, run));
    const given = files(base, head);
    const run = await runMain(['compare', '--base', given.base, '--head', given.head, '--fail-on', 'latency', '--json']);
    expect(run.code).toBe(1);
    const latency = JSON.parse(run.stdout).tests.find((t: { metric: string }) => t.metric === 'latency_ms');
    expect(latency.noise.questions).toBe(QUESTIONS);
    // Head is 1.3× on every question: nearly all rose beyond 10%, where noise of 20% a run (over 3 runs a side) makes few do so.
    expect(latency.noise.rose).toBeGreaterThan(45);
    expect(latency.noise.expected).toBeGreaterThan(1);
    expect(latency.noise.expected).toBeLessThan(15);
  });
});

describe('eval', () => {
  it('reports p50, p90, p95 and mean of each with intervals, and totals of tokens and cost', async () => {
    const given = files(records('base', 1), records('head', 1));
    const run = await runMain(['eval', '--results', given.base, '--json']);
    expect(run.code).toBe(0);
    const { metrics, details } = JSON.parse(run.stdout);
    for (const name of ['latency_p50', 'latency_p90', 'latency_p95', 'latency_mean', 'cost_per_question', 'cost_total', 'tokens_total', 'prompt_tokens_p95']) {
      expect(metrics[name]).toBeGreaterThan(0);
    }
    expect(details.latency_p95.ci[0]).toBeLessThanOrEqual(metrics.latency_p95);
    expect(details.latency_p95.ci[1]).toBeGreaterThanOrEqual(metrics.latency_p95);
    const rows = records('base', 1);
    const sum = (field: string) => rows.reduce((total, row) => total + (row[field] as number), 0);
    expect(metrics.cost_total).toBeCloseTo(sum('cost_usd'), 10);
    expect(metrics.tokens_total).toBe(sum('prompt_tokens') + sum('completion_tokens'));
    const text = await runMain(['eval', '--results', given.head]);
    expect(text.stdout).toMatch(
      /Latency, tokens and cost \(a question; 95% bootstrap intervals\)\n {2}measure +p50 +p90 +p95 +mean +total +n\n {2}latency +[\d.]+ (s|ms) \[/,
    );
  });
});

describe('the fields, from other tools', () => {
  it('CSV columns, under OpenAI and LangSmith names too', async () => {
    const csv = scratch.file(
      'usage.csv',
      ['id,question,latency_ms,input_tokens,output_tokens,total_cost', 'q1,One?,1200,800,50,0.002', 'q2,Two?,800.5,700,nan,0.001', 'q3,Three?,,900,40,'].join(
        '\n',
      ),
    );
    const run = await runMain(['eval', '--results', csv, '--json']);
    expect(run.code).toBe(0);
    const { metrics, details } = JSON.parse(run.stdout);
    expect(metrics).toMatchObject({ latency_p50: 1000.25, prompt_tokens_total: 2400, completion_tokens_total: 90, cost_total: 0.003, tokens_total: 2490 });
    expect(details.latency_mean.n).toBe(2);
    expect(details.cost_per_question).toMatchObject({ value: 0.0015, n: 2 });
  });

  it('a bad value: the file, the line and the field', async () => {
    const bad = scratch.file('bad.jsonl', jsonl([{ id: 'q1', question: 'One?', latency_ms: -3 }]));
    const run = await runMain(['eval', '--results', bad]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/bad\.jsonl:1.*latency_ms.*must be the end-to-end latency in milliseconds, a number 0 or more/);
  });
});
