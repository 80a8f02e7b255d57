// Matrices and results as they travel: plain maps whose arrays are msgpack typed arrays. What a
// client uploads is rebuilt with the library's own constructors (`CsrMatrix`, `DenseMatrix`), so a
// bad index, a NaN or a wrong length is refused with the library's typed error. A matrix is named
// by the SHA-256 of its content: kind, shape and every array's type and bytes.

import { createHash } from 'node:crypto';
import { type CsrInit, CsrMatrix } from '../data/csr.js';
import { DenseMatrix } from '../data/dense.js';
import { csrOffThread, denseOffThread } from '../data/off-thread-checks.js';
import { describe, InvalidArgumentError } from '../errors.js';
import type { Value } from '../operators/kind.js';
import { optionalAddon } from '../native/addon.js';
import { isRecord } from './protocol.js';

export type WireMatrix =
  | {
      readonly kind: 'csr';
      readonly rows: number;
      readonly cols: number;
      readonly rowPtr: Int32Array | BigInt64Array;
      readonly colIdx: Int32Array;
      readonly values?: Float32Array | Float64Array;
      readonly symmetric?: boolean;
    }
  | { readonly kind: 'dense'; readonly rows: number; readonly cols: number; readonly data: Float32Array | Float64Array };

/** A result value as it travels (depths of a BFS are an Int32Array as they are). */
export type WireValue = WireMatrix | Int32Array;

/** The wire form of a matrix (the arrays are shared, not copied). */
export function encodeMatrix(m: CsrMatrix | DenseMatrix): WireMatrix {
  if (m instanceof CsrMatrix) {
    return {
      kind: 'csr',
      rows: m.rows,
      cols: m.cols,
      rowPtr: m.rowPtr,
      colIdx: m.colIdx,
      ...(m.values ? { values: m.values } : {}),
      ...(m.symmetric ? { symmetric: true } : {}),
    };
  }
  return { kind: 'dense', rows: m.rows, cols: m.cols, data: m.data };
}

const CSR_KEYS = ['kind', 'rows', 'cols', 'rowPtr', 'colIdx', 'values', 'symmetric'];
const DENSE_KEYS = ['kind', 'rows', 'cols', 'data'];

/**
 * The matrix a client sent, validated as the library validates its own inputs.
 * @param fn names the request in messages (`serve.upload`).
 * @throws {InvalidArgumentError} naming the field for a wrong shape or type, and the library's
 *   `CsrMatrix: ...` / `DenseMatrix: ...` errors for bad contents.
 */
export function decodeMatrix(fn: string, field: string, raw: unknown): CsrMatrix | DenseMatrix {
  const m = matrixFields(fn, field, raw);
  return m.kind === 'csr' ? new CsrMatrix(m.init) : new DenseMatrix(m.rows, m.cols, m.data);
}

/** As {@link decodeMatrix}, the long scans (structure, finiteness) on a libuv worker: a server's uploads. */
export function decodeMatrixOffThread(fn: string, field: string, raw: unknown): Promise<CsrMatrix | DenseMatrix> {
  const m = matrixFields(fn, field, raw);
  return m.kind === 'csr' ? csrOffThread(m.init) : denseOffThread(m.rows, m.cols, m.data);
}

/** A wire matrix's fields, their kinds and types checked (the matrix's constructor checks the rest). */
function matrixFields(
  fn: string,
  field: string,
  raw: unknown,
): { kind: 'csr'; init: CsrInit } | { kind: 'dense'; rows: number; cols: number; data: Float32Array | Float64Array } {
  if (!isRecord(raw)) throw new InvalidArgumentError(`${fn}: field ${JSON.stringify(field)} must be a map describing a matrix, got ${describe(raw)}`);
  const kind = raw['kind'];
  if (kind !== 'csr' && kind !== 'dense') throw new InvalidArgumentError(`${fn}: field "${field}.kind" must be "csr" or "dense", got ${describe(kind)}`);
  const keys = kind === 'csr' ? CSR_KEYS : DENSE_KEYS;
  for (const k of Object.keys(raw)) {
    if (!keys.includes(k)) throw new InvalidArgumentError(`${fn}: field "${field}.${k}" is not part of a ${kind} matrix (fields: ${keys.join(', ')})`);
  }
  const typed = (name: string, ok: readonly string[]): void => {
    const v = raw[name];
    if (!ArrayBuffer.isView(v) || !ok.includes(v.constructor.name)) {
      throw new InvalidArgumentError(`${fn}: field "${field}.${name}" must be a typed array (${ok.join(' or ')}), got ${describe(v)}`);
    }
  };
  if (kind === 'csr') {
    typed('rowPtr', ['Int32Array', 'BigInt64Array']);
    typed('colIdx', ['Int32Array']);
    if (raw['values'] !== undefined) typed('values', ['Float32Array', 'Float64Array']);
    if (raw['symmetric'] !== undefined && typeof raw['symmetric'] !== 'boolean') {
      throw new InvalidArgumentError(`${fn}: field "${field}.symmetric" must be a boolean, got ${describe(raw['symmetric'])}`);
    }
    return {
      kind,
      init: {
        rows: raw['rows'] as number,
        cols: raw['cols'] as number,
        rowPtr: raw['rowPtr'] as Int32Array,
        colIdx: raw['colIdx'] as Int32Array,
        values: raw['values'] as Float32Array | undefined,
        symmetric: raw['symmetric'] as boolean | undefined,
      },
    };
  }
  typed('data', ['Float32Array', 'Float64Array']);
  return { kind, rows: raw['rows'] as number, cols: raw['cols'] as number, data: raw['data'] as Float32Array };
}

/** Arrays are hashed in pieces of this many bytes, the pieces in parallel off the JS thread (native/src/content_hash.cc). */
const HASH_PIECE_BYTES = 2 ** 20;
type NativeDigests = (array: ArrayBufferView, chunkBytes: number, out: Uint8Array) => Promise<unknown>;
let nativeDigests: NativeDigests | null | undefined;

function loadNativeDigests(): NativeDigests | null {
  const addon = optionalAddon();
  return addon?.sha256Info().available ? addon.sha256Chunks.bind(addon) : null;
}

/** The SHA-256 of each piece of `bytes`, one after another, here. */
function pieceDigests(bytes: Uint8Array): Uint8Array {
  const pieces = Math.ceil(bytes.length / HASH_PIECE_BYTES);
  const out = new Uint8Array(pieces * 32);
  for (let i = 0; i < pieces; i++)
    out.set(
      createHash('sha256')
        .update(bytes.subarray(i * HASH_PIECE_BYTES, (i + 1) * HASH_PIECE_BYTES))
        .digest(),
      i * 32,
    );
  return out;
}

/** The same digests, on the kernel pool where the addon can (several pieces), else here. */
async function pieceDigestsOffThread(bytes: Uint8Array): Promise<Uint8Array> {
  const pieces = Math.ceil(bytes.length / HASH_PIECE_BYTES);
  nativeDigests ??= loadNativeDigests();
  if (pieces < 2 || !nativeDigests) return pieceDigests(bytes);
  const out = new Uint8Array(pieces * 32);
  await nativeDigests(bytes, HASH_PIECE_BYTES, out);
  return out;
}

/** A matrix's header and arrays, as its hash takes them. */
function hashParts(m: CsrMatrix | DenseMatrix): { header: string; arrays: (Uint8Array | undefined)[]; types: string[] } {
  const parts = m instanceof CsrMatrix ? [m.rowPtr, m.colIdx, m.values] : [m.data];
  return {
    header: m instanceof CsrMatrix ? `csr;${m.rows};${m.cols};${m.symmetric ? 1 : 0};` : `dense;${m.rows};${m.cols};`,
    arrays: parts.map((a) => (a ? new Uint8Array(a.buffer, a.byteOffset, a.byteLength) : undefined)),
    types: parts.map((a) => a?.constructor.name ?? ''),
  };
}

function assemble(parts: ReturnType<typeof hashParts>, digests: (Uint8Array | undefined)[]): string {
  const h = createHash('sha256').update(parts.header);
  parts.arrays.forEach((a, i) => {
    if (!a) h.update('none;');
    else h.update(`${parts.types[i]}:${a.byteLength};`).update(digests[i]!);
  });
  return h.digest('hex');
}

/**
 * The content hash of a matrix: hex SHA-256 of its kind, shape, symmetry and, for each array, its
 * type, length and the SHA-256 of each MiB of its bytes (so the pieces of a large upload can be
 * hashed in parallel; the same bytes always give the same hash, wherever they are hashed).
 */
export function contentHash(m: CsrMatrix | DenseMatrix): string {
  const parts = hashParts(m);
  return assemble(
    parts,
    parts.arrays.map((a) => a && pieceDigests(a)),
  );
}

/** {@link contentHash}, its pieces hashed on the kernel pool off the JS thread (what the server does with every upload). */
export async function contentHashOffThread(m: CsrMatrix | DenseMatrix): Promise<string> {
  const parts = hashParts(m);
  return assemble(parts, await Promise.all(parts.arrays.map((a) => a && pieceDigestsOffThread(a))));
}

/** Bytes a matrix holds (what the store counts against its bound). */
export function matrixBytes(m: CsrMatrix | DenseMatrix): number {
  return m instanceof CsrMatrix ? m.rowPtr.byteLength + m.colIdx.byteLength + (m.values?.byteLength ?? 0) : m.data.byteLength;
}

/** The wire form of a workload's value. */
export function encodeValue(v: Value): WireValue {
  return v instanceof Int32Array ? v : encodeMatrix(v);
}

/**
 * A result value back on the client. The server computed it, so its contents are trusted as the
 * library trusts its own kernels' outputs (dense results may hold non-finite values).
 */
export function decodeValue(fn: string, raw: unknown): Value {
  if (raw instanceof Int32Array) return raw;
  if (isRecord(raw) && raw['kind'] === 'dense' && (raw['data'] instanceof Float32Array || raw['data'] instanceof Float64Array)) {
    return new DenseMatrix(raw['rows'] as number, raw['cols'] as number, raw['data'], { allowNonFinite: true });
  }
  return decodeMatrix(fn, 'value', raw);
}
