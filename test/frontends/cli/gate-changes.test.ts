import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runMain } from '../../helpers/cli.js';
import { tempDir, writeJsonl } from '../../helpers/files.js';
import { sketchScenario } from '../../helpers/paired-runs.js';

/** The sketch scenario's significant retrieval drop, with a head config file and the base branch's. */
function setup(headConfig: string, baseConfig: string) {
  const dir = tempDir();
  const { base, head } = sketchScenario();
  const config = join(dir, 'rag-gate.yml');
  const baseConfigFile = join(dir, 'base-rag-gate.yml');
  writeFileSync(config, headConfig);
  writeFileSync(baseConfigFile, baseConfig);
  return [
    'compare',
    '--base',
    writeJsonl(dir, 'base.jsonl', base),
    '--head',
    writeJsonl(dir, 'head.jsonl', head),
    '--config',
    config,
    '--base-config',
    baseConfigFile,
  ];
}

describe('rag-gate compare --base-config: the run is held to the base branch’s settings', () => {
  it('a loosening fails (exit 1), names the change on stderr, and the base’s alpha decides', async () => {
    const run = await runMain([...setup('alpha: 1e-12\n', ''), '--json']);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('This pull request changes the gate:\n  alpha: 0.05 → 1e-12 (looser: needs approval)');
    expect(run.stderr).toContain('Not approved: until it is run with --approve policy');
    const report = JSON.parse(run.stdout);
    expect(report.reasons.map((reason: { kind: string }) => reason.kind)).toEqual(['gate-changed-unapproved', 'regressed']);
    expect(report.gateChanges.changes).toEqual([{ setting: 'alpha', base: '0.05', head: '1e-12', direction: 'looser' }]);
  });

  it('--approve policy applies the head’s values: at alpha 1e-12 the drop is not significant, exit 0', async () => {
    const run = await runMain([...setup('alpha: 1e-12\n', ''), '--approve', 'policy']);
    expect(run.code).toBe(0);
    expect(run.stderr).toContain("Approved by --approve policy: the pull request's values apply.");
  });

  it('the same settings on both sides change nothing; without --base-config nothing is compared', async () => {
    const held = await runMain(setup('alpha: 1e-12\n', 'alpha: 1e-12\n'));
    expect(held.code).toBe(0);
    expect(held.stderr).not.toContain('changes the gate');
    const args = setup('alpha: 1e-12\n', '');
    const free = await runMain(args.slice(0, -2));
    expect(free.code).toBe(0);
  });

  it('--approve takes policy and gold only; a missing base config is bad input naming it', async () => {
    expect((await runMain([...setup('', ''), '--approve', 'everything'])).stderr).toContain('"everything" cannot be approved; use policy, gold or both');
    const args = setup('', '');
    args[args.length - 1] = join(tempDir(), 'nowhere.yml');
    const run = await runMain(args);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('nowhere.yml');
  });
});

describe('rag-gate compare --base-config: gold changes wait for --approve gold', () => {
  function relabelled() {
    const dir = tempDir();
    const base = Array.from({ length: 60 }, (_, i) => ({ id: `q${i}`, question: `Q${i}?`, expected_answer: 'Paris', answer: i < 45 ? 'Paris' : 'Rome' }));
    // The head answers Lyon on twelve questions it got right, and moves their expected answer to match.
    const head = base.map((q, i) => (i < 12 ? { ...q, answer: 'Lyon', expected_answer: 'Lyon' } : q));
    const baseConfig = join(dir, 'base.yml');
    writeFileSync(baseConfig, '');
    return ['compare', '--base', writeJsonl(dir, 'base.jsonl', base), '--head', writeJsonl(dir, 'head.jsonl', head), '--base-config', baseConfig];
  }

  it('unapproved, the head is scored under the base’s expected answers: 12 broken, exit 1', async () => {
    const run = await runMain([...relabelled(), '--json']);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(
      'The pull request changes the gold of 12 questions:\n  q0: expected "Paris" → expected "Lyon" (scored under the base\'s gold)',
    );
    expect(run.stderr).toContain("Not approved: until it is run with --approve gold, these questions are scored under the base branch's gold.");
    const report = JSON.parse(run.stdout);
    expect(report.goldChanges.map((change: { scoredUnder: string }) => change.scoredUnder)).toEqual(Array(12).fill('base'));
  });

  it('--approve gold: the base is re-scored under the head’s, nothing regressed, exit 0', async () => {
    const run = await runMain([...relabelled(), '--approve', 'gold']);
    expect(run.code).toBe(0);
    expect(run.stderr).toContain("Approved by --approve gold: the pull request's gold applies.");
  });
});
