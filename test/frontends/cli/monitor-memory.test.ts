import { createWriteStream, readFileSync } from 'node:fs';
import { once } from 'node:events';
import { afterAll, describe, expect, it } from 'vitest';
import { scratchDir, spawnBin } from '../../helpers/cli.js';

/**
 * The monitor keeps what its report needs of each turn, not the turn (issue 40): a log whose answers alone are about
 * twice the heap it is given is read, monitored and sampled within it. The monitor that kept every turn whole ran
 * out of heap on this log and crashed.
 */
const scratch = scratchDir();
afterAll(() => scratch.cleanup());

const HEAP_MIB = 48;
const SESSIONS = 10_000;
const ANSWER_CHARS = 3_000;
const START = Date.parse('2026-03-02T00:00:00Z');
const FILLER = 'Open Settings, then Billing, and choose the plan you want. '.repeat(ANSWER_CHARS / 50).slice(0, ANSWER_CHARS);

/**
 * Sessions a minute apart of three turns: a query, its rephrase 20 s later, and another question 200 s later. One
 * session in ten is first answered "I don't know"; every answer is about 3,000 characters, so the log's answers hold
 * about 90 MB.
 */
async function writeLog(path: string): Promise<void> {
  const out = createWriteStream(path);
  for (let s = 0; s < SESSIONS; s++) {
    const at = START + s * 60_000;
    const turns = [
      { at, query: `How do I reset my password ${s}?`, answer: s % 10 === 0 ? `I don't know. ${FILLER}` : FILLER },
      { at: at + 20_000, query: `password reset ${s}, how`, answer: FILLER },
      { at: at + 200_000, query: 'Where are my invoices?', answer: FILLER },
    ];
    const lines = turns.map(({ at, query, answer }) =>
      JSON.stringify({ session_id: `s${s}`, timestamp: new Date(at).toISOString(), user_query: query, answer }),
    );
    if (!out.write(`${lines.join('\n')}\n`)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
}

const runCapped = (argv: readonly string[]) => spawnBin(argv, { nodeArgs: [`--max-old-space-size=${HEAP_MIB}`] });

describe(`monitor within ${HEAP_MIB} MiB of heap on a log whose answers are about 90 MB`, () => {
  const log = scratch.file('logs.jsonl', '');
  const ready = writeLog(log);

  it('reports every turn, pair and refusal', async () => {
    await ready;
    const run = await runCapped(['monitor', '--logs', log, '--json']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout) as {
      turns: number;
      sessions: number;
      refusalsDetected: number;
      candidatePairs: number;
      rephrases: number;
      windows: { refusalRate: { count: number } }[];
    };
    expect(report).toMatchObject({ turns: 3 * SESSIONS, sessions: SESSIONS, refusalsDetected: 3 * SESSIONS, candidatePairs: SESSIONS, rephrases: SESSIONS });
    expect(report.windows.reduce((sum, window) => sum + window.refusalRate.count, 0)).toBe(SESSIONS / 10);
  }, 120_000);

  it('samples whole conversations, their answers read again from the log', async () => {
    await ready;
    const out = `${scratch.dir}/sample.jsonl`;
    const run = await runCapped(['monitor', 'sample', '--logs', log, '--n', '20', '--out', out]);
    expect(run.code).toBe(0);
    const rows = readFileSync(out, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { session_id: string; turn: number; question: string; answer: string; refused: boolean; rephrased: boolean });
    expect(rows).toHaveLength(60);
    for (const row of rows) {
      const s = Number(row.session_id.slice(1));
      expect(row.question).toBe([`How do I reset my password ${s}?`, `password reset ${s}, how`, 'Where are my invoices?'][row.turn - 1]);
      expect(row.answer.length).toBe(row.turn === 1 && s % 10 === 0 ? ANSWER_CHARS + 14 : ANSWER_CHARS);
      expect(row.refused).toBe(row.turn === 1 && s % 10 === 0);
      expect(row.rephrased).toBe(row.turn === 1);
    }
  }, 120_000);
});
