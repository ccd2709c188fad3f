import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type ArtifactSearch, type BaselineFound, findArtifactBaseline } from '../../../src/frontends/github/baseline.js';
import { tempDir } from '../../helpers/files.js';
import { BASE_SHA, FakeGitHub, HEAD_SHA, HttpError, MERGE_BASE_SHA, NOW, workflowRun, zipOf } from './fakes.js';

const OTHER_SHA = 'd'.repeat(40);

function search(api: FakeGitHub, overrides: Partial<ArtifactSearch> = {}): ArtifactSearch {
  return {
    api,
    pullRequest: { number: 42, baseRef: 'main', baseSha: BASE_SHA, headSha: HEAD_SHA },
    producerRunId: 5000,
    repository: 'octo/shop',
    artifactName: 'rag-gate-results',
    maxAgeDays: 30,
    resultNames: ['results.jsonl'],
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
  if (!baseline.found) throw new Error(`no baseline: ${baseline.reason}`);
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
    expect(baseline).toEqual({ found: false, reason: 'no successful push run of this workflow on `main` in the last 7 days' });
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
    expect(baseline.found).toBe(false);
    expect(api.called('findArtifact')).toEqual([]);
  });

  it('skips runs without the artifact, and artifacts without a results file', async () => {
    const api = new FakeGitHub();
    api.mergeBaseSha = MERGE_BASE_SHA;
    addRun(api, 3, MERGE_BASE_SHA, '2026-11-20T11:00:00Z', null);
    addRun(api, 2, OTHER_SHA, '2026-11-19T11:00:00Z', { 'README.txt': 'no results here\n', 'dir/': '' });
    addRun(api, 1, BASE_SHA, '2026-11-18T11:00:00Z', { 'results.jsonl': 'third\n' });
    const baseline = await found(api);
    expect(baseline.sha).toBe(BASE_SHA);
    expect(baseline.files.map(read)).toEqual(['third\n']);
    expect(api.called('findArtifact').map((call) => call.args)).toEqual([
      [3, 'rag-gate-results'],
      [2, 'rag-gate-results'],
      [1, 'rag-gate-results'],
    ]);
    expect(api.called('downloadArtifact').map((call) => call.args[0])).toEqual([20, 10]);
  });

  it('says why when no run has the artifact (first run, or expired)', async () => {
    const api = new FakeGitHub();
    addRun(api, 1, BASE_SHA, '2026-11-18T11:00:00Z', null);
    const baseline = await findArtifactBaseline(search(api));
    expect(baseline).toEqual({ found: false, reason: expect.stringContaining('unexpired artifact `rag-gate-results`') });
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

  it('refuses an artifact whose results files would inflate past 2 GiB, before inflating them', async () => {
    const api = new FakeGitHub();
    addRun(api, 1, BASE_SHA, '2026-11-18T11:00:00Z', {});
    api.zips.set(10, claimingSize({ 'results.jsonl': '{"id":"a","question":"a?"}\n' }, 'results.jsonl', 0xf0000000));
    await expect(findArtifactBaseline(search(api))).rejects.toThrow(/would inflate to more than 2 GiB/);
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
