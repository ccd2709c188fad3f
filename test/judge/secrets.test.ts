import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { redactor } from '../../src/core/redact.js';
import { jsonl, runMain } from '../helpers/cli.js';
import { type RecordedRequest, chatCompletion, useFakeJudge } from './fake-openai.js';

const fake = useFakeJudge();

const KEY = 'sk-live-7f3a9c0e5b1d2f4a6c8e0b2d4f6a8c0e';
const USER = 'alice';
/** With characters that a URL percent-encodes and JSON escapes, so each written form of it is checked. */
const PASSWORD = 'hunter2-"pa$$ word"';
const BASIC = Buffer.from(`${USER}:${PASSWORD}`).toString('base64');

/** What a careless server echoes in its replies: the Authorization header, the credentials it decodes from it, and the URL with them. */
function echo(request: RecordedRequest): string {
  const authorization = String(request.headers.authorization);
  const userinfo = authorization.startsWith('Basic ') ? Buffer.from(authorization.slice('Basic '.length), 'base64').toString('utf8') : '';
  const key = authorization.startsWith('Bearer ') ? authorization.slice('Bearer '.length) : '';
  return `you sent Authorization: ${authorization} (key ${key}, user:password ${userinfo}) to http://${userinfo ? `${userinfo}@` : ''}${request.headers.host}${request.path}`;
}

/**
 * Every way the endpoint can quote the request: an error the client retries (its text long enough that the
 * credential straddles the 200 characters a message quotes of a body), one it does not, the refusal of the JSON-schema format (a
 * warning), and a valid reply whose content carries the echo into the judged copy and the cache.
 */
function echoingEndpoint(request: RecordedRequest) {
  const user: string = request.body.messages?.[1]?.content ?? '';
  if (request.body.response_format?.type === 'json_schema')
    return { status: 400, body: { error: { message: `response_format json_schema is not supported; ${echo(request)}` } } };
  if (user.includes('ECHO-500')) return { status: 500, body: `${'x'.repeat(165)} ${echo(request)}` };
  if (user.includes('ECHO-400')) return { status: 400, body: { error: { message: echo(request) } } };
  if (user.includes('ECHO-OK'))
    return { body: chatCompletion(JSON.stringify({ claims: [{ text: echo(request), verdict: 'NOT_STATED' }], verdict: 'NOT_STATED' })) };
  return undefined;
}

const AUTHS = [
  {
    name: 'an API key (Bearer)',
    baseUrl: () => fake.server.url,
    env: { OPENAI_API_KEY: KEY },
    header: `Bearer ${KEY}`,
    secrets: [KEY, KEY.slice(0, 12)],
  },
  {
    name: 'user:password in the base URL (Basic)',
    baseUrl: () => fake.server.url.replace('http://', `http://${USER}:${encodeURIComponent(PASSWORD)}@`),
    env: { OPENAI_API_KEY: undefined },
    header: `Basic ${BASIC}`,
    secrets: [PASSWORD, JSON.stringify(PASSWORD).slice(1, -1), encodeURIComponent(PASSWORD), 'hunter2', BASIC],
  },
];

/** The text of every file under `dir`. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => readFileSync(join(entry.parentPath, entry.name), 'utf8'));
}

function expectNoSecret(texts: readonly string[], secrets: readonly string[]): void {
  for (const text of texts) for (const secret of secrets) expect(text).not.toContain(secret);
}

const CONTEXT = 'The refund window is 14 days.';

describe.each(AUTHS)('no credential is written anywhere, with $name', (auth) => {
  it('judge: not in the judged copy, stderr, --json on stdout or the cache', async () => {
    for (const [name, value] of Object.entries(auth.env)) vi.stubEnv(name, value);
    fake.server.handler = echoingEndpoint;
    const results = fake.path('in.jsonl');
    const record = (id: string, answer: string) => ({ id, question: 'Window?', answer, retrieved_contexts: [CONTEXT] });
    writeFileSync(
      results,
      jsonl([record('ok', 'The refund window is 14 days.'), record('leaky', 'ECHO-OK.'), record('rejected', 'ECHO-400.'), record('failing', 'ECHO-500.')]),
    );
    const out = fake.path('out.jsonl');
    const cache = fake.path('cache');
    const run = await runMain([
      'judge',
      '--results',
      results,
      '--out',
      out,
      '--base-url',
      auth.baseUrl(),
      '--cache',
      cache,
      '--metrics',
      'faithfulness',
      '--concurrency',
      '1',
      '--max-attempts',
      '2',
      '--json',
    ]);

    expect(run.code, run.stderr).toBe(1);
    expect(fake.server.requests[0]!.headers.authorization).toBe(auth.header);
    expect(fake.server.requests.every((request) => request.path.startsWith('/v1/'))).toBe(true);
    expectNoSecret([readFileSync(out, 'utf8'), run.stderr, run.stdout, ...filesUnder(cache)], auth.secrets);
    // The echoes did arrive, redacted.
    const [ok, leaky, rejected, failing] = readFileSync(out, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(ok.claims).toHaveLength(1);
    expect(leaky.claims[0].text).toMatch(/^you sent Authorization: \*\*\* \(key /);
    expect(rejected.judge_errors[0]).toMatchObject({ kind: 'http', message: expect.stringMatching(/^HTTP 400: you sent Authorization: \*\*\*/) });
    expect(failing.judge_errors[0]).toMatchObject({ kind: 'unavailable', message: expect.stringMatching(/^HTTP 500: x+ you sent Authorization: \*\*\*/) });
    expect(run.stderr).toMatch(
      /rag-gate: warning: the endpoint does not accept the JSON-schema response format \(response_format json_schema is not supported; you sent Authorization: \*\*\*/,
    );
    expect(filesUnder(cache).some((text) => text.includes('you sent Authorization: ***'))).toBe(true);
  });

  it('calibrate: not in the calibration record, stdout (--json), stderr or the cache', async () => {
    for (const [name, value] of Object.entries(auth.env)) vi.stubEnv(name, value);
    fake.server.handler = echoingEndpoint;
    const labels = fake.path('labels.jsonl');
    const pair = (id: string, claim: string) => ({ id, claim, context: CONTEXT, human_verdict: 'NOT_STATED' });
    writeFileSync(
      labels,
      jsonl([pair('ok', 'The window is 30 days.'), pair('leaky', 'ECHO-OK.'), pair('rejected', 'ECHO-400.'), pair('failing', 'ECHO-500.')]),
    );
    const record = fake.path('calibration.json');
    const cache = fake.path('cache');
    const run = await runMain([
      'calibrate',
      '--labels',
      labels,
      '--out',
      record,
      '--base-url',
      auth.baseUrl(),
      '--cache',
      cache,
      '--concurrency',
      '1',
      '--max-attempts',
      '2',
      '--max-failure-share',
      '1',
      '--json',
    ]);

    expect(run.code, run.stderr).toBe(0);
    expect(existsSync(record)).toBe(true);
    expectNoSecret([readFileSync(record, 'utf8'), run.stdout, run.stderr, ...filesUnder(cache)], auth.secrets);
    expect(
      JSON.parse(run.stdout)
        .failures.map((failure: { message: string }) => failure.message)
        .join('\n'),
    ).toContain('you sent Authorization: ***');
  });

  it('a rejection of the credentials (exit 2): not on stderr', async () => {
    for (const [name, value] of Object.entries(auth.env)) vi.stubEnv(name, value);
    fake.server.handler = (request) => ({ status: 401, body: { error: { message: echo(request) } } });
    const results = fake.path('in.jsonl');
    writeFileSync(results, jsonl([{ id: 'q1', question: 'Window?', answer: 'Fourteen days.', expected_answer: '14 days' }]));
    const run = await runMain([
      'judge',
      '--results',
      results,
      '--out',
      fake.path('out.jsonl'),
      '--base-url',
      auth.baseUrl(),
      '--no-cache',
      '--metrics',
      'correctness',
    ]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/rejected (the API key|the user name and password in the base URL) \(HTTP 401: you sent Authorization: \*\*\*/);
    expectNoSecret([run.stderr, run.stdout], auth.secrets);
  });
});

describe('credentials in the base URL', () => {
  it('are not quoted by a setup error about that URL', async () => {
    const run = await runMain([
      'judge',
      '--results',
      fake.path('never-read.jsonl'),
      '--out',
      fake.path('out.jsonl'),
      '--base-url',
      'http://alice:hunter2-secret@exa mple.com/v1',
      '--no-cache',
    ]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('the base URL "http://***@exa mple.com/v1" is not a URL');
    expect(run.stderr).not.toContain('hunter2');
  });

  it('stand in for the API key, which is then not needed', async () => {
    vi.stubEnv('OPENAI_API_KEY', undefined);
    const results = fake.path('in.jsonl');
    writeFileSync(results, jsonl([{ id: 'q1', question: 'Window?', answer: 'A 14-day window.', expected_answer: '14-day' }]));
    const out = fake.path('out.jsonl');
    const run = await runMain([
      'judge',
      '--results',
      results,
      '--out',
      out,
      '--base-url',
      fake.server.url.replace('http://', 'http://bob:s3cr3t-pw@'),
      '--no-cache',
      '--metrics',
      'correctness',
    ]);
    expect(run.code, run.stderr).toBe(0);
    expect(fake.server.requests[0]!.headers.authorization).toBe(`Basic ${Buffer.from('bob:s3cr3t-pw').toString('base64')}`);
    expect(JSON.parse(readFileSync(out, 'utf8')).correct).toBe(true);
  });
});

describe('a key no HTTP header can carry', () => {
  it('is refused at setup (exit 2) without quoting it', async () => {
    vi.stubEnv('OPENAI_API_KEY', 'sk-pasted-\u201ccurly\u201d-key');
    const run = await runMain([
      'judge',
      '--results',
      fake.path('never-read.jsonl'),
      '--out',
      fake.path('out.jsonl'),
      '--base-url',
      fake.server.url,
      '--no-cache',
    ]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('OPENAI_API_KEY has a character an HTTP header cannot carry');
    expect(run.stderr).not.toContain('sk-pasted');
    expect(fake.server.requests).toHaveLength(0);
  });
});

describe('the redaction', () => {
  const redact = (text: string) => redactor(['sk-secret-key-123', 'Bearer sk-secret-key-123', 'x'])(text);

  it('blanks each secret, the longest form first, and as written inside a JSON string', () => {
    expect(redact('Authorization: Bearer sk-secret-key-123, key sk-secret-key-123')).toBe('Authorization: ***, key ***');
    expect(redactor(['pa"ss\\word'])(JSON.stringify({ password: 'pa"ss\\word' }))).toBe('{"password":"***"}');
  });

  it("blanks the userinfo of every URL, up to the authority's last @", () => {
    expect(redact('see http://u:p@ss@host:8/v1?a=b@c and "https://token@h/x", not mail@example.com')).toBe(
      'see http://***@host:8/v1?a=b@c and "https://***@h/x", not mail@example.com',
    );
  });

  it('leaves a value too short to tell from ordinary words', () => {
    expect(redact('x marks the spot')).toBe('x marks the spot');
  });
});
