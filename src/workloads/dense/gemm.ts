// The reference GEMM: a plain TypeScript loop over a range of output rows, accumulating in double
// precision. The CPU device runs the native kernel (src/kernels/dense.ts); this is what it is
// checked against, and what simulated devices compute their true results with.

import type { DenseArray, DenseMatrix } from '../../data/dense.js';
import type { RowRange } from '../../devices/device.js';
import { allocDense, checkGemm, wrap } from '../../kernels/dense-checks.js';

/**
 * Dense matrix product `x[begin:end, :] * w` in i-k-j order: one row of `x` streams against the
 * rows of `w`, accumulating in a double-precision row buffer that is rounded once per output row.
 * Each output element sums its `f` products in order k = 0, 1, ..., so the result equals a naive
 * triple loop accumulating in double precision, bit for bit.
 *
 * @throws {InvalidArgumentError} when `x` or `w` is not a DenseMatrix, their precisions differ,
 *   `x.cols !== w.rows` (the message gives both shapes), or `range` is not within `[0, x.rows]`.
 * @example
 * const h = gemm(features, weights);            // n x f times f x h -> n x h
 * const part = gemm(features, weights, [0, 1024]); // rows 0..1023 only
 */
export function gemm(x: DenseMatrix, w: DenseMatrix, range?: RowRange): DenseMatrix {
  const fn = 'gemm';
  const [begin, end] = checkGemm(fn, x, w, range);
  const f = x.cols;
  const h = w.cols;
  const out = allocDense(fn, end - begin, h, x.precision);
  // The loop below only ever sees Float64Arrays: V8 keeps one type feedback per function, and a
  // loop that has met both Float32Array and Float64Array runs about 1.5x slower. So f32 x is
  // widened a block of rows at a time into a small scratch (exact: every f32 is an f64), f32 w
  // once; only the final store, a typed-array set, rounds to the output precision.
  const wd = w.data instanceof Float64Array ? w.data : Float64Array.from(w.data);
  const a0 = new Float64Array(h);
  const a1 = new Float64Array(h);
  const xd = x.data;
  if (xd instanceof Float64Array) {
    gemmRows(xd, begin, end - begin, f, wd, h, a0, a1, out, 0);
  } else {
    const block = Math.max(2, Math.min(GEMM_BLOCK_ROWS, end - begin));
    const scratch = new Float64Array(block * f);
    for (let r = begin; r < end; r += block) {
      const rows = Math.min(block, end - r);
      scratch.set(xd.subarray(r * f, (r + rows) * f));
      gemmRows(scratch, 0, rows, f, wd, h, a0, a1, out, r - begin);
    }
  }
  return wrap(end - begin, h, out);
}

/** Rows of f32 x widened per block in gemm: 64 rows of 64 features is a 32 KiB scratch. */
const GEMM_BLOCK_ROWS = 64;

/**
 * `out[outFirst + i, :] = xd[first + i, :] * wd` for i in [0, count), `xd` f wide and `wd` f x h,
 * both row-major. Two rows of x share each load of w, and four rows of w are applied per pass
 * over the accumulators; each sum is still built in order k = 0, 1, ..., so no bit changes.
 */
function gemmRows(
  xd: Float64Array,
  first: number,
  count: number,
  f: number,
  wd: Float64Array,
  h: number,
  a0: Float64Array,
  a1: Float64Array,
  out: DenseArray,
  outFirst: number,
): void {
  const f4 = f - (f % 4);
  let i = 0;
  for (; i + 2 <= count; i += 2) {
    a0.fill(0);
    a1.fill(0);
    const r0 = (first + i) * f;
    const r1 = r0 + f;
    for (let k = 0; k < f4; k += 4) {
      const p0 = xd[r0 + k]!;
      const p1 = xd[r0 + k + 1]!;
      const p2 = xd[r0 + k + 2]!;
      const p3 = xd[r0 + k + 3]!;
      const q0 = xd[r1 + k]!;
      const q1 = xd[r1 + k + 1]!;
      const q2 = xd[r1 + k + 2]!;
      const q3 = xd[r1 + k + 3]!;
      const w0 = k * h;
      const w1 = w0 + h;
      const w2 = w1 + h;
      const w3 = w2 + h;
      for (let j = 0; j < h; j++) {
        const b0 = wd[w0 + j]!;
        const b1 = wd[w1 + j]!;
        const b2 = wd[w2 + j]!;
        const b3 = wd[w3 + j]!;
        a0[j] = a0[j]! + p0 * b0 + p1 * b1 + p2 * b2 + p3 * b3;
        a1[j] = a1[j]! + q0 * b0 + q1 * b1 + q2 * b2 + q3 * b3;
      }
    }
    for (let k = f4; k < f; k++) {
      const p = xd[r0 + k]!;
      const q = xd[r1 + k]!;
      const w0 = k * h;
      for (let j = 0; j < h; j++) {
        const b = wd[w0 + j]!;
        a0[j]! += p * b;
        a1[j]! += q * b;
      }
    }
    out.set(a0, (outFirst + i) * h);
    out.set(a1, (outFirst + i + 1) * h);
  }
  if (i < count) {
    a0.fill(0);
    const r0 = (first + i) * f;
    for (let k = 0; k < f; k++) {
      const p = xd[r0 + k]!;
      const w0 = k * h;
      for (let j = 0; j < h; j++) a0[j]! += p * wd[w0 + j]!;
    }
    out.set(a0, (outFirst + i) * h);
  }
}
