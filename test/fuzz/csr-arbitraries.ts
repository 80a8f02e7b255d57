// Generated CSR arrays for the fuzz properties: a small valid matrix (empty, one-vertex and
// duplicate-column cases included), optionally spoiled by one hostile corruption, together with
// an independent, obviously written oracle of what makes CSR arrays valid.

import fc from 'fast-check';
import { hostileInt, nonFinite } from './harness.js';

export interface RawCsr {
  rows: unknown;
  cols: unknown;
  rowPtr: unknown;
  colIdx: unknown;
  values?: unknown;
  symmetric?: unknown;
  /** Which corruption was applied ('none' for a valid matrix). */
  corruption: string;
}

interface Entry {
  r: number;
  c: number;
  v: number;
}

/** A valid small matrix: shape, then entries sorted by row (columns in any order, duplicates allowed). */
export const validCsr = fc
  .record({
    rows: fc.integer({ min: 0, max: 7 }),
    cols: fc.integer({ min: 0, max: 7 }),
    raw: fc.array(fc.record({ r: fc.nat(), c: fc.nat(), v: fc.double({ min: -4, max: 4, noNaN: true }) }), { maxLength: 24 }),
    wide: fc.boolean(),
    values: fc.constantFrom('f64', 'f32', 'none'),
  })
  .map(({ rows, cols, raw, wide, values }) => {
    const entries: Entry[] = rows === 0 || cols === 0 ? [] : raw.map((e) => ({ r: e.r % rows, c: e.c % cols, v: e.v }));
    entries.sort((a, b) => a.r - b.r);
    const ptr = new Array<number>(rows + 1).fill(0);
    for (const e of entries) ptr[e.r + 1]!++;
    for (let r = 0; r < rows; r++) ptr[r + 1]! += ptr[r]!;
    const rowPtr = wide ? BigInt64Array.from(ptr, BigInt) : Int32Array.from(ptr);
    const colIdx = Int32Array.from(entries, (e) => e.c);
    const vals = values === 'f64' ? Float64Array.from(entries, (e) => e.v) : values === 'f32' ? Float32Array.from(entries, (e) => e.v) : undefined;
    return { rows, cols, rowPtr, colIdx, values: vals, corruption: 'none' } as RawCsr;
  });

type Corrupt = (m: RawCsr, at: number, bad: number) => RawCsr | undefined;

function setAt(a: unknown, at: number, bad: number): unknown {
  if (a instanceof BigInt64Array) {
    const b = a.slice();
    if (b.length) b[at % b.length] = Number.isInteger(bad) ? BigInt(bad) : 2n ** 62n;
    return b;
  }
  if (a instanceof Int32Array || a instanceof Float32Array || a instanceof Float64Array) {
    const b = a.slice();
    if (b.length) b[at % b.length] = bad;
    return b;
  }
  return a;
}

const CORRUPTIONS: Record<string, Corrupt> = {
  rowPtrValue: (m, at, bad) => ({ ...m, rowPtr: setAt(m.rowPtr, at, bad) }),
  rowPtrSwap: (m, at) => {
    const rp = m.rowPtr as Int32Array | BigInt64Array;
    if (rp.length < 3) return undefined;
    const b = rp.slice() as Int32Array;
    const i = 1 + (at % (rp.length - 2));
    const tmp = b[i]!;
    b[i] = b[i + 1]!;
    b[i + 1] = tmp;
    return { ...m, rowPtr: b };
  },
  colIdxValue: (m, at, bad) => ({ ...m, colIdx: setAt(m.colIdx, at, bad) }),
  valueNonFinite: (m, at, bad) => (m.values === undefined ? undefined : { ...m, values: setAt(m.values, at, Number.isFinite(bad) ? NaN : bad) }),
  rowsField: (m, _at, bad) => ({ ...m, rows: bad }),
  colsField: (m, _at, bad) => ({ ...m, cols: bad }),
  rowPtrShort: (m) => ({ ...m, rowPtr: (m.rowPtr as Int32Array).subarray(0, Math.max(0, (m.rowPtr as Int32Array).length - 1)) }),
  rowPtrLong: (m) => {
    const rp = m.rowPtr as Int32Array | BigInt64Array;
    const b = rp instanceof BigInt64Array ? new BigInt64Array(rp.length + 1) : new Int32Array(rp.length + 1);
    (b as Int32Array).set(rp as Int32Array);
    (b as Int32Array)[rp.length] = (rp as Int32Array)[rp.length - 1]!;
    return { ...m, rowPtr: b };
  },
  valuesLength: (m) => ({ ...m, values: new Float64Array((m.colIdx as Int32Array).length + 1) }),
  rowPtrType: (m, at) => ({
    ...m,
    rowPtr: [Array.from(m.rowPtr as Int32Array, Number), Float64Array.from(m.rowPtr as Int32Array, Number), Uint32Array.from(m.rowPtr as Int32Array, Number)][
      at % 3
    ],
  }),
  colIdxType: (m, at) => ({ ...m, colIdx: [Array.from(m.colIdx as Int32Array), Uint32Array.from(m.colIdx as Int32Array), null][at % 3] }),
  valuesType: (m, at) => ({
    ...m,
    values: [Array.from((m.values as Float64Array | undefined) ?? []), new Int32Array((m.colIdx as Int32Array).length), 'x'][at % 3],
  }),
  symmetricClaim: (m, at) => ({ ...m, symmetric: [true, 'yes', 1][at % 3] }),
};

export const CORRUPTION_NAMES = Object.keys(CORRUPTIONS);

/** A matrix that is valid, or spoiled by one named corruption. */
export const hostileCsr: fc.Arbitrary<RawCsr> = fc
  .tuple(validCsr, fc.constantFrom('none', ...CORRUPTION_NAMES), fc.nat(), fc.oneof(hostileInt, nonFinite, fc.integer({ min: -3, max: 10 })))
  .map(([m, name, at, bad]) => {
    if (name === 'none') return m;
    const out = CORRUPTIONS[name]!(m, at, bad);
    return out === undefined ? m : { ...out, corruption: name };
  });

/** The oracle: whether CsrMatrix must accept these arrays. Written plainly, apart from src/. */
export function isValidCsr(m: RawCsr): boolean {
  const isIndex = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= 2 ** 31 - 1;
  if (!isIndex(m.rows) || !isIndex(m.cols)) return false;
  const { rowPtr, colIdx, values } = m;
  if (!(rowPtr instanceof Int32Array) && !(rowPtr instanceof BigInt64Array)) return false;
  if (!(colIdx instanceof Int32Array)) return false;
  if (values !== undefined && !(values instanceof Float32Array) && !(values instanceof Float64Array)) return false;
  if (m.symmetric !== undefined && typeof m.symmetric !== 'boolean') return false;
  if (m.symmetric === true && m.rows !== m.cols) return false;
  if (rowPtr.length !== m.rows + 1) return false;
  const nnz = colIdx.length;
  if (values !== undefined && values.length !== nnz) return false;
  const ptr = Array.from(rowPtr as ArrayLike<number | bigint>, Number);
  if (ptr[0] !== 0 || ptr[m.rows] !== nnz) return false;
  for (let r = 0; r < m.rows; r++) if (ptr[r + 1]! < ptr[r]!) return false;
  for (const c of colIdx) if (c < 0 || c >= m.cols) return false;
  if (values !== undefined) for (const v of values) if (!Number.isFinite(v)) return false;
  return true;
}
