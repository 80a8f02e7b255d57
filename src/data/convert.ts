// Structural conversions between CSR matrices: transpose, symmetrize (A + A^T), self-loop
// removal and CSR -> COO. Counting sorts over flat typed arrays, O(rows + cols + nnz) each.

import { describe, InvalidArgumentError } from '../errors.js';
import { checkMemory } from '../limits.js';
import { checkEnum, checkOptions, MAX_INDEX } from '../validate.js';
import type { CooInit, DuplicatePolicy } from './coo.js';
import { allocRowPtr, CsrMatrix, type RowPtrArray, type ValueArray } from './csr.js';

/** Row pointers as plain numbers: Int32Array while nnz fits, Float64Array (exact to 2^53) beyond. */
export type NumericRowPtr = Int32Array | Float64Array;

/**
 * Flat CSR arrays without validation, the currency of the kernels below and of the
 * generators that build CSR directly.
 * @internal
 */
export interface CsrArrays {
  readonly rowPtr: NumericRowPtr;
  readonly colIdx: Int32Array;
  readonly values: ValueArray | undefined;
}

function checkCsr(fn: string, a: unknown): asserts a is CsrMatrix {
  if (!(a instanceof CsrMatrix)) {
    throw new InvalidArgumentError(`${fn}: expected a CsrMatrix, got ${describe(a)}`);
  }
}

/** A's row pointers as numbers, without copying when they are already 32-bit. */
function numericRowPtr(rowPtr: RowPtrArray): NumericRowPtr {
  return rowPtr instanceof Int32Array ? rowPtr : Float64Array.from(rowPtr, Number);
}

/** Row pointers for `n` rows, 32-bit when `nnz` allows it. */
function allocNumericPtr(n: number, nnz: number): NumericRowPtr {
  return nnz > MAX_INDEX ? new Float64Array(n + 1) : new Int32Array(n + 1);
}

/**
 * Convert numeric row pointers to the public form (BigInt64Array only when nnz needs it).
 * @internal
 */
export function toRowPtr(ptr: NumericRowPtr, nnz: number): RowPtrArray {
  if (ptr instanceof Int32Array) return ptr;
  const out = allocRowPtr(ptr.length - 1, nnz);
  if (out instanceof Int32Array) out.set(ptr);
  else for (let i = 0; i < ptr.length; i++) out[i] = BigInt(ptr[i]!);
  return out;
}

function sameKind(values: ValueArray, n: number): ValueArray {
  return values instanceof Float32Array ? new Float32Array(n) : new Float64Array(n);
}

/**
 * Transpose flat CSR arrays by a counting sort on the column index. The output's columns are
 * sorted in every row, and entries that share a (row, column) keep their relative order.
 * @internal
 */
export function transposeArrays(rows: number, cols: number, rowPtr: NumericRowPtr, colIdx: Int32Array, values: ValueArray | undefined): CsrArrays {
  const nnz = colIdx.length;
  const ptr = allocNumericPtr(cols, nnz);
  for (let p = 0; p < nnz; p++) ptr[colIdx[p]! + 1]!++;
  for (let c = 0; c < cols; c++) ptr[c + 1]! += ptr[c]!;
  const cursor = ptr.slice(0, cols);
  const outCols = new Int32Array(nnz);
  let end = rowPtr[0]!;
  if (values === undefined) {
    for (let r = 0; r < rows; r++) {
      const start = end;
      end = rowPtr[r + 1]!;
      for (let p = start; p < end; p++) outCols[cursor[colIdx[p]!]!++] = r;
    }
    return { rowPtr: ptr, colIdx: outCols, values: undefined };
  }
  const outVals = sameKind(values, nnz);
  for (let r = 0; r < rows; r++) {
    const start = end;
    end = rowPtr[r + 1]!;
    for (let p = start; p < end; p++) {
      const q = cursor[colIdx[p]!]!++;
      outCols[q] = r;
      outVals[q] = values[p]!;
    }
  }
  return { rowPtr: ptr, colIdx: outCols, values: outVals };
}

/**
 * The transpose A^T, built by a counting sort in O(rows + cols + nnz). The result's columns are
 * sorted in every row; values keep their precision; row pointers stay 64-bit only when nnz
 * needs it. Duplicate entries of A stay duplicates (adjacent, in their original order).
 *
 * @throws {InvalidArgumentError} when `a` is not a CsrMatrix.
 * @example
 * const a = new CsrMatrix({ rows: 2, cols: 3, rowPtr: Int32Array.of(0, 2, 3),
 *   colIdx: Int32Array.of(0, 2, 1) });
 * const t = transpose(a); // 3x2: rows [0], [1], [0]
 */
export function transpose(a: CsrMatrix): CsrMatrix {
  checkCsr('transpose', a);
  // The result has a row per column of `a` (its row pointers and a cursor each), which a wide
  // matrix with few entries does not pay for: priced before allocating.
  checkMemory('transpose', `the transpose of ${a}`, (a.cols + 1) * 16 + a.nnz * (4 + (a.values instanceof Float32Array ? 4 : a.values ? 8 : 0)));
  const t = transposeArrays(a.rows, a.cols, numericRowPtr(a.rowPtr), a.colIdx, a.values);
  return new CsrMatrix({
    rows: a.cols,
    cols: a.rows,
    rowPtr: toRowPtr(t.rowPtr, a.nnz),
    colIdx: t.colIdx,
    values: t.values,
    symmetric: a.symmetric,
  });
}

/** How symmetrize combines the values of a(i, j) and a(j, i) (and duplicates within A). */
export type SymmetrizePolicy = Exclude<DuplicatePolicy, 'error'>;
const SYMMETRIZE_POLICIES: readonly SymmetrizePolicy[] = ['max', 'sum', 'min', 'first', 'last'];

export interface SymmetrizeOptions {
  /**
   * How values at the same position are combined: `a(i, j)` and `a(j, i)` (and duplicates
   * stored in A). `'max'` keeps the larger weight, so symmetrizing a symmetric matrix returns
   * the same values (the diagonal included); `'sum'` gives A + A^T exactly, which doubles the
   * diagonal; `'first'` prefers A's own entry, `'last'` the mirrored one. Ignored for pattern
   * matrices.
   * @default 'max'
   */
  readonly duplicates?: SymmetrizePolicy;
}

const SYMMETRIZE_KEYS = ['duplicates'] as const;

/**
 * The structure of A + A^T for a square A (an undirected graph from a directed one): entry
 * (i, j) is stored when A stores (i, j) or (j, i), once, with columns sorted. Values are
 * combined by `options.duplicates`. Diagonal entries are kept (see {@link dropSelfLoops}). The
 * result has `symmetric: true`.
 *
 * @throws {InvalidArgumentError} when `a` is not a square CsrMatrix, or on an unknown option or
 *   policy.
 * @example
 * const a = new CsrMatrix({ rows: 2, cols: 2, rowPtr: Int32Array.of(0, 1, 1),
 *   colIdx: Int32Array.of(1), values: Float64Array.of(5) });
 * symmetrize(a); // (0, 1) = 5 and (1, 0) = 5, symmetric: true
 */
export function symmetrize(a: CsrMatrix, options?: SymmetrizeOptions): CsrMatrix {
  const fn = 'symmetrize';
  checkCsr(fn, a);
  const opts = checkOptions(fn, options, SYMMETRIZE_KEYS);
  const policy = opts.duplicates === undefined ? 'max' : checkEnum(fn, 'duplicates', opts.duplicates, SYMMETRIZE_POLICIES);
  if (a.rows !== a.cols) {
    throw new InvalidArgumentError(`${fn}: A must be square, got ${a.rows}x${a.cols}`);
  }
  const n = a.rows;
  const aPtr = numericRowPtr(a.rowPtr);
  const t = transposeArrays(n, n, aPtr, a.colIdx, a.values);
  // Merging needs A's rows sorted too; transposing twice sorts them stably.
  const s: CsrArrays = a.sortedColumns ? { rowPtr: aPtr, colIdx: a.colIdx, values: a.values } : transposeArrays(n, n, t.rowPtr, t.colIdx, t.values);

  // Pass 1: count the distinct columns of each merged row.
  const sCols = s.colIdx;
  const tCols = t.colIdx;
  let total = 0;
  const counts = new Float64Array(n + 1);
  for (let i = 0; i < n; i++) {
    let p = s.rowPtr[i]!;
    const pe = s.rowPtr[i + 1]!;
    let q = t.rowPtr[i]!;
    const qe = t.rowPtr[i + 1]!;
    let last = -1;
    let count = 0;
    while (p < pe || q < qe) {
      const cs = p < pe ? sCols[p]! : MAX_INDEX;
      const ct = q < qe ? tCols[q]! : MAX_INDEX;
      let c: number;
      if (cs <= ct) {
        c = cs;
        p++;
      } else {
        c = ct;
        q++;
      }
      if (c !== last) {
        count++;
        last = c;
      }
    }
    total += count;
    counts[i + 1] = total;
  }

  // Pass 2: merge, combining equal columns in order (A's entries before the mirrored ones).
  const ptr = allocNumericPtr(n, total);
  ptr.set(counts);
  const outCols = new Int32Array(total);
  const sVals = s.values;
  const tVals = t.values;
  const outVals = sVals === undefined ? undefined : sameKind(sVals, total);
  let w = 0;
  for (let i = 0; i < n; i++) {
    let p = s.rowPtr[i]!;
    const pe = s.rowPtr[i + 1]!;
    let q = t.rowPtr[i]!;
    const qe = t.rowPtr[i + 1]!;
    while (p < pe || q < qe) {
      const cs = p < pe ? sCols[p]! : MAX_INDEX;
      const ct = q < qe ? tCols[q]! : MAX_INDEX;
      const c = cs <= ct ? cs : ct;
      outCols[w] = c;
      if (outVals === undefined) {
        while (p < pe && sCols[p] === c) p++;
        while (q < qe && tCols[q] === c) q++;
      } else {
        let have = false;
        let v = 0;
        while (p < pe && sCols[p] === c) {
          v = have ? combine(policy, v, sVals![p]!) : sVals![p]!;
          have = true;
          p++;
        }
        while (q < qe && tCols[q] === c) {
          v = have ? combine(policy, v, tVals![q]!) : tVals![q]!;
          have = true;
          q++;
        }
        outVals[w] = v;
      }
      w++;
    }
  }
  return new CsrMatrix({ rows: n, cols: n, rowPtr: toRowPtr(ptr, total), colIdx: outCols, values: outVals, symmetric: true });
}

function combine(policy: SymmetrizePolicy, kept: number, next: number): number {
  switch (policy) {
    case 'max':
      return kept >= next ? kept : next;
    case 'sum':
      return kept + next;
    case 'min':
      return kept <= next ? kept : next;
    case 'first':
      return kept;
    default:
      return next; // 'last'
  }
}

/**
 * A without its diagonal entries (the self-loops of a graph); every other entry, the values'
 * precision and the `symmetric` flag are kept. Returns `a` itself when it stores no diagonal
 * entry (CSR arrays are shared, never copied, throughout dype).
 *
 * @throws {InvalidArgumentError} when `a` is not a CsrMatrix.
 * @example
 * const a = new CsrMatrix({ rows: 2, cols: 2, rowPtr: Int32Array.of(0, 2, 3),
 *   colIdx: Int32Array.of(0, 1, 0) });
 * dropSelfLoops(a).nnz; // 2
 */
export function dropSelfLoops(a: CsrMatrix): CsrMatrix {
  checkCsr('dropSelfLoops', a);
  const n = a.rows;
  const ptr = numericRowPtr(a.rowPtr);
  const cols = a.colIdx;
  let loops = 0;
  for (let i = 0; i < n; i++) {
    const end = ptr[i + 1]!;
    for (let p = ptr[i]!; p < end; p++) if (cols[p] === i) loops++;
  }
  if (loops === 0) return a;
  const total = cols.length - loops;
  const outPtr = allocNumericPtr(n, total);
  const outCols = new Int32Array(total);
  const vals = a.values;
  const outVals = vals === undefined ? undefined : sameKind(vals, total);
  let w = 0;
  for (let i = 0; i < n; i++) {
    const end = ptr[i + 1]!;
    for (let p = ptr[i]!; p < end; p++) {
      const c = cols[p]!;
      if (c === i) continue;
      outCols[w] = c;
      if (outVals !== undefined) outVals[w] = vals![p]!;
      w++;
    }
    outPtr[i + 1] = w;
  }
  return new CsrMatrix({
    rows: n,
    cols: a.cols,
    rowPtr: toRowPtr(outPtr, total),
    colIdx: outCols,
    values: outVals,
    symmetric: a.symmetric,
  });
}

/**
 * The entries of A as coordinate triplets in row-major order (the order CSR stores them).
 * The arrays are fresh copies, so the result can be edited and passed back to `cooToCsr`.
 *
 * @throws {InvalidArgumentError} when `a` is not a CsrMatrix.
 * @example
 * const coo = toCoo(a); // { rows, cols, rowIdx, colIdx, values }
 * cooToCsr(coo);        // the same matrix again
 */
export function toCoo(a: CsrMatrix): CooInit {
  checkCsr('toCoo', a);
  const ptr = numericRowPtr(a.rowPtr);
  const rowIdx = new Int32Array(a.nnz);
  for (let i = 0; i < a.rows; i++) rowIdx.fill(i, ptr[i]!, ptr[i + 1]!);
  return { rows: a.rows, cols: a.cols, rowIdx, colIdx: a.colIdx.slice(), values: a.values?.slice() };
}
