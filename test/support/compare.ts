// Tolerances for comparing a backend's floating-point result with the TypeScript reference.

import type { CsrMatrix } from '../../src/data/csr.js';
import type { DenseArray } from '../../src/data/dense.js';
import { spmmAbsoluteSums, spmmReference } from '../../src/kernels/reference.js';

/** Unit roundoff of each precision. */
export const EPSILON = { f32: 2 ** -24, f64: 2 ** -53 } as const;

/**
 * Index of the first element of `y` that differs from the double-precision reference by more
 * than the classic summation bound (len + 2) * u * sum|a_ij x_jc|, or -1. The bound holds for
 * any summation order, so it cannot fail on a correct kernel and is tight enough to catch a
 * wrong index or a dropped entry.
 */
export function firstSpmmMismatch(a: CsrMatrix, x: DenseArray, k: number, y: DenseArray, rowBegin = 0, rowEnd = a.rows): number {
  const ref = spmmReference(a, x, k, rowBegin, rowEnd);
  const sums = spmmAbsoluteSums(a, x, k, rowBegin, rowEnd);
  const u = x instanceof Float32Array ? EPSILON.f32 : EPSILON.f64;
  if (y.length !== ref.length) return 0;
  for (let r = rowBegin; r < rowEnd; r++) {
    const scale = (a.rowLength(r) + 2) * u;
    for (let j = 0; j < k; j++) {
      const i = (r - rowBegin) * k + j;
      if (!(Math.abs(y[i]! - ref[i]!) <= scale * sums[i]!)) return i;
    }
  }
  return -1;
}

/** First index where two equal-length arrays differ (-1 when equal); far faster than deep equality. */
export function firstDifference(a: ArrayLike<number>, b: ArrayLike<number>): number {
  if (a.length !== b.length) return Math.min(a.length, b.length);
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return i;
  return -1;
}

/** The library's own measure (src/stats.ts), shared so tests and `dype run --check` read outputs alike. */
export { relativeDeviation } from '../../src/stats.js';
