import * as zlib from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { inflateEntry, tableCrc32, zipEntries } from '../../../src/frontends/github/zip.js';
import { zipOf } from './fakes.js';

describe('zip', () => {
  it("tableCrc32 (for Node before 20.15) is zlib's CRC-32", () => {
    expect(tableCrc32(new TextEncoder().encode('123456789'))).toBe(0xcbf43926);
    fc.assert(fc.property(fc.uint8Array({ maxLength: 300 }), (data) => tableCrc32(data) === zlib.crc32(data)));
  });

  it('reads back what fflate wrote, stored and deflated, with UTF-8 names', () => {
    const files = { 'results.jsonl': '{"id":"a"}\n'.repeat(50), 'dir/ünïcode.json': '[]', 'empty.jsonl': '' };
    for (const stored of [false, true]) {
      const zip = zipOf(files, { stored });
      const entries = zipEntries(zip);
      expect(Object.fromEntries(entries.map((entry) => [entry.name, new TextDecoder().decode(inflateEntry(zip, entry))]))).toEqual(files);
    }
  });

  it('refuses what is not a zip, and a zip cut short', () => {
    expect(() => zipEntries(new TextEncoder().encode('<html>not a zip</html>'))).toThrow(/not a zip archive/);
    const zip = zipOf({ 'results.jsonl': '{"id":"a"}\n' });
    const end = zip.length - 22;
    expect(() => zipEntries(zip.subarray(end - 10))).toThrow(/ends in the middle of a record|central directory is broken/);
  });
});
