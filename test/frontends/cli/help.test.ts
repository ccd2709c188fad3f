import { describe, expect, it } from 'vitest';
import { RESULTS_FORMATS } from '../../../src/core/catalog/formats.js';
import { defaultRetrievalMetrics } from '../../../src/core/catalog/retrieval-metrics.js';
import { runMain } from '../../helpers/cli.js';

describe('--help', () => {
  it.each([
    ['eval', '--results'],
    ['compare', '--head'],
    ['init', '--results'],
  ])('%s names every results format read', async (command, option) => {
    const run = await runMain([command, '--help']);
    expect(run.code).toBe(0);
    const help = run.stdout.replace(/\s+/g, ' ');
    // The option's own words: from its flag to the next option's.
    const start = help.search(new RegExp(`${option} <(glob|file)>`));
    const results = help.slice(start, help.indexOf(' --', start + option.length));
    for (const format of RESULTS_FORMATS) expect(results).toContain(format.label);
    expect(results).not.toContain('(JSON Lines or a JSON array,');
  });
});

const COMMANDS = ['init', 'eval', 'trec', 'compare', 'judge', 'calibrate', 'split', 'holdout', 'history', 'monitor', 'monitor sample'];

async function helpOf(command: string): Promise<string> {
  const run = await runMain([...command.split(' '), '--help']);
  expect(run.code, command).toBe(0);
  return run.stdout.replace(/\s+/g, ' ');
}

describe('--help says what the commands do', () => {
  it('trec: the default metrics named are the ones computed without --metrics', async () => {
    const help = await helpOf('trec');
    const match = /\(default: ([a-z_, ]+) at each --k; ([a-z_, ]+) at full depth\)/.exec(help);
    expect(match, help).not.toBeNull();
    const names = (list: string) => list.split(', ');
    const computed = defaultRetrievalMetrics([7]);
    expect(names(match![1]!)).toEqual(computed.filter((metric) => metric.k === 7).map((metric) => metric.family));
    expect(names(match![2]!)).toEqual(computed.filter((metric) => metric.k === Infinity).map((metric) => metric.family));
  });

  it('--cache: the commands it says take --no-cache are the ones that do', async () => {
    const helps = await Promise.all(COMMANDS.map(async (command) => [command, await helpOf(command)] as const));
    const said = new Set<string>();
    for (const [, help] of helps) {
      const match = /\(([a-z, ]+): --no-cache for none\)/.exec(help);
      if (match) for (const command of match[1]!.split(/, | and /)) said.add(command);
    }
    // A command's own option is listed as the flag and then its description.
    const taking = helps.filter(([, help]) => / --no-cache (?!for none)/.test(help)).map(([command]) => command);
    expect(said.size).toBeGreaterThan(0);
    expect([...said].sort()).toEqual(taking.sort());
  });

  it.each(COMMANDS)('%s: no default shown as a program value (a JSON array or a quoted string)', async (command) => {
    expect(await helpOf(command)).not.toMatch(/\(default: (\[|")/);
  });
});
