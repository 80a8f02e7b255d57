// Edge softmax over rows of a sparse matrix: each row's stored values replaced by their softmax
// (exp(v - max) / sum), so a vertex's attention over its in-edges sums to one. Plain TypeScript;
// sums in double precision, rounded once into the matrix's precision.

import { allocRowPtr, CsrMatrix, type ValueArray } from '../../data/csr.js';
import type { RowRange } from '../../devices/device.js';
import { describe, InvalidArgumentError } from '../../errors.js';

/**
 * Rows `[begin, end)` of the edge softmax of `scores`: the `(end - begin) x cols` CsrMatrix with
 * their structure and row pointers rebased to 0 (an empty row stays empty). A pattern matrix (no
 * values) scores every edge alike: each row becomes uniform.
 * @throws {InvalidArgumentError} when `scores` is not a CsrMatrix or `range` is not within its rows.
 * @example
 * const attention = edgeSoftmax(sddmm(graph, h, h));
 */
export function edgeSoftmax(scores: CsrMatrix, range: RowRange = [0, scores?.rows ?? 0]): CsrMatrix {
  const fn = 'edgeSoftmax';
  if (!(scores instanceof CsrMatrix)) throw new InvalidArgumentError(`${fn}: scores must be a CsrMatrix, got ${describe(scores)}`);
  const [begin, end] = range;
  if (!Number.isInteger(begin) || !Number.isInteger(end) || begin < 0 || end < begin || end > scores.rows) {
    throw new InvalidArgumentError(`${fn}: range must be within [0, ${scores.rows}], got [${begin}, ${end}]`);
  }
  const first = scores.rowStart(begin);
  const nnz = scores.rowStart(end) - first;
  const rows = end - begin;
  const rowPtr = allocRowPtr(rows, nnz);
  const colIdx = scores.colIdx.slice(first, first + nnz);
  const input = scores.values;
  const values: ValueArray = input instanceof Float64Array ? new Float64Array(nnz) : new Float32Array(nnz);
  const exps = new Float64Array(nnz);
  for (let r = 0; r < rows; r++) {
    const lo = scores.rowStart(begin + r) - first;
    const hi = scores.rowStart(begin + r + 1) - first;
    let max = -Infinity;
    for (let p = lo; p < hi; p++) max = Math.max(max, input ? input[first + p]! : 0);
    let sum = 0;
    for (let p = lo; p < hi; p++) sum += exps[p] = Math.exp((input ? input[first + p]! : 0) - max);
    for (let p = lo; p < hi; p++) values[p] = exps[p]! / sum;
    if (rowPtr instanceof Int32Array) rowPtr[r + 1] = hi;
    else rowPtr[r + 1] = BigInt(hi);
  }
  return CsrMatrix.trusted({ rows, cols: scores.cols, rowPtr, colIdx, values, sortedColumns: scores.sortedColumns });
}
