import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { commentMarker } from '../../../src/frontends/github/comment.js';
import type { InputName } from '../../../src/frontends/github/inputs.js';
import { runAction } from '../../../src/frontends/github/run.js';
import { tempDir, writeJsonl } from '../../helpers/files.js';
import { BASE_SHA, FakeGitHub, fakeRuntime, HEAD_SHA, HttpError, sketchScenario } from './fakes.js';

/**
 * Issue 36: a pull request cannot change its own gate. The sketch scenario regresses retrieval significantly (16
 * broken, 2 fixed, p ≈ 0.0013); each loosening of the config file in the pull request must leave the check red,
 * named in the comment, until a user with write access approves it after the comment showed it.
 */

interface Scenario {
  dir: string;
  head: string;
  base: string;
  config: string;
}

function scenario(headConfig: string): Scenario {
  const dir = tempDir();
  const { base, head } = sketchScenario();
  const config = join(dir, 'rag-gate.yml');
  writeFileSync(config, headConfig);
  return { dir, head: writeJsonl(dir, 'results.jsonl', head), base: writeJsonl(dir, 'base.jsonl', base), config };
}

async function run(setup: Scenario, api: FakeGitHub, inputs: Partial<Record<InputName, string>> = {}) {
  const fake = fakeRuntime({
    api,
    inputs: { results: setup.head, baseline: setup.base, config: setup.config, history: join(setup.dir, 'rag-gate-history.json'), ...inputs },
    env: { RUNNER_TEMP: setup.dir, GITHUB_SHA: HEAD_SHA, GITHUB_WORKSPACE: setup.dir },
  });
  await runAction(fake.runtime);
  const body = (call: { args: readonly unknown[] }) => call.args.at(-1) as string;
  const posted = [...api.called('createComment'), ...api.called('updateComment')].map(body);
  return { ...fake, comment: posted.at(-1) ?? '' };
}

/** The base branch's config file, as the API serves it at the pull request's base commit. */
function withBaseConfig(api: FakeGitHub, text: string): FakeGitHub {
  api.files.set(`${BASE_SHA}:rag-gate.yml`, text);
  return api;
}

describe('a pull request that loosens its own gate fails, naming the change, and the base branch’s values apply', () => {
  it.each([
    ['mode: advisory', 'mode'],
    ['alpha: 1e-12', 'alpha'],
    ['min-effect: 0.5', 'min-effect'],
    ['fail-on: end-to-end', 'fail-on'],
    ['fail-on: []', 'fail-on'],
    ['missing: exclude', 'missing'],
    ['retrieval-ok: hit@10', 'retrieval-ok'],
    ['on-baseline-error: pass', 'on-baseline-error'],
    ['min-coverage: 0.1', 'min-coverage'],
    ['baseline-artifact: nothing', 'baseline-artifact'],
    ['floors: []\nmin-paired: 0', 'min-paired'],
  ])('%s', async (config, setting) => {
    const setup = scenario(`${config}\n`);
    const { failures, outputs, comment } = await run(setup, new FakeGitHub());
    expect(outputs.get('verdict')).toBe('fail');
    expect(failures).toHaveLength(1);
    expect(failures[0]).toContain("this pull request changes its own gate without a maintainer's approval");
    expect(failures[0]).toContain(setting);
    // The regression itself is still found under the base's gate.
    expect(failures[0]).toContain('retrieval regressed significantly');
    expect(comment).toContain('This pull request changes the gate.');
    expect(comment).toMatch(new RegExp(`\\| ${setting} +\\|`));
    expect(comment).toContain('Not approved: until a maintainer with write access applies the label "rag-gate: approve"');
    const report = JSON.parse(readFileSync(outputs.get('report-json')!, 'utf8'));
    expect(report.reasons[0]).toMatchObject({ kind: 'gate-changed-unapproved', changes: [{ setting }] });
  });

  it('a baseline of its own (head compared with itself) does not pass: the base branch has none', async () => {
    const setup = scenario('');
    writeFileSync(setup.config, `baseline: ${setup.head}\n`);
    const { failures, comment } = await run(setup, new FakeGitHub(), { baseline: '' });
    expect(failures[0]).toContain('baseline (none) → ');
    expect(comment).toContain('This pull request changes the gate.');
  });

  it('with no baseline, a loosened on-missing-baseline still fails: the base’s fail applies and the change is named', async () => {
    const setup = scenario('on-missing-baseline: pass\n');
    const api = withBaseConfig(new FakeGitHub(), 'on-missing-baseline: fail\n');
    const { failures, outputs, comment } = await run(setup, api, { baseline: '' });
    expect(outputs.get('verdict')).toBe('fail');
    expect(failures[0]).toContain('on-missing-baseline fail → pass, looser');
    expect(failures[0]).toContain('no baseline');
    expect(comment).toContain('This pull request changes the gate.');
    const report = JSON.parse(readFileSync(outputs.get('report-json')!, 'utf8'));
    expect(report.reasons[0]).toMatchObject({ kind: 'gate-changed-unapproved' });
  });

  it('the same values in the base branch’s config are no change: the gate is the base’s, and the regression fails alone', async () => {
    const setup = scenario('alpha: 1e-12\n');
    const { failures, comment } = await run(setup, withBaseConfig(new FakeGitHub(), 'alpha: 0.000000000001\n'));
    // At alpha 1e-12 the drop is not significant: the base branch chose that, so the check passes.
    expect(failures).toEqual([]);
    expect(comment).not.toContain('This pull request changes the gate.');
  });

  it('a tightening applies at once, without approval', async () => {
    const setup = scenario('alpha: 0.1\nfail-on: [retrieval, end-to-end, refusal]\n');
    const { failures, comment, infos } = await run(setup, withBaseConfig(new FakeGitHub(), 'alpha: 0.05\n'));
    expect(failures).toHaveLength(1);
    expect(failures[0]).not.toContain('changes its own gate');
    expect(comment).toContain('Tightenings apply at once.');
    expect(infos.join('\n')).toContain('alpha: 0.05 → 0.1 (tighter: applies)');
  });

  it('a base branch whose settings cannot be read stops the run: it is not gated without them', async () => {
    const setup = scenario('');
    const api = new FakeGitHub();
    api.fail.getFileAt = new HttpError(403, 'Resource not accessible by integration');
    const { failures, outputs } = await run(setup, api);
    expect(failures).toHaveLength(1);
    expect(failures[0]).toMatch(/could not read the base branch's rag-gate\.yml at bbbbbbb .*add `contents: read`/);
    expect(outputs.get('verdict')).toBeUndefined();
  });

  it('a bad base config is bad input naming the base branch’s file and line', async () => {
    const setup = scenario('');
    const { failures } = await run(setup, withBaseConfig(new FakeGitHub(), 'alpha: 0.05\nalpah: 2\n'));
    expect(failures[0]).toMatch(/^rag-gate: bad input\nrag-gate\.yml at bbbbbbb \(base branch\):2: alpah: is not a setting/);
  });
});

describe('approval: the label, by a user with write access, after the comment showed the changes', () => {
  const LABEL_AT = '2026-11-20T11:00:00Z';

  /** A first run shows the changes (and fails); then the label is applied; returns the API with that state. */
  async function shownThenLabelled(setup: Scenario, permission: string, label = 'rag-gate: approve') {
    const api = new FakeGitHub();
    api.clock = () => '2026-11-20T10:00:00Z';
    const first = await run(setup, api);
    expect(first.failures).toHaveLength(1);
    expect(first.comment).toMatch(/<!-- rag-gate-policy:[0-9a-f]{32}@pending -->/);
    api.labelEvents = [{ action: 'labeled', actor: 'maintainer', at: LABEL_AT }];
    api.permissions.set('maintainer', permission);
    api.calls.length = 0;
    return { api, label };
  }

  it('approves: the head’s values apply, the check passes, and the comment says who approved', async () => {
    const setup = scenario('mode: advisory\n');
    const { api } = await shownThenLabelled(setup, 'write');
    const second = await run(setup, api);
    expect(second.failures).toEqual([]);
    expect(second.warnings.map((w) => w.message).join('\n')).toContain('advisory mode: the check passes');
    expect(second.comment).toContain('Approved by maintainer (write) at 2026-11-20T11:00:00Z with the label "rag-gate: approve"');
    // The state line now carries the time the changes were first shown, for the runs after.
    expect(second.comment).toMatch(/<!-- rag-gate-policy:[0-9a-f]{32}@2026-11-20T10:00:00Z -->/);
    expect(api.called('getPermission').map((call) => call.args)).toEqual([['maintainer']]);
    const report = JSON.parse(readFileSync(second.outputs.get('report-json')!, 'utf8'));
    expect(report.gateChanges.approval).toEqual({ kind: 'approved', by: { login: 'maintainer', permission: 'write', at: LABEL_AT } });
  });

  it('the approval label’s name is an input', async () => {
    const setup = scenario('alpha: 1e-12\n');
    const { api } = await shownThenLabelled(setup, 'admin');
    const second = await run(setup, api, { 'approve-label': 'gate-ok' });
    expect(api.called('listLabelEvents').map((call) => call.args)).toEqual([[42, 'gate-ok']]);
    expect(second.failures).toEqual([]);
  });

  it('does not count from a user with read permission', async () => {
    const setup = scenario('alpha: 1e-12\n');
    const { api } = await shownThenLabelled(setup, 'read');
    const second = await run(setup, api);
    expect(second.failures).toHaveLength(1);
    expect(second.failures[0]).toContain('changes its own gate');
    expect(second.comment).toContain('was applied by maintainer (read) at 2026-11-20T11:00:00Z, and an approval takes write access or more');
  });

  it('does not count for a later push that changes the gate again', async () => {
    const setup = scenario('alpha: 1e-12\n');
    const { api } = await shownThenLabelled(setup, 'write');
    expect((await run(setup, api)).failures).toEqual([]);
    writeFileSync(setup.config, 'alpha: 1e-12\nmin-effect: 0.5\n');
    api.clock = () => '2026-11-20T12:00:00Z';
    const third = await run(setup, api);
    expect(third.failures).toHaveLength(1);
    expect(third.comment).toContain('before this comment showed these changes');
    expect(third.comment).toMatch(/<!-- rag-gate-policy:[0-9a-f]{32}@pending -->/);
  });

  it('does not count when applied before the comment first showed the changes, nor once removed', async () => {
    const setup = scenario('alpha: 1e-12\n');
    const api = new FakeGitHub();
    api.labelEvents = [{ action: 'labeled', actor: 'maintainer', at: '2026-11-20T09:00:00Z' }];
    api.permissions.set('maintainer', 'write');
    api.clock = () => '2026-11-20T10:00:00Z';
    expect((await run(setup, api)).failures).toHaveLength(1);
    expect((await run(setup, api)).failures).toHaveLength(1);
    api.labelEvents.push({ action: 'unlabeled', actor: 'maintainer', at: '2026-11-20T11:00:00Z' });
    const removed = await run(setup, api);
    expect(removed.comment).toContain('Not approved: until a maintainer');
  });

  it('a comment state line written by someone else is not read', async () => {
    const setup = scenario('alpha: 1e-12\n');
    const { api } = await shownThenLabelled(setup, 'write');
    // Another user's comment with the marker and an old "since": the gate's own comment is the only one it reads.
    const own = api.comments.find((c) => c.authorType === 'Bot')!;
    api.comments = [{ ...own, id: 1, authorLogin: 'author', authorType: 'User', body: own.body.replace(/@pending/, '@2026-01-01T00:00:00Z') }];
    const second = await run(setup, api);
    expect(second.failures).toHaveLength(1);
    expect(second.comment).toContain('before this comment showed these changes');
    expect(second.comment.startsWith(`<!-- ${commentMarker('default')} -->`)).toBe(true);
  });

  it('comment: never cannot be approved: nothing shows what the label approves', async () => {
    const setup = scenario('alpha: 1e-12\n');
    const api = new FakeGitHub();
    api.labelEvents = [{ action: 'labeled', actor: 'maintainer', at: LABEL_AT }];
    api.permissions.set('maintainer', 'write');
    const { failures, summaries } = await run(setup, api, { comment: 'never' });
    expect(failures).toHaveLength(1);
    expect(summaries[0]).toContain('an approval needs the sticky comment');
    expect(api.called('listLabelEvents')).toEqual([]);
  });
});

describe('the golden set and the holdout file are the base branch’s', () => {
  /** The sketch's questions whose retrieval regressed: the ones a careless pull request would like to drop. */
  function regressedIds(): Set<string> {
    const { base, head } = sketchScenario();
    const ok = (ids: unknown, gold: unknown) => (ids as string[]).slice(0, 5).includes((gold as string[])[0]!);
    return new Set(head.filter((h, i) => ok(base[i]!.retrieved_ids, base[i]!.relevant_ids) && !ok(h.retrieved_ids, h.relevant_ids)).map((h) => h.id));
  }

  function setupWithout(dropped: ReadonlySet<string>) {
    const setup = scenario('');
    const { base, head } = sketchScenario();
    const kept = head.filter((q) => !dropped.has(q.id));
    writeJsonl(setup.dir, 'results.jsonl', kept);
    const golden = writeJsonl(
      setup.dir,
      'golden.jsonl',
      kept.map((q) => ({ id: q.id })),
    );
    const api = new FakeGitHub();
    api.files.set(`${BASE_SHA}:golden.jsonl`, base.map((q) => JSON.stringify({ id: q.id })).join('\n'));
    return { setup, api, golden };
  }

  it('regressed questions dropped from the head’s golden set still count as failed until approved', async () => {
    const regressed = regressedIds();
    expect(regressed.size).toBe(16);
    const { setup, api, golden } = setupWithout(regressed);
    const first = await run(setup, api, { golden });
    expect(first.failures).toHaveLength(1);
    expect(first.failures[0]).toContain('golden 200 questions → 184 questions; dropped q-');
    expect(first.failures[0]).toContain('retrieval regressed significantly');
    expect(first.comment).toMatch(/\| golden +\| `200 questions` +\| `184 questions; dropped q-/);

    api.labelEvents = [{ action: 'labeled', actor: 'maintainer', at: '2026-11-20T11:00:00Z' }];
    api.permissions.set('maintainer', 'write');
    const approved = await run(setup, api, { golden });
    expect(approved.failures).toEqual([]);
  });

  it('a golden set that only gains questions is a tightening', async () => {
    const { setup, api, golden } = setupWithout(new Set());
    api.files.set(
      `${BASE_SHA}:golden.jsonl`,
      sketchScenario()
        .base.slice(0, 150)
        .map((q) => JSON.stringify({ id: q.id }))
        .join('\n'),
    );
    const { comment, failures } = await run(setup, api, { golden });
    expect(comment).toContain('Tightenings apply at once.');
    expect(failures[0]).not.toContain('changes its own gate');
  });

  it('regressed questions moved into the holdout by hand: listed, not the draw of rag-gate split, and not hidden', async () => {
    const regressed = [...regressedIds()];
    const setup = scenario('');
    const ids = sketchScenario().base.map((q) => q.id);
    const holdoutFile = (holdout: string[]) =>
      JSON.stringify({
        format: 'rag-gate-holdout/1',
        seed: 'rag-gate',
        rotation: 0,
        share: 0.3,
        holdout,
        development: ids.filter((id) => !holdout.includes(id)),
      });
    const holdout = join(setup.dir, 'holdout.json');
    writeFileSync(holdout, holdoutFile(regressed));
    const golden = writeJsonl(
      setup.dir,
      'golden.jsonl',
      ids.map((id) => ({ id })),
    );
    const api = new FakeGitHub();
    api.files.set(`${BASE_SHA}:holdout.json`, holdoutFile(ids.slice(100, 160)));
    api.files.set(`${BASE_SHA}:golden.jsonl`, ids.map((id) => JSON.stringify({ id })).join('\n'));
    const { failures, comment } = await run(setup, api, { holdout, golden });
    expect(failures).toHaveLength(1);
    expect(failures[0]).toMatch(/holdout 60 held out → 16 held out; not rag-gate split's draw; added q-0/);
    // The base's holdout applied: the regressed questions were compared, and fail.
    expect(failures[0]).toContain('retrieval regressed significantly');
    expect(comment).toMatch(/\| holdout +\| `60 held out` +\| `16 held out; not rag-gate split's draw; added q-0000, q-0001/);

    // Approved, the head's holdout applies: the regressed questions leave the comparison, and it passes.
    api.labelEvents = [{ action: 'labeled', actor: 'maintainer', at: '2026-11-20T11:00:00Z' }];
    api.permissions.set('maintainer', 'write');
    const approved = await run(setup, api, { holdout, golden });
    expect(approved.failures).toEqual([]);
    expect(approved.comment).toContain('16 holdout questions not looked at');
  });
});

describe('the gold of each question is the base branch’s', () => {
  /** The sketch scenario with the head's gold edited on the regressed questions: their relevant id set to what the head retrieved first. */
  function relabelled() {
    const setup = scenario('');
    const { base, head } = sketchScenario();
    const regressed = new Set<string>();
    const edited = head.map((q, i) => {
      const gold = (base[i]!.relevant_ids as string[])[0]!;
      const wasOk = (base[i]!.retrieved_ids as string[]).slice(0, 5).includes(gold);
      const isOk = (q.retrieved_ids as string[]).slice(0, 5).includes(gold);
      if (!wasOk || isOk) return q;
      regressed.add(q.id);
      return { ...q, relevant_ids: [(q.retrieved_ids as string[])[0]!] };
    });
    writeJsonl(setup.dir, 'results.jsonl', edited);
    return { setup, regressed };
  }

  it('gold edited in the head only: listed with the old and new gold, scored under the base’s, the drop stands', async () => {
    const { setup, regressed } = relabelled();
    const api = new FakeGitHub();
    const { failures, comment, outputs } = await run(setup, api);
    expect(failures).toHaveLength(1);
    expect(failures[0]).toMatch(/^rag-gate: retrieval regressed significantly: retrieval ok \(hit@5\) 0\.912 → 0\.829, 16 broken vs 2 fixed/);
    expect(comment).toContain(`The pull request changes the gold of ${regressed.size} questions.`);
    expect(comment).toMatch(/\| `q-\d{4}` \| `relevant doc-\d+` \| `relevant [^`]+` \| the base's gold \|/);
    expect(comment).toContain('Not approved: until a maintainer with write access applies the label "rag-gate: approve", these questions are scored under');
    expect(comment).toMatch(/<!-- rag-gate-gold:[0-9a-f]{32}@pending -->/);
    const report = JSON.parse(readFileSync(outputs.get('report-json')!, 'utf8'));
    expect(report.goldChanges).toHaveLength(16);
    expect(report.goldChanges[0]).toMatchObject({ changesOutcome: true, scoredUnder: 'base' });
  });

  it('approved, the head’s gold applies: the base is re-scored under it and the drop goes', async () => {
    const { setup } = relabelled();
    const api = new FakeGitHub();
    expect((await run(setup, api)).failures).toHaveLength(1);
    api.labelEvents = [{ action: 'labeled', actor: 'maintainer', at: '2026-11-20T11:00:00Z' }];
    api.permissions.set('maintainer', 'write');
    const approved = await run(setup, api);
    expect(approved.failures).toEqual([]);
    expect(approved.comment).toContain(
      'Approved by maintainer (write) at 2026-11-20T11:00:00Z with the label "rag-gate: approve": the pull request\'s gold applies.',
    );
    expect(approved.comment).toMatch(/\| the pull request's gold \|/);
  });

  it('a head that states correct under a changed expected answer cannot be re-scored under the base’s gold: failed', async () => {
    const setup = scenario('');
    const base = Array.from({ length: 60 }, (_, i) => ({ id: `q${i}`, question: `Q${i}?`, expected_answer: 'Paris', correct: i < 45 }));
    const head = base.map((q, i) => (i < 12 ? { ...q, expected_answer: 'Lyon', correct: true } : q));
    writeJsonl(setup.dir, 'base.jsonl', base);
    writeJsonl(setup.dir, 'results.jsonl', head);
    const { failures, comment } = await run(setup, new FakeGitHub(), { 'fail-on': 'end-to-end' });
    // q0–q11 were right in base; under the base's gold their head record says nothing usable: 12 broken.
    expect(failures[0]).toContain('end-to-end regressed significantly: correct 0.750 → 0.550');
    expect(failures[0]).toContain('12 broken vs 0 fixed');
    expect(comment).toContain("failed: cannot be re-scored under the base's gold");
  });

  it('a gold change that moves no gated outcome is scored under the head’s gold without approval', async () => {
    const setup = scenario('');
    const { base } = sketchScenario();
    // A second relevant document ranked nowhere: hit@5 is the same under either gold.
    writeJsonl(
      setup.dir,
      'results.jsonl',
      base.map((q, i) => (i < 3 ? { ...q, relevant_ids: [...(q.relevant_ids as string[]), 'doc-new'] } : q)),
    );
    const { failures, comment } = await run(setup, new FakeGitHub());
    expect(failures).toEqual([]);
    expect(comment).toContain('The pull request changes the gold of 3 questions.');
    expect(comment).toContain("the pull request's gold (no gated outcome changes)");
    expect(comment).not.toContain('rag-gate-gold:');
  });
});
