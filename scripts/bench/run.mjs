// `npm run bench`: times the CLI and the action on synthetic workloads at three sizes, as child processes run
// exactly as users run them, and compares TREC mode with trec_eval when TREC_EVAL names its binary.
//
//   node scripts/bench/run.mjs [--quick] [--only trec|compare|action[,…]] [--runs N]
//   TREC_EVAL=/path/to/trec_eval node scripts/bench/run.mjs
//
// Data goes to bench-data/ (ignored by git; generated once, deterministically). The figures go to stdout,
// progress to stderr. Exit status: 0 when every run worked (whether or not the targets are met), 1 when a run
// failed, 2 for bad arguments or a missing build.
import { spawnSync } from 'node:child_process';
import { accessSync, constants, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { cpus, loadavg, release, tmpdir, totalmem } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { actionDefaults, actionEnv, readVerdict } from './action-env.mjs';
import { generateResults, generateTrec } from './generate.mjs';
import { JUDGE_ANSWERS, benchJudge, judgeReport } from './judge.mjs';
import { measure, memoryMeasured, scanFile } from './measure.mjs';

const ROOT = fileURLToPath(new URL('../..', import.meta.url)).replace(/\/$/, '');
const DATA = join(ROOT, 'bench-data');
const CLI = 'dist/cli.js';
const ACTION = 'dist/index.js';

const TREC_QUERIES = 10_000;
const TREC_DEPTH = 1_000;
const COMPARE_QUESTIONS = 100_000;
const COMPARE_DEPTH = 100;
const ACTION_QUESTIONS = 500;
const TREC_METRICS = 'map,ndcg@10,mrr,recall@100,precision@10';
const TREC_EVAL_ARGS = ['-c', '-m', 'map', '-m', 'ndcg_cut.10', '-m', 'recip_rank', '-m', 'recall.100', '-m', 'P.10'];
const SCALES = [
  { label: '1/100', divisor: 100 },
  { label: '1/10', divisor: 10 },
  { label: 'full', divisor: 1 },
];
/** The targets of issue 6. */
const TARGET = { trecTimeRatio: 0.5, trecMemoryRatio: 1, compareSeconds: 10, compareMiB: 1536, actionSeconds: 0.5 };
const WORKLOADS = ['trec', 'compare', 'action', 'judge'];

const USAGE = `usage: node scripts/bench/run.mjs [--quick] [--only trec|compare|action|judge[,…]] [--runs N]
  --quick   skip the full-size TREC and compare workloads (1/100 and 1/10 only); judge 1/10 of the answers
  --only    run only these workloads
  --runs N  runs per workload and size (default: 3 at full size, 5 for the smaller ones)
  TREC_EVAL=/path/to/trec_eval  also time trec_eval on the TREC files and print the ratios`;

function fail(message, status = 2) {
  console.error(message);
  process.exit(status);
}

function parseArgs(argv) {
  const options = { quick: false, only: new Set(WORKLOADS), runs: null };
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i].startsWith('--') && argv[i].includes('=') ? argv[i].split(/=(.*)/s) : [argv[i], undefined];
    const value = () => inline ?? argv[++i] ?? fail(`${flag} needs a value\n${USAGE}`);
    if (flag === '--quick') options.quick = true;
    else if (flag === '--runs') {
      const text = value();
      if (!/^[1-9]\d*$/.test(text)) fail(`--runs: expected a positive integer, got "${text}"\n${USAGE}`);
      options.runs = Number(text);
    } else if (flag === '--only') {
      const names = value()
        .split(',')
        .map((name) => name.trim());
      const unknown = names.filter((name) => !WORKLOADS.includes(name));
      if (unknown.length > 0 || names.length === 0) fail(`--only: unknown workload "${unknown.join(', ')}" (use ${WORKLOADS.join(', ')})\n${USAGE}`);
      options.only = new Set(names);
    } else if (flag === '--help' || flag === '-h') {
      console.log(USAGE);
      process.exit(0);
    } else fail(`unknown argument "${argv[i]}"\n${USAGE}`);
  }
  return options;
}

// ---------------------------------------------------------------------------------------------------------------
// Formatting

const MiB = 1024 * 1024;
const group = (n) => Math.round(n).toLocaleString('en-US');
const seconds = (s) => `${s.toFixed(s < 10 ? 3 : 2)} s`;
const mebibytes = (kib) => (kib === null ? 'n/a' : `${group(kib / 1024)} MiB`);
const rate = (perSecond) =>
  perSecond >= 1e6 ? `${(perSecond / 1e6).toFixed(2)} M/s` : perSecond >= 1e3 ? `${(perSecond / 1e3).toFixed(1)} k/s` : `${perSecond.toFixed(0)} /s`;
const microseconds = (s) => (s * 1e6).toFixed(s >= 1e-4 ? 0 : s >= 1e-5 ? 1 : s >= 1e-6 ? 2 : 3);
const ratio = (value) => (value === null ? 'n/a' : value.toFixed(2));
const utc = (date) => `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** A plain text table: columns padded to their widest cell, numbers (align 'r') flush right. */
function table(columns, rows) {
  const widths = columns.map((column, c) => Math.max(column.title.length, ...rows.map((row) => String(row[c]).length)));
  const line = (cells) =>
    cells
      .map((cell, c) => (columns[c].align === 'r' ? String(cell).padStart(widths[c]) : String(cell).padEnd(widths[c])))
      .join('  ')
      .trimEnd();
  return [line(columns.map((column) => column.title)), line(widths.map((width) => '-'.repeat(width))), ...rows.map(line)].join('\n');
}

const progress = (message) => process.stderr.write(`${message}\n`);

// ---------------------------------------------------------------------------------------------------------------
// Data

let partialDir = null;
let scratch = null;

/** Generates a pair of files unless both exist; into a scratch folder first, so an interrupted run leaves nothing half-written. */
async function ensurePair(names, generate) {
  const targets = names.map((name) => join(DATA, name));
  if (targets.every((file) => existsSync(file))) return targets;
  progress(`generating bench-data/${names.join(' and bench-data/')} …`);
  const started = process.hrtime.bigint();
  mkdirSync(DATA, { recursive: true });
  partialDir = join(DATA, `.partial-${process.pid}`);
  rmSync(partialDir, { recursive: true, force: true });
  const produced = await generate(partialDir);
  produced.forEach((file, i) => renameSync(file, targets[i]));
  rmSync(partialDir, { recursive: true, force: true });
  partialDir = null;
  progress(`  done in ${seconds(Number(process.hrtime.bigint() - started) / 1e9)}`);
  return targets;
}

const trecFiles = (queries) =>
  ensurePair([`trec-${queries}.qrels`, `trec-${queries}.run`], async (dir) => {
    const { qrels, run } = await generateTrec(dir, queries, TREC_DEPTH);
    return [qrels, run];
  });

const resultFiles = (questions) =>
  ensurePair([`results-${questions}-base.jsonl`, `results-${questions}-head.jsonl`], async (dir) => {
    const { base, head } = await generateResults(dir, questions, COMPARE_DEPTH);
    return [base, head];
  });

// ---------------------------------------------------------------------------------------------------------------
// Workloads: each case is one workload at one size, with the tools to time on it (rag-gate, and trec_eval for TREC).

const rel = (file) => relative(ROOT, file);
const ourNode = process.execPath;

function trecTool(qrels, run) {
  return {
    name: 'rag-gate',
    command: ourNode,
    args: [CLI, 'trec', '--qrels', rel(qrels), '--run', rel(run), '--metrics', TREC_METRICS, '--json'],
    check: ({ code }) => (code === 0 ? { ok: true } : { ok: false }),
  };
}

function trecEvalTool(binary, qrels, run) {
  return {
    name: 'trec_eval',
    command: binary,
    args: [...TREC_EVAL_ARGS, rel(qrels), rel(run)],
    check: ({ code }) => (code === 0 ? { ok: true } : { ok: false }),
  };
}

function compareTool(base, head) {
  return {
    name: 'rag-gate',
    command: ourNode,
    args: [CLI, 'compare', '--base', rel(base), '--head', rel(head), '--json'],
    // Exit status 1 is a failed gate, a normal outcome; 2 is an error.
    check: ({ code }) => (code === 0 || code === 1 ? { ok: true, note: code === 0 ? 'gate pass' : 'gate fail (exit 1)' } : { ok: false }),
  };
}

function actionTool(base, head, defaults) {
  return {
    name: 'rag-gate',
    command: ourNode,
    args: [ACTION],
    prepare: (dir) => {
      const inputs = { results: rel(head), baseline: rel(base), comment: 'never', mode: 'advisory' };
      const { env, output } = actionEnv({ dir, workspace: ROOT, defaults, inputs });
      const stdout = join(dir, 'stdout.txt');
      return { env, stdout, output };
    },
    check: (result, { stdout, output }) => {
      const log = readFileSync(stdout, 'utf8');
      if (result.code !== 0) return { ok: false, detail: log.slice(-2000) };
      if (/127\.0\.0\.1:9|ECONNREFUSED/.test(log)) return { ok: false, detail: `the action tried to reach the GitHub API:\n${log.slice(-2000)}` };
      const verdict = readVerdict(output);
      return verdict === null ? { ok: false, detail: `GITHUB_OUTPUT has no verdict\n${log.slice(-2000)}` } : { ok: true, note: `verdict=${verdict}` };
    },
  };
}

/** Reads `others` and then `counted` once (so the timed runs find them in the page cache); the lines of `counted`. */
async function scanRecords(others, counted) {
  for (const file of others) await scanFile(file);
  return scanFile(counted);
}

/** Runs every tool of a case `runs` times, interleaved (ours, then trec_eval, then ours again …) so load drift hits both. */
async function runCase(bench) {
  const label = bench.scale === '-' ? bench.workload : `${bench.workload} ${bench.scale}`;
  progress(`${label}: reading the input once (page cache, line count) …`);
  bench.records ??= await bench.countRecords();
  const samples = bench.tools.map(() => []);
  const notes = bench.tools.map(() => new Set());
  for (let run = 1; run <= bench.runs; run++) {
    const parts = [];
    for (const [t, tool] of bench.tools.entries()) {
      const dir = mkdtempSync(join(scratch, 'run-'));
      try {
        const prepared = tool.prepare?.(dir) ?? {};
        const result = await measure(tool.command, tool.args, { dir, cwd: ROOT, env: prepared.env ?? process.env, stdout: prepared.stdout });
        const verdict = result.code === null ? { ok: false } : tool.check(result, prepared);
        if (!verdict.ok) {
          const how = result.code === null ? `was killed (${result.signal})` : `exited with status ${result.code}`;
          const detail = [verdict.detail, result.stderr].filter(Boolean).join('\n').trim();
          throw new Error(
            `${label}: ${tool.name} ${how}\n  ${tool.command === ourNode ? 'node' : tool.command} ${tool.args.join(' ')}${detail ? `\n${detail}` : ''}`,
          );
        }
        samples[t].push(result);
        if (verdict.note) notes[t].add(verdict.note);
        parts.push(`${tool.name} ${seconds(result.seconds)}, ${mebibytes(result.peakKiB)}`);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    }
    progress(`  run ${run}/${bench.runs}: ${parts.join(' · ')}`);
  }
  return bench.tools.map((tool, t) => {
    const times = samples[t].map((sample) => sample.seconds);
    const peaks = samples[t].map((sample) => sample.peakKiB);
    return {
      tool: tool.name,
      median: median(times),
      min: Math.min(...times),
      peakKiB: peaks.includes(null) ? null : Math.max(...peaks),
      note: [...notes[t]].join(', '),
    };
  });
}

// ---------------------------------------------------------------------------------------------------------------
// Context: the machine and the code being measured

function gitDescription() {
  const git = (args) => spawnSync('git', args, { cwd: ROOT, encoding: 'utf8' });
  const head = git(['rev-parse', '--short', 'HEAD']);
  if (head.status !== 0) return 'not a git checkout';
  const dirty = git(['status', '--porcelain', '--', 'src', 'dist']).stdout.trim() !== '';
  return `${head.stdout.trim()}${dirty ? ' + uncommitted changes in src/ or dist/' : ''}`;
}

/** Warns when a source file is newer than the bundles: the bench times dist/, not src/. */
function staleBuildWarning(builtAt) {
  const sources = readdirSync(join(ROOT, 'src'), { recursive: true }).map((file) => join(ROOT, 'src', file));
  const newest = Math.max(...sources.map((file) => statSync(file).mtimeMs));
  return newest > builtAt ? 'note: src/ has changes newer than dist/; run `npm run build` to time the current code' : null;
}

// ---------------------------------------------------------------------------------------------------------------

async function main() {
  const options = parseArgs(process.argv.slice(2));
  const missing = [CLI, ACTION].filter((file) => !existsSync(join(ROOT, file)));
  if (missing.length > 0) fail(`${missing.join(' and ')} missing: run \`npm run build\` first`);

  const trecEval = process.env.TREC_EVAL || null;
  if (trecEval !== null && options.only.has('trec')) {
    try {
      accessSync(trecEval, constants.X_OK);
      if (!statSync(trecEval).isFile()) throw new Error('not a file');
    } catch {
      fail(`TREC_EVAL=${trecEval} is not an executable file`);
    }
  }

  const scales = SCALES.filter((scale) => !(options.quick && scale.divisor === 1));
  const runsFor = (scale) => options.runs ?? (scale.divisor === 1 ? 3 : 5);

  // Generate every file first, so generation never overlaps a timed run.
  const cases = [];
  if (options.only.has('trec')) {
    for (const scale of scales) {
      const queries = TREC_QUERIES / scale.divisor;
      const [qrels, run] = await trecFiles(queries);
      const tools = [trecTool(qrels, run)];
      if (trecEval !== null) tools.push(trecEvalTool(trecEval, qrels, run));
      cases.push({
        workload: 'trec',
        scale: scale.label,
        size: `${group(queries)} q`,
        unit: 'run lines',
        runs: runsFor(scale),
        bytes: statSync(qrels).size + statSync(run).size,
        countRecords: () => scanRecords([qrels], run),
        tools,
      });
    }
  }
  if (options.only.has('compare')) {
    for (const scale of scales) {
      const questions = COMPARE_QUESTIONS / scale.divisor;
      const [base, head] = await resultFiles(questions);
      cases.push({
        workload: 'compare',
        scale: scale.label,
        size: `${group(questions)} q`,
        unit: 'questions',
        runs: runsFor(scale),
        bytes: statSync(base).size + statSync(head).size,
        countRecords: () => scanRecords([base], head),
        tools: [compareTool(base, head)],
      });
    }
  }
  if (options.only.has('action')) {
    const [base, head] = await resultFiles(ACTION_QUESTIONS);
    cases.push({
      workload: 'action',
      scale: '-',
      size: `${group(ACTION_QUESTIONS)} q`,
      unit: 'questions',
      runs: options.runs ?? 5,
      bytes: statSync(base).size + statSync(head).size,
      countRecords: () => scanRecords([base], head),
      tools: [actionTool(base, head, actionDefaults(join(ROOT, 'action.yml')))],
    });
  }

  const builtAt = Math.min(...[CLI, ACTION].map((file) => statSync(join(ROOT, file)).mtimeMs));
  const cpu = cpus();
  const header = [
    `rag-gate bench, ${utc(new Date())}`,
    `machine  ${cpu[0]?.model.trim() ?? 'unknown CPU'}, ${cpu.length} cores, ${(totalmem() / 1024 ** 3).toFixed(1)} GiB RAM, ${process.platform} ${release()} ${process.arch}, Node ${process.version}`,
    `load     ${loadavg()
      .map((load) => load.toFixed(2))
      .join(' ')} (1, 5, 15 min averages at start)`,
    `code     ${gitDescription()}; dist/ built ${utc(new Date(builtAt))}`,
    `memory   ${memoryMeasured ? 'peak RSS from /usr/bin/time -f %M' : 'n/a (no GNU time at /usr/bin/time)'}`,
  ];
  const stale = staleBuildWarning(builtAt);
  if (stale) header.push(stale);
  console.log(`${header.join('\n')}\n`);

  scratch = mkdtempSync(join(tmpdir(), 'rag-gate-bench-'));
  const failures = [];
  const measured = [];
  try {
    for (const bench of cases) {
      try {
        const [ours, reference] = await runCase(bench);
        measured.push({ bench, ours, reference });
      } catch (error) {
        failures.push(error.message);
        progress(error.message);
      }
    }
  } finally {
    cleanUp();
  }

  console.log(`Commands (cwd ${ROOT}, stdout to /dev/null; median of the runs, peak RSS the largest over them)`);
  console.log(`  trec     node ${CLI} trec --qrels bench-data/trec-N.qrels --run bench-data/trec-N.run --metrics ${TREC_METRICS} --json`);
  console.log(`  compare  node ${CLI} compare --base bench-data/results-N-base.jsonl --head bench-data/results-N-head.jsonl --json`);
  console.log(
    `  action   node ${ACTION}, push event, INPUT_RESULTS/INPUT_BASELINE = results-${ACTION_QUESTIONS}-head/base.jsonl, comment never, mode advisory, other inputs at action.yml's defaults`,
  );
  console.log();

  const columns = [
    { title: 'workload' },
    { title: 'scale' },
    { title: 'size' },
    { title: 'records', align: 'r' },
    { title: 'input', align: 'r' },
    { title: 'runs', align: 'r' },
    { title: 'median', align: 'r' },
    { title: 'min', align: 'r' },
    { title: 'peak RSS', align: 'r' },
    { title: 'records/s', align: 'r' },
    { title: 'MiB/s', align: 'r' },
    { title: 'µs/record', align: 'r' },
    { title: 'note' },
  ];
  const rows = measured.map(({ bench, ours }) => [
    bench.workload,
    bench.scale,
    bench.size,
    `${group(bench.records)} ${bench.unit}`,
    `${(bench.bytes / MiB).toFixed(1)} MiB`,
    bench.runs,
    seconds(ours.median),
    seconds(ours.min),
    mebibytes(ours.peakKiB),
    rate(bench.records / ours.median),
    (bench.bytes / MiB / ours.median).toFixed(1),
    microseconds(ours.median / bench.records),
    ours.note,
  ]);
  if (rows.length > 0) console.log(`${table(columns, rows)}\n`);

  const trecRows = measured.filter(({ bench }) => bench.workload === 'trec');
  const ratios = (ours, reference) => ({
    time: ours.median / reference.median,
    memory: ours.peakKiB === null || reference.peakKiB === null ? null : ours.peakKiB / reference.peakKiB,
  });
  if (trecEval !== null && trecRows.length > 0) {
    console.log(`trec_eval: ${trecEval} ${TREC_EVAL_ARGS.join(' ')} QRELS RUN (same files, runs interleaved with rag-gate's)`);
    const referenceRows = trecRows.map(({ bench, ours, reference }) => {
      const r = ratios(ours, reference);
      return [
        bench.scale,
        bench.size,
        bench.runs,
        seconds(reference.median),
        seconds(reference.min),
        mebibytes(reference.peakKiB),
        ratio(r.time),
        ratio(r.memory),
      ];
    });
    const referenceColumns = [
      { title: 'scale' },
      { title: 'size' },
      { title: 'runs', align: 'r' },
      { title: 'median', align: 'r' },
      { title: 'min', align: 'r' },
      { title: 'peak RSS', align: 'r' },
      { title: 'time ours/trec_eval', align: 'r' },
      { title: 'memory ours/trec_eval', align: 'r' },
    ];
    console.log(`${table(referenceColumns, referenceRows)}\n`);
  }

  // The targets of issue 6, each at the size it is stated for.
  const find = (workload, scale) => measured.find(({ bench }) => bench.workload === workload && bench.scale === scale);
  const verdict = (ok) => (ok ? 'PASS' : 'MISS');
  const notRun = (workload, scale) =>
    !options.only.has(workload)
      ? 'not run (--only)'
      : options.quick && scale === 'full'
        ? 'not run (--quick)'
        : failures.length > 0
          ? 'not measured (the run failed)'
          : 'not measured';
  const targetRows = [];
  const trecFull = find('trec', 'full');
  if (trecFull && trecFull.reference) {
    const r = ratios(trecFull.ours, trecFull.reference);
    targetRows.push(['trec, 10,000 q × 1,000', `time ours/trec_eval ≤ ${TARGET.trecTimeRatio}`, ratio(r.time), verdict(r.time <= TARGET.trecTimeRatio)]);
    targetRows.push([
      '',
      `memory ours/trec_eval ≤ ${TARGET.trecMemoryRatio.toFixed(1)}`,
      ratio(r.memory),
      r.memory === null ? 'n/a' : verdict(r.memory <= TARGET.trecMemoryRatio),
    ]);
  } else {
    const why = trecFull ? 'not measured (set TREC_EVAL to the trec_eval binary)' : notRun('trec', 'full');
    targetRows.push(['trec, 10,000 q × 1,000', `time ours/trec_eval ≤ ${TARGET.trecTimeRatio}`, why, '']);
    targetRows.push(['', `memory ours/trec_eval ≤ ${TARGET.trecMemoryRatio.toFixed(1)}`, why, '']);
  }
  const compareFull = find('compare', 'full');
  if (compareFull) {
    const { median: time, peakKiB } = compareFull.ours;
    targetRows.push(['compare, 100,000 q × 100', `median time < ${TARGET.compareSeconds} s`, seconds(time), verdict(time < TARGET.compareSeconds)]);
    targetRows.push(['', 'peak RSS < 1.5 GiB', mebibytes(peakKiB), peakKiB === null ? 'n/a' : verdict(peakKiB / 1024 < TARGET.compareMiB)]);
  } else {
    targetRows.push(['compare, 100,000 q × 100', `median time < ${TARGET.compareSeconds} s`, notRun('compare', 'full'), '']);
    targetRows.push(['', 'peak RSS < 1.5 GiB', notRun('compare', 'full'), '']);
  }
  const action = find('action', '-');
  if (action)
    targetRows.push([
      `action, ${ACTION_QUESTIONS} q`,
      `median time < ${TARGET.actionSeconds} s`,
      seconds(action.ours.median),
      verdict(action.ours.median < TARGET.actionSeconds),
    ]);
  else targetRows.push([`action, ${ACTION_QUESTIONS} q`, `median time < ${TARGET.actionSeconds} s`, notRun('action', '-'), '']);
  console.log('Targets (issue 6)');
  console.log(table([{ title: 'workload' }, { title: 'target' }, { title: 'measured', align: 'r' }, { title: 'result' }], targetRows));

  if (options.only.has('judge')) {
    try {
      const answers = options.quick ? JUDGE_ANSWERS / 10 : JUDGE_ANSWERS;
      console.log(`\n${judgeReport(await benchJudge({ root: ROOT, cli: CLI, answers, progress }), table)}`);
    } catch (error) {
      failures.push(`judge: ${error.message}`);
    }
  }

  if (failures.length > 0) {
    console.log(`\n${failures.length} workload(s) failed:\n${failures.join('\n\n')}`);
    process.exitCode = 1;
  }
}

function cleanUp() {
  for (const dir of [partialDir, scratch]) if (dir !== null) rmSync(dir, { recursive: true, force: true });
  partialDir = scratch = null;
}
process.on('exit', cleanUp);
for (const [signal, status] of [
  ['SIGINT', 130],
  ['SIGTERM', 143],
]) {
  process.on(signal, () => {
    cleanUp();
    process.exit(status);
  });
}

await main();
