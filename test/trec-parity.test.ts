import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { BUNDLED_CLI } from './helpers/bundles.js';

/**
 * Parity with trec_eval: runs the bundled CLI exactly as a user would on each qrels/run pair in
 * test/fixtures/trec/, in each of trec_eval's modes rag-gate mirrors, and compares every per-query and aggregate
 * value with the numbers trec_eval printed for the same files (NAME.MODE.expected.json: `flags` are rag-gate's
 * options for the mode, `generatedBy` the exact trec_eval commands).
 *
 * The expected values come from trec_eval 10.0 (usnistgov/trec_eval) run with `-q`, from a local build whose
 * printf format was widened from %6.4f to %.17g, so they carry full double precision; scripts/trec-eval-reference.mjs
 * writes them (and, run on trec_eval's own test folder, checks rag-gate on it the same way). They are compared
 * within TOLERANCE = 1e-9: far below any real disagreement (a wrong tie-break, cut-off or ideal DCG moves a value
 * by > 1e-4), yet above the ~1e-16 that summation order can cause; in practice nearly every value is identical to
 * the last bit.
 *
 * Modes: c (trec_eval -c, the default), l2 (--relevance-level 2, -l 2), M20 (--max-retrieved 20, -M 20),
 * J (--judged-only, -J), run (--average-over run: trec_eval without -c on the qrels' queries that the run has),
 * gains (--ndcg-gains, ndcg with those gains; ndcg@k against ndcg_cut on qrels rewritten to the gains).
 *
 * Name mapping: P_k → precision@k, recall_k → recall@k, set_recall → recall, success_k → hit@k,
 * recip_rank → mrr, recip_rank under -M k → mrr@k, map → map, map_cut_k → map@k, ndcg → ndcg,
 * ndcg_cut_k → ndcg@k, ndcg with gains 2^g − 1 → ndcg_exp, ndcg_cut on qrels with grades rewritten to those
 * gains → ndcg_exp@k, Rprec → r_precision, bpref, infAP → infap, iprec_at_recall_r → iprec@r, 11pt_avg,
 * set_P → set_precision, set_F → set_f1, num_ret, num_rel, num_rel_ret; judged@k (ir_measures' Judged@k) →
 * P_k on qrels where every line is relevant, times k / min(k, num_ret).
 *
 * Regenerate random.{qrels,run} with scripts/gen-trec-fixture.mjs and stress.{qrels,run} (comments, extra
 * columns, ties, grades −1…3) with scripts/gen-trec-stress.mjs; the expected files are produced from a trec_eval
 * build outside the repo and must be regenerated together with any fixture change.
 */

const TOLERANCE = 1e-9;

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const FIXTURE_DIR = 'test/fixtures/trec';

/** Every fixture must be present: a missing pair fails instead of silently shrinking the test. */
const FIXTURES = ['ties', 'missing', 'norel', 'short', 'graded', 'negative', 'random', 'stress'] as const;
const MODES = ['c', 'l2', 'M20', 'J', 'run', 'gains'] as const;

/** Metric families, each checked by its own test so one broken family cannot hide another. */
const FAMILIES = [
  'precision',
  'recall',
  'hit',
  'mrr',
  'map',
  'ndcg',
  'ndcg_exp',
  'r_precision',
  'bpref',
  'infap',
  'judged',
  'iprec',
  '11pt_avg',
  'set_precision',
  'set_f1',
  'num_ret',
  'num_rel',
  'num_rel_ret',
] as const;
/** The families a mode's expected file holds: gains change only ndcg; -J has no judged@k to speak of. */
const FAMILIES_OF_MODE: Record<(typeof MODES)[number], readonly string[]> = {
  c: FAMILIES,
  l2: FAMILIES,
  M20: FAMILIES,
  J: FAMILIES.filter((family) => family !== 'judged'),
  run: FAMILIES,
  gains: ['ndcg'],
};

type Scores = Record<string, number>;

interface Expected {
  generatedBy: string;
  flags: string[];
  queries: number;
  aggregate: Scores;
  perQuery: Record<string, Scores>;
}

interface CliOutput {
  queries: number;
  aggregate: Scores;
  perQuery: Record<string, Scores>;
}

function loadExpected(name: string, mode: string): Expected {
  const text = readFileSync(`${ROOT}/${FIXTURE_DIR}/${name}.${mode}.expected.json`, 'utf8');
  return JSON.parse(text) as Expected;
}

function familyOf(metric: string): string {
  return metric.split('@')[0] ?? metric;
}

function runCli(name: string, metrics: readonly string[], flags: readonly string[]): CliOutput {
  const result = spawnSync(
    process.execPath,
    [
      BUNDLED_CLI,
      'trec',
      '--qrels',
      `${FIXTURE_DIR}/${name}.qrels`,
      '--run',
      `${FIXTURE_DIR}/${name}.run`,
      '--metrics',
      metrics.join(','),
      '--per-query',
      '--json',
      ...flags,
    ],
    { cwd: ROOT, encoding: 'utf8' },
  );
  if (result.error) throw result.error;
  if (result.status !== 0) {
    throw new Error(`rag-gate trec exited with ${String(result.status)}\nstderr:\n${result.stderr}`);
  }
  try {
    return JSON.parse(result.stdout) as CliOutput;
  } catch {
    throw new Error(`rag-gate trec --json did not print JSON on stdout:\n${result.stdout}\nstderr:\n${result.stderr}`);
  }
}

/** Lists every value that is missing or differs by more than TOLERANCE, so a failure shows them all. */
function disagreements(where: string, expected: Scores, actual: Scores | undefined, metrics: readonly string[]): string[] {
  const out: string[] = [];
  for (const metric of metrics) {
    const want = expected[metric];
    if (want === undefined) {
      out.push(`${where} ${metric}: missing from the expected file`);
      continue;
    }
    const got = actual?.[metric];
    if (typeof got !== 'number' || !Number.isFinite(got)) {
      out.push(`${where} ${metric}: expected ${want}, got ${String(got)}`);
    } else if (Math.abs(got - want) > TOLERANCE) {
      out.push(`${where} ${metric}: expected ${want}, got ${got} (diff ${(got - want).toExponential(2)})`);
    }
  }
  return out;
}

describe('trec_eval parity', () => {
  for (const name of FIXTURES) {
    for (const mode of MODES) {
      describe(`${name} [${mode}]`, () => {
        const expected = loadExpected(name, mode);
        const metrics = Object.keys(expected.aggregate);
        const qids = Object.keys(expected.perQuery).sort();
        const families = FAMILIES_OF_MODE[mode];

        it('has a non-trivial expected file covering every metric family', () => {
          expect(existsSync(`${ROOT}/${FIXTURE_DIR}/${name}.qrels`)).toBe(true);
          expect(existsSync(`${ROOT}/${FIXTURE_DIR}/${name}.run`)).toBe(true);
          expect(expected.generatedBy).toMatch(/^trec_eval /);
          expect(expected.queries).toBeGreaterThan(0);
          expect(qids).toHaveLength(expected.queries);
          expect(new Set(metrics.map(familyOf))).toEqual(new Set(families));
          for (const qid of qids) expect(Object.keys(expected.perQuery[qid] ?? {}).sort()).toEqual([...metrics].sort());
        });

        // One CLI call per fixture and mode (hundreds would take minutes), checked family by family.
        let output: CliOutput | undefined;
        const cli = () => (output ??= runCli(name, metrics, expected.flags));

        for (const family of families) {
          it(`matches trec_eval on ${family}`, () => {
            const wanted = metrics.filter((m) => familyOf(m) === family);
            expect(wanted.length).toBeGreaterThan(0);

            const actual = cli();

            expect(actual.queries).toBe(expected.queries);
            expect(Object.keys(actual.perQuery ?? {}).sort()).toEqual(qids);

            const problems = [
              ...disagreements('aggregate', expected.aggregate, actual.aggregate, wanted),
              ...qids.flatMap((qid) => disagreements(`query ${qid}`, expected.perQuery[qid] ?? {}, actual.perQuery?.[qid], wanted)),
            ];
            expect(problems).toEqual([]);
          });
        }
      });
    }
  }

  // The worked examples the graded fixture was built around, pinned so the fixture cannot drift.
  it('graded fixture holds the worked examples', () => {
    const graded = loadExpected('graded', 'c');
    expect(graded.perQuery.g1?.['ndcg@5']).toBeCloseTo(0.825, 3); // ranked grades [2,0,3,1,0]
    expect(graded.perQuery.g2?.map).toBeCloseTo(0.639, 3); // relevant at ranks 1, 3, 12
    expect(graded.perQuery.g3?.map).toBeCloseTo(0.45, 3); // relevant at ranks 2, 5
  });
});
