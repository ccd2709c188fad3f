import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { InputError } from '../../../src/core/errors.js';
import { type ArtifactSearch, type BaselineFound, findArtifactBaseline, invalidArtifactResults } from '../../../src/frontends/github/baseline.js';
import { GitHubTimeoutError } from '../../../src/frontends/github/github.js';
import { tempDir } from '../../helpers/files.js';
import { BASE_SHA, FakeGitHub, HEAD_SHA, HttpError, MERGE_BASE_SHA, NOW, tamperedZip, workflowRun, zipOf } from './fakes.js';

const OTHER_SHA = 'd'.repeat(40);
const RUN_1 = { id: 1, url: 'https://github.com/octo/shop/actions/runs/1' };
const PRODUCER = { id: 5000, url: 'https://github.com/octo/shop/actions/runs/5000' };

function search(api: FakeGitHub, overrides: Partial<ArtifactSearch> = {}): ArtifactSearch {
  return {
    api,
    pullRequest: { number: 42, baseRef: 'main', baseSha: BASE_SHA, headSha: HEAD_SHA },
    producerRunId: 5000,
    repository: 'octo/shop',
    serverUrl: 'https://github.com',
    artifactName: 'rag-gate-results',
    maxAgeDays: 30,
    resultNames: ['results.jsonl'],
    historyName: 'rag-gate-history.json',
    directory: join(tempDir(), 'baseline'),
    now: NOW,
    ...overrides,
  };
}

/** A run with an artifact holding these files. */
function addRun(api: FakeGitHub, id: number, headSha: string, createdAt: string, files: Record<string, string> | null, headRepository = 'octo/shop'): void {
  api.runs.push(workflowRun({ id, headSha, createdAt, headRepository }));
  if (files === null) return;
  api.artifacts.set(id, { id: id * 10, name: 'rag-gate-results' });
  api.zips.set(id * 10, zipOf(files));
}

const read = (file: string) => readFileSync(file, 'utf8');

async function found(api: FakeGitHub, overrides: Partial<ArtifactSearch> = {}): Promise<BaselineFound> {
  const baseline = await findArtifactBaseline(search(api, overrides));
  if (baseline.kind !== 'found') throw new Error(`no baseline: ${JSON.stringify(baseline)}`);
  return baseline;
}

describe('findArtifactBaseline', () => {
  it('asks for successful push runs of the producing workflow on the base branch since the maximum age', async () => {
    const api = new FakeGitHub();
    const baseline = await findArtifactBaseline(search(api, { maxAgeDays: 7 }));
    expect(api.called('getWorkflowId')).toEqual([{ method: 'getWorkflowId', args: [5000] }]);
    const [list] = api.called('listSuccessfulPushRuns');
    expect(list?.args.slice(0, 2)).toEqual([77, 'main']);
    expect((list?.args[2] as Date).toISOString()).toBe('2026-11-13T12:00:00.000Z');
    expect(baseline).toEqual({ kind: 'absent', reason: 'no successful push run of this workflow on `main` in the last 7 days' });
  });

  it('prefers the run at the merge-base over a newer one', async () => {
    const api = new FakeGitHub();
    api.mergeBaseSha = MERGE_BASE_SHA;
    addRun(api, 2, OTHER_SHA, '2026-11-20T10:00:00Z', { 'results.jsonl': 'newer\n' });
    addRun(api, 1, MERGE_BASE_SHA, '2026-11-19T12:00:00Z', { 'results.jsonl': 'merge-base\n' });
    const baseline = await found(api);
    expect(api.called('mergeBase')[0]?.args).toEqual([BASE_SHA, HEAD_SHA]);
    expect(baseline.sha).toBe(MERGE_BASE_SHA);
    expect(baseline.files.map(read)).toEqual(['merge-base\n']);
    expect(baseline.description).toBe('`main` at `aaaaaaa` (the merge-base), results from run 1, 24 hours old');
    expect(api.called('findArtifact').map((call) => call.args[0])).toEqual([1]);
  });

  it('takes the newest run when none is at the merge-base, or the merge-base is unknown', async () => {
    for (const mergeBase of [MERGE_BASE_SHA, null]) {
      const api = new FakeGitHub();
      api.mergeBaseSha = mergeBase;
      addRun(api, 1, BASE_SHA, '2026-11-10T12:00:00Z', { 'results.jsonl': 'older\n' });
      addRun(api, 2, OTHER_SHA, '2026-11-20T11:30:00Z', { 'results.jsonl': 'newer\n' });
      const baseline = await found(api);
      expect(baseline.sha).toBe(OTHER_SHA);
      expect(baseline.files.map(read)).toEqual(['newer\n']);
      expect(baseline.description).toBe('`main` at `ddddddd`, results from run 2, less than an hour old');
    }
  });

  it('carries on without the merge-base when the compare call fails', async () => {
    const api = new FakeGitHub();
    api.fail.mergeBase = new HttpError(404, 'No common ancestor');
    addRun(api, 2, OTHER_SHA, '2026-11-15T12:00:00Z', { 'results.jsonl': 'x\n' });
    expect((await found(api)).description).toBe('`main` at `ddddddd`, results from run 2, 5 days old');
  });

  it('ignores runs whose head repository is a fork, even newer ones at the merge-base', async () => {
    const api = new FakeGitHub();
    api.mergeBaseSha = MERGE_BASE_SHA;
    addRun(api, 3, MERGE_BASE_SHA, '2026-11-20T11:00:00Z', { 'results.jsonl': 'from the fork\n' }, 'mallory/shop');
    addRun(api, 1, OTHER_SHA, '2026-11-18T12:00:00Z', { 'results.jsonl': 'ours\n' });
    const baseline = await found(api);
    expect(baseline.files.map(read)).toEqual(['ours\n']);
    expect(api.called('findArtifact').map((call) => call.args[0])).toEqual([1]);
  });

  it('finds nothing when the only runs are from forks', async () => {
    const api = new FakeGitHub();
    addRun(api, 3, MERGE_BASE_SHA, '2026-11-20T11:00:00Z', { 'results.jsonl': 'x\n' }, 'mallory/shop');
    const baseline = await findArtifactBaseline(search(api));
    expect(baseline.kind).toBe('absent');
    expect(api.called('findArtifact')).toEqual([]);
  });

  it('skips runs without the artifact', async () => {
    const api = new FakeGitHub();
    api.mergeBaseSha = MERGE_BASE_SHA;
    addRun(api, 3, MERGE_BASE_SHA, '2026-11-20T11:00:00Z', null);
    addRun(api, 2, OTHER_SHA, '2026-11-19T11:00:00Z', null);
    addRun(api, 1, BASE_SHA, '2026-11-18T11:00:00Z', { 'results.jsonl': 'third\n' });
    const baseline = await found(api);
    expect(baseline.sha).toBe(BASE_SHA);
    expect(baseline.files.map(read)).toEqual(['third\n']);
    expect(api.called('findArtifact').map((call) => call.args)).toEqual([
      [3, 'rag-gate-results'],
      [2, 'rag-gate-results'],
      [1, 'rag-gate-results'],
    ]);
    expect(api.called('downloadArtifact').map((call) => call.args[0])).toEqual([10]);
  });

  it('says why when no run has the artifact (first run, or expired)', async () => {
    const api = new FakeGitHub();
    addRun(api, 1, BASE_SHA, '2026-11-18T11:00:00Z', null);
    const baseline = await findArtifactBaseline(search(api));
    expect(baseline).toEqual({ kind: 'absent', reason: expect.stringContaining('unexpired artifact `rag-gate-results`') });
  });

  it('writes zip-slip entry names flat inside the directory', async () => {
    const api = new FakeGitHub();
    addRun(api, 1, BASE_SHA, '2026-11-18T11:00:00Z', { '../../evil.jsonl': 'evil\n', '/abs/evil2.jsonl': 'evil2\n' });
    const directory = join(tempDir(), 'deep', 'baseline');
    const baseline = await found(api, { directory, resultNames: ['head.jsonl'] });
    expect(baseline.files).toHaveLength(2);
    for (const file of baseline.files) expect(dirname(file)).toBe(directory);
    expect(readdirSync(directory).sort()).toEqual(baseline.files.map((file) => file.slice(directory.length + 1)).sort());
    expect(existsSync(join(directory, '..', '..', 'evil.jsonl'))).toBe(false);
    expect(existsSync('/abs/evil2.jsonl')).toBe(false);
    expect(baseline.files.map(read).sort()).toEqual(['evil2\n', 'evil\n'].sort());
  });

  /** A zip whose central directory claims `entry` inflates to `size` bytes, as a zip bomb's would. */
  function claimingSize(files: Record<string, string>, entry: string, size: number): Uint8Array {
    const zip = zipOf(files);
    const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
    for (let at = 0; at + 46 < zip.length; at++) {
      if (view.getUint32(at, true) !== 0x02014b50) continue;
      const nameLength = view.getUint16(at + 28, true);
      const name = new TextDecoder().decode(zip.subarray(at + 46, at + 46 + nameLength));
      if (name === entry) view.setUint32(at + 24, size, true);
    }
    return zip;
  }

  it('refuses an artifact whose results files would inflate past 2 GiB, before inflating them: a broken baseline', async () => {
    const api = new FakeGitHub();
    addRun(api, 1, BASE_SHA, '2026-11-18T11:00:00Z', {});
    api.zips.set(10, claimingSize({ 'results.jsonl': '{"id":"a","question":"a?"}\n' }, 'results.jsonl', 0xf0000000));
    expect(await findArtifactBaseline(search(api))).toEqual({
      kind: 'broken',
      problem: expect.objectContaining({
        kind: 'corrupt-artifact',
        step: 'unpack',
        run: RUN_1,
        detail: expect.stringMatching(/would inflate to more than 2 GiB/),
      }),
    });
  });

  it('never inflates entries that are not results files', async () => {
    const api = new FakeGitHub();
    addRun(api, 1, BASE_SHA, '2026-11-18T11:00:00Z', {});
    api.zips.set(10, claimingSize({ 'results.jsonl': '{"id":"a","question":"a?"}\n', 'model.bin': 'x' }, 'model.bin', 0xf0000000));
    const baseline = await found(api);
    expect(baseline.files.map(read)).toEqual(['{"id":"a","question":"a?"}\n']);
  });

  it('prefers files named like the head results', async () => {
    const api = new FakeGitHub();
    addRun(api, 1, BASE_SHA, '2026-11-18T11:00:00Z', { 'results.jsonl': 'mine\n', 'other.jsonl': 'not mine\n', 'eval/extra.json': '[]' });
    const baseline = await found(api, { resultNames: ['results.jsonl'] });
    expect(baseline.files.map(read)).toEqual(['mine\n']);
  });

  it('takes every results file as the shards of one run when none is named like the head results', async () => {
    const api = new FakeGitHub();
    addRun(api, 1, BASE_SHA, '2026-11-18T11:00:00Z', { 'shard-2.jsonl': 'two\n', 'shard-1.jsonl': 'one\n', 'notes.md': '# notes\n' });
    const baseline = await found(api, { resultNames: ['head.jsonl'] });
    expect(baseline.files.map(read)).toEqual(['one\n', 'two\n']);
  });

  it('takes the shards named like the head shards', async () => {
    const api = new FakeGitHub();
    addRun(api, 1, BASE_SHA, '2026-11-18T11:00:00Z', { 'a/shard-1.jsonl': 'one\n', 'b/shard-2.jsonl': 'two\n', 'shard-3.jsonl': 'three\n' });
    const baseline = await found(api, { resultNames: ['shard-1.jsonl', 'shard-2.jsonl'] });
    expect(baseline.files.map(read)).toEqual(['one\n', 'two\n']);
  });
});

describe('findArtifactBaseline: the history file beside the results', () => {
  const HISTORY = '{"version":1,"runs":[]}\n';
  const historyText = (baseline: BaselineFound) => {
    const history = baseline.artifact?.history;
    if (history === null || history === undefined || !('content' in history)) throw new Error(`no history: ${JSON.stringify(history)}`);
    return { entry: history.entry, text: new TextDecoder().decode(history.content) };
  };

  it('is never read as a shard when every results file is taken as the shards of one run', async () => {
    const api = new FakeGitHub();
    addRun(api, 1, BASE_SHA, '2026-11-18T11:00:00Z', { 'shard-2.jsonl': 'two\n', 'rag-gate-history.json': HISTORY, 'shard-1.jsonl': 'one\n' });
    const baseline = await found(api, { resultNames: ['head.jsonl'] });
    expect(baseline.files.map(read)).toEqual(['one\n', 'two\n']);
    expect([...baseline.artifact!.entries.values()]).toEqual(['shard-1.jsonl', 'shard-2.jsonl']);
    expect(historyText(baseline)).toEqual({ entry: 'rag-gate-history.json', text: HISTORY });
  });

  it('is never read as results in the sharded layout (results/ and the history in one upload), named or not', async () => {
    const files = { 'results/shard-1.jsonl': 'one\n', 'results/shard-2.jsonl': 'two\n', 'rag-gate-history.json': HISTORY };
    for (const resultNames of [['shard-1.jsonl', 'shard-2.jsonl'], ['elsewhere.jsonl']]) {
      const api = new FakeGitHub();
      addRun(api, 1, BASE_SHA, '2026-11-18T11:00:00Z', files);
      const baseline = await found(api, { resultNames });
      expect(baseline.files.map(read)).toEqual(['one\n', 'two\n']);
      expect(historyText(baseline).text).toBe(HISTORY);
    }
  });

  it('goes by the history setting’s base name, wherever it sits; an artifact without one carries none', async () => {
    const api = new FakeGitHub();
    addRun(api, 1, BASE_SHA, '2026-11-18T11:00:00Z', { 'results.jsonl': 'r\n', 'out/trend.json': HISTORY, 'rag-gate-history.json': 'not this one' });
    const baseline = await found(api, { historyName: 'trend.json' });
    expect(baseline.files.map(read)).toEqual(['r\n']);
    expect(historyText(baseline)).toEqual({ entry: 'out/trend.json', text: HISTORY });

    const without = new FakeGitHub();
    addRun(without, 1, BASE_SHA, '2026-11-18T11:00:00Z', { 'results.jsonl': 'r\n' });
    expect((await found(without)).artifact?.history).toBeNull();
  });

  it('an artifact holding only a history has no results file: a broken baseline that names the history, not an older run', async () => {
    const api = new FakeGitHub();
    addRun(api, 2, OTHER_SHA, '2026-11-19T11:00:00Z', { 'rag-gate-history.json': HISTORY });
    addRun(api, 1, BASE_SHA, '2026-11-18T11:00:00Z', { 'results.jsonl': 'older\n' });
    expect(await findArtifactBaseline(search(api))).toEqual({
      kind: 'broken',
      problem: expect.objectContaining({
        kind: 'no-results-file',
        run: { id: 2, url: 'https://github.com/octo/shop/actions/runs/2' },
        detail: 'rag-gate-history.json',
      }),
    });
    expect(api.called('downloadArtifact').map((call) => call.args[0])).toEqual([20]);
  });

  it('a history entry that fails its CRC-32 is a problem of the history, not of the baseline', async () => {
    const api = new FakeGitHub();
    api.runs.push(workflowRun({ id: 1, headSha: BASE_SHA, createdAt: '2026-11-18T11:00:00Z' }));
    api.artifacts.set(1, { id: 10, name: 'rag-gate-results' });
    api.zips.set(
      10,
      tamperedZip(zipOf({ 'results.jsonl': 'r\n', 'rag-gate-history.json': HISTORY }, { stored: true }), 'rag-gate-history.json', { flipDataByte: 0 }),
    );
    const baseline = await found(api);
    expect(baseline.files.map(read)).toEqual(['r\n']);
    expect(baseline.artifact?.history).toEqual({ entry: 'rag-gate-history.json', problem: expect.stringMatching(/CRC-32/) });
  });
});

describe('findArtifactBaseline: absent is an answer, a failing lookup is broken', () => {
  const lookupProblem = async (api: FakeGitHub) => {
    const baseline = await findArtifactBaseline(search(api));
    if (baseline.kind !== 'broken') throw new Error(`not broken: ${JSON.stringify(baseline)}`);
    return baseline.problem;
  };

  it('a 403 listing the runs (no actions: read) names the producer run and the step', async () => {
    const api = new FakeGitHub();
    api.fail.listSuccessfulPushRuns = new HttpError(403, 'Resource not accessible by integration');
    expect(await lookupProblem(api)).toEqual({
      kind: 'forbidden',
      step: 'list-runs',
      run: PRODUCER,
      artifact: 'rag-gate-results',
      baseRef: 'main',
      status: 403,
      detail: 'Resource not accessible by integration',
    });
  });

  it('a 403 that is a rate limit is a failure to retry, not a missing permission', async () => {
    const api = new FakeGitHub();
    api.fail.getWorkflowId = new HttpError(403, 'API rate limit exceeded', { 'x-ratelimit-remaining': '0' });
    expect(await lookupProblem(api)).toMatchObject({ kind: 'api-failed', step: 'find-workflow', status: 403 });
  });

  it('a server error after the retries, on a candidate run, names that run', async () => {
    const api = new FakeGitHub();
    addRun(api, 1, BASE_SHA, '2026-11-18T11:00:00Z', { 'results.jsonl': 'x\n' });
    api.fail.findArtifact = new HttpError(502, 'Bad Gateway');
    expect(await lookupProblem(api)).toMatchObject({ kind: 'api-failed', step: 'list-artifacts', run: RUN_1, status: 502 });
  });

  it('a timeout names the timeout', async () => {
    const api = new FakeGitHub();
    addRun(api, 1, BASE_SHA, '2026-11-18T11:00:00Z', { 'results.jsonl': 'x\n' });
    api.fail.downloadArtifact = new Error('fetch failed', { cause: new GitHubTimeoutError(2500) });
    expect(await lookupProblem(api)).toMatchObject({ kind: 'timeout', step: 'download', run: RUN_1, timeoutSeconds: 2.5 });
  });

  it('an artifact without a results file is broken, not absent: it lists what the artifact holds', async () => {
    const api = new FakeGitHub();
    api.mergeBaseSha = MERGE_BASE_SHA;
    addRun(api, 1, MERGE_BASE_SHA, '2026-11-18T11:00:00Z', { 'logs/run.log': 'ran\n', 'README.txt': 'no results here\n', 'dir/': '' });
    expect(await lookupProblem(api)).toEqual({
      kind: 'no-results-file',
      step: 'unpack',
      run: RUN_1,
      artifact: 'rag-gate-results',
      baseRef: 'main',
      detail: 'logs/run.log\nREADME.txt',
    });
  });

  it('an empty artifact says it holds no file at all', async () => {
    const api = new FakeGitHub();
    addRun(api, 1, BASE_SHA, '2026-11-18T11:00:00Z', { 'empty/': '' });
    expect(await lookupProblem(api)).toMatchObject({ kind: 'no-results-file', detail: 'no file at all' });
  });

  it('lists at most 20 of the files it holds, each name inert and cut, and counts the rest', async () => {
    const api = new FakeGitHub();
    const files: Record<string, string> = { [`${'x'.repeat(300)}.txt`]: '', 'evil\nname\u202e.txt': '' };
    for (let i = 0; i < 30; i++) files[`f${String(i).padStart(2, '0')}.txt`] = '';
    addRun(api, 1, BASE_SHA, '2026-11-18T11:00:00Z', files);
    const lines = (await lookupProblem(api)).detail.split('\n');
    expect(lines).toHaveLength(21);
    expect(lines[0]).toBe(`${'x'.repeat(199)}…`);
    expect(lines[1]).toBe('evil name<U+202E>.txt');
    expect(lines.slice(2, 20)).toEqual(Array.from({ length: 18 }, (_, i) => `f${String(i).padStart(2, '0')}.txt`));
    expect(lines[20]).toBe('… and 12 more files');
  });

  it('an artifact that is not a zip is corrupt, naming the artifact and its run', async () => {
    const api = new FakeGitHub();
    addRun(api, 1, BASE_SHA, '2026-11-18T11:00:00Z', {});
    api.zips.set(10, new TextEncoder().encode('<html>not a zip</html>'));
    expect(await lookupProblem(api)).toMatchObject({ kind: 'corrupt-artifact', step: 'unpack', run: RUN_1, artifact: 'rag-gate-results' });
  });

  describe('an artifact whose results entry does not match what the zip declares is corrupt, naming the entry', () => {
    const RESULTS = '{"id":"a","question":"a?"}\n{"id":"b","question":"b?"}\n';
    const problemWith = async (zip: Uint8Array) => {
      const api = new FakeGitHub();
      addRun(api, 1, BASE_SHA, '2026-11-18T11:00:00Z', {});
      api.zips.set(10, zip);
      return lookupProblem(api);
    };
    const corrupt = (detail: RegExp) => ({
      kind: 'corrupt-artifact',
      step: 'unpack',
      run: RUN_1,
      artifact: 'rag-gate-results',
      detail: expect.stringMatching(detail),
    });

    it('a flipped byte of stored data: its CRC-32 does not match', async () => {
      const zip = tamperedZip(zipOf({ 'results.jsonl': RESULTS }, { stored: true }), 'results.jsonl', { flipDataByte: 3 });
      expect(await problemWith(zip)).toMatchObject(corrupt(/^entry "results\.jsonl": its CRC-32 is 0x[0-9a-f]{8}, but 0x[0-9a-f]{8} is declared$/));
    });

    it('a flipped byte of deflated data: corrupt data or a CRC-32 that does not match', async () => {
      const zip = tamperedZip(zipOf({ 'results.jsonl': RESULTS }), 'results.jsonl', { flipDataByte: 2 });
      expect(await problemWith(zip)).toMatchObject(corrupt(/^entry "results\.jsonl": its (compressed data is corrupt|CRC-32 is)/));
    });

    it('a declared size smaller than its data, in both headers: refused, not truncated', async () => {
      const zip = tamperedZip(zipOf({ 'results.jsonl': RESULTS }), 'results.jsonl', { originalSize: 28 });
      expect(await problemWith(zip)).toMatchObject(corrupt(/^entry "results\.jsonl": its data inflates to more than the 28 bytes declared$/));
    });

    it('a declared size larger than its data', async () => {
      const zip = tamperedZip(zipOf({ 'results.jsonl': RESULTS }), 'results.jsonl', { originalSize: RESULTS.length + 5 });
      expect(await problemWith(zip)).toMatchObject(
        corrupt(new RegExp(`^entry "results\\.jsonl": its data is ${RESULTS.length} bytes, but ${RESULTS.length + 5} are declared$`)),
      );
    });
  });

  it('an artifact that expired between the listing and the download (410) is skipped like a missing one', async () => {
    const api = new FakeGitHub();
    addRun(api, 2, OTHER_SHA, '2026-11-19T11:00:00Z', {});
    api.zips.delete(20);
    addRun(api, 1, BASE_SHA, '2026-11-18T11:00:00Z', { 'results.jsonl': 'one\n' });
    const download = api.downloadArtifact.bind(api);
    api.downloadArtifact = async (id) => (id === 20 ? Promise.reject(new HttpError(410, 'Gone')) : download(id));
    expect((await found(api)).files.map(read)).toEqual(['one\n']);
  });

  it('a failing merge-base lookup is no problem: it only orders the runs', async () => {
    const api = new FakeGitHub();
    api.fail.mergeBase = new HttpError(500, 'Server Error');
    addRun(api, 1, BASE_SHA, '2026-11-18T11:00:00Z', { 'results.jsonl': 'one\n' });
    expect((await found(api)).sha).toBe(BASE_SHA);
  });
});

describe('invalidArtifactResults', () => {
  it('names the artifact, its run and each problem by its file inside the artifact', async () => {
    const api = new FakeGitHub();
    addRun(api, 1, BASE_SHA, '2026-11-18T11:00:00Z', { 'eval/results.jsonl': '{"id": "q1", "question": "a", "correct": "yes"}\n' });
    const baseline = await found(api);
    const error = new InputError([{ file: baseline.files[0]!, line: 1, field: 'correct', message: 'must be true or false' }]);
    expect(invalidArtifactResults(baseline, error)).toEqual({
      kind: 'broken',
      problem: {
        kind: 'invalid-results',
        step: 'read-results',
        run: RUN_1,
        artifact: 'rag-gate-results',
        baseRef: 'main',
        detail: 'rag-gate-results/eval/results.jsonl:1: correct: must be true or false',
      },
    });
  });

  it('leaves problems of other files (the head results) to be bad input', async () => {
    const api = new FakeGitHub();
    addRun(api, 1, BASE_SHA, '2026-11-18T11:00:00Z', { 'results.jsonl': 'x\n' });
    const baseline = await found(api);
    expect(invalidArtifactResults(baseline, new InputError([{ file: 'results.jsonl', line: 1, message: 'bad' }]))).toBeNull();
    expect(invalidArtifactResults(baseline, new Error('disk full'))).toBeNull();
    expect(invalidArtifactResults({ ...baseline, artifact: undefined }, new InputError([{ file: baseline.files[0]!, message: 'bad' }]))).toBeNull();
  });
});
