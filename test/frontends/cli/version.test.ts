import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ROOT, runBin, runMain } from '../../helpers/cli.js';

const { version } = JSON.parse(readFileSync(`${ROOT}package.json`, 'utf8')) as { version: string };

describe('rag-gate --version', () => {
  it.each([['--version'], ['-V']])('%s prints the package version and exits 0', async (flag) => {
    const run = await runMain([flag]);
    expect(run).toEqual({ code: 0, stdout: `${version}\n`, stderr: '' });
  });

  it('is in the help', async () => {
    const run = await runMain(['--help']);
    expect(run.stdout).toContain('-V, --version');
  });

  it.each([['--version'], ['-V']])('node dist/cli.js %s prints the package version', (flag) => {
    const run = runBin([flag]);
    expect(run).toEqual({ code: 0, stdout: `${version}\n`, stderr: '' });
  });
});
