import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * Parity with trec_eval: runs the bundled CLI exactly as a user would on each qrels/run pair in
 * test/fixtures/trec/ and compares every per-query and aggregate value with the numbers trec_eval
 * printed for the same files (NAME.expected.json; its `generatedBy` field holds the exact commands).
 *
 * The expected values come from trec_eval 10.0 (usnistgov/trec_eval) run with `-c -q`, from a local
 * build whose printf format was widened from %6.4f to %.17g, so they carry full double precision.
 * They are compared within TOLERANCE = 1e-9: far below any real disagreement (a wrong tie-break,
 * cut-off or ideal DCG moves a value by > 1e-4), yet above the ~1e-15 noise that summation order or
 * a different log2 implementation can cause. (Stock trec_eval prints 4 decimals, which would only
 * allow a 5e-5 tolerance.)
 *
 * Name mapping: P_k → precision@k, recall_k → recall@k, set_recall → recall, success_k → hit@k,
 * recip_rank → mrr, recip_rank under -M k → mrr@k, map → map, map_cut_k → map@k, ndcg → ndcg,
 * ndcg_cut_k → ndcg@k, ndcg with gains 0=0,1=1,2=3,3=7 → ndcg_exp, ndcg_cut on qrels with grades
 * rewritten to those gains → ndcg_exp@k, Rprec → r_precision.
 *
 * Regenerate random.{qrels,run} with scripts/gen-trec-fixture.mjs; the expected files are produced
 * outside the repo from a trec_eval build and must be regenerated together with any fixture change.
 */

const TOLERANCE = 1e-9;

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const FIXTURE_DIR = 'test/fixtures/trec';

/** Every fixture must be present: a missing pair fails instead of silently shrinking the test. */
const FIXTURES = ['ties', 'missing', 'norel', 'short', 'graded', 'negative', 'random'] as const;

/** Metric families, each checked by its own CLI call so one broken family cannot hide another. */
const FAMILIES = ['precision', 'recall', 'hit', 'mrr', 'map', 'ndcg', 'ndcg_exp', 'r_precision'] as const;

type Scores = Record<string, number>;

interface Expected {
  generatedBy: string;
  queries: number;
  aggregate: Scores;
  perQuery: Record<string, Scores>;
}

interface CliOutput {
  queries: number;
  aggregate: Scores;
  perQuery: Record<string, Scores>;
}

function loadExpected(name: string): Expected {
  const text = readFileSync(`${ROOT}/${FIXTURE_DIR}/${name}.expected.json`, 'utf8');
  return JSON.parse(text) as Expected;
}

function familyOf(metric: string): string {
  return metric.split('@')[0] ?? metric;
}

function runCli(name: string, metrics: readonly string[]): CliOutput {
  const result = spawnSync(
    process.execPath,
    [
      'dist/cli.js',
      'trec',
      '--qrels',
      `${FIXTURE_DIR}/${name}.qrels`,
      '--run',
      `${FIXTURE_DIR}/${name}.run`,
      '--metrics',
      metrics.join(','),
      '--per-query',
      '--json',
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
  it('has the bundled CLI to run', () => {
    expect(existsSync(`${ROOT}/dist/cli.js`)).toBe(true);
  });

  for (const name of FIXTURES) {
    describe(name, () => {
      const expected = loadExpected(name);
      const metrics = Object.keys(expected.aggregate);
      const qids = Object.keys(expected.perQuery).sort();

      it('has a non-trivial expected file covering every metric family', () => {
        expect(existsSync(`${ROOT}/${FIXTURE_DIR}/${name}.qrels`)).toBe(true);
        expect(existsSync(`${ROOT}/${FIXTURE_DIR}/${name}.run`)).toBe(true);
        expect(expected.generatedBy).toMatch(/^trec_eval /);
        expect(expected.queries).toBeGreaterThan(0);
        expect(qids).toHaveLength(expected.queries);
        expect(metrics.length).toBeGreaterThan(0);
        expect(new Set(metrics.map(familyOf))).toEqual(new Set(FAMILIES));
        for (const qid of qids) expect(Object.keys(expected.perQuery[qid] ?? {}).sort()).toEqual([...metrics].sort());
      });

      for (const family of FAMILIES) {
        it(`matches trec_eval on ${family}`, () => {
          const wanted = metrics.filter((m) => familyOf(m) === family);
          expect(wanted.length).toBeGreaterThan(0);

          const actual = runCli(name, wanted);

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

  // The worked examples the graded fixture was built around, pinned so the fixture cannot drift.
  it('graded fixture holds the worked examples', () => {
    const graded = loadExpected('graded');
    expect(graded.perQuery.g1?.['ndcg@5']).toBeCloseTo(0.825, 3); // ranked grades [2,0,3,1,0]
    expect(graded.perQuery.g2?.map).toBeCloseTo(0.639, 3); // relevant at ranks 1, 3, 12
    expect(graded.perQuery.g3?.map).toBeCloseTo(0.45, 3); // relevant at ranks 2, 5
  });
});
