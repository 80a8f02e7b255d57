// Joining row-range results (dense, and CSR from sddmm) into the matrix they partition: how the
// parts of a split operator become one value again.

import { allocRowPtr, CsrMatrix } from '../../data/csr.js';
import type { DenseMatrix } from '../../data/dense.js';
import type { RowRange } from '../../devices/device.js';
import { describe, InvalidArgumentError } from '../../errors.js';
import { checkCsr, checkDense, csrKind, shape, wrap } from '../../kernels/dense-checks.js';
import { takeOutput } from '../../kernels/output-pool.js';
import { checkRowRange } from '../../kernels/row-range.js';
import { checkInt, MAX_INDEX } from '../../validate.js';

/** One row-range result: rows `[range[0], range[1])` of a larger matrix. */
export interface RowPart<M> {
  readonly range: RowRange;
  readonly matrix: M;
}

/**
 * Validate row-range parts of a `rows`-row matrix (ranges within `[0, rows]`, matrices of the
 * right kind with `end - begin` rows, no overlap, no gap) and return them ordered by first row,
 * empty ranges left out.
 */
function orderParts<M extends { readonly rows: number }>(
  fn: string,
  parts: readonly RowPart<M>[],
  rows: number,
  checkMatrix: (m: unknown, what: string) => asserts m is M,
): { begin: number; matrix: M }[] {
  checkInt(fn, 'rows', rows, 0, MAX_INDEX);
  if (!Array.isArray(parts) || parts.length === 0) {
    throw new InvalidArgumentError(`${fn}: parts must be a non-empty array of { range, matrix }, got ${describe(parts)}`);
  }
  const checked = parts.map((part: unknown, i) => {
    if (part === null || typeof part !== 'object') {
      throw new InvalidArgumentError(`${fn}: parts[${i}] must be { range, matrix }, got ${describe(part)}`);
    }
    const { range, matrix } = part as RowPart<unknown>;
    const [begin, end] = checkRowRange(`${fn}: parts[${i}].range`, range, rows);
    checkMatrix(matrix, `parts[${i}].matrix`);
    if (matrix.rows !== end - begin) {
      throw new InvalidArgumentError(`${fn}: parts[${i}].matrix has ${matrix.rows} rows but its range [${begin}, ${end}) has ${end - begin}`);
    }
    return { begin, end, matrix, i };
  });
  const ordered = checked.filter((p) => p.end > p.begin).sort((x, y) => x.begin - y.begin);
  let cursor = 0;
  let previous = -1;
  for (const { begin, end, i } of ordered) {
    if (begin < cursor) {
      throw new InvalidArgumentError(`${fn}: parts[${i}] rows [${begin}, ${end}) overlap parts[${previous}], which ends at row ${cursor}`);
    }
    if (begin > cursor) throw new InvalidArgumentError(`${fn}: no part covers rows [${cursor}, ${begin})`);
    cursor = end;
    previous = i;
  }
  if (cursor !== rows) throw new InvalidArgumentError(`${fn}: no part covers rows [${cursor}, ${rows})`);
  return ordered;
}

/**
 * Join dense row-range results into the `rows x cols` matrix they partition. Parts may come in
 * any order; empty ranges are allowed. Each part's matrix must have `end - begin` rows and the
 * cols and precision of the others.
 *
 * @throws {InvalidArgumentError} when `parts` is empty, a range is not within `[0, rows]`, two
 *   ranges overlap, a row is left uncovered, or a part's matrix is not a DenseMatrix of the
 *   right shape and precision.
 * @example
 * concatRows([{ range: [0, 2], matrix: top }, { range: [2, 5], matrix: bottom }], 5);
 */
export function concatRows(parts: readonly RowPart<DenseMatrix>[], rows: number): DenseMatrix {
  const fn = 'concatRows';
  const ordered = orderParts(fn, parts, rows, (m, what) => checkDense(fn, what, m));
  const first = parts[0]!.matrix;
  const { cols, precision } = first;
  parts.forEach(({ matrix }, i) => {
    if (matrix.cols !== cols || matrix.precision !== precision) {
      throw new InvalidArgumentError(`${fn}: parts[${i}].matrix is ${shape(matrix)} ${matrix.precision} but parts[0].matrix has ${cols} ${precision} columns`);
    }
  });
  // Every row is covered (orderParts checks), so a recycled buffer will do.
  const out = takeOutput(fn, rows, cols, precision);
  for (const { begin, matrix } of ordered) out.set(matrix.data, begin * cols);
  return wrap(rows, cols, out);
}

/**
 * Join CSR row-range results (from {@link sddmm}) into the `rows x cols` matrix they partition:
 * row pointers shifted, columns and values copied. Parts may come in any order; all must share
 * cols and be all pattern or all of one precision.
 *
 * @throws {InvalidArgumentError} as {@link concatRows}, for CsrMatrix parts.
 * @example
 * concatCsrRows([{ range: [0, 2], matrix: sddmm(a, u, v, [0, 2]) },
 *   { range: [2, a.rows], matrix: sddmm(a, u, v, [2, a.rows]) }], a.rows);
 */
export function concatCsrRows(parts: readonly RowPart<CsrMatrix>[], rows: number): CsrMatrix {
  const fn = 'concatCsrRows';
  const ordered = orderParts(fn, parts, rows, (m, what) => checkCsr(fn, what, m));
  const first = parts[0]!.matrix;
  const kind = csrKind(first);
  parts.forEach(({ matrix }, i) => {
    if (matrix.cols !== first.cols || csrKind(matrix) !== kind) {
      throw new InvalidArgumentError(`${fn}: parts[${i}].matrix is ${shape(matrix)} ${csrKind(matrix)} but parts[0].matrix has ${first.cols} ${kind} columns`);
    }
  });
  let nnz = 0;
  for (const { matrix } of ordered) nnz += matrix.nnz;
  const rowPtr = allocRowPtr(rows, nnz);
  const colIdx = new Int32Array(nnz);
  const values = kind === 'pattern' ? undefined : kind === 'f32' ? new Float32Array(nnz) : new Float64Array(nnz);
  let base = 0;
  let sorted = true;
  for (const { begin, matrix } of ordered) {
    colIdx.set(matrix.colIdx, base);
    if (values !== undefined) values.set(matrix.values!, base);
    for (let r = 1; r <= matrix.rows; r++) {
      const end = base + matrix.rowStart(r);
      if (rowPtr instanceof Int32Array) rowPtr[begin + r] = end;
      else rowPtr[begin + r] = BigInt(end);
    }
    base += matrix.nnz;
    sorted &&= matrix.sortedColumns;
  }
  return CsrMatrix.trusted({ rows, cols: first.cols, rowPtr, colIdx, values, sortedColumns: sorted });
}
