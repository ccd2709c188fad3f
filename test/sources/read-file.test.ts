import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { InputError } from '../../src/core/errors.js';
import { readJsonDocument } from '../../src/sources/read-file.js';
import { scratchDir } from '../helpers/cli.js';

const scratch = scratchDir();
afterAll(() => scratch.cleanup());

const schema = z.object({ format: z.literal('demo/1', { error: 'must be "demo/1"' }), ids: z.array(z.string(), { error: 'must be a list of ids' }) });
const EXPECTED = 'a demo file written by rag-gate demo';

/** The problems `readJsonDocument` throws for `content`, or the document it reads. */
async function read(name: string, content: string | Buffer) {
  const file = scratch.file(name, content);
  try {
    return { document: await readJsonDocument(file, schema, EXPECTED), file };
  } catch (error) {
    if (!(error instanceof InputError)) throw error;
    return { problems: error.problems, file };
  }
}

describe('readJsonDocument: one JSON document of a file rag-gate wrote', () => {
  it('reads a valid document, a byte-order mark before it', async () => {
    expect((await read('ok.json', '\uFEFF{"format": "demo/1", "ids": ["q1"]}\n')).document).toEqual({ format: 'demo/1', ids: ['q1'] });
  });

  it('names the line of bytes that are not UTF-8, not a JSON error', async () => {
    const { problems, file } = await read(
      'latin1.json',
      Buffer.concat([Buffer.from('{"format": "demo/1",\n"ids": ["caf'), Buffer.from([0xe9]), Buffer.from('"]}\n')]),
    );
    expect(problems).toEqual([{ file, line: 2, column: 13, message: expect.stringContaining('not valid UTF-8 (byte 0xE9') }]);
  });

  it('says what the file should be when it is not JSON', async () => {
    const { problems, file } = await read('truncated.json', '{"format": "demo/1", "ids": [');
    expect(problems).toEqual([{ file, message: expect.stringMatching(/^not valid JSON \(.+\); expected a demo file written by rag-gate demo$/) }]);
  });

  it('names the line and the field of a key given twice', async () => {
    const { problems, file } = await read('twice.json', '{\n  "format": "demo/1",\n  "ids": [],\n  "ids": ["q1"]\n}\n');
    expect(problems).toEqual([{ file, line: 4, field: 'ids', message: expect.stringContaining('duplicate key "ids"') }]);
  });

  it("names each field the schema refuses, in the schema's words", async () => {
    const { problems, file } = await read('wrong.json', '{"format": "demo/2", "ids": "q1"}');
    expect(problems).toEqual([
      { file, field: 'format', message: 'must be "demo/1"' },
      { file, field: 'ids', message: 'must be a list of ids' },
    ]);
  });

  it('says a missing file cannot be read', async () => {
    await expect(readJsonDocument(join(scratch.dir, 'absent.json'), schema, EXPECTED)).rejects.toThrow(/absent\.json.*cannot read: no such file/);
  });
});
