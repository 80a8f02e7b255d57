// A small, bounded reader of zip archives held in memory, as numpy's .npz files are: the central
// directory is read first, every offset and size is checked against the archive before use, an
// entry's declared size is what inflating may produce (so a zip bomb stops there), and each entry's
// CRC-32 is checked. Stored and deflated entries, zip64 sizes; no encryption, no multi-disk.

import { crc32, inflateRawSync } from 'node:zlib';
import { FormatError, UnsupportedError } from '../errors.js';

export interface ZipEntry {
  readonly name: string;
  /** 0 stored, 8 deflated. */
  readonly method: number;
  readonly compressedSize: number;
  readonly size: number;
  readonly crc: number;
  /** Offset of the entry's local header in the archive. */
  readonly offset: number;
}

const EOCD = 0x06054b50;
const ZIP64_LOCATOR = 0x07064b50;
const ZIP64_EOCD = 0x06064b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;
/** More entries than this is no .npz of a sparse matrix (scipy writes five or six). */
const MAX_ENTRIES = 1024;

/** The central directory of `bytes`, checked against the archive's size. */
export function zipEntries(fn: string, file: string, bytes: Uint8Array): ZipEntry[] {
  const fail = (detail: string): never => {
    throw new FormatError(fn, file, 0, detail);
  };
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const n = bytes.byteLength;
  const u16 = (at: number): number => (at + 2 <= n ? view.getUint16(at, true) : fail(`the archive ends inside a record at byte ${at}`));
  const u32 = (at: number): number => (at + 4 <= n ? view.getUint32(at, true) : fail(`the archive ends inside a record at byte ${at}`));
  const u64 = (at: number): number => {
    const v = u32(at) + u32(at + 4) * 2 ** 32;
    return Number.isSafeInteger(v) ? v : fail(`a zip64 size or offset at byte ${at} is too large`);
  };
  // The end record sits in the last 22 + 65535 bytes (its comment is at most 65535 bytes).
  let end = -1;
  for (let at = n - 22; at >= Math.max(0, n - 22 - 65535); at--) {
    if (view.getUint32(at, true) === EOCD) {
      end = at;
      break;
    }
  }
  if (end < 0)
    fail(n >= 4 && view.getUint32(0, true) === LOCAL ? 'the zip archive has no central directory (truncated?)' : 'not a zip archive (an .npz file is one)');
  if (u16(end + 4) !== 0 || u16(end + 6) !== 0) throw new UnsupportedError(`${fn}: ${file}: multi-disk zip archives are not supported`);
  let count = u16(end + 10);
  let size = u32(end + 12);
  let offset = u32(end + 16);
  if (count === 0xffff || size === 0xffffffff || offset === 0xffffffff) {
    const locator = end - 20;
    if (locator < 0 || u32(locator) !== ZIP64_LOCATOR) fail('a zip64 archive without its zip64 end record locator');
    const record = u64(locator + 8);
    if (record + 56 > n || u32(record) !== ZIP64_EOCD) fail('the zip64 end record is missing or out of place');
    count = u64(record + 32);
    size = u64(record + 40);
    offset = u64(record + 48);
  }
  if (count > MAX_ENTRIES) fail(`the archive lists ${count} entries, more than the ${MAX_ENTRIES} an .npz of a sparse matrix can need`);
  if (offset + size > n) fail(`the central directory (${size} bytes at ${offset}) lies outside the ${n}-byte archive`);
  const entries: ZipEntry[] = [];
  let at = offset;
  for (let k = 0; k < count; k++) {
    if (u32(at) !== CENTRAL) fail(`entry ${k + 1} of the central directory is damaged (at byte ${at})`);
    const flags = u16(at + 8);
    const method = u16(at + 10);
    const crc = u32(at + 16);
    let compressedSize = u32(at + 20);
    let entrySize = u32(at + 24);
    const nameLength = u16(at + 28);
    const extraLength = u16(at + 30);
    const commentLength = u16(at + 32);
    let local = u32(at + 42);
    if (at + 46 + nameLength + extraLength + commentLength > offset + size) fail(`entry ${k + 1} runs past the central directory`);
    const name = Buffer.from(bytes.buffer, bytes.byteOffset + at + 46, nameLength).toString('utf8');
    if (flags & 1) throw new UnsupportedError(`${fn}: ${file}: entry ${JSON.stringify(name)} is encrypted`);
    // Zip64: the sizes and offset that read 0xffffffff follow in the extra field, in this order.
    for (let e = at + 46 + nameLength; e + 4 <= at + 46 + nameLength + extraLength; ) {
      const id = u16(e);
      const length = u16(e + 2);
      if (id === 0x0001) {
        let p = e + 4;
        if (entrySize === 0xffffffff) {
          entrySize = u64(p);
          p += 8;
        }
        if (compressedSize === 0xffffffff) {
          compressedSize = u64(p);
          p += 8;
        }
        if (local === 0xffffffff) local = u64(p);
      }
      e += 4 + length;
    }
    entries.push({ name, method, compressedSize, size: entrySize, crc, offset: local });
    at += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

/**
 * The bytes of one entry, inflated to at most its declared size and checked against its CRC-32.
 * @throws {FormatError} for a damaged entry; {UnsupportedError} for a compression method other than stored or deflate.
 */
export function zipEntryBytes(fn: string, file: string, bytes: Uint8Array, entry: ZipEntry): Uint8Array {
  const fail = (detail: string): never => {
    throw new FormatError(fn, file, 0, `${entry.name}: ${detail}`);
  };
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const at = entry.offset;
  if (at + 30 > bytes.byteLength || view.getUint32(at, true) !== LOCAL) fail(`no local header at byte ${at}`);
  const start = at + 30 + view.getUint16(at + 26, true) + view.getUint16(at + 28, true);
  if (start + entry.compressedSize > bytes.byteLength) fail(`its ${entry.compressedSize} bytes of data run past the end of the archive`);
  const raw = bytes.subarray(start, start + entry.compressedSize);
  let data: Uint8Array;
  if (entry.method === 0) {
    if (entry.compressedSize !== entry.size) fail(`stored with ${entry.compressedSize} bytes but declares ${entry.size}`);
    data = raw;
  } else if (entry.method === 8) {
    try {
      // maxOutputLength: what the directory declares is all inflating may produce.
      data = inflateRawSync(raw, { maxOutputLength: Math.max(1, entry.size) });
    } catch (e) {
      return fail(`cannot be inflated: ${(e as Error).message}`);
    }
    if (data.byteLength !== entry.size) fail(`inflates to ${data.byteLength} bytes, not the ${entry.size} declared`);
  } else {
    throw new UnsupportedError(`${fn}: ${file}: ${entry.name}: compression method ${entry.method} is not supported (stored and deflate are)`);
  }
  if (crc32(data) >>> 0 !== entry.crc >>> 0) fail('its CRC-32 does not match: the archive is damaged');
  return data;
}
