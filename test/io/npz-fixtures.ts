// .npz files made in the test, byte for byte as numpy writes them: .npy arrays (magic, version
// 1.0, a padded dict header, the raw data) in a zip archive, stored or deflated.

import { crc32, deflateRawSync } from 'node:zlib';

export type Descr = '<i4' | '<i8' | '<f4' | '<f8' | '|b1' | '<u4' | '>i4' | '|S3' | '<U3' | '|O' | '<c16';

/** One .npy array of `descr` and `shape` holding `values` (numbers, bigints or a string). */
export function npy(descr: string, shape: readonly number[], values: readonly (number | bigint)[] | string): Buffer {
  const size = Number(descr.slice(2)) * (descr[1] === 'U' ? 4 : 1);
  const le = descr[0] !== '>';
  let data: Buffer;
  if (typeof values === 'string') {
    data = Buffer.alloc(size);
    if (descr[1] === 'U') [...values].forEach((ch, i) => data.writeUInt32LE(ch.codePointAt(0)!, 4 * i));
    else data.write(values, 'latin1');
  } else {
    data = Buffer.alloc(values.length * size);
    values.forEach((v, i) => {
      const at = i * size;
      const kind = descr[1];
      if (kind === 'f')
        size === 8
          ? le
            ? data.writeDoubleLE(Number(v), at)
            : data.writeDoubleBE(Number(v), at)
          : le
            ? data.writeFloatLE(Number(v), at)
            : data.writeFloatBE(Number(v), at);
      else if (kind === 'b') data.writeUInt8(v ? 1 : 0, at);
      else if (size === 8) le ? data.writeBigInt64LE(BigInt(v), at) : data.writeBigInt64BE(BigInt(v), at);
      else if (kind === 'u') le ? data.writeUInt32LE(Number(v), at) : data.writeUInt32BE(Number(v), at);
      else le ? data.writeInt32LE(Number(v), at) : data.writeInt32BE(Number(v), at);
    });
  }
  const shapeText = shape.length === 1 ? `(${shape[0]},)` : `(${shape.join(', ')})`;
  let header = `{'descr': '${descr}', 'fortran_order': False, 'shape': ${shapeText}, }`;
  // numpy pads the header with spaces and a newline so the data starts on a 64-byte boundary.
  const total = 10 + header.length + 1;
  header = header.padEnd(header.length + ((64 - (total % 64)) % 64), ' ') + '\n';
  const head = Buffer.alloc(10);
  Buffer.from([0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59, 1, 0]).copy(head);
  head.writeUInt16LE(header.length, 8);
  return Buffer.concat([head, Buffer.from(header, 'latin1'), data]);
}

/** A zip archive of `files`, deflated unless `stored`. */
export function zip(files: Record<string, Buffer>, stored = false): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const [name, content] of Object.entries(files)) {
    const body = stored ? content : deflateRawSync(content);
    const nameBytes = Buffer.from(name, 'utf8');
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(stored ? 0 : 8, 8);
    local.writeUInt32LE(crc32(content) >>> 0, 14);
    local.writeUInt32LE(body.length, 18);
    local.writeUInt32LE(content.length, 22);
    local.writeUInt16LE(nameBytes.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(stored ? 0 : 8, 10);
    central.writeUInt32LE(crc32(content) >>> 0, 16);
    central.writeUInt32LE(body.length, 20);
    central.writeUInt32LE(content.length, 24);
    central.writeUInt16LE(nameBytes.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, nameBytes, body);
    centrals.push(central, nameBytes);
    offset += 30 + nameBytes.length + body.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(Object.keys(files).length, 8);
  end.writeUInt16LE(Object.keys(files).length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

/** What scipy.sparse.save_npz writes for a CSR matrix. */
export function csrNpz(shape: [number, number], indptr: number[], indices: number[], data: number[], dataDescr = '<f8', stored = false): Buffer {
  return zip(
    {
      'indices.npy': npy('<i4', [indices.length], indices),
      'indptr.npy': npy('<i4', [indptr.length], indptr),
      'format.npy': npy('|S3', [], 'csr'),
      'shape.npy': npy('<i8', [2], shape),
      'data.npy': npy(dataDescr, [data.length], data),
    },
    stored,
  );
}
