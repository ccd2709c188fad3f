// The judge's throughput and cost under a rate limit (issue 19): `node dist/cli.js judge` as a child process, all
// three metrics, against the loopback OpenAI-compatible endpoint of the tests (test/judge/openai-endpoint.ts,
// bundled here with esbuild) answering in 300–800 ms under a requests- and tokens-per-minute limit that it announces
// in OpenAI's x-ratelimit-* headers and enforces with 429 + Retry-After.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { Buffer } from 'node:buffer';
import { join } from 'node:path';
import { build } from 'esbuild';
import { mulberry32 } from '../seeded-random.mjs';
import { DOMAIN_WORDS, textMaker } from './text.mjs';

/** OpenAI's tier 2 limits for gpt-4o-mini (requests and tokens per minute). */
export const JUDGE_LIMIT = { rpm: 5_000, tpm: 2_000_000 };
export const JUDGE_ANSWERS = 2_000;
const LATENCY_MS = [300, 800];
/** Enough calls in flight to reach the limit at this latency: 5,000 rpm × 0.55 s ≈ 46. */
const CONCURRENCY = 64;
/** The share of the limit the run must reach. */
export const JUDGE_TARGET_SHARE = 0.9;

/** Records of realistic length: questions of 10–30 words, answers of 50–200 in sentences, three contexts of 60–120. */
function records(count) {
  const { between, words, sentences } = textMaker(mulberry32(19), DOMAIN_WORDS);
  return Array.from({ length: count }, (_, i) => ({
    id: `q${i}`,
    question: `${words(between(10, 30))}?`,
    answer: sentences(between(50, 200)),
    retrieved_ids: [`d${i}a`, `d${i}b`, `d${i}c`],
    retrieved_contexts: [sentences(between(60, 120)), sentences(between(60, 120)), sentences(between(60, 120))],
    expected_answer: sentences(between(5, 20)),
  }));
}

async function loadEndpoint(root) {
  const bundle = await build({
    entryPoints: [join(root, 'test/judge/openai-endpoint.ts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    write: false,
    logLevel: 'silent',
  });
  return import(`data:text/javascript;base64,${Buffer.from(bundle.outputFiles[0].text).toString('base64')}`);
}

function run(command, args, env) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env: { PATH: process.env.PATH, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/**
 * Judges `answers` records for faithfulness, answer relevance and correctness under JUDGE_LIMIT and returns what
 * was measured: the rate the endpoint served (from its first request to its last reply), 429s, records left
 * unjudged, and calls and tokens per answer per metric from the judge's --json summary.
 */
export async function benchJudge({ root, cli, answers = JUDGE_ANSWERS, progress = () => {}, node = process.execPath }) {
  const { startFakeOpenAI } = await loadEndpoint(root);
  const server = await startFakeOpenAI();
  const scratch = mkdtempSync(join(tmpdir(), 'rag-gate-bench-judge-'));
  try {
    server.latencyMs = LATENCY_MS;
    server.textUsage = true;
    server.rateLimit = { ...JUDGE_LIMIT };
    const input = join(scratch, 'results.jsonl');
    writeFileSync(
      input,
      records(answers)
        .map((record) => `${JSON.stringify(record)}\n`)
        .join(''),
    );
    progress(`judge: ${answers} answers × 3 metrics against a loopback endpoint at ${JUDGE_LIMIT.rpm} rpm / ${JUDGE_LIMIT.tpm} tpm …`);
    const started = Date.now();
    const result = await run(
      node,
      [join(root, cli), 'judge', '--results', input, '--out', join(scratch, 'out.jsonl'), '--no-cache', '--concurrency', String(CONCURRENCY), '--json'],
      { OPENAI_API_KEY: 'sk-bench', OPENAI_BASE_URL: server.url },
    );
    const wall = (Date.now() - started) / 1000;
    if (result.code !== 0) throw new Error(`judge exited ${result.code}:\n${result.stderr}`);
    const summary = JSON.parse(result.stdout);
    const first = server.requests[0]?.at ?? 0;
    const last = server.requests.at(-1)?.at ?? first;
    // OpenAI limits each model on its own: the rate that counts is the chat model's (the embedding model's calls
    // are fewer and smaller).
    const embeddings = summary.stats.byTask['answer_relevance.embeddings'] ?? { calls: 0, totalTokens: 0 };
    const chatCalls = summary.stats.calls - embeddings.calls;
    const chatTokens = summary.stats.totalTokens - embeddings.totalTokens;
    // The endpoint's busy span: the first request's arrival to the last one's, plus a mean latency for its reply.
    const span = (last - first) / 1000 + (LATENCY_MS[0] + LATENCY_MS[1]) / 2000;
    return {
      answers,
      wall,
      span,
      calls: summary.stats.calls,
      rateLimited: server.rateLimitedReplies,
      recordsFailed: summary.recordsFailed,
      requestsPerMinute: (chatCalls - server.rateLimitedReplies) / (span / 60),
      tokensPerMinute: chatTokens / (span / 60),
      metrics: summary.metrics,
      pacing: summary.pacing,
    };
  } finally {
    await server.close();
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** The report of benchJudge as text: throughput against the limit, then cost per answer beside Ragas. */
export function judgeReport(measured, table) {
  const group = (n) => Math.round(n).toLocaleString('en-US');
  const percent = (share) => `${(share * 100).toFixed(1)}%`;
  const requestShare = measured.requestsPerMinute / JUDGE_LIMIT.rpm;
  const tokenShare = measured.tokensPerMinute / JUDGE_LIMIT.tpm;
  const binding = Math.max(requestShare, tokenShare);
  const lines = [
    `Judge (issue 19): node dist/cli.js judge --metrics faithfulness,answer_relevance,correctness --concurrency ${CONCURRENCY} --no-cache --json,`,
    `  ${group(measured.answers)} answers (questions 10–30 words, answers 50–200, three contexts of 60–120), loopback endpoint with ${LATENCY_MS[0]}–${LATENCY_MS[1]} ms latency,`,
    `  limited per model (as OpenAI does) to ${group(JUDGE_LIMIT.rpm)} requests and ${group(JUDGE_LIMIT.tpm)} tokens per minute (x-ratelimit-* headers, 429 + Retry-After beyond);`,
    `  tokens counted as characters / 4; rates over the endpoint's busy span, whose first minute may also spend the full bucket OpenAI starts with`,
    '',
    table(
      [
        { title: 'answers', align: 'r' },
        { title: 'wall', align: 'r' },
        { title: 'calls', align: 'r' },
        { title: '429s', align: 'r' },
        { title: 'unjudged', align: 'r' },
        { title: 'chat model requests/min', align: 'r' },
        { title: 'chat model tokens/min', align: 'r' },
      ],
      [
        [
          group(measured.answers),
          `${measured.wall.toFixed(1)} s`,
          group(measured.calls),
          `${group(measured.rateLimited)} (${percent(measured.rateLimited / measured.calls)})`,
          group(measured.recordsFailed),
          `${group(measured.requestsPerMinute)} (${percent(requestShare)} of the limit)`,
          `${group(measured.tokensPerMinute)} (${percent(tokenShare)} of the limit)`,
        ],
      ],
    ),
    '',
    'Cost per answer (this run, no cache) beside Ragas (explodinggradients/ragas 3e28e9d: LLM + embeddings calls per sample)',
    table(
      [
        { title: 'metric' },
        { title: 'calls/answer', align: 'r' },
        { title: 'tokens/answer', align: 'r' },
        { title: 'Ragas metric' },
        { title: 'Ragas calls/answer', align: 'r' },
      ],
      Object.entries(measured.metrics).map(([metric, report]) => {
        const answers = report.judged + report.failed;
        const { ragas } = report;
        return [
          metric,
          report.calls.embeddings === 0
            ? (report.cost.calls / answers).toFixed(2)
            : `${(report.cost.calls / answers).toFixed(2)} (${(report.calls.chat / answers).toFixed(2)} chat + ${(report.calls.embeddings / answers).toFixed(3)} embeddings)`,
          group(report.cost.totalTokens / answers),
          ragas.metric,
          `${ragas.chat + ragas.embeddings} (${ragas.chat} LLM + ${ragas.embeddings} embeddings)`,
        ];
      }),
    ),
    '',
    `Target: ≥ ${percent(JUDGE_TARGET_SHARE)} of the binding limit, no record unjudged, 429s ≤ 2%: ${percent(binding)}, ${measured.recordsFailed} unjudged, ` +
      `${percent(measured.rateLimited / measured.calls)} 429s → ${binding >= JUDGE_TARGET_SHARE && measured.recordsFailed === 0 && measured.rateLimited <= 0.02 * measured.calls ? 'PASS' : 'MISS'}`,
  ];
  return lines.join('\n');
}
