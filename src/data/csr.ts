// Compressed sparse row matrices (and graphs stored as their adjacency matrices): the one sparse
// layout every loader produces and every kernel consumes.

import { describe, InvalidArgumentError } from '../errors.js';
import { checkInt, firstNonFinite, MAX_INDEX } from '../validate.js';
import { optionalAddon } from '../native/addon.js';

/** Row pointers: 32-bit while nnz fits in a signed 32-bit integer, 64-bit beyond. */
export type RowPtrArray = Int32Array | BigInt64Array;
/** Nonzero values; absent for pattern matrices (every stored entry counts as 1). */
export type ValueArray = Float32Array | Float64Array;

export interface CsrInit {
  readonly rows: number;
  readonly cols: number;
  readonly rowPtr: RowPtrArray;
  readonly colIdx: Int32Array;
  readonly values?: ValueArray | undefined;
  /**
   * Set when the structure is known to equal its transpose (an undirected graph). Kernels use
   * it to skip building the transpose (BFS's bottom-up step needs in-edges).
   * @default false
   */
  readonly symmetric?: boolean | undefined;
  /**
   * Set when every row's column indices are strictly increasing (no duplicates).
   * @default computed during validation
   */
  readonly sortedColumns?: boolean | undefined;
}

/**
 * A sparse matrix in CSR form, validated on construction: row pointers start at 0, never
 * decrease and end at `colIdx.length`; every column index lies in `[0, cols)`; values (when
 * present) are finite and as many as the column indices.
 *
 * The arrays are shared, not copied. Mutating them after construction voids the validation
 * in TypeScript; the native kernels still bounds-check every index they read.
 *
 * @throws {InvalidArgumentError} when any of the above does not hold; the message names the
 *   first offending row or entry.
 * @example
 * const a = new CsrMatrix({ rows: 2, cols: 2, rowPtr: Int32Array.of(0, 1, 2),
 *   colIdx: Int32Array.of(1, 0) });
 * a.nnz; // 2
 */
let trustedConstruction = false;

export class CsrMatrix {
  readonly rows: number;
  readonly cols: number;
  readonly rowPtr: RowPtrArray;
  readonly colIdx: Int32Array;
  readonly values: ValueArray | undefined;
  readonly symmetric: boolean;
  /** True when each row's column indices are strictly increasing. */
  readonly sortedColumns: boolean;

  constructor(init: CsrInit) {
    const sorted = trustedConstruction ? init.sortedColumns === true : validateCsr('CsrMatrix', init);
    this.rows = init.rows;
    this.cols = init.cols;
    this.rowPtr = init.rowPtr;
    this.colIdx = init.colIdx;
    this.values = init.values;
    this.symmetric = init.symmetric ?? false;
    this.sortedColumns = sorted;
  }

  /**
   * Wrap arrays that dype's own code has just built and checked (converters, loaders,
   * generators), skipping the O(nnz) validation pass. `sortedColumns` is taken as given.
   * Not for user-supplied arrays: use the constructor.
   * @internal
   */
  static trusted(init: CsrInit): CsrMatrix {
    trustedConstruction = true;
    try {
      return new CsrMatrix(init);
    } finally {
      trustedConstruction = false;
    }
  }

  /** Number of stored entries. */
  get nnz(): number {
    return this.colIdx.length;
  }

  /** Whether the row pointers are 64-bit (nnz beyond 2^31 - 1). */
  get wideRowPtr(): boolean {
    return this.rowPtr instanceof BigInt64Array;
  }

  /** Start of row `r` in `colIdx`/`values` (end is `rowStart(r + 1)`). */
  rowStart(r: number): number {
    const p = this.rowPtr[r];
    return typeof p === 'bigint' ? Number(p) : (p as number);
  }

  /** Number of stored entries in row `r`. */
  rowLength(r: number): number {
    return this.rowStart(r + 1) - this.rowStart(r);
  }

  /** Fraction of entries stored: nnz / (rows * cols). */
  get density(): number {
    return this.rows === 0 || this.cols === 0 ? 0 : this.nnz / (this.rows * this.cols);
  }

  toString(): string {
    return `CsrMatrix(${this.rows}x${this.cols}, nnz=${this.nnz}${this.values ? `, ${this.values instanceof Float32Array ? 'f32' : 'f64'}` : ', pattern'}${this.symmetric ? ', symmetric' : ''})`;
  }
}

/**
 * Validate CSR arrays; returns whether columns are strictly sorted within every row.
 * Runs in O(rows + nnz) without allocating.
 */
export function validateCsr(fn: string, init: CsrInit): boolean {
  if (init === null || typeof init !== 'object') {
    throw new InvalidArgumentError(`${fn}: expected CSR arrays, got ${describe(init)}`);
  }
  const rows = checkInt(fn, 'rows', init.rows, 0, MAX_INDEX);
  const cols = checkInt(fn, 'cols', init.cols, 0, MAX_INDEX);
  const { rowPtr, colIdx, values } = init;
  if (!(rowPtr instanceof Int32Array) && !(rowPtr instanceof BigInt64Array)) {
    throw new InvalidArgumentError(`${fn}: rowPtr must be an Int32Array or BigInt64Array, got ${describe(rowPtr)}`);
  }
  if (!(colIdx instanceof Int32Array)) {
    throw new InvalidArgumentError(`${fn}: colIdx must be an Int32Array, got ${describe(colIdx)}`);
  }
  if (values !== undefined && !(values instanceof Float32Array) && !(values instanceof Float64Array)) {
    throw new InvalidArgumentError(`${fn}: values must be a Float32Array or Float64Array, got ${describe(values)}`);
  }
  if (rowPtr.length !== rows + 1) {
    throw new InvalidArgumentError(`${fn}: rowPtr has length ${rowPtr.length}, expected rows + 1 = ${rows + 1}`);
  }
  const nnz = colIdx.length;
  if (values !== undefined && values.length !== nnz) {
    throw new InvalidArgumentError(`${fn}: values has length ${values.length}, expected nnz = ${nnz}`);
  }
  if (rowPtr instanceof Int32Array && nnz > MAX_INDEX) {
    throw new InvalidArgumentError(`${fn}: nnz = ${nnz} needs 64-bit row pointers (BigInt64Array)`);
  }
  if (init.symmetric !== undefined && typeof init.symmetric !== 'boolean') {
    throw new InvalidArgumentError(`${fn}: symmetric must be a boolean, got ${describe(init.symmetric)}`);
  }
  if (init.symmetric === true && rows !== cols) {
    throw new InvalidArgumentError(`${fn}: a symmetric matrix must be square, got ${rows}x${cols}`);
  }

  // Large inputs are checked natively first (or were, off the JS thread, just now); only a faulty
  // one is walked here, for the message.
  const s = scannedStructure;
  const scanned = s && s.rows === rows && s.cols === cols && s.rowPtr === rowPtr && s.colIdx === colIdx ? s.verdict : undefined;
  const verdict = scanned ?? (nnz >= NATIVE_CHECK_FROM ? nativeCsrCheck(rows, cols, rowPtr, colIdx) : -1);
  if (verdict >= 0) {
    const sorted = verdict === 1;
    checkValuesAndClaims(fn, init, values, sorted);
    return sorted;
  }
  const first = rowPtr instanceof BigInt64Array ? Number(rowPtr[0]) : rowPtr[0]!;
  if (first !== 0) {
    throw new InvalidArgumentError(`${fn}: rowPtr[0] must be 0, got ${first}`);
  }
  const wide = rowPtr instanceof BigInt64Array;
  let sorted = true;
  let prev = 0;
  for (let r = 0; r < rows; r++) {
    const end = wide ? Number((rowPtr as BigInt64Array)[r + 1]) : (rowPtr as Int32Array)[r + 1]!;
    if (end < prev || end > nnz) {
      throw new InvalidArgumentError(`${fn}: rowPtr must be non-decreasing and at most nnz = ${nnz}; rowPtr[${r + 1}] = ${end} after rowPtr[${r}] = ${prev}`);
    }
    let last = -1;
    for (let p = prev; p < end; p++) {
      const c = colIdx[p]!;
      // Unsigned compare catches negatives and c >= cols in one test.
      if (c >>> 0 >= cols) {
        throw new InvalidArgumentError(`${fn}: colIdx[${p}] = ${c} in row ${r} is outside [0, ${cols})`);
      }
      if (c <= last) sorted = false;
      last = c;
    }
    prev = end;
  }
  if (prev !== nnz) {
    throw new InvalidArgumentError(`${fn}: rowPtr[rows] = ${prev} must equal colIdx.length = ${nnz}`);
  }
  checkValuesAndClaims(fn, init, values, sorted);
  return sorted;
}

function checkValuesAndClaims(fn: string, init: CsrInit, values: ValueArray | undefined, sorted: boolean): void {
  if (values !== undefined) {
    const bad = firstNonFinite(values);
    if (bad >= 0) {
      throw new InvalidArgumentError(`${fn}: values[${bad}] = ${values[bad]} is not finite`);
    }
  }
  if (init.sortedColumns === true && !sorted) {
    throw new InvalidArgumentError(`${fn}: sortedColumns was claimed but some row has unsorted or duplicate columns`);
  }
}

/** Entries from which the native check (native/src/input_scans.cc) is worth its call. */
export const NATIVE_CHECK_FROM = 16_384;

/** The structure check a scan off the JS thread has just made, for the construction that follows it at once. */
let scannedStructure: { rows: number; cols: number; rowPtr: RowPtrArray; colIdx: Int32Array; verdict: number } | undefined;

/** Run `build` with the native structure check's `verdict` on these arrays already known (they must not have changed since). @internal */
export function withScannedStructure<T>(scan: NonNullable<typeof scannedStructure>, build: () => T): T {
  scannedStructure = scan;
  try {
    return build();
  } finally {
    scannedStructure = undefined;
  }
}
let nativeCheck: ((rows: number, cols: number, rowPtr: RowPtrArray, colIdx: Int32Array) => number) | null | undefined;

/** 1 sorted, 0 unsorted, -1 faulty or no addon (the walk in validateCsr decides then). */
function nativeCsrCheck(rows: number, cols: number, rowPtr: RowPtrArray, colIdx: Int32Array): number {
  if (nativeCheck === undefined) {
    const addon = optionalAddon();
    nativeCheck = addon ? addon.csrCheck.bind(addon) : null;
  }
  return nativeCheck ? nativeCheck(rows, cols, rowPtr, colIdx) : -1;
}

/** Choose the narrowest row-pointer type that can hold `nnz`. */
export function allocRowPtr(rows: number, nnz: number): RowPtrArray {
  return nnz > MAX_INDEX ? new BigInt64Array(rows + 1) : new Int32Array(rows + 1);
}
