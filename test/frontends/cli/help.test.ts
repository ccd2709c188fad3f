import { describe, expect, it } from 'vitest';
import { RESULTS_FORMATS } from '../../../src/core/catalog/formats.js';
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
