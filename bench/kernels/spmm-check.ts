// Checks of the SpMM bench: every side multiplies the same stored values, and every result
// agrees with Eigen's within a rounding bound before anything is timed.

import { CsrMatrix } from '../../src/data/csr.js';
import type { DenseMatrix, Precision } from '../../src/data/dense.js';

/**
 * Pattern matrices get explicit ones so that every side multiplies the same stored values (Eigen
 * has no pattern mode), and values of the other precision are converted for the same reason.
 */
export function withValues(a: CsrMatrix, precision: Precision): CsrMatrix {
  if (!(a.rowPtr instanceof Int32Array)) throw new Error(`${a.toString()}: the Eigen reference needs 32-bit row pointers`);
  const want = precision === 'f32' ? Float32Array : Float64Array;
  if (a.values instanceof want) return a;
  const values = a.values === undefined ? new want(a.nnz).fill(1) : want.from(a.values);
  return new CsrMatrix({ rows: a.rows, cols: a.cols, rowPtr: a.rowPtr, colIdx: a.colIdx, values, symmetric: a.symmetric });
}

/**
 * Two results against a bound on rounding differences: summation order differs between the
 * kernels, and rounding errors of a row of length n grow like sqrt(n) in practice; a factor 8
 * keeps the check quiet for honest reorderings and still catches a missing or doubled entry.
 */
export function verify(what: string, a: CsrMatrix, x: DenseMatrix, k: number, y: ArrayLike<number>, ref: ArrayLike<number>): number {
  const eps = x.precision === 'f32' ? 2 ** -23 : 2 ** -52;
  const rowPtr = a.rowPtr as Int32Array;
  const values = a.values!;
  let xMax = 0;
  for (let i = 0; i < x.data.length; i++) xMax = Math.max(xMax, Math.abs(x.data[i]!));
  let worst = 0;
  for (let r = 0; r < a.rows; r++) {
    const begin = rowPtr[r]!;
    const end = rowPtr[r + 1]!;
    let absSum = 0;
    for (let p = begin; p < end; p++) absSum += Math.abs(values[p]!);
    const tol = 8 * Math.sqrt(Math.max(end - begin, 1)) * eps * absSum * xMax + 1e-30;
    for (let c = 0; c < k; c++) {
      const i = r * k + c;
      const d = Math.abs(y[i]! - ref[i]!);
      if (!(d <= tol)) {
        throw new Error(`${what} disagree at (${r}, ${c}): ${y[i]} vs ${ref[i]} (|diff| ${d} > tolerance ${tol})`);
      }
      worst = Math.max(worst, d / tol);
    }
  }
  return worst;
}
