// npm run demo: the example RAG pipeline (examples/pipeline) before and after an index rebuild that changed the
// chunking, compared by rag-gate as a user would run it (node dist/cli.js compare).
//
//   node scripts/demo.mjs [--out DIR] [--update-docs | --repeats N]
//
// Writes only to DIR (default out/demo/, ignored by git): base.jsonl, head.jsonl, comment.md (the PR comment body,
// written by the action itself, dist/index.js: a push run on main keeps the history, and the pull request's run
// reads the baseline artifact through a loopback stand-in for GitHub's API) and comparison.json (compare --json),
// with the runs' working folders. Exits 0 whatever the verdict: it is a demo.
// --update-docs also rewrites the committed copies: examples/base.jsonl, examples/head.jsonl and
// docs/example-comment.md (the tests fail when those are out of date).
// --repeats N runs each configuration N times per question with an answerer that samples (like an LLM at a
// temperature above 0) and compares the repeated runs; it also writes base-again.jsonl, the base configuration
// sampled N more times, to show what one run per question makes of pure noise. It touches no committed file.
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createServer } from 'node:http';
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
// RAG_GATE_BUNDLES: the tests run the demo on the bundles they built from src/, not on the committed dist/.
const BUNDLES = process.env.RAG_GATE_BUNDLES || join(ROOT, 'dist');
const CLI = join(BUNDLES, 'cli.js');
const ACTION = join(BUNDLES, 'index.js');
const EXAMPLE_COMMENT = join(ROOT, 'docs', 'example-comment.md');
/** The demo's settings; its retrieval-ok rule (every gold document retrieved: a synthesis question needs both) is the story. */
const CONFIG = join(ROOT, 'examples', 'rag-gate.yml');

const USAGE = 'usage: node scripts/demo.mjs [--out DIR] [--update-docs | --repeats N]\n';

function usageError(message) {
  process.stderr.write(`demo: ${message}\n${USAGE}`);
  process.exit(2);
}

function parseArgs(argv) {
  const options = { out: join(ROOT, 'out', 'demo'), updateDocs: false, repeats: undefined };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--update-docs') options.updateDocs = true;
    else if (arg === '--repeats') {
      const value = argv[++i];
      if (value === undefined || !/^\d+$/.test(value) || Number(value) < 2 || Number(value) > 20)
        usageError(`--repeats takes a whole number of runs from 2 to 20, not ${JSON.stringify(value ?? '')}`);
      options.repeats = Number(value);
    } else if (arg === '--out' && argv[i + 1] !== undefined) options.out = resolve(argv[++i]);
    else if (arg === '--help' || arg === '-h') {
      process.stdout.write(USAGE);
      process.exit(0);
    } else usageError(`unknown argument ${JSON.stringify(arg)}`);
  }
  if (options.updateDocs && options.repeats !== undefined) usageError('--update-docs writes the single-run documents: it does not take --repeats');
  return options;
}

/** A path as the user would type it from the current directory. */
const shown = (path) => relative(process.cwd(), path) || '.';

/** `rag-gate compare` with the demo's config file; `flags` override it. */
function compare(files, flags) {
  const args = ['compare', '--config', shown(CONFIG), '--base', shown(files.base), '--head', shown(files.head), ...flags];
  const run = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (run.error) throw run.error;
  if (run.status !== 0 && run.status !== 1) {
    process.stderr.write(run.stderr);
    process.stderr.write(`demo: rag-gate compare exited ${run.status}\n`);
    process.exit(2);
  }
  return { args, code: run.status, stdout: run.stdout };
}

const BASE_SHA = '1f3c2a9e0b7d4c6a8e5f2b1d9c0a7e6f5b4d3c2a';
const HEAD_SHA = '9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c4d3e2f1a0b';
const REPOSITORY = 'larkspur/assistant';
/** The push run on main whose artifact holds the base results and the history. */
const BASE_RUN = { id: 7001, number: 41 };
const PR_RUN_ID = 7006;
const WORKFLOW_ID = 3;

/** dist/index.js as the runner starts it: inputs as INPUT_* variables with action.yml's defaults, the GITHUB_* files. */
async function runAction(dir, { event, eventName, given, env }) {
  const runner = join(dir, '_runner');
  rmSync(runner, { recursive: true, force: true });
  mkdirSync(join(runner, 'temp'), { recursive: true });
  writeFileSync(join(runner, 'event.json'), JSON.stringify(event));
  for (const name of ['output', 'summary']) writeFileSync(join(runner, name), '');
  const { inputs: declared } = parse(readFileSync(join(ROOT, 'action.yml'), 'utf8'));
  const inputs = {};
  for (const [name, input] of Object.entries(declared)) {
    const value = { config: CONFIG, 'github-token': 'demo', ...given }[name] ?? input.default;
    if (value !== undefined) inputs[`INPUT_${name.toUpperCase()}`] = String(value);
  }
  const child = spawn(process.execPath, [ACTION], {
    cwd: dir,
    env: {
      PATH: process.env.PATH ?? '',
      ...inputs,
      GITHUB_ACTIONS: 'true',
      GITHUB_EVENT_NAME: eventName,
      GITHUB_EVENT_PATH: join(runner, 'event.json'),
      GITHUB_REPOSITORY: REPOSITORY,
      GITHUB_SERVER_URL: 'https://github.com',
      // The checkout is this repository: the config file is examples/rag-gate.yml in it, at the base commit too.
      GITHUB_WORKSPACE: ROOT,
      GITHUB_OUTPUT: join(runner, 'output'),
      GITHUB_STEP_SUMMARY: join(runner, 'summary'),
      RUNNER_TEMP: join(runner, 'temp'),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  child.stdout.on('data', (chunk) => (log += chunk));
  child.stderr.on('data', (chunk) => (log += chunk));
  const code = await new Promise((done, fail) => child.on('error', fail).on('close', done));
  return { code, log, temp: join(runner, 'temp') };
}

/**
 * Earlier runs of main, made up around the base run's own rates so that the comment shows a trend: a slow slide
 * of retrieval that no single pull request made significant, and p95 latency and cost a question creeping up.
 */
function earlierRuns(baseSummary) {
  const drift = [0.031, 0.027, 0.024, 0.026, 0.017, 0.013, 0.011, 0.004];
  return drift.map((offset, i) => {
    const metrics = {};
    for (const name of ['retrieval_ok', 'correct']) {
      const { value, n } = baseSummary.details[name];
      metrics[name] = { value: Math.min(1, Number((value + offset * (name === 'correct' ? 0.5 : 1)).toFixed(4))), n };
    }
    // What a question cost crept up as the help centre grew: earlier runs were a little faster and cheaper.
    for (const name of ['latency_p95', 'cost_per_question']) {
      const { value, n } = baseSummary.details[name];
      metrics[name] = { value: Number((value * (1 - offset * (name === 'latency_p95' ? 2 : 1))).toPrecision(4)), n };
    }
    return {
      commit: createHash('sha1').update(`larkspur main ${i}`).digest('hex'),
      date: new Date(Date.UTC(2026, 9, 1 + 3 * i)).toISOString(),
      n: baseSummary.questions,
      metrics,
    };
  });
}

/**
 * A loopback stand-in for the few GitHub REST endpoints the action calls: the base branch's config file, and to
 * find the base branch's artifact the producing workflow of the pull request's run, its successful push runs on
 * main (one, three hours old), the merge-base, the run's artifacts and the artifact's zip.
 */
async function fakeGitHub(zip, createdAt) {
  const runJson = {
    id: BASE_RUN.id,
    run_number: BASE_RUN.number,
    head_sha: BASE_SHA,
    created_at: createdAt,
    head_repository: { full_name: REPOSITORY },
    html_url: `https://github.com/${REPOSITORY}/actions/runs/${BASE_RUN.id}`,
  };
  const routes = [
    [new RegExp(`^/repos/${REPOSITORY}/actions/runs/${PR_RUN_ID}$`), () => ({ id: PR_RUN_ID, workflow_id: WORKFLOW_ID })],
    [new RegExp(`^/repos/${REPOSITORY}/actions/workflows/${WORKFLOW_ID}/runs$`), () => ({ total_count: 1, workflow_runs: [runJson] })],
    [new RegExp(`^/repos/${REPOSITORY}/compare/`), () => ({ merge_base_commit: { sha: BASE_SHA } })],
    [
      new RegExp(`^/repos/${REPOSITORY}/actions/runs/${BASE_RUN.id}/artifacts$`),
      () => ({ total_count: 1, artifacts: [{ id: 90, name: 'rag-gate-results', expired: false }] }),
    ],
  ];
  const server = createServer((request, response) => {
    const path = new URL(request.url, 'http://localhost').pathname;
    if (path === `/repos/${REPOSITORY}/actions/artifacts/90/zip`) {
      response.writeHead(200, { 'content-type': 'application/zip', 'content-length': String(zip.length) });
      response.end(zip);
      return;
    }
    // The base branch's files, raw: main has the same config as the pull request.
    const file = path.match(new RegExp(`^/repos/${REPOSITORY}/contents/(.+)$`));
    if (file !== null && existsSync(join(ROOT, decodeURIComponent(file[1])))) {
      const text = readFileSync(join(ROOT, decodeURIComponent(file[1])));
      response.writeHead(200, { 'content-type': 'application/vnd.github.raw; charset=utf-8', 'content-length': String(text.length) });
      response.end(text);
      return;
    }
    const route = routes.find(([pattern]) => pattern.test(path));
    const body = JSON.stringify(route === undefined ? { message: 'Not Found' } : route[1]());
    response.writeHead(route === undefined ? 404 : 200, { 'content-type': 'application/json; charset=utf-8' });
    response.end(body);
  });
  await new Promise((done) => server.listen(0, '127.0.0.1', done));
  return { url: `http://127.0.0.1:${server.address().port}`, close: () => new Promise((done) => server.close(done)) };
}

/**
 * The PR comment as the action writes it, through the action's own code path (dist/index.js): first main's push
 * run, which appends the base run to the history of earlier runs (restored as its `history` file) and writes it;
 * then the README's upload step, the base results and the history zipped as the `rag-gate-results` artifact; then
 * the pull request's run, which finds that artifact through a loopback stand-in for GitHub's API, compares, and
 * charts the history. Comments are off, so nothing is posted. The comment is the report-markdown file it writes,
 * marker, trend and Baseline line included, exactly what it would post.
 */
async function actionComment(files, baseSummary) {
  const push = join(options.out, 'push');
  rmSync(push, { recursive: true, force: true });
  mkdirSync(push, { recursive: true });
  const history = join(push, 'rag-gate-history.json');
  writeFileSync(history, JSON.stringify({ version: 1, runs: earlierRuns(baseSummary) }));
  const pushed = await runAction(push, {
    eventName: 'push',
    event: { ref: 'refs/heads/main', after: BASE_SHA },
    given: { results: files.base },
    env: { GITHUB_SHA: BASE_SHA, GITHUB_RUN_ID: String(BASE_RUN.id) },
  });
  if (pushed.code !== 0) fail(`the push run failed (exit ${pushed.code})`, pushed.log);

  const zip = zipSync({ [basename(files.base)]: readFileSync(files.base), 'rag-gate-history.json': readFileSync(history) });
  const api = await fakeGitHub(zip, new Date(Date.now() - 3 * 3_600_000).toISOString().replace(/\.\d{3}Z$/, 'Z'));
  // The pull request's workspace holds no history file: the history comes from the artifact.
  rmSync(join(dirname(files.head), 'rag-gate-history.json'), { force: true });
  const pull = await runAction(dirname(files.head), {
    eventName: 'pull_request',
    event: {
      action: 'synchronize',
      number: 7,
      pull_request: { number: 7, base: { ref: 'main', sha: BASE_SHA }, head: { ref: 'sentence-window-chunks', sha: HEAD_SHA } },
    },
    given: { results: basename(files.head), comment: 'never' },
    env: { GITHUB_RUN_ID: String(PR_RUN_ID), GITHUB_API_URL: api.url },
  }).finally(() => api.close());
  const written = join(pull.temp, 'rag-gate', 'default', 'comment.md');
  if (!existsSync(written)) fail(`the action wrote no comment (exit ${pull.code})`, pull.log);
  if (!readFileSync(written, 'utf8').includes('```mermaid')) fail('the comment has no trend: the artifact history was not read', pull.log);
  return readFileSync(written, 'utf8');
}

function fail(message, log) {
  process.stderr.write(`${log}demo: ${message}\n`);
  process.exit(2);
}

const fixed3 = (x) => (x === null ? '–' : x.toFixed(3));
const formatP = (p) => (p >= 0.0001 ? p.toFixed(4) : p.toExponential(1));

/**
 * The same runs judged with the common rule hit@5, under which a synthesis question that lost one of its two
 * articles still counts as retrieved: its wrong answer is then blamed on generation.
 */
function misattribution(comparison) {
  const retrieval = comparison.tests.find((test) => test.metric === 'retrieval_ok');
  const { base, head } = comparison.decomposition;
  const causes = comparison.causes.regressions;
  return [
    'The same two runs judged with the common rule --retrieval-ok hit@5 (retrieval ok when any one gold article is retrieved):',
    `  retrieval_ok (hit@5) ${fixed3(retrieval.base)} → ${fixed3(retrieval.head)}: ${retrieval.broken} broken, ${retrieval.fixed} fixed, p = ${formatP(retrieval.pValue)}${retrieval.significant ? '' : ', not significant'}`,
    `  regressions blamed on retrieval: ${causes.retrieval}, on generation: ${causes.generation}`,
    `  g_good ${fixed3(base.gGood)} → ${fixed3(head.gGood)}, g_bad ${fixed3(base.gBad)} → ${fixed3(head.gBad)}`,
    'A synthesis question that lost one of its two articles still "hits", so its wrong answer looks like a generation',
    'failure and g_good seems to move, although the answerer is the same code in both runs: the misattribution that',
    `the decomposition warns about. Requiring every gold article (${RETRIEVAL_OK}) puts the blame on the index rebuild.`,
    '',
    '',
  ].join('\n');
}

/**
 * The head's answers without the pipeline's own `correct` verdicts, scored under each of rag-gate's correctness
 * rules: how much the rule alone moves the number a team reports.
 */
function correctnessRules(headFile, out) {
  const unjudged = join(out, 'head-without-correct.jsonl');
  const records = readFileSync(headFile, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line))
    .filter((record) => record.answerable !== false)
    .map(({ correct: _verdict, ...record }) => record);
  writeFileSync(unjudged, records.map((record) => JSON.stringify(record)).join('\n') + '\n');
  const rows = ['contains', 'exact', `f1:${CORRECT_F1}`].map((rule) => {
    const run = spawnSync(process.execPath, [CLI, 'eval', '--results', shown(unjudged), '--correct', rule, '--json'], { encoding: 'utf8' });
    if (run.status !== 0) {
      process.stderr.write(run.stderr);
      process.exit(2);
    }
    const { count, n } = JSON.parse(run.stdout).details.correct;
    return `  --correct ${rule.padEnd(9)} ${String(count).padStart(3)} of ${n} answers correct (${((100 * count) / n).toFixed(1)}%)`;
  });
  return [
    `The same head answers without the pipeline's own verdicts (${shown(unjudged)}), scored by each correctness rule:`,
    ...rows,
    'contains (the default) counts an answer that includes the expected answer as whole words, exact one equal to it after',
    'normalisation, f1:T one whose token F1 with it is at least T. This answerer quotes the help centre, so the rules nearly',
    'agree; an LLM that pads or rephrases ("Good news: the refund window is 30 days.") passes contains and fails exact.',
    'Every report states the rule it used.',
    '',
    '',
  ].join('\n');
}

/** Records of a results file, with `keep` choosing them and their `run` field dropped. */
function singleRun(from, to, keep) {
  const records = readFileSync(from, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line))
    .filter(keep)
    .map(({ run: _run, ...record }) => record);
  writeFileSync(to, records.map((record) => JSON.stringify(record)).join('\n') + '\n');
  return to;
}

/**
 * With --repeats: the base configuration sampled again, compared with its first runs. Nothing changed, so every
 * fixed or broken question is noise: one run per question counts those flips as evidence, repeated runs measure them.
 */
function pureNoise(files, repeats, out) {
  const again = join(out, 'base-again.jsonl');
  writeFileSync(again, toJsonl(runPipeline(CONFIGS.base, { docs, golden }, { repeats, firstRun: repeats + 1 })));
  const correctOf = (comparison) => comparison.tests.find((test) => test.metric === 'correct');
  const single = correctOf(
    JSON.parse(
      compare(
        {
          base: singleRun(files.base, join(out, 'base-run-1.jsonl'), (record) => record.run === 1),
          head: singleRun(again, join(out, 'base-again-run-1.jsonl'), (record) => record.run === repeats + 1),
        },
        ['--json'],
      ).stdout,
    ),
  );
  const repeated = JSON.parse(compare({ base: files.base, head: again }, ['--json']).stdout);
  const rates = correctOf(repeated).rates;
  const evaluated = spawnSync(process.execPath, [CLI, 'eval', '--config', shown(CONFIG), '--results', shown(files.head), '--json'], { encoding: 'utf8' });
  if (evaluated.status !== 0) {
    process.stderr.write(evaluated.stderr);
    process.exit(2);
  }
  const outcomes = JSON.parse(evaluated.stdout).repeats.outcomes.map(
    (o) =>
      `  ${o.metric.padEnd(13)} flaky ${String(o.flaky).padStart(3)} of ${o.repeated} (${fixed3(o.flakyRate)}), pass@${o.k} ${fixed3(o.passAtK)}, pass^${o.k} ${fixed3(o.passHatK)}`,
  );
  const p = (test) => `p = ${formatP(test.pValue)}${test.significant ? ', significant' : ', not significant'}`;
  return [
    `The head's repeated runs (rag-gate eval --results ${shown(files.head)}):`,
    ...outcomes,
    'A flaky question is right in some runs and wrong in others: the pipeline answers it by luck, and one flip of it',
    'is neither a regression nor a fix. pass@k far above pass^k means the pipeline can answer questions it does not',
    'answer reliably.',
    '',
    `Pure noise: the base configuration sampled ${repeats} more times (${shown(again)}): the same code, data and index.`,
    `  one run per question (run 1 against run ${repeats + 1}): correct ${fixed3(single.base)} → ${fixed3(single.head)}, ${single.broken} broken, ${single.fixed} fixed, McNemar ${p(single)}`,
    `  ${repeats} runs per question: ${rates.broken} questions' pass rate fell (${rates.noise.broken.toFixed(1)} expected from noise), ${rates.fixed} rose (${rates.noise.fixed.toFixed(1)} expected), sign-flip ${p(correctOf(repeated))}; verdict ${repeated.verdict}`,
    'Nothing changed, so every fixed and broken question here is a flaky one that flipped by luck. With one run per',
    'question McNemar counts such flips as evidence: a pull request that changed nothing can fail by chance, or a real',
    'regression hide. With repeats rag-gate tests per-question pass rates and states how many moves noise alone gives',
    "(each question's runs dealt at random between the sides); the comment folds the flaky questions of base and head",
    'with their passes out of runs ("correct 1/3").',
    '',
    '',
  ].join('\n');
}

const options = parseArgs(process.argv.slice(2));
if (!existsSync(CLI) || !existsSync(ACTION)) {
  process.stderr.write(`demo: ${shown(CLI)} or ${shown(ACTION)} is missing: run \`npm run build\` first\n`);
  process.exit(1);
}
// Loaded after the check, so that a missing build is reported as such.
const { CONFIGS, CORRECT_F1, EXAMPLES, SAMPLING_JITTER, loadCorpus, loadGolden, runPipeline, toJsonl } = await import('../examples/pipeline/pipeline.mjs');
const { writeResults } = await import('../examples/pipeline/run.mjs');
const { parse } = await import('yaml');
const { zipSync } = await import('fflate');
const RETRIEVAL_OK = parse(readFileSync(CONFIG, 'utf8'))['retrieval-ok'];

const docs = loadCorpus();
const golden = loadGolden();
const kinds = (kind) => golden.filter((q) => q.tags.includes(kind)).length;
process.stdout.write(
  [
    'rag-gate demo: an index rebuild that changed the chunking',
    '',
    `The example pipeline (examples/pipeline) answers ${golden.length} questions about Larkspur, a fictional SaaS product,`,
    `from its help centre (${docs.length} articles in examples/corpus; golden set in examples/golden.jsonl: ${kinds('factual')} factual,`,
    `${kinds('synthesis')} synthesis questions that need two articles, ${kinds('unanswerable')} unanswerable). It retrieves the ${CONFIGS.base.chunksRetrieved} best chunks`,
    'with BM25 (minisearch) and answers with an offline extractive answerer that quotes the best-matching sentences,',
    `falls back on a little general knowledge, or says "I don't know". Correct = token F1 >= ${CORRECT_F1} against the expected`,
    'answer, or a refusal when the question is unanswerable.',
    `  base: ${CONFIGS.base.description}`,
    `  head: ${CONFIGS.head.description}`,
    'Retriever, answerer and golden set are the same code and data in both runs; only the chunking changed.',
    `Retrieval counts as ok when every gold article is retrieved (${RETRIEVAL_OK}).`,
    ...(options.repeats === undefined
      ? []
      : [
          `--repeats ${options.repeats}: each configuration answers every question ${options.repeats} times ("run": 1, 2, …), and the answerer samples`,
          `like an LLM at a temperature above 0: each sentence's match share moves by a random ±${SAMPLING_JITTER / 2} before it chooses, so a`,
          'question whose best sentences are close, or near the threshold, gets different answers from run to run.',
        ]),
    '',
    '',
  ].join('\n'),
);

const started = performance.now();
const files = writeResults(options.out, { repeats: options.repeats });
process.stdout.write(`Ran both configurations in ${((performance.now() - started) / 1000).toFixed(1)} s: ${shown(files.base)}, ${shown(files.head)}\n\n`);

const comment = join(options.out, 'comment.md');
const json = join(options.out, 'comparison.json');
const report = compare(files, []);
process.stdout.write(`$ node dist/cli.js ${report.args.map((a) => (/[^\w@./=-]/.test(a) ? `'${a}'` : a)).join(' ')}\n\n${report.stdout}\n`);
writeFileSync(json, compare(files, ['--json']).stdout);
const baseSummary = JSON.parse(
  spawnSync(process.execPath, [CLI, 'eval', '--config', shown(CONFIG), '--results', shown(files.base), '--json'], {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  }).stdout,
);
writeFileSync(comment, await actionComment(files, baseSummary));

process.stdout.write(`Wrote the PR comment body (as the action writes it) to ${shown(comment)} and the comparison as JSON to ${shown(json)}.\n\n`);
if (options.repeats === undefined) {
  process.stdout.write(misattribution(JSON.parse(compare(files, ['--retrieval-ok', 'hit@5', '--json']).stdout)));
  process.stdout.write(correctnessRules(files.head, options.out));
} else process.stdout.write(pureNoise(files, options.repeats, options.out));
if (options.updateDocs) {
  mkdirSync(dirname(EXAMPLE_COMMENT), { recursive: true });
  copyFileSync(comment, EXAMPLE_COMMENT);
  const committed = writeResults(EXAMPLES);
  process.stdout.write(`Updated ${shown(EXAMPLE_COMMENT)}, ${shown(committed.base)} and ${shown(committed.head)}.\n`);
}
process.stdout.write(
  report.code === 1
    ? 'rag-gate compare exited 1: in CI this verdict would fail the check. (The demo itself exits 0.)\n'
    : 'rag-gate compare exited 0: in CI this check would pass.\n',
);
