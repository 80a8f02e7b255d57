// numpy's .npy format (one array: a magic string, a header that is a Python dict literal, the raw
// data), for the arrays inside an .npz: read without evaluating anything, for the plain numeric
// dtypes and byte strings a sparse matrix is saved with. Object arrays (pickles) are refused.

import { FormatError, UnsupportedError } from '../errors.js';

/** A numeric or string dtype: kind (`b` bool, `i` signed, `u` unsigned, `f` float, `c` complex, `S` bytes, `U` unicode), size in bytes, byte order. */
export interface NpyType {
  readonly kind: string;
  readonly size: number;
  readonly littleEndian: boolean;
  /** As written in the file, e.g. `<i8`. */
  readonly descr: string;
}

export interface NpyArray {
  readonly name: string;
  readonly type: NpyType;
  readonly shape: readonly number[];
  /** Elements: the product of the shape (1 for a 0-d array). */
  readonly length: number;
  /** The raw data, `length * type.size` bytes. */
  readonly data: Uint8Array;
}

const MAGIC = [0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59]; // \x93NUMPY

/** Parse one .npy file (an entry of an .npz called `name`). */
export function parseNpy(fn: string, file: string, name: string, bytes: Uint8Array): NpyArray {
  const fail = (detail: string): never => {
    throw new FormatError(fn, file, 0, `${name}: ${detail}`);
  };
  if (bytes.byteLength < 10 || MAGIC.some((b, i) => bytes[i] !== b)) fail('not a .npy array (no \\x93NUMPY magic)');
  const major = bytes[6]!;
  if (major < 1 || major > 3) fail(`.npy format version ${major}.${bytes[7]} is not supported (1.0 to 3.0 are)`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const headerLength = major === 1 ? view.getUint16(8, true) : bytes.byteLength >= 12 ? view.getUint32(8, true) : fail('the header length is cut off');
  const start = major === 1 ? 10 : 12;
  if (start + headerLength > bytes.byteLength) fail(`its header (${headerLength} bytes) runs past the end of the array`);
  const header = Buffer.from(bytes.buffer, bytes.byteOffset + start, headerLength)
    .toString(major === 3 ? 'utf8' : 'latin1')
    .trim();
  const descr = /'descr'\s*:\s*'([^']*)'/.exec(header)?.[1];
  const fortran = /'fortran_order'\s*:\s*(True|False)/.exec(header)?.[1];
  const shapeText = /'shape'\s*:\s*\(([^)]*)\)/.exec(header)?.[1];
  if (!header.startsWith('{') || descr === undefined || fortran === undefined || shapeText === undefined) {
    if (/'descr'\s*:\s*\[/.test(header)) throw new UnsupportedError(`${fn}: ${file}: ${name}: structured arrays are not supported`);
    fail(`the header is not a dict with descr, fortran_order and shape: ${JSON.stringify(header.slice(0, 80))}`);
  }
  const type = npyType(fn, file, name, descr!);
  const shape = shapeText!
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '')
    .map((s) => (/^\d+$/.test(s) ? Number(s) : fail(`the shape (${shapeText}) is not a tuple of sizes`)));
  const length = shape.reduce((a, b) => a * b, 1);
  if (!Number.isSafeInteger(length * type.size)) fail(`the shape (${shapeText}) is too large`);
  // A Fortran-ordered array of more than one dimension is stored transposed: the 2 x nnz `coords` of a COO array are read as rows.
  if (fortran === 'True' && shape.filter((d) => d > 1).length > 1)
    throw new UnsupportedError(`${fn}: ${file}: ${name}: Fortran-ordered arrays are not supported`);
  const data = bytes.subarray(start + headerLength);
  if (data.byteLength !== length * type.size)
    fail(`holds ${data.byteLength} bytes of data, but its shape (${shapeText}) of ${descr} needs ${length * type.size}`);
  return { name, type, shape, length, data };
}

function npyType(fn: string, file: string, name: string, descr: string): NpyType {
  const m = /^([<>|=])([biufcSUO])(\d+)$/.exec(descr);
  if (!m) throw new UnsupportedError(`${fn}: ${file}: ${name}: dtype ${JSON.stringify(descr)} is not supported`);
  const [, order, kind, digits] = m as unknown as [string, string, string, string];
  if (kind === 'O') throw new UnsupportedError(`${fn}: ${file}: ${name}: object arrays (pickled Python objects) are not read`);
  const count = Number(digits);
  const size = kind === 'U' ? 4 * count : count;
  const sizes: Record<string, number[]> = { b: [1], i: [1, 2, 4, 8], u: [1, 2, 4, 8], f: [2, 4, 8], c: [8, 16] };
  if (sizes[kind] && !sizes[kind]!.includes(size)) throw new UnsupportedError(`${fn}: ${file}: ${name}: dtype ${JSON.stringify(descr)} is not supported`);
  return { kind, size, littleEndian: order !== '>', descr };
}

/** A byte-string (`S`) or unicode (`U`) scalar as text, without its trailing NULs. */
export function npyText(fn: string, file: string, a: NpyArray): string {
  if (a.length !== 1 || (a.type.kind !== 'S' && a.type.kind !== 'U')) {
    throw new FormatError(fn, file, 0, `${a.name}: expected a string, got an array of ${a.type.descr} with shape (${a.shape.join(', ')})`);
  }
  let text = '';
  if (a.type.kind === 'S') text = Buffer.from(a.data).toString('latin1');
  else {
    const view = new DataView(a.data.buffer, a.data.byteOffset, a.data.byteLength);
    for (let i = 0; i + 4 <= a.data.byteLength; i += 4) text += String.fromCodePoint(Math.min(0x10ffff, view.getUint32(i, a.type.littleEndian)));
  }
  return text.replace(/\0+$/, '');
}

/**
 * The elements of a numeric array as numbers: integers exact up to 2^53 (beyond, the nearest
 * double, counted in `inexact`), booleans as 0 and 1, floats as they are.
 */
export function npyNumbers(fn: string, file: string, a: NpyArray): { values: Float64Array; inexact: number } {
  const { kind, size, littleEndian: le } = a.type;
  if (kind === 'c') throw new UnsupportedError(`${fn}: ${file}: ${a.name}: complex values are not supported`);
  if (kind === 'S' || kind === 'U') throw new FormatError(fn, file, 0, `${a.name}: expected numbers, got strings (${a.type.descr})`);
  const view = new DataView(a.data.buffer, a.data.byteOffset, a.data.byteLength);
  const values = new Float64Array(a.length);
  let inexact = 0;
  for (let i = 0, at = 0; i < a.length; i++, at += size) {
    let v: number;
    if (kind === 'f') v = size === 8 ? view.getFloat64(at, le) : size === 4 ? view.getFloat32(at, le) : half(view.getUint16(at, le));
    else if (kind === 'b') v = view.getUint8(at) === 0 ? 0 : 1;
    else if (size === 8) {
      const big = kind === 'i' ? view.getBigInt64(at, le) : view.getBigUint64(at, le);
      v = Number(big);
      if (BigInt(v) !== big) inexact++;
    } else if (size === 4) v = kind === 'i' ? view.getInt32(at, le) : view.getUint32(at, le);
    else if (size === 2) v = kind === 'i' ? view.getInt16(at, le) : view.getUint16(at, le);
    else v = kind === 'i' ? view.getInt8(at) : view.getUint8(at);
    values[i] = v;
  }
  return { values, inexact };
}

/** An IEEE half-precision float from its 16 bits. */
function half(bits: number): number {
  const sign = bits & 0x8000 ? -1 : 1;
  const exponent = (bits >> 10) & 0x1f;
  const fraction = bits & 0x3ff;
  if (exponent === 0) return sign * fraction * 2 ** -24;
  if (exponent === 31) return fraction ? NaN : sign * Infinity;
  return sign * (1 + fraction / 1024) * 2 ** (exponent - 15);
}

/**
 * The elements of an integer array as indices in [0, bound), for row and column numbers and
 * row pointers: refused with the first one out of range.
 */
export function npyIndices(fn: string, file: string, a: NpyArray, bound: number, what: string): Int32Array {
  const { kind, size, littleEndian: le } = a.type;
  if (kind !== 'i' && kind !== 'u') throw new FormatError(fn, file, 0, `${a.name}: ${what} must be integers, got ${a.type.descr}`);
  const view = new DataView(a.data.buffer, a.data.byteOffset, a.data.byteLength);
  const out = new Int32Array(a.length);
  for (let i = 0, at = 0; i < a.length; i++, at += size) {
    const v =
      size === 8
        ? Number(kind === 'i' ? view.getBigInt64(at, le) : view.getBigUint64(at, le))
        : size === 4
          ? kind === 'i'
            ? view.getInt32(at, le)
            : view.getUint32(at, le)
          : size === 2
            ? kind === 'i'
              ? view.getInt16(at, le)
              : view.getUint16(at, le)
            : kind === 'i'
              ? view.getInt8(at)
              : view.getUint8(at);
    if (!(v >= 0 && v < bound)) throw new FormatError(fn, file, 0, `${a.name}: ${what} ${a.name.replace(/\.npy$/, '')}[${i}] = ${v} is outside [0, ${bound})`);
    out[i] = v;
  }
  return out;
}
