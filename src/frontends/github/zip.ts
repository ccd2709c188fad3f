import * as zlib from 'node:zlib';

/**
 * A zip reader that checks what it reads: an artifact is untrusted, and fflate's unzip neither checks an entry's
 * CRC-32 nor notices data longer than the declared size (it truncates it). Reads the central directory (zip64
 * included) and inflates one entry at a time, never past its declared size.
 */

/** The archive is malformed, or an entry's data does not match what the archive declares; names the entry. */
export class ZipError extends Error {}

export interface ZipEntry {
  readonly name: string;
  /** 0 stored, 8 deflated; others are refused on inflating. */
  readonly compression: number;
  readonly crc32: number;
  readonly compressedSize: number;
  readonly originalSize: number;
  readonly localHeaderOffset: number;
}

const END_OF_DIRECTORY = 0x06054b50;
const ZIP64_LOCATOR = 0x07064b50;
const ZIP64_END_OF_DIRECTORY = 0x06064b50;
const CENTRAL_HEADER = 0x02014b50;
const LOCAL_HEADER = 0x04034b50;
const ZIP64_EXTRA = 0x0001;
const IN_ZIP64 = 0xffffffff;
/** The end-of-directory record is 22 bytes, followed by a comment of at most 65535. */
const END_SEARCH = 22 + 0xffff;

const CRC_TABLE = Uint32Array.from({ length: 256 }, (_, byte) => {
  let crc = byte;
  for (let bit = 0; bit < 8; bit++) crc = crc & 1 ? 0xedb88320 ^ (crc >>> 1) : crc >>> 1;
  return crc;
});

/** CRC-32 (the zip and gzip one) for Node before 20.15, which has no zlib.crc32. */
export function tableCrc32(data: Uint8Array): number {
  let crc = 0xffffffff;
  for (const byte of data) crc = CRC_TABLE[(crc ^ byte) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

const crc32: (data: Uint8Array) => number = (zlib as { crc32?: (data: Uint8Array) => number }).crc32 ?? tableCrc32;

class Reader {
  private readonly view: DataView;
  constructor(readonly bytes: Uint8Array) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }
  private within(at: number, length: number): void {
    if (at < 0 || at + length > this.bytes.length) throw new ZipError('it ends in the middle of a record');
  }
  u16(at: number): number {
    this.within(at, 2);
    return this.view.getUint16(at, true);
  }
  u32(at: number): number {
    this.within(at, 4);
    return this.view.getUint32(at, true);
  }
  u64(at: number): number {
    this.within(at, 8);
    const value = this.view.getBigUint64(at, true);
    if (value > BigInt(Number.MAX_SAFE_INTEGER)) throw new ZipError('it declares an impossible size or offset');
    return Number(value);
  }
  slice(at: number, length: number): Uint8Array {
    this.within(at, length);
    return this.bytes.subarray(at, at + length);
  }
}

function findEndOfDirectory(reader: Reader): number {
  const last = reader.bytes.length - 22;
  for (let at = last; at >= 0 && last - at <= END_SEARCH; at--) {
    if (reader.u32(at) === END_OF_DIRECTORY) return at;
  }
  throw new ZipError('it is not a zip archive (no end of central directory)');
}

/** Every entry of the archive's central directory. */
export function zipEntries(zip: Uint8Array): ZipEntry[] {
  const reader = new Reader(zip);
  const end = findEndOfDirectory(reader);
  let count = reader.u16(end + 10);
  let at = reader.u32(end + 16);
  if (end >= 20 && reader.u32(end - 20) === ZIP64_LOCATOR) {
    const zip64End = reader.u64(end - 12);
    if (reader.u32(zip64End) !== ZIP64_END_OF_DIRECTORY) throw new ZipError('its zip64 end of central directory is missing');
    count = reader.u64(zip64End + 32);
    at = reader.u64(zip64End + 48);
  }
  const entries: ZipEntry[] = [];
  for (let index = 0; index < count; index++) {
    if (reader.u32(at) !== CENTRAL_HEADER) throw new ZipError(`its central directory is broken at entry ${index + 1}`);
    const utf8 = (reader.u16(at + 8) & 0x800) !== 0;
    const nameLength = reader.u16(at + 28);
    const extraLength = reader.u16(at + 30);
    const name = Buffer.from(reader.slice(at + 46, nameLength)).toString(utf8 ? 'utf8' : 'latin1');
    let originalSize = reader.u32(at + 24);
    let compressedSize = reader.u32(at + 20);
    let localHeaderOffset = reader.u32(at + 42);
    // The zip64 extra field holds, in this order, only the values whose 32-bit field is all ones.
    const extraEnd = at + 46 + nameLength + extraLength;
    for (let field = at + 46 + nameLength; field + 4 <= extraEnd; field += 4 + reader.u16(field + 2)) {
      if (reader.u16(field) !== ZIP64_EXTRA) continue;
      let value = field + 4;
      const next = () => reader.u64((value += 8) - 8);
      if (originalSize === IN_ZIP64) originalSize = next();
      if (compressedSize === IN_ZIP64) compressedSize = next();
      if (localHeaderOffset === IN_ZIP64) localHeaderOffset = next();
    }
    entries.push({ name, compression: reader.u16(at + 10), crc32: reader.u32(at + 16), compressedSize, originalSize, localHeaderOffset });
    at = extraEnd + reader.u16(at + 32);
  }
  return entries;
}

/**
 * An entry's data, inflated no further than its declared size and checked against it and against its CRC-32:
 * any mismatch is a ZipError naming the entry.
 */
export function inflateEntry(zip: Uint8Array, entry: ZipEntry): Uint8Array {
  const reader = new Reader(zip);
  const fail = (why: string) => new ZipError(`entry ${JSON.stringify(entry.name)}: ${why}`);
  const header = entry.localHeaderOffset;
  if (reader.u32(header) !== LOCAL_HEADER) throw fail('its local header is missing');
  const compressed = reader.slice(header + 30 + reader.u16(header + 26) + reader.u16(header + 28), entry.compressedSize);
  let data: Uint8Array;
  if (entry.compression === 0) {
    data = compressed;
  } else if (entry.compression === 8) {
    try {
      // One byte of headroom, so that data longer than declared shows as too long rather than as an error.
      data = zlib.inflateRawSync(compressed, { maxOutputLength: entry.originalSize + 1 });
    } catch (error) {
      const tooLong = (error as { code?: unknown }).code === 'ERR_BUFFER_TOO_LARGE';
      throw fail(
        tooLong ? `its data inflates to more than the ${entry.originalSize} bytes declared` : `its compressed data is corrupt (${(error as Error).message})`,
      );
    }
  } else {
    throw fail(`compression method ${entry.compression} is not supported (only stored and deflated)`);
  }
  if (data.length !== entry.originalSize) throw fail(`its data is ${data.length} bytes, but ${entry.originalSize} are declared`);
  const actual = crc32(data);
  if (actual !== entry.crc32) throw fail(`its CRC-32 is ${hex(actual)}, but ${hex(entry.crc32)} is declared`);
  return data;
}

const hex = (value: number) => `0x${value.toString(16).padStart(8, '0')}`;
