// `npm run bench`: times the CLI and the action on synthetic workloads shaped like users' data (realistic id
// vocabularies and text lengths) at three sizes, as child processes run exactly as users run them, and compares
// TREC mode with trec_eval when TREC_EVAL names its binary. compare and the action run pinned to one core, and
// again unpinned, on every core.
//
//   node scripts/bench/run.mjs [--quick] [--only trec|compare|action|monitor|judge[,…]] [--runs N] [--node PATH] [--against REV] [--no-write]
//   TREC_EVAL=/path/to/trec_eval node scripts/bench/run.mjs
//
// Data goes to bench-data/ (ignored by git; generated once, deterministically). The figures go to stdout,
// progress to stderr; a full run (every workload and size, the default runs or more, none failed) also writes them
// into the generated block of docs/performance.md, the only place the project keeps them. Exit status: 0 when every
// run worked (whether or not the targets are met), 1 when a run failed or the document could not be written, 2 for
// bad arguments or a missing build.
import { spawnSync } from 'node:child_process';
import { accessSync, constants, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, release, tmpdir, totalmem } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { actionDefaults, actionEnv, readVerdict } from './action-env.mjs';
import { generateMonitorLog, generateResultsRealistic, generateTrec, generateTrecRealistic } from './generate.mjs';
import { JUDGE_ANSWERS, benchJudge, judgeReport } from './judge.mjs';
import { measure, memoryMeasured, pinningAvailable, scanFile } from './measure.mjs';
import {
  ACTION_QUESTIONS,
  BLOCK_END,
  BLOCK_START,
  COMPARE_DEPTH,
  COMPARE_QUESTIONS,
  DEFAULT_RUNS,
  MONITOR_TURNS,
  TREC_DEPTH,
  TREC_METRICS,
  TREC_QUERIES,
  WORKLOADS,
  group,
  markdownTable,
  mebibytes,
  performanceBlock,
  ratioTable,
  reasonsNotToWrite,
  replaceBlock,
  resultTable,
  seconds,
  targetTable,
  textTable,
  utc,
} from './report.mjs';

const ROOT = fileURLToPath(new URL('../..', import.meta.url)).replace(/\/$/, '');
const DATA = join(ROOT, 'bench-data');
const CLI = 'dist/cli.js';
const ACTION = 'dist/index.js';

const TREC_EVAL_ARGS = ['-c', '-m', 'map', '-m', 'ndcg_cut.10', '-m', 'recip_rank', '-m', 'recall.100', '-m', 'P.10'];
const SCALES = [
  { label: '1/100', divisor: 100 },
  { label: '1/10', divisor: 10 },
  { label: 'full', divisor: 1 },
];
/** The document whose generated block a full run rewrites. */
const DOC = 'docs/performance.md';

const USAGE = `usage: node scripts/bench/run.mjs [--quick] [--only trec|compare|action|monitor|judge[,…]] [--runs N] [--node PATH] [--against REV] [--no-write]
  --quick   skip the full-size TREC, compare and monitor workloads (1/100 and 1/10 only; the action runs at every size);
            judge 1/10 of the answers
  --only    run only these workloads
  --runs N  runs per workload and size (default: 3 at full size, 5 for the smaller ones)
  --node    the Node.js that runs rag-gate (default: the one running the bench), e.g. the runtime action.yml
            names, which GitHub runs the action on
  --against REV  also time the build committed at git revision REV (its dist/), runs interleaved with this one's,
            and print the ratios: a change's effect, measured where the machine's drift hits both builds alike
  --no-write  print the figures only; do not rewrite ${DOC}
  TREC_EVAL=/path/to/trec_eval  also time trec_eval on the TREC files and print the ratios

A full run (every workload at every size, no --quick or --only, --runs N at least 5 if given, none failed)
writes its figures into the generated block of ${DOC}, replacing the previous ones: the only way
the figures there change. A reduced run (--quick, --only, fewer runs) or one with a failure prints its figures
and leaves ${DOC} as it is, so that reduced figures never stand in for the full bench's.`;

const git = (args, options = {}) => spawnSync('git', args, { cwd: ROOT, encoding: 'utf8', ...options });

function fail(message, status = 2) {
  console.error(message);
  process.exit(status);
}

function parseArgs(argv) {
  const options = { quick: false, only: new Set(WORKLOADS), runs: null, node: process.execPath, against: null, write: true };
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i].startsWith('--') && argv[i].includes('=') ? argv[i].split(/=(.*)/s) : [argv[i], undefined];
    const value = () => inline ?? argv[++i] ?? fail(`${flag} needs a value\n${USAGE}`);
    if (flag === '--quick') options.quick = true;
    else if (flag === '--no-write') options.write = false;
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
    } else if (flag === '--node') {
      options.node = value();
      const run = spawnSync(options.node, ['--version'], { encoding: 'utf8' });
      if (run.status !== 0 || !/^v\d+\./.test(run.stdout))
        fail(`--node: "${options.node}" is not a Node.js that runs (${run.error?.message ?? run.stderr.trim()})`);
    } else if (flag === '--against') {
      const revision = value();
      const commit = git(['rev-parse', '--verify', '--quiet', `${revision}^{commit}`]);
      if (commit.status !== 0) fail(`--against: "${revision}" is not a commit of this repository`);
      const sha = commit.stdout.trim();
      const missing = [CLI, ACTION].filter((file) => git(['cat-file', '-e', `${sha}:${file}`]).status !== 0);
      if (missing.length > 0) fail(`--against: commit ${sha.slice(0, 7)} has no ${missing.join(' or ')} (no build was committed there)`);
      options.against = { revision, sha };
    } else if (flag === '--help' || flag === '-h') {
      console.log(USAGE);
      process.exit(0);
    } else fail(`unknown argument "${argv[i]}"\n${USAGE}`);
  }
  return options;
}

// ---------------------------------------------------------------------------------------------------------------
// Formatting

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

const progress = (message) => process.stderr.write(`${message}\n`);

// ---------------------------------------------------------------------------------------------------------------
// Data

let partialDir = null;
let scratch = null;
let earlierDir = null;

/** Generates files unless all exist; into a scratch folder first, so an interrupted run leaves nothing half-written. */
async function ensureFiles(names, generate) {
  const targets = names.map((name) => join(DATA, name));
  if (targets.every((file) => existsSync(file))) return targets;
  progress(`generating bench-data/${names.join(', bench-data/')} …`);
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

/** The friendly TREC workload: 2,000 distinct docnos over the whole run. */
const friendlyTrecFiles = (queries) =>
  ensureFiles([`trec-${queries}.qrels`, `trec-${queries}.run`], async (dir) => {
    const { qrels, run } = await generateTrec(dir, queries, TREC_DEPTH);
    return [qrels, run];
  });

/** The realistic TREC workload, and the number of distinct docnos in its run (kept beside it). */
async function realisticTrecFiles(queries) {
  const [qrels, run, docnos] = await ensureFiles([`trec-real-${queries}.qrels`, `trec-real-${queries}.run`, `trec-real-${queries}.docnos`], async (dir) => {
    const files = await generateTrecRealistic(dir, queries, TREC_DEPTH);
    const count = join(dir, 'docnos');
    writeFileSync(count, `${files.distinct}\n`);
    return [files.qrels, files.run, count];
  });
  return { qrels, run, distinct: Number(readFileSync(docnos, 'utf8')) };
}

const monitorFiles = (turns) =>
  ensureFiles([`monitor-${turns}.jsonl`], async (dir) => {
    const { log } = await generateMonitorLog(dir, turns);
    return [log];
  });

const resultFiles = (questions) =>
  ensureFiles([`results-real-${questions}-base.jsonl`, `results-real-${questions}-head.jsonl`], async (dir) => {
    const { base, head } = await generateResultsRealistic(dir, questions, COMPARE_DEPTH);
    return [base, head];
  });

// ---------------------------------------------------------------------------------------------------------------
// Workloads: each case is one workload at one size, with the tools to time on it (rag-gate, and trec_eval for TREC).

const rel = (file) => relative(ROOT, file);
/** The Node.js that runs rag-gate: `--node`, or the one running the bench. */
let ourNode = process.execPath;

/** A build of rag-gate: this checkout's dist/, or one committed earlier (`--against`), extracted elsewhere. */
const THIS_BUILD = { role: 'ours', name: 'rag-gate', cli: CLI, action: ACTION };

function trecTool(qrels, run, build = THIS_BUILD) {
  return {
    role: build.role,
    name: build.name,
    command: ourNode,
    args: [build.cli, 'trec', '--qrels', rel(qrels), '--run', rel(run), '--metrics', TREC_METRICS, '--json'],
    check: ({ code }) => (code === 0 ? { ok: true } : { ok: false }),
  };
}

function trecEvalTool(binary, qrels, run) {
  return {
    role: 'trec_eval',
    name: 'trec_eval',
    command: binary,
    args: [...TREC_EVAL_ARGS, rel(qrels), rel(run)],
    check: ({ code }) => (code === 0 ? { ok: true } : { ok: false }),
  };
}

/** compare pinned to one core, or (`oneCore` false) on every core, as a user's runner runs it. */
function compareTool(base, head, build = THIS_BUILD, oneCore = pinningAvailable) {
  return {
    role: build.role,
    name: build.name,
    command: ourNode,
    args: [build.cli, 'compare', '--base', rel(base), '--head', rel(head), '--json'],
    oneCore,
    // Exit status 1 is a failed gate, a normal outcome; 2 is an error.
    check: ({ code }) => (code === 0 || code === 1 ? { ok: true, note: code === 0 ? 'gate pass' : 'gate fail (exit 1)' } : { ok: false }),
  };
}

function monitorTool(log, build = THIS_BUILD) {
  return {
    role: build.role,
    name: build.name,
    command: ourNode,
    args: [build.cli, 'monitor', '--logs', rel(log), '--json'],
    // Exit status 1 is an alert, a normal outcome; 2 is an error.
    check: ({ code }) => (code === 0 || code === 1 ? { ok: true, note: code === 0 ? 'no alert' : 'alert (exit 1)' } : { ok: false }),
  };
}

/** The action pinned to one core, or (`oneCore` false) on every core, as a hosted runner's 2 to 4 cores run it. */
function actionTool(base, head, defaults, build = THIS_BUILD, oneCore = pinningAvailable) {
  return {
    role: build.role,
    name: build.name,
    command: ourNode,
    args: [build.action],
    oneCore,
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
  const label = `${bench.workload} ${bench.variant} ${bench.scale}`;
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
        const result = await measure(tool.command, tool.args, {
          dir,
          cwd: ROOT,
          env: prepared.env ?? process.env,
          stdout: prepared.stdout,
          oneCore: tool.oneCore === true,
        });
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
  const results = bench.tools.map((tool, t) => {
    const times = samples[t].map((sample) => sample.seconds);
    const peaks = samples[t].map((sample) => sample.peakKiB);
    const cpu = samples[t].map((sample) => sample.cpuSeconds);
    return {
      tool: tool.name,
      median: median(times),
      cpu: cpu.includes(null) ? null : median(cpu),
      min: Math.min(...times),
      peakKiB: peaks.includes(null) ? null : Math.max(...peaks),
      note: [...notes[t]].join(', '),
    };
  });
  const indexOf = (role) => bench.tools.findIndex((tool) => tool.role === role);
  const byRole = (role) => results[indexOf(role)];
  /** The median of each run's ratio of this build to `role`: the machine's drift between runs cancels out. */
  const paired = (role) => {
    const [mine, theirs] = [samples[indexOf('ours')], samples[indexOf(role)]];
    if (theirs === undefined) return undefined;
    const ratioOf = (field) =>
      mine.concat(theirs).some((sample) => sample[field] === null) ? null : median(mine.map((sample, run) => sample[field] / theirs[run][field]));
    return { time: ratioOf('seconds'), cpu: ratioOf('cpuSeconds') };
  };
  return {
    ours: byRole('ours'),
    reference: byRole('trec_eval'),
    earlier: byRole('earlier'),
    paired: { reference: paired('trec_eval'), earlier: paired('earlier') },
  };
}

/** The dist/ committed at `sha`, extracted into `dir`: the build `--against` times beside this one. */
function extractBuild(sha, dir) {
  const archive = git(['archive', '--format=tar', sha, 'dist'], { encoding: 'buffer', maxBuffer: 1 << 30 });
  if (archive.status !== 0) fail(`--against: git archive ${sha.slice(0, 7)} dist failed: ${archive.stderr}`);
  const tar = spawnSync('tar', ['-x', '-C', dir], { input: archive.stdout });
  if (tar.status !== 0) fail(`--against: could not extract the build of ${sha.slice(0, 7)}: ${tar.stderr}`);
  return { role: 'earlier', name: `rag-gate@${sha.slice(0, 7)}`, cli: join(dir, CLI), action: join(dir, ACTION) };
}

// ---------------------------------------------------------------------------------------------------------------
// Context: the machine and the code being measured

/** The commit checked out, and the tracked files changed from it (docs/performance.md aside: the bench writes it). */
function commitState() {
  const head = git(['rev-parse', 'HEAD']);
  if (head.status !== 0) return { sha: null, dirty: [] };
  const dirty = git(['status', '--porcelain', '--untracked-files=no'])
    .stdout.split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => line.slice(3).replace(/^.* -> /, ''))
    .filter((path) => path !== DOC);
  return { sha: head.stdout.trim(), dirty };
}

function describeCommit({ sha, dirty }) {
  if (sha === null) return 'not a git checkout';
  if (dirty.length === 0) return sha.slice(0, 7);
  const inSources = dirty.some((path) => /^(src|dist)\//.test(path));
  return `${sha.slice(0, 7)} + uncommitted changes to ${dirty.length} file(s)${inSources ? ', in src/ or dist/ among them' : ''}`;
}

/** A measured case as plain data, the record scripts/bench/report.mjs makes its tables of. */
function caseRecord(bench, result) {
  const { workload, variant, scale, size, unit, records, bytes, runs } = bench;
  return { workload, variant, scale, size, unit, records, bytes, runs, ...result };
}

/**
 * Warns when the bundles are not what src/ builds to: the bench times dist/, not src/. Built afresh into a scratch
 * folder and compared byte for byte (file times say nothing: a checkout or a restored file is newer than its build).
 */
function staleBuildWarning() {
  const out = mkdtempSync(join(tmpdir(), 'rag-gate-build-'));
  try {
    const build = spawnSync(process.execPath, [join(ROOT, 'scripts/build.mjs'), '--out', out], { cwd: ROOT, encoding: 'utf8' });
    if (build.status !== 0) return `note: src/ does not build (${build.stderr.trim().split('\n')[0]}); these figures are of the committed dist/`;
    const same = [CLI, ACTION].every((file) => readFileSync(join(out, relative('dist', file))).equals(readFileSync(join(ROOT, file))));
    return same ? null : 'note: dist/ is not what src/ builds to; run `npm run build` to time the current code';
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------------------------------------------------------

/** The version a Node.js binary prints, e.g. v24.11.0. */
function nodeVersion(node) {
  return node === process.execPath ? process.version : spawnSync(node, ['--version'], { encoding: 'utf8' }).stdout.trim();
}

async function main() {
  const options = parseArgs(process.argv.slice(2));
  ourNode = options.node;
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

  const earlier = options.against === null ? null : extractBuild(options.against.sha, (earlierDir = mkdtempSync(join(tmpdir(), 'rag-gate-earlier-'))));
  const builds = earlier === null ? [THIS_BUILD] : [THIS_BUILD, earlier];
  const scales = SCALES.filter((scale) => !(options.quick && scale.divisor === 1));
  const runsFor = (scale) => options.runs ?? (scale.divisor === 1 ? DEFAULT_RUNS.full : DEFAULT_RUNS.smaller);

  // Generate every file first, so generation never overlaps a timed run.
  const cases = [];
  if (options.only.has('trec')) {
    const trecCase = (variant, scale, qrels, run, docnos) => {
      const tools = builds.map((build) => trecTool(qrels, run, build));
      if (trecEval !== null) tools.push(trecEvalTool(trecEval, qrels, run));
      cases.push({
        workload: 'trec',
        variant,
        scale: scale.label,
        size: `${group(TREC_QUERIES / scale.divisor)} q, ${group(docnos)} docnos`,
        unit: 'run lines',
        runs: runsFor(scale),
        bytes: statSync(qrels).size + statSync(run).size,
        countRecords: () => scanRecords([qrels], run),
        tools,
      });
    };
    for (const scale of scales) {
      const { qrels, run, distinct } = await realisticTrecFiles(TREC_QUERIES / scale.divisor);
      trecCase('realistic', scale, qrels, run, distinct);
    }
    for (const scale of scales) {
      const [qrels, run] = await friendlyTrecFiles(TREC_QUERIES / scale.divisor);
      trecCase('friendly', scale, qrels, run, 2 * TREC_DEPTH);
    }
  }
  /**
   * Cases of a workload that reads a base and a head run: at each scale, pinned to one core and again on every
   * core the machine has (what a runner with more cores gets).
   */
  const pairedRunCases = async (workload, questionsInFull, workloadScales, runsOf, toolOf) => {
    for (const [variant, pinned] of [
      ['realistic', pinningAvailable],
      ['unpinned', false],
    ]) {
      for (const scale of workloadScales) {
        const questions = questionsInFull / scale.divisor;
        const [base, head] = await resultFiles(questions);
        cases.push({
          workload,
          variant,
          scale: scale.label,
          size: `${group(questions)} q`,
          unit: 'questions',
          runs: runsOf(scale),
          bytes: statSync(base).size + statSync(head).size,
          countRecords: () => scanRecords([base], head),
          tools: builds.map((build) => toolOf(base, head, build, pinned)),
        });
      }
    }
  };
  if (options.only.has('compare')) await pairedRunCases('compare', COMPARE_QUESTIONS, scales, runsFor, compareTool);
  if (options.only.has('monitor')) {
    for (const scale of scales) {
      const turns = MONITOR_TURNS / scale.divisor;
      const [log] = await monitorFiles(turns);
      cases.push({
        workload: 'monitor',
        variant: 'realistic',
        scale: scale.label,
        size: `${group(turns)} turns`,
        unit: 'turns',
        runs: runsFor(scale),
        bytes: statSync(log).size,
        countRecords: () => scanRecords([], log),
        tools: builds.map((build) => monitorTool(log, build)),
      });
    }
  }
  if (options.only.has('action')) {
    const defaults = actionDefaults(join(ROOT, 'action.yml'));
    await pairedRunCases(
      'action',
      ACTION_QUESTIONS,
      SCALES,
      () => options.runs ?? DEFAULT_RUNS.action,
      (base, head, build, pinned) => actionTool(base, head, defaults, build, pinned),
    );
  }

  const reasonsAtStart = reasonsNotToWrite({ write: options.write, quick: options.quick, only: [...options.only], runs: options.runs, failed: false });
  if (reasonsAtStart.length === 0) {
    // A full run takes many minutes: find out now, not at its end, that it has nowhere to write.
    const text = existsSync(join(ROOT, DOC)) ? readFileSync(join(ROOT, DOC), 'utf8') : null;
    try {
      if (text === null) throw new Error('no such file');
      replaceBlock(text, '');
    } catch (error) {
      fail(`${DOC}: ${error.message}; it needs one ${BLOCK_START} … ${BLOCK_END} block for the figures (or pass --no-write)`);
    }
  }

  const startedAt = new Date();
  const startLoad = loadavg();
  const commit = commitState();
  const builtAt = Math.min(...[CLI, ACTION].map((file) => statSync(join(ROOT, file)).mtimeMs));
  const cpu = cpus();
  const header = [
    `rag-gate bench, ${utc(startedAt)}`,
    `machine  ${cpu[0]?.model.trim() ?? 'unknown CPU'}, ${cpu.length} cores, ${(totalmem() / 1024 ** 3).toFixed(1)} GiB RAM, ${process.platform} ${release()} ${process.arch}, Node ${nodeVersion(ourNode)}${ourNode === process.execPath ? '' : ` (${ourNode})`}`,
    `load     ${startLoad.map((load) => load.toFixed(2)).join(' ')} (1, 5, 15 min averages at start)`,
    `code     ${describeCommit(commit)}; dist/ built ${utc(new Date(builtAt))}`,
    `measured ${memoryMeasured ? 'CPU time (user + system) and peak RSS from /usr/bin/time -f "%U %S %M"' : 'wall time only (no GNU time at /usr/bin/time)'}; compare and action ${pinningAvailable ? 'pinned to one core (taskset -c 0)' : 'not pinned (no taskset)'}`,
  ];
  if (options.against !== null)
    header.push(`against  ${options.against.revision} (${options.against.sha.slice(0, 7)}): its committed dist/, timed in the same runs, interleaved`);
  const stale = staleBuildWarning();
  if (stale) header.push(stale);
  console.log(`${header.join('\n')}\n`);

  scratch = mkdtempSync(join(tmpdir(), 'rag-gate-bench-'));
  const failures = [];
  const measured = [];
  try {
    for (const bench of cases) {
      try {
        measured.push(caseRecord(bench, await runCase(bench)));
      } catch (error) {
        failures.push(error.message);
        progress(error.message);
      }
    }
  } finally {
    cleanUp();
  }

  const pin = pinningAvailable ? 'taskset -c 0 ' : '';
  console.log(`Commands (cwd ${ROOT}, stdout to /dev/null; median of the runs, peak RSS the largest over them)`);
  console.log(`  trec     node ${CLI} trec --qrels bench-data/trec[-real]-N.qrels --run bench-data/trec[-real]-N.run --metrics ${TREC_METRICS} --json`);
  console.log(`  compare  ${pin}node ${CLI} compare --base bench-data/results-real-N-base.jsonl --head bench-data/results-real-N-head.jsonl --json`);
  console.log(`           (variant unpinned: the same on every core)`);
  console.log(`  monitor  node ${CLI} monitor --logs bench-data/monitor-N.jsonl --json`);
  console.log(
    `  action   ${pin}node ${ACTION}, push event, INPUT_RESULTS/INPUT_BASELINE = results-real-N-head/base.jsonl, comment never, mode advisory, other inputs at action.yml's defaults`,
  );
  console.log(`           (variant unpinned: the same on every core)`);
  console.log(
    [
      'Workloads',
      `  trec realistic  N queries × ${group(TREC_DEPTH)}, MS MARCO passage numbers drawn from 8.8 M ids (popular ones more often), 4-decimal`,
      '                  scores, ~7% tied, ~100 judgments a query graded 0–3',
      '  trec friendly   the same shape with 2,000 distinct docnos over the whole run, one-decimal scores',
      `  compare/action  ids q-<hex>, ${COMPARE_DEPTH} document ids doc-<hex> from an 8.8 M-id vocabulary, questions of 10–30 words, answers`,
      '                  of 50–200, expected answers of 10–40, 2–6 claims with text, 1–3 graded gold documents, tags',
      '  monitor         N user turns in sessions of 1–8 over 28 days, queries of 5–20 words, answers of 30–150, ~6% refusals,',
      '                  ~10% rephrased within a minute (more of both in the last week)',
    ].join('\n'),
  );
  console.log();

  const printed = (found) => textTable(...Object.values(found));
  if (measured.length > 0) console.log(`${printed(resultTable(measured))}\n`);
  const trecCases = measured.filter((found) => found.workload === 'trec');
  if (trecEval !== null && trecCases.length > 0) {
    console.log(`trec_eval: ${trecEval} ${TREC_EVAL_ARGS.join(' ')} QRELS RUN (same files, runs interleaved with rag-gate's)`);
    console.log(`${printed(ratioTable(trecCases, 'reference', 'ours/trec_eval'))}\n`);
  }
  if (options.against !== null && measured.length > 0) {
    console.log(`against ${options.against.revision} (${options.against.sha.slice(0, 7)}): its committed dist/, each run right after this build's`);
    console.log("  (this/that divides the medians; run by run is the median of each run's ratio, which the machine's drift moves less)");
    console.log(`${printed(ratioTable(measured, 'earlier', 'this/that'))}\n`);
  }
  const scope = { only: [...options.only], quick: options.quick, failed: failures.length > 0, pinned: pinningAvailable };
  console.log('Targets (issues 19 and 40)');
  console.log(printed(targetTable(measured, scope)));

  let judged = null;
  if (options.only.has('judge')) {
    try {
      const answers = options.quick ? JUDGE_ANSWERS / 10 : JUDGE_ANSWERS;
      judged = await benchJudge({ root: ROOT, cli: CLI, answers, progress, node: ourNode });
      console.log(`\n${judgeReport(judged, textTable)}`);
    } catch (error) {
      failures.push(`judge: ${error.message}`);
    }
  }

  const reasons = reasonsNotToWrite({ write: options.write, quick: options.quick, only: [...options.only], runs: options.runs, failed: failures.length > 0 });
  if (reasons.length > 0) progress(`${DOC} left as it is: ${reasons.join('; ')} (only a full run writes its figures there)`);
  else {
    const report = {
      date: startedAt.toISOString(),
      command: ['npm run bench', ...(process.argv.length > 2 ? ['--', ...process.argv.slice(2)] : [])].join(' '),
      commit,
      builtAt: new Date(builtAt).toISOString(),
      stale: stale !== null,
      machine: {
        cpu: cpu[0]?.model.trim() ?? 'unknown CPU',
        cores: cpu.length,
        memoryGiB: totalmem() / 1024 ** 3,
        platform: process.platform,
        release: release(),
        arch: process.arch,
        load: startLoad,
      },
      node: { version: nodeVersion(ourNode), path: ourNode === process.execPath ? null : ourNode },
      cpuAndMemory: memoryMeasured,
      pinned: pinningAvailable,
      trecEval: trecEval === null ? null : `trec_eval ${TREC_EVAL_ARGS.join(' ')} QRELS RUN`,
      against: options.against,
      cases: measured,
      scope,
      judge: judged === null ? null : judgeReport(judged, markdownTable),
    };
    try {
      const path = join(ROOT, DOC);
      writeFileSync(path, replaceBlock(readFileSync(path, 'utf8'), performanceBlock(report)));
      progress(`wrote the figures into ${DOC}`);
    } catch (error) {
      failures.push(`${DOC}: ${error.message}`);
    }
  }

  if (failures.length > 0) {
    console.log(`\n${failures.length} workload(s) failed:\n${failures.join('\n\n')}`);
    process.exitCode = 1;
  }
}

function cleanUp() {
  for (const dir of [partialDir, scratch, earlierDir]) if (dir !== null) rmSync(dir, { recursive: true, force: true });
  partialDir = scratch = earlierDir = null;
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
