import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { readLineChunks } from '../../src/sources/line-chunks.js';
import { scratchDir } from '../helpers/cli.js';

const scratch = scratchDir();
afterAll(() => scratch.cleanup());

let counter = 0;

/**
 * Everything the chunks of a file hold, concatenated, checking that each chunk is whole lines and is where its
 * offset says in the file (but for the line feed added after a last line without one).
 */
async function readAll(content: Buffer, chunkBytes: number): Promise<Buffer> {
  counter++;
  const path = scratch.file(`chunks-${counter}.txt`, content);
  const parts: Buffer[] = [];
  for await (const chunk of readLineChunks(path, chunkBytes)) {
    expect(chunk.end).toBeGreaterThan(chunk.start);
    expect(chunk.bytes[chunk.end - 1]).toBe(0x0a);
    const inFile = Math.min(chunk.end, content.length - chunk.offset);
    expect(inFile).toBeGreaterThanOrEqual(chunk.end - 1);
    expect(Buffer.compare(chunk.bytes.subarray(chunk.start, inFile), content.subarray(chunk.offset + chunk.start, chunk.offset + inFile))).toBe(0);
    parts.push(Buffer.from(chunk.bytes.subarray(chunk.start, chunk.end)));
  }
  return Buffer.concat(parts);
}

describe('readLineChunks', () => {
  it('yields whole lines with where they are in the file, carrying partial lines over and growing the buffer for long ones (property)', async () => {
    const line = fc.string({ unit: fc.constantFrom('a', 'b', ' ', '\t', '\r', 'é'), maxLength: 40 });
    await fc.assert(
      fc.asyncProperty(fc.array(line, { maxLength: 30 }), fc.boolean(), fc.integer({ min: 1, max: 64 }), async (lines, finalNewline, chunkBytes) => {
        const text = lines.join('\n') + (finalNewline && lines.length > 0 ? '\n' : '');
        const expected = text === '' ? '' : text.endsWith('\n') ? text : `${text}\n`;
        expect((await readAll(Buffer.from(text, 'utf8'), chunkBytes)).toString('utf8')).toBe(expected);
      }),
      { numRuns: 200 },
    );
  });

  it('skips a byte-order mark at the start only', async () => {
    const bom = '\ufeff';
    expect((await readAll(Buffer.from(`${bom}a\n${bom}b`, 'utf8'), 4)).toString('utf8')).toBe(`a\n${bom}b\n`);
  });

  it('yields nothing for an empty file', async () => {
    expect((await readAll(Buffer.alloc(0), 16)).length).toBe(0);
  });
});
