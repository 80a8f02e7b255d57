// The reference SDDMM over a range of rows, in TypeScript (dot products summed in order in double
// precision); the native kernel is checked against it.

import { allocRowPtr, CsrMatrix, type ValueArray } from '../../data/csr.js';
import type { DenseMatrix } from '../../data/dense.js';
import type { RowRange } from '../../devices/device.js';
import { InvalidArgumentError } from '../../errors.js';
import { checkSddmm } from '../../kernels/dense-checks.js';

/**
 * Sampled dense-dense product: for each stored entry (i, j) of `a` in rows `[begin, end)`, the
 * value `dot(u[i, :], v[j, :]) * a(i, j)` (times 1 for a pattern matrix). The result is the
 * `(end - begin) x a.cols` CsrMatrix of those rows, with `a`'s structure (duplicates and column
 * order kept), row pointers rebased to 0, and values in the precision of `u` and `v`.
 *
 * @throws {InvalidArgumentError} when `a` is not a CsrMatrix, `u` or `v` is not a DenseMatrix,
 *   the precisions of `u`, `v` and `a`'s values differ, `u` does not have `a.rows` rows, `v`
 *   does not have `a.cols` rows or their widths differ (the message gives all three shapes),
 *   `range` is not within `[0, a.rows]`, or a value overflows the precision.
 * @example
 * const scores = sddmm(adjacency, q, k); // attention logits on the edges of a graph
 */
export function sddmm(a: CsrMatrix, u: DenseMatrix, v: DenseMatrix, range?: RowRange): CsrMatrix {
  const fn = 'sddmm';
  const [begin, end] = checkSddmm(fn, a, u, v, range);
  const precision = u.precision;
  const aValues = a.values;
  const k = u.cols;
  const first = a.rowStart(begin);
  const nnz = a.rowStart(end) - first;
  const rows = end - begin;
  const rowPtr = allocRowPtr(rows, nnz);
  const colIdx = a.colIdx.slice(first, first + nnz);
  const values: ValueArray = precision === 'f32' ? new Float32Array(nnz) : new Float64Array(nnz);
  const ud = u.data;
  const vd = v.data;
  let sorted = true;
  let p = 0;
  for (let r = 0; r < rows; r++) {
    const rowEnd = a.rowStart(begin + r + 1) - first;
    const uRow = (begin + r) * k;
    let last = -1;
    for (; p < rowEnd; p++) {
      const c = colIdx[p]!;
      if (c <= last) sorted = false;
      last = c;
      const vRow = c * k;
      let dot = 0;
      for (let t = 0; t < k; t++) dot += ud[uRow + t]! * vd[vRow + t]!;
      values[p] = aValues === undefined ? dot : dot * aValues[first + p]!;
      const stored = values[p]!;
      // An f32 result can overflow; a CsrMatrix must hold finite values.
      if (stored - stored !== 0) {
        throw new InvalidArgumentError(`${fn}: entry (${begin + r}, ${c}) = ${stored} is not finite in ${precision}; u and v are too large for it`);
      }
    }
    if (rowPtr instanceof Int32Array) rowPtr[r + 1] = rowEnd;
    else rowPtr[r + 1] = BigInt(rowEnd);
  }
  return CsrMatrix.trusted({ rows, cols: a.cols, rowPtr, colIdx, values, sortedColumns: sorted });
}
