import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT, scratchDir } from '../helpers/cli.js';
import { textContextsComment } from '../helpers/text-contexts.js';

const scratch = scratchDir();
afterAll(() => scratch.cleanup());

/**
 * npm run look on a comment from text contexts: headless Chromium measures every code span in a table at a pull
 * request's width (test/pipeline/text-contexts-comment.test.ts checks the rest without a browser). Needs chromium
 * (Debian: apt-get install chromium); a slow suite, as each look starts Chromium four times.
 */
describe('npm run look', () => {
  it.runIf(spawnSync('chromium', ['--version']).status === 0)(
    'passes on a comment from text contexts: nothing live, no id broken across lines',
    async () => {
      const run = await textContextsComment(scratch);
      expect(run.code, run.stderr).toBe(1);
      const look = spawnSync(process.execPath, [join(ROOT, 'scripts', 'comment-look.mjs'), '--markdown', run.file, '--out', join(scratch.dir, 'look')], {
        encoding: 'utf8',
      });
      expect(look.status, look.stdout + look.stderr).toBe(0);
      expect(look.stdout).toContain('nothing live, no id broken across lines');
    },
    120_000,
  );
});
