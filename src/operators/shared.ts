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
