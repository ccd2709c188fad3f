import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DIST_CLI, jsonl, parseJsonOutput, ROOT, runBin, runMain, scratchDir } from '../../helpers/cli.js';

const scratch = scratchDir();
afterAll(() => scratch.cleanup());

const LOGS = join(ROOT, 'examples', 'monitor', 'logs.jsonl');
const PLANTED = JSON.parse(readFileSync(join(ROOT, 'examples', 'monitor', 'planted.json'), 'utf8')) as {
  rates: { rephraseBefore: number; rephraseAfter: number; refusal: number };
  beforeDeploy: { turns: number; rephrased: number; refused: number };
  afterDeploy: { turns: number; rephrased: number; refused: number };
  days: { date: string; turns: number; rephrased: number; refused: number }[];
};

interface RateJson {
  value: number;
  interval: [number, number];
  count: number;
  n: number;
}
interface MonitorJson {
  turns: number;
  windows: { label: string; turns: number; rephraseRate: RateJson; refusalRate: RateJson; alerts: string[]; comparison: Record<string, unknown> | null }[];
  status: { rephraseRate: string; refusalRate: string };
  alerts: { rate: string; window: number; value: number; baseline: number; ceiling: number }[];
  similarity: { measure: string; threshold: number; rephraseWithinSeconds: number };
}

const within = (rate: RateJson, planted: number) => rate.interval[0] <= planted && planted <= rate.interval[1];

describe('rag-gate monitor on the shipped synthetic log', () => {
  it('is what scripts/gen-monitor-log.mjs writes', () => {
    const dir = join(scratch.dir, 'regenerated');
    execFileSync(process.execPath, [join(ROOT, 'scripts', 'gen-monitor-log.mjs'), dir], { cwd: ROOT });
    expect(readFileSync(join(dir, 'logs.jsonl'), 'utf8')).toBe(readFileSync(LOGS, 'utf8'));
  });

  it('split at the deploy: finds every planted rephrase and refusal, the planted rates inside the intervals, and alerts after the deploy', async () => {
    const run = await runMain(['monitor', '--logs', LOGS, '--deploy', '2026-03-08T00:00:00Z', '--json']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(1);
    const report = parseJsonOutput<MonitorJson>(run.stdout);
    expect(report.similarity).toEqual({ measure: 'lexical', threshold: 0.6, rephraseWithinSeconds: 60 });
    const [before, after] = report.windows;
    expect([before!.turns, before!.rephraseRate.count, before!.refusalRate.count]).toEqual([
      PLANTED.beforeDeploy.turns,
      PLANTED.beforeDeploy.rephrased,
      PLANTED.beforeDeploy.refused,
    ]);
    expect([after!.turns, after!.rephraseRate.count, after!.refusalRate.count]).toEqual([
      PLANTED.afterDeploy.turns,
      PLANTED.afterDeploy.rephrased,
      PLANTED.afterDeploy.refused,
    ]);
    expect(within(before!.rephraseRate, 0.08)).toBe(true);
    expect(within(after!.rephraseRate, 0.19)).toBe(true);
    expect(within(before!.refusalRate, 0.05)).toBe(true);
    expect(within(after!.refusalRate, 0.05)).toBe(true);
    expect(report.windows.map((w) => w.alerts)).toEqual([[], ['rephraseRate']]);
    expect(report.alerts).toEqual([expect.objectContaining({ rate: 'rephraseRate', window: 1, ceiling: 0.1 })]);
    expect(report.status).toEqual({ rephraseRate: 'alert', refusalRate: 'ok' });
  });

  it('in days: the alert fires on the day of the deploy and on no other day; later days are elevated', async () => {
    const run = await runMain(['monitor', '--logs', LOGS, '--json']);
    const report = parseJsonOutput<MonitorJson>(run.stdout);
    expect(report.windows.map((w) => w.label)).toEqual(PLANTED.days.map((d) => d.date));
    expect(report.windows.map((w) => [w.turns, w.rephraseRate.count, w.refusalRate.count])).toEqual(PLANTED.days.map((d) => [d.turns, d.rephrased, d.refused]));
    expect(report.windows.flatMap((w) => (w.alerts.length > 0 ? [w.label] : []))).toEqual(['2026-03-08']);
    // The current window (the last day) is high but no higher than the day before: no alert, exit 0.
    expect(report.status).toEqual({ rephraseRate: 'elevated', refusalRate: 'ok' });
    expect(report.alerts).toEqual([]);
    expect(run.code).toBe(0);
  });

  it('prints the text report with the alert and exits 1 from the bundled CLI', () => {
    const run = runBin(['monitor', '--logs', LOGS, '--deploy', '2026-03-08T00:00:00Z']);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('from 2026-03-08T00:00Z     2301  18.1% [16.6, 19.7] (417)');
    expect(run.stdout).toMatch(
      /rephrase rate 18\.1% against 7\.8%: \+10\.3 points \(95% CI \+8\.3 to \+12\.2\), one-sided p = .*: a significant rise above its ceiling 10\.0%: ALERT/,
    );
    expect(run.stdout).toContain('Rephrase rate: ALERT');
  });
});

describe('rag-gate monitor: bad input', () => {
  it('names file, line and field for every bad line, exit 2', async () => {
    const file = scratch.file(
      'bad.jsonl',
      [
        JSON.stringify({ session_id: 'a', timestamp: '2026-03-01T10:00:00', user_query: 'hi', answer: 'x' }),
        JSON.stringify({ session_id: 'a', timestamp: 1772359200, user_query: 5, answer: 'x' }),
        JSON.stringify({ sessionId: 'a', session_id: 'b', timestamp: 1772359200, user_query: 'q', answer: 'x' }),
        'not json',
        JSON.stringify({ session_id: 'a', timestamp: 1772359200, user_query: 'q' }),
        JSON.stringify({ session_id: 'a', timestamp: 1772359200, user_query: 'q', answer: 'x', embedding: [1, 'x'] }),
      ].join('\n'),
    );
    const run = await runMain(['monitor', '--logs', file]);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr.split('\n').slice(1, 7)).toEqual([
      `${file}:1: timestamp: must be an ISO 8601 time with a time zone (2026-03-01T09:30:00Z) or epoch seconds, milliseconds, microseconds or nanoseconds (a number)`,
      `${file}:2: user_query: is required and must be a string: the user's query`,
      `${file}:3: both "sessionId" and "session_id" give session_id; keep one, or name yours with --log-field session_id=NAME`,
      `${file}:4: not valid JSON (Unexpected token 'o', "not json" is not valid JSON)`,
      `${file}:5: answer: is required when refused is absent: the refusal rate needs one or the other`,
      `${file}:6: embedding[1]: must be a number`,
    ]);
  });

  it('reads your field names through --log-field, in your spelling in errors', async () => {
    const file = scratch.file('mapped.jsonl', jsonl([{ conversation: 'a', ts: 'later', prompt: 'reset password', reply: 'Open Settings.' }]));
    const run = await runMain([
      'monitor',
      '--logs',
      file,
      '--log-field',
      'session_id=conversation',
      '--log-field',
      'timestamp=ts',
      '--log-field',
      'user_query=prompt',
      '--log-field',
      'answer=reply',
    ]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`${file}:1: ts: must be an ISO 8601 time`);
    const bad = await runMain(['monitor', '--logs', file, '--log-field', 'sesion_id=conversation']);
    expect(bad.stderr).toContain(
      '"sesion_id" is not a field of the log format (session_id, timestamp, user_query, answer, refused, embedding); did you mean "session_id"?',
    );
    expect(bad.code).toBe(2);
  });

  it('says how to give logs when there are none', async () => {
    const run = await runMain(['monitor', '--config', join(scratch.dir, 'none.yml')]);
    expect(run.code).toBe(2);
  });
});

describe('the log formats', () => {
  const at = Date.parse('2026-03-01T09:00:00Z');
  const span = (attributes: Record<string, string | boolean>, start: number) => ({
    traceId: '5b8efff798038103d269b633813fc60c',
    spanId: 'eee19b7ec3c1b174',
    name: 'chat',
    startTimeUnixNano: `${start}000000`,
    endTimeUnixNano: `${start + 900}000000`,
    attributes: Object.entries(attributes).map(([key, value]) => ({ key, value: typeof value === 'boolean' ? { boolValue: value } : { stringValue: value } })),
  });

  it('reads OTLP JSON span exports: session.id, gen_ai.prompt and gen_ai.completion, the span start as the time; other spans passed over', async () => {
    const line = {
      resourceSpans: [
        {
          resource: { attributes: [{ key: 'service.name', value: { stringValue: 'support-bot' } }] },
          scopeSpans: [
            {
              scope: { name: 'app' },
              spans: [
                span({ 'session.id': 's1', 'gen_ai.prompt': 'How do I reset my password?', 'gen_ai.completion': 'Open Settings.' }, at),
                span({ 'db.system': 'qdrant' }, at + 100),
                span({ 'session.id': 's1', 'gen_ai.prompt': 'password reset how', 'gen_ai.completion': "I don't know." }, at + 20_000),
              ],
            },
          ],
        },
      ],
    };
    const file = scratch.file('otlp.jsonl', `${JSON.stringify(line)}\n`);
    const run = await runMain(['monitor', '--logs', file, '--json']);
    expect(run.stderr).toBe('');
    const report = parseJsonOutput<MonitorJson>(run.stdout);
    expect(report.turns).toBe(2);
    expect(report.windows[0]!.rephraseRate).toMatchObject({ count: 1, n: 2 });
    expect(report.windows[0]!.refusalRate).toMatchObject({ count: 1, n: 2 });
  });

  it("reads Langfuse's trace export names (sessionId, input, output, timestamp) and the log's own embeddings", async () => {
    const file = scratch.file(
      'langfuse.jsonl',
      jsonl([
        { id: 't1', sessionId: 's1', timestamp: '2026-03-01T09:00:00.000Z', input: 'reset password', output: 'Open Settings.', embedding: [1, 0] },
        { id: 't2', sessionId: 's1', timestamp: '2026-03-01T09:00:30.000Z', input: 'cancel plan', output: 'Billing page.', embedding: [0.9, 0.1] },
      ]),
    );
    const report = parseJsonOutput<MonitorJson>((await runMain(['monitor', '--logs', file, '--json'])).stdout);
    // auto: every turn has an embedding, so their cosine decides (0.994 ≥ 0.8), not the words.
    expect(report.similarity.measure).toBe('embeddings');
    expect(report.windows[0]!.rephraseRate.count).toBe(1);
    const lexical = parseJsonOutput<MonitorJson>((await runMain(['monitor', '--logs', file, '--json', '--similarity', 'lexical'])).stdout);
    expect(lexical.windows[0]!.rephraseRate.count).toBe(0);
  });

  it('reads a log piped to /dev/stdin, its embeddings kept from the one read a pipe allows', async () => {
    const turns = [0, 20, 45, 50].map((seconds, i) => ({
      session_id: 's1',
      timestamp: new Date(Date.parse('2026-03-01T09:00:00Z') + seconds * 1000).toISOString(),
      user_query: `query ${i}`,
      answer: 'Open Settings.',
      embedding: [
        [1, 0, 0.5],
        [1, 0.2, 0.5],
        [0, 1, 0],
        [0, 1, 0.1],
      ][i],
    }));
    const file = scratch.file('piped.jsonl', jsonl(turns));
    // Through a shell's pipe: Node gives a child's stdin as a socket, which /dev/stdin cannot open.
    const piped = spawnSync('sh', ['-c', 'cat "$1" | "$2" "$3" monitor --logs /dev/stdin --json', 'sh', file, process.execPath, DIST_CLI], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    expect(piped.stderr).toBe('');
    const fromFile = await runMain(['monitor', '--logs', file, '--json']);
    expect(piped.stdout).toBe(fromFile.stdout.replace(JSON.stringify(file), JSON.stringify('/dev/stdin')));
    const report = parseJsonOutput<MonitorJson & { candidatePairs: number; rephrases: number }>(piped.stdout);
    expect([report.similarity.measure, report.candidatePairs, report.rephrases]).toEqual(['embeddings', 3, 2]);
  });
});

describe('rag-gate monitor sample', () => {
  it('writes whole conversations, the same ones for the same seed, as golden-set rows to fill in', async () => {
    const out = join(scratch.dir, 'sample.jsonl');
    const run = await runMain(['monitor', 'sample', '--logs', LOGS, '--n', '5', '--seed', 'week-10', '--out', out]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^Wrote 5 conversations \(\d+ turns\) of 1,680 conversations to /);
    const rows = readFileSync(out, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    const sessions = [...new Set(rows.map((row) => row.session_id))];
    expect(sessions).toHaveLength(5);
    const log = readFileSync(LOGS, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { session_id: string });
    for (const session of sessions)
      expect(rows.filter((row) => row.session_id === session)).toHaveLength(log.filter((turn) => turn.session_id === session).length);
    expect(rows[0]).toMatchObject({ expected_answer: '', answerable: true, tags: ['production'], notes: '' });
    expect(rows[0]!.id).toMatch(/^q-[0-9a-f]{16}$/);
    const again = join(scratch.dir, 'again.jsonl');
    await runMain(['monitor', 'sample', '--logs', LOGS, '--n', '5', '--seed', 'week-10', '--out', again]);
    expect(readFileSync(again, 'utf8')).toBe(readFileSync(out, 'utf8'));
  });
});
