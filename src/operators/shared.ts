// Small helpers the operator records share: element sizes, shape text, the bytes of a CSR.

import type { CsrMatrix } from '../data/csr.js';
import { DenseMatrix, type Precision } from '../data/dense.js';
import type { BoundValue } from '../workloads/bind.js';

/** Bytes of one element at precision `p`. */
export const elementBytes = (p: Precision): number => (p === 'f32' ? 4 : 8);

/** `X is r x c`, for shape errors. */
export const dims = (name: string, x: { rows: number; cols: number }): string => `${name} is ${x.rows} x ${x.cols}`;

/** `X is r x c` of a bound value. */
export const boundDims = (x: BoundValue): string => dims(x.name, x);

/** Bytes of a CSR matrix's row pointers, column indices and values at precision `p`. */
export function bytesOfSparse(a: CsrMatrix, p: Precision): number {
  return (a.rows + 1) * (a.rowPtr instanceof BigInt64Array ? 8 : 4) + a.nnz * (4 + elementBytes(p));
}

/** A dense matrix from double-precision results, rounded once to `p`. */
export function toDense(rows: number, cols: number, y: Float64Array, p: Precision): DenseMatrix {
  return new DenseMatrix(rows, cols, p === 'f32' ? Float32Array.from(y) : y);
}

/** Rows of the dense calibration inputs: 2^12 to 2^18 (2^12, 2^15, 2^17 when quick), past the last-level cache at the top. */
export function calibrationRows(quick: boolean): number[] {
  return quick ? [1 << 12, 1 << 15, 1 << 17] : [1 << 12, 1 << 13, 1 << 14, 1 << 15, 1 << 16, 1 << 17, 1 << 18];
}

/**
 * Operand lists for `dype calibrate` of a dense kind: for each size and both precisions, the
 * operands `make(rows, precision, seed)` gives (features of a fixed seed: timing does not depend on values).
 */
export function denseCalibration(
  quick: boolean,
  make: (rows: number, p: Precision, seed: number) => (CsrMatrix | DenseMatrix)[],
): (CsrMatrix | DenseMatrix)[][] {
  return (['f32', 'f64'] as const).flatMap((p) => calibrationRows(quick).map((rows, k) => make(rows, p, k + 1)));
}
