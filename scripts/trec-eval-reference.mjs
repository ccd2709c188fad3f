// Runs trec_eval 10 on qrels/run pairs and turns its output into rag-gate's metric names, for every metric rag-gate
// has and every trec_eval mode it mirrors (-c, -l, -M, -J, without -c, ndcg gains). Two uses:
//
//   TREC_EVAL=/path/to/trec_eval node scripts/trec-eval-reference.mjs write NAME...
//       writes test/fixtures/trec/NAME.MODE.expected.json for test/fixtures/trec/NAME.{qrels,run}, the numbers
//       test/trec-parity.test.ts holds rag-gate to;
//   TREC_EVAL=/path/to/trec_eval node scripts/trec-eval-reference.mjs check DIR
//       runs the bundled CLI (dist/cli.js) on every qrels/run pair of trec_eval's own test folder DIR in every mode
//       and prints each disagreement beyond 1e-9 (none expected), without writing anything.
//
// TREC_EVAL must be a trec_eval 10 build whose printf format is widened from %6.4f to %.17g (in
// meas_print_single.c and meas_print_final.c), so that values carry full double precision. Nothing of trec_eval is
// kept in this repository: its output numbers only, for files written here.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const FIXTURES = join(ROOT, 'test/fixtures/trec');
const TREC_EVAL = process.env.TREC_EVAL;
const TOLERANCE = 1e-9;

const CUTOFFS = [1, 3, 5, 10, 100];
/** A gain table that is not monotone (grade 2 is worth less than 1) and gives judged non-relevant documents a gain. */
const CUSTOM_GAINS = { 0: 1, 1: 3, 2: 2, 3: 7 };

/**
 * The modes: rag-gate's flags and trec_eval's. `filterQrels` evaluates trec_eval on the qrels' queries that the run
 * has (trec_eval 10 without -c exits when a judged query is missing from the run; 9 and rag-gate skip it).
 */
const MODES = {
  c: { flags: [], trecEval: ['-c'] },
  l2: { flags: ['--relevance-level', '2'], trecEval: ['-c', '-l', '2'], level: 2 },
  M20: { flags: ['--max-retrieved', '20'], trecEval: ['-c', '-M', '20'], max: 20 },
  J: { flags: ['--judged-only'], trecEval: ['-c', '-J'], judgedOnly: true },
  run: { flags: ['--average-over', 'run'], trecEval: [], filterQrels: true },
  gains: {
    flags: [
      '--ndcg-gains',
      Object.entries(CUSTOM_GAINS)
        .map(([g, v]) => `${g}=${v}`)
        .join(','),
    ],
    trecEval: ['-c'],
    gainsOnly: true,
  },
};

const MEASURES = [
  'num_q',
  'num_ret',
  'num_rel',
  'num_rel_ret',
  'map',
  'Rprec',
  'bpref',
  'recip_rank',
  'iprec_at_recall',
  '11pt_avg',
  'infAP',
  'ndcg',
  'set_P',
  'set_recall',
  'set_F',
  `P.${CUTOFFS}`,
  `recall.${CUTOFFS}`,
  `success.${CUTOFFS}`,
  `map_cut.${CUTOFFS}`,
  `ndcg_cut.${CUTOFFS}`,
].flatMap((m) => ['-m', m]);

/** trec_eval's name → rag-gate's. */
function ragGateName(name) {
  const direct = {
    num_ret: 'num_ret',
    num_rel: 'num_rel',
    num_rel_ret: 'num_rel_ret',
    map: 'map',
    Rprec: 'r_precision',
    bpref: 'bpref',
    recip_rank: 'mrr',
    '11pt_avg': '11pt_avg',
    infAP: 'infap',
    ndcg: 'ndcg',
    set_P: 'set_precision',
    set_recall: 'recall',
    set_F: 'set_f1',
  };
  if (direct[name] !== undefined) return direct[name];
  const cut = /^(P|recall|success|map_cut|ndcg_cut)_(\d+)$/.exec(name);
  if (cut) return `${{ P: 'precision', recall: 'recall', success: 'hit', map_cut: 'map', ndcg_cut: 'ndcg' }[cut[1]]}@${cut[2]}`;
  const level = /^iprec_at_recall_(\d\.\d\d)$/.exec(name);
  if (level) return `iprec@${Number(level[1])}`;
  return undefined;
}

/** Runs trec_eval -q and returns {perQuery: {qid: {name: value}}, aggregate: {name: value}} under trec_eval's names. */
function trecEval(args, qrels, run) {
  const result = spawnSync(TREC_EVAL, ['-q', ...args, qrels, run], { encoding: 'utf8', maxBuffer: 1 << 28 });
  if (result.status !== 0) throw new Error(`trec_eval ${args.join(' ')} ${qrels} ${run} exited ${result.status}: ${result.stderr}`);
  const perQuery = {};
  const aggregate = {};
  for (const line of result.stdout.split('\n')) {
    if (line === '') continue;
    const [name, qid, text] = line.split('\t').map((field) => field.trim());
    const value = Number(text);
    if (qid === 'all') aggregate[name] = value;
    else (perQuery[qid] ??= {})[name] = value;
  }
  return { perQuery, aggregate };
}

/** Data lines of a TREC file as fields, comments and blank lines dropped (as rag-gate reads them). */
function dataLines(path) {
  return readFileSync(path, 'latin1')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => line.split(/\s+/));
}

/** Qrels rewritten grade by grade (`map` returns the new grade), written to the scratch folder. */
function rewriteQrels(qrels, scratch, suffix, map, keep = () => true) {
  const path = join(scratch, `${basename(qrels)}.${suffix}`);
  const lines = dataLines(qrels)
    .filter((fields) => keep(fields))
    .map(([qid, iter, docno, grade]) => `${qid} ${iter} ${docno} ${map(Number(grade))}`);
  writeFileSync(path, `${lines.join('\n')}\n`, 'latin1');
  return path;
}

/** trec_eval's name of ndcg with gains: `ndcg` per query, `ndcg_0=0,1=1,…` in the summary. */
const isNdcgWithGains = (name) => name === 'ndcg' || (name.startsWith('ndcg_') && name.includes('='));

/** Copies one trec_eval result's values into `into` under rag-gate's names (`rename` for special cases). */
function collect(into, result, rename = ragGateName) {
  for (const [qid, values] of Object.entries(result.perQuery)) {
    for (const [name, value] of Object.entries(values)) {
      const ours = rename(name);
      if (ours !== undefined) (into.perQuery[qid] ??= {})[ours] = value;
    }
  }
  for (const [name, value] of Object.entries(result.aggregate)) {
    const ours = rename(name);
    if (ours !== undefined) into.aggregate[ours] = value;
  }
}

/** Every value trec_eval gives for a pair in one mode, under rag-gate's names, with the commands that gave them. */
function reference(qrels, run, modeName, scratch) {
  const mode = MODES[modeName];
  const commands = [];
  const call = (args, q = qrels) => {
    commands.push(`trec_eval -q ${args.join(' ')} ${basename(q)} ${basename(run)}`);
    return trecEval(args, q, run);
  };
  const runQueries = new Set(dataLines(run).map(([qid]) => qid));
  const judged = mode.filterQrels
    ? rewriteQrels(
        qrels,
        scratch,
        'in-run',
        (g) => g,
        ([qid]) => runQueries.has(qid),
      )
    : qrels;
  const out = { perQuery: {}, aggregate: {} };
  const grades = [...new Set(dataLines(qrels).map((fields) => Number(fields[3])))].filter((g) => g >= 0);
  const table = (gain) => grades.map((g) => `${g}=${gain(g)}`).join(',');

  if (mode.gainsOnly) {
    const gain = (g) => CUSTOM_GAINS[g] ?? g;
    collect(out, call([...mode.trecEval, '-m', `ndcg.${table(gain)}`], judged), (n) => (isNdcgWithGains(n) ? 'ndcg' : undefined));
    const rewritten = rewriteQrels(judged, scratch, 'gains', (g) => (g >= 0 ? gain(g) : g));
    collect(out, call([...mode.trecEval, '-m', `ndcg_cut.${CUTOFFS}`], rewritten), (n) => (n.startsWith('ndcg_cut_') ? ragGateName(n) : undefined));
  } else {
    const main = call([...mode.trecEval, ...MEASURES], judged);
    collect(out, main);
    const num = main.aggregate.num_q;
    out.queries = num;
    if (mode.level !== undefined && mode.trecEval.includes('-c')) {
      // trec_eval -c totals num_rel over grades > 0 whatever -l says; rag-gate totals the per-query values.
      out.aggregate.num_rel = Object.values(out.perQuery).reduce((sum, values) => sum + values.num_rel, 0);
      commands.push('(num_rel total: the sum of the per-query values, see README "TREC files")');
    }
    // ndcg_exp: trec_eval ndcg with gains 2^g − 1; ndcg_exp@k: ndcg_cut on qrels rewritten to those gains.
    const exp = (g) => 2 ** g - 1;
    collect(out, call([...mode.trecEval, '-m', `ndcg.${table(exp)}`], judged), (n) => (isNdcgWithGains(n) ? 'ndcg_exp' : undefined));
    const rewritten = rewriteQrels(judged, scratch, 'exp', (g) => (g >= 0 ? exp(g) : g));
    collect(out, call([...mode.trecEval, '-m', `ndcg_cut.${CUTOFFS}`], rewritten), (n) => (n.startsWith('ndcg_cut_') ? `ndcg_exp@${n.slice(9)}` : undefined));
    // mrr@k: recip_rank under -M k (the smaller of k and the mode's own -M). Not under -J: trec_eval cuts at -M
    // before it drops the unjudged, while mrr@k cuts the judged-only ranking, as precision@k does.
    const flagsWithoutM = mode.trecEval.filter((flag, i, all) => flag !== '-M' && all[i - 1] !== '-M');
    for (const k of mode.judgedOnly ? [] : CUTOFFS.slice(0, 4)) {
      const depth = Math.min(k, mode.max ?? Infinity);
      collect(out, call([...flagsWithoutM, '-M', String(depth), '-m', 'recip_rank'], judged), (n) => (n === 'recip_rank' ? `mrr@${k}` : undefined));
    }
    // judged@k: P_k on qrels where every line is relevant, times k over the documents there are (fewer than k).
    if (!mode.judgedOnly) {
      const everyLine = rewriteQrels(judged, scratch, 'judged', () => 1);
      const flagsWithoutL = mode.trecEval.filter((flag, i, all) => flag !== '-l' && all[i - 1] !== '-l');
      const result = call([...flagsWithoutL, '-m', 'num_ret', '-m', `P.${CUTOFFS}`], everyLine);
      for (const [qid, values] of Object.entries(result.perQuery)) {
        for (const k of CUTOFFS) {
          const depth = Math.min(k, values.num_ret);
          out.perQuery[qid][`judged@${k}`] = depth === 0 ? 0 : (values[`P_${k}`] * k) / depth;
        }
      }
      for (const k of CUTOFFS) {
        const values = Object.values(out.perQuery).map((v) => v[`judged@${k}`]);
        out.aggregate[`judged@${k}`] = values.reduce((a, b) => a + b, 0) / values.length;
      }
    }
  }
  out.queries ??= Object.keys(out.perQuery).length;
  // trec_eval divides 0 by 0 for iprec and 11pt_avg of a query that -J leaves with no documents; rag-gate gives 0
  // (README "TREC files"), so those values are 0 here and the means are taken again.
  const undefinedValues = Object.keys(out.aggregate).filter((name) => Number.isNaN(out.aggregate[name]));
  for (const name of undefinedValues) {
    const values = Object.values(out.perQuery).map((v) => (Number.isNaN(v[name]) ? 0 : v[name]));
    for (const v of Object.values(out.perQuery)) if (Number.isNaN(v[name])) v[name] = 0;
    out.aggregate[name] = values.reduce((a, b) => a + b, 0) / values.length;
  }
  if (undefinedValues.length > 0) commands.push(`(trec_eval's nan taken as 0 for ${undefinedValues.join(', ')}: README "TREC files")`);
  // Every metric for every query, so that nothing is compared by halves.
  const names = Object.keys(out.aggregate).sort().join();
  for (const [qid, values] of Object.entries(out.perQuery)) {
    if (Object.keys(values).sort().join() !== names) throw new Error(`${basename(qrels)} [${modeName}] query ${qid}: metrics differ from the summary's`);
  }
  return { commands, flags: mode.flags, ...out };
}

/** rag-gate's values for a pair in one mode, through the bundled CLI as users run it. */
function ragGate(qrels, run, flags, metrics) {
  const result = spawnSync(
    process.execPath,
    [join(ROOT, 'dist/cli.js'), 'trec', '--qrels', qrels, '--run', run, '--metrics', metrics.join(','), '--per-query', '--json', ...flags],
    {
      encoding: 'utf8',
      maxBuffer: 1 << 28,
    },
  );
  if (result.status !== 0) throw new Error(`rag-gate trec on ${qrels} ${run} exited ${result.status}: ${result.stderr}`);
  return JSON.parse(result.stdout);
}

/** Values compared, and how many were equal to the last bit. */
const tally = { values: 0, identical: 0, largest: 0 };

function disagreements(expected, actual) {
  const out = [];
  const compare = (where, want, got) => {
    for (const [name, value] of Object.entries(want)) {
      const ours = got?.[name];
      tally.values++;
      if (ours === value) tally.identical++;
      else if (typeof ours === 'number') tally.largest = Math.max(tally.largest, Math.abs(ours - value));
      if (typeof ours !== 'number' || !(Math.abs(ours - value) <= TOLERANCE)) out.push(`${where} ${name}: trec_eval ${value}, rag-gate ${ours}`);
    }
  };
  compare('all', expected.aggregate, actual.aggregate);
  for (const [qid, values] of Object.entries(expected.perQuery)) compare(qid, values, actual.perQuery[qid]);
  if (actual.queries !== expected.queries) out.push(`queries: trec_eval ${expected.queries}, rag-gate ${actual.queries}`);
  return out;
}

if (!TREC_EVAL) {
  process.stderr.write('set TREC_EVAL to a trec_eval 10 build printing %.17g\n');
  process.exit(2);
}
const [command, ...rest] = process.argv.slice(2);
const scratch = mkdtempSync(join(tmpdir(), 'trec-eval-reference-'));
try {
  if (command === 'write') {
    for (const name of rest) {
      for (const modeName of Object.keys(MODES)) {
        const ref = reference(join(FIXTURES, `${name}.qrels`), join(FIXTURES, `${name}.run`), modeName, scratch);
        const file = {
          generatedBy: `trec_eval 10.0 (usnistgov/trec_eval@f425365, printf widened to %.17g): ${ref.commands.join(' ; ')}`,
          flags: ref.flags,
          queries: ref.queries,
          aggregate: ref.aggregate,
          perQuery: ref.perQuery,
        };
        writeFileSync(join(FIXTURES, `${name}.${modeName}.expected.json`), `${JSON.stringify(file, null, 1)}\n`);
      }
    }
  } else if (command === 'check') {
    const [dir] = rest;
    const pairs = [
      ['qrels.test', 'results.test'],
      ['qrels.test.with-comments', 'results.test'],
      ['qrels.comment.test', 'results.comment.test'],
      ['qrels.test', 'results.trunc'],
      ['qrels.rel_level', 'results.test'],
      ['qrels-302.test', 'results-302.test'],
    ];
    let failures = 0;
    for (const [qrelsName, runName] of pairs) {
      for (const modeName of Object.keys(MODES)) {
        const qrels = join(dir, qrelsName);
        const run = join(dir, runName);
        const expected = reference(qrels, run, modeName, scratch);
        const metrics = Object.keys(expected.aggregate);
        const before = tally.values;
        const problems = disagreements(expected, ragGate(qrels, run, expected.flags, metrics));
        process.stdout.write(`${qrelsName} ${runName} [${modeName}]: ${tally.values - before} values, ${problems.length} disagreements\n`);
        for (const problem of problems.slice(0, 10)) process.stdout.write(`  ${problem}\n`);
        failures += problems.length;
      }
    }
    process.stdout.write(`${tally.values} values, ${tally.identical} identical to the last bit, largest difference ${tally.largest}\n`);
    process.exit(failures === 0 ? 0 : 1);
  } else {
    process.stderr.write('usage: trec-eval-reference.mjs write NAME... | check DIR\n');
    process.exit(2);
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
