import { describe, expect, it } from 'vitest';
import { REDACTED } from '../../../src/core/redact.js';
import { actionSecrets, redactingRuntime } from '../../../src/frontends/github/redacting-runtime.js';
import { FakeGitHub, fakeRuntime } from './fakes.js';

const INPUT_TOKEN = 'v1.0123456789abcdef0123456789abcdef01234567';
const JUDGE_KEY = 'sk-judge-0123456789';
/** The token the API client is made with, which the secrets given at the entry need not hold. */
const CLIENT_TOKEN = 'client-token-0123456789';
/** A personal access token nobody passed in, in GitHub's shape. */
const SHAPED = `ghp_${'A1b2C3d4E5'.repeat(4)}`;
const SECRETS = [INPUT_TOKEN, JUDGE_KEY, CLIENT_TOKEN, SHAPED];

const leak = (where: string) => `${where}: ${SECRETS.join(' ')}`;
const redacted = (where: string) => `${where}: ${SECRETS.map(() => REDACTED).join(' ')}`;

describe('the redacting runtime', () => {
  it('redacts every text that leaves through it: log, warning, failure, output, summary, report file, and what the API sends', async () => {
    const api = new FakeGitHub();
    const fake = fakeRuntime({ inputs: {}, api });
    const reports: [string, string][] = [];
    const runtime = redactingRuntime(
      {
        ...fake.runtime,
        writeReport: async (file, text) => {
          reports.push([file, text]);
        },
      },
      [INPUT_TOKEN, JUDGE_KEY],
    );

    // Its token is a secret from then on.
    const client = runtime.createApi({ token: CLIENT_TOKEN, owner: 'octo', repo: 'shop', timeoutMs: 1000 });
    runtime.info(leak('info'));
    runtime.warning(leak('warning'), leak('title'));
    runtime.setFailed(leak('failed'));
    runtime.setOutput('verdict', leak('output'));
    await runtime.writeSummary(leak('summary'));
    await runtime.writeReport('/tmp/report.json', leak('report'));
    const { id } = await client.createComment(42, leak('comment'));
    await client.updateComment(id, leak('updated comment'));
    await client.createCommitStatus('c'.repeat(40), { state: 'failure', context: leak('context'), description: leak('description'), targetUrl: leak('url') });

    expect(fake.infos).toEqual([redacted('info')]);
    expect(fake.warnings).toEqual([{ message: redacted('warning'), title: redacted('title') }]);
    expect(fake.failures).toEqual([redacted('failed')]);
    expect([...fake.outputs]).toEqual([['verdict', redacted('output')]]);
    expect(fake.summaries).toEqual([redacted('summary')]);
    expect(reports).toEqual([['/tmp/report.json', redacted('report')]]);
    expect(api.called('createComment').map((call) => call.args)).toEqual([[42, redacted('comment')]]);
    expect(api.called('updateComment').map((call) => call.args)).toEqual([[id, redacted('updated comment')]]);
    expect(api.statuses).toEqual([
      { sha: 'c'.repeat(40), state: 'failure', context: redacted('context'), description: redacted('description'), targetUrl: redacted('url') },
    ]);
    // The client still authenticates with the token as given.
    expect(fake.apiOptions.map((options) => options.token)).toEqual([CLIENT_TOKEN]);
  });

  it("redacts the monitor's issue title, body and labels, and keeps the rest of a change", async () => {
    const api = new FakeGitHub();
    const runtime = redactingRuntime(fakeRuntime({ inputs: {}, api }).runtime, [INPUT_TOKEN, JUDGE_KEY]);
    const client = runtime.createApi({ token: CLIENT_TOKEN, owner: 'octo', repo: 'shop', timeoutMs: 1000 });
    const { number } = await client.createIssue(leak('title'), leak('body'), [leak('label')]);
    await client.updateIssue(number, { title: leak('title'), body: leak('body'), close: true });
    await client.updateIssue(number, { close: false });
    expect(api.calls.filter((call) => call.method === 'createIssue' || call.method === 'updateIssue')).toEqual([
      { method: 'createIssue', args: [redacted('title'), redacted('body'), [redacted('label')]] },
      { method: 'updateIssue', args: [number, { title: redacted('title'), body: redacted('body'), close: true }] },
      { method: 'updateIssue', args: [number, { close: false }] },
    ]);
  });

  it("takes the github-token input and the environment's credential variables as secrets, leaving out unset and blank ones", () => {
    expect(actionSecrets(' ghs_input ', { GITHUB_TOKEN: 'env-token', OPENAI_API_KEY: ' ', ACTIONS_RUNTIME_TOKEN: 'runtime', HOME: '/home/runner' })).toEqual([
      'ghs_input',
      'env-token',
      'runtime',
    ]);
    expect(actionSecrets('', {})).toEqual([]);
  });

  it("takes the proxy variables' credentials, in every form they could be echoed, and blanks them in what leaves", () => {
    const env = { https_proxy: 'http://corp%5Cjane:s3cr%40t-pass-99@proxy.corp:3128', HTTP_PROXY: 'proxy.corp:8080', http_proxy: 'not a url://' };
    const token = Buffer.from('corp\\jane:s3cr@t-pass-99').toString('base64');
    const secrets = actionSecrets('', env);
    expect(secrets).toEqual(['s3cr%40t-pass-99', 's3cr@t-pass-99', 'corp%5Cjane:s3cr%40t-pass-99', 'corp\\jane:s3cr@t-pass-99', token, `Basic ${token}`]);
    const fake = fakeRuntime({ inputs: {}, api: new FakeGitHub() });
    const runtime = redactingRuntime(fake.runtime, secrets);
    runtime.info(`proxy said: bad password s3cr@t-pass-99 (Proxy-Authorization: Basic ${token}) for http://corp%5Cjane:s3cr%40t-pass-99@proxy.corp:3128`);
    expect(fake.infos).toEqual([`proxy said: bad password ${REDACTED} (Proxy-Authorization: ${REDACTED}) for http://${REDACTED}@proxy.corp:3128`]);
  });
});
