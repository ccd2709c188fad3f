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

/**
 * A zip64 archive of one stored entry, as a zip writer makes past 4 GiB: its sizes and offset are all ones in the
 * headers and held in the zip64 extra field, and the directory is found through the zip64 end records.
 */
function zip64Of(name: string, text: string): Uint8Array {
  const data = new TextEncoder().encode(text);
  const nameBytes = new TextEncoder().encode(name);
  const crc = zlib.crc32(data);
  const extra = (...values: number[]) => {
    const field = Buffer.alloc(4 + 8 * values.length);
    field.writeUInt16LE(0x0001, 0);
    field.writeUInt16LE(8 * values.length, 2);
    values.forEach((value, index) => field.writeBigUInt64LE(BigInt(value), 4 + 8 * index));
    return field;
  };
  const localExtra = extra(data.length, data.length);
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt16LE(45, 4);
  local.writeUInt32LE(crc, 14);
  local.writeUInt32LE(0xffffffff, 18);
  local.writeUInt32LE(0xffffffff, 22);
  local.writeUInt16LE(nameBytes.length, 26);
  local.writeUInt16LE(localExtra.length, 28);
  const centralExtra = extra(data.length, data.length, 0);
  const central = Buffer.alloc(46);
  central.writeUInt32LE(0x02014b50, 0);
  central.writeUInt16LE(45, 6);
  central.writeUInt32LE(crc, 16);
  central.writeUInt32LE(0xffffffff, 20);
  central.writeUInt32LE(0xffffffff, 24);
  central.writeUInt16LE(nameBytes.length, 28);
  central.writeUInt16LE(centralExtra.length, 30);
  central.writeUInt32LE(0xffffffff, 42);
  const entry = Buffer.concat([local, nameBytes, localExtra, data]);
  const directory = Buffer.concat([central, nameBytes, centralExtra]);
  const zip64End = Buffer.alloc(56);
  zip64End.writeUInt32LE(0x06064b50, 0);
  zip64End.writeBigUInt64LE(44n, 4);
  zip64End.writeBigUInt64LE(1n, 24);
  zip64End.writeBigUInt64LE(1n, 32);
  zip64End.writeBigUInt64LE(BigInt(directory.length), 40);
  zip64End.writeBigUInt64LE(BigInt(entry.length), 48);
  const locator = Buffer.alloc(20);
  locator.writeUInt32LE(0x07064b50, 0);
  locator.writeBigUInt64LE(BigInt(entry.length + directory.length), 8);
  locator.writeUInt32LE(1, 16);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(0xffff, 8);
  end.writeUInt16LE(0xffff, 10);
  end.writeUInt32LE(0xffffffff, 12);
  end.writeUInt32LE(0xffffffff, 16);
  return new Uint8Array(Buffer.concat([entry, directory, zip64End, locator, end]));
}

describe('zip64', () => {
  it('reads sizes and offsets from the zip64 extra field and the directory through the zip64 end records', () => {
    const zip = zip64Of('results.jsonl', '{"id":"a"}\n');
    const entries = zipEntries(zip);
    expect(entries).toEqual([expect.objectContaining({ name: 'results.jsonl', compression: 0, compressedSize: 11, originalSize: 11, localHeaderOffset: 0 })]);
    expect(new TextDecoder().decode(inflateEntry(zip, entries[0]!))).toBe('{"id":"a"}\n');
  });
});
